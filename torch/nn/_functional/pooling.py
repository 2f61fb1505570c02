"""Pooling: max, average, adaptive and fractional max pooling on the THNN/THCUNN kernels (composites for
integer input), LP pooling, and max_unpool."""

from __future__ import annotations

import collections.abc
import math

import torch
from torch._dtypes import scalar_type
from torch.amp.autocast_mode import autocast_policy
from torch.nn._functional._layout import laid_out_like
from torch.nn._functional._utils import _ntuple
from torch.nn._functional.conv import _windows
from torch.nn._functional.padding import _constant_pad

__all__ = [
    "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool1d",
    "adaptive_max_pool2d", "adaptive_max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d", "lp_pool1d",
    "lp_pool2d", "lp_pool3d", "max_pool1d", "max_pool2d", "max_pool3d", "max_unpool1d", "max_unpool2d",
    "max_unpool3d", "max_pool1d_with_indices", "max_pool2d_with_indices", "max_pool3d_with_indices",
    "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d_with_indices", "adaptive_max_pool3d_with_indices",
    "fractional_max_pool2d", "fractional_max_pool3d", "fractional_max_pool2d_with_indices",
    "fractional_max_pool3d_with_indices",
]  # fmt: skip


def _out_size(size, k, s, p, d, ceil_mode):
    """PyTorch's pooling output size (ceil_mode windows must start inside the input or left padding)."""
    eff = d * (k - 1) + 1
    num = size + 2 * p - eff
    out = (num + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


def _pool_arg_error(name, what, n, got):
    """Upstream's message for a pooling argument `what` of `got` ints where `name` (max_pool2d, ...) takes n."""
    if n == 1 and name.startswith("avg"):  # the argument parser's
        return f"{name}() argument '{what}' should contain one int (got {got})"
    if n == 1:
        kinds = {"stride": "None, an int, list of ints, or", "padding": "an int, list of ints, or"}
        kind = kinds.get(what, "an int, list of ints or")
        return f"{name}() {what} must be {kind} tuple of ints of size 1 but got size {got}"
    count = {2: "two", 3: "three"}[n]
    verb = "must be either" if what == "dilation" else "must be" if name == "avg_pool3d" else "must either be"
    omitted = "omitted, " if what == "stride" else ""
    return f"{name}: {what} {verb} {omitted}a single int, or a tuple of {count} ints"


def _pool_arg(value, n, name, what):
    """A pooling argument as n ints: an int or a 1-tuple repeated, an n-tuple as is (upstream's rule)."""
    v = tuple(value) if isinstance(value, collections.abc.Iterable) else (value,)
    if len(v) == 1:
        return v * n
    if len(v) != n:
        raise RuntimeError(_pool_arg_error(name, what, n, len(v)))
    return v


def _pool_args(input, kernel_size, stride, padding, dilation, ceil_mode, n, name):
    """Validates and normalizes pooling arguments; returns (batched input, kernel, stride, padding, dilation,
    output sizes, was batched)."""
    if input.dim() not in (n + 1, n + 2) or any(s == 0 for s in input.shape[1:]):
        raise RuntimeError(f"non-empty {n + 1}D or {n + 2}D (batch mode) tensor expected for input")
    kernel = _pool_arg(kernel_size, n, name, "kernel_size")
    omitted = stride is None or (isinstance(stride, collections.abc.Iterable) and len(tuple(stride)) == 0)
    stride = kernel if omitted else _pool_arg(stride, n, name, "stride")
    padding, dilation = _pool_arg(padding, n, name, "padding"), _pool_arg(dilation, n, name, "dilation")
    for k, p, d in zip(kernel, padding, dilation):
        if p > (d * (k - 1) + 1) // 2:
            raise RuntimeError(
                f"pad should be at most half of effective kernel size, but got pad={p}, kernel_size={k} and "
                f"dilation={d}"
            )
    if any(s <= 0 for s in stride):
        raise RuntimeError("stride should be greater than zero")
    batched = input.dim() == n + 2
    x = input if batched else input.unsqueeze(0)
    spatial = x.shape[2:]
    out = [_out_size(spatial[i], kernel[i], stride[i], padding[i], dilation[i], ceil_mode) for i in range(n)]
    if any(o <= 0 for o in out):
        given = "x".join(str(v) for v in x.shape[1:])
        calc = "x".join(str(v) for v in [x.shape[1]] + out)
        raise RuntimeError(f"Given input size: ({given}). Calculated output size: ({calc}). Output size is too small")
    return x, kernel, stride, padding, dilation, out, batched


def _pad_for(x, kernel, stride, padding, dilation, out, value):
    """Pads the spatial dims by `padding` on the left and enough on the right for every output window."""
    n = len(kernel)
    flat = []
    for i in reversed(range(n)):
        need = (out[i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1
        right = max(need - x.shape[2 + i] - padding[i], 0)
        flat += [padding[i], right]
    return _constant_pad(x, tuple(flat), value) if any(flat) else x


def _crop_windows(x, kernel, stride, dilation, out):
    """The windows of x, restricted to the first `out` positions per dim."""
    w = _windows(x, kernel, stride, dilation)
    n = len(kernel)
    for i in range(n):
        w = w.narrow(2 + i, 0, out[i])
    return w


def _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, n, name):
    x, kernel, stride, padding, dilation, out, batched = _pool_args(
        input, kernel_size, stride, padding, dilation, ceil_mode, n, name
    )
    if x.is_floating_point():  # the THNN/THCUNN kernel (values, flat indices) and its backward
        values, index = torch._max_pool_nd(x, n, list(kernel), list(stride), list(padding), list(dilation), ceil_mode)
        values, index = laid_out_like(values, x, (4, 5)), laid_out_like(index, x, (4, 5))  # channels-last in, out
        if not batched:
            values, index = values.squeeze(0), index.squeeze(0)
        return (values, index) if return_indices else values
    lowest = torch.iinfo(x.dtype).min  # integers: the composite below
    xp = _pad_for(x, kernel, stride, padding, dilation, out, lowest)
    win = _crop_windows(xp, kernel, stride, dilation, out)
    flat = win.reshape(list(win.shape[: 2 + n]) + [-1])
    values, arg = flat.max(-1)
    if not return_indices:
        return values if batched else values.squeeze(0)
    # the flat index into the (unpadded) input's spatial dims of each chosen element
    spatial = x.shape[2:]
    index = torch.zeros_like(arg)
    rem = arg
    ksizes = list(kernel)
    for i in range(n):
        inner = math.prod(ksizes[i + 1 :])
        k_i = rem.div(inner, rounding_mode="floor")
        rem = rem - k_i * inner
        shape = [1] * (2 + n)
        shape[2 + i] = out[i]
        start = (torch.arange(out[i], device=x.device) * stride[i] - padding[i]).reshape(shape)
        coord = start + k_i * dilation[i]
        index = index * spatial[i] + coord
    if not batched:
        values, index = values.squeeze(0), index.squeeze(0)
    return values, index


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """Max over sliding windows of (N, C, L) or (C, L) input (with argmax indices if return_indices)."""
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 1, "max_pool1d")


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """Max over sliding windows of (N, C, H, W) or (C, H, W) input."""
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 2, "max_pool2d")


@autocast_policy(cpu="fp32")
def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """Max over sliding windows of (N, C, D, H, W) or (C, D, H, W) input."""
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 3, "max_pool3d")


def _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, n, name):
    if n == 2 and input.dim() not in (3, 4):
        raise IndexError(
            f"Dimension out of range (expected to be in range of [-{max(input.dim(), 1)}, {max(input.dim(), 1) - 1}], "
            f"but got -3)"
        )
    x, kernel, stride, padding, dilation, out, batched = _pool_args(
        input, kernel_size, stride, padding, 1, ceil_mode, n, name
    )
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    if x.is_floating_point():  # the THNN/THCUNN kernel and its backward
        result = torch._avg_pool_nd(
            x, n, list(kernel), list(stride), list(padding), ceil_mode, count_include_pad, divisor_override
        )
        result = laid_out_like(result, x, ranks=(3, 4))  # channels-last in, out (not 3-D, as upstream's)
        return result if batched else result.squeeze(0)
    if x.dtype != torch.int64:  # upstream's integer kernels: int64 only (sum / count, truncated)
        raise NotImplementedError(
            f"\"{'avg_pool3d_out_frame' if n == 3 else 'avg_pool2d'}\" not implemented for '{scalar_type(x.dtype)}'"
        )
    xp = _pad_for(x, kernel, stride, padding, dilation, out, 0)
    total = _crop_windows(xp, kernel, stride, dilation, out).sum(list(range(-n, 0)))
    if divisor_override is not None:
        result = torch.div(total, divisor_override, rounding_mode="trunc")
    else:
        spatial = x.shape[2:]
        if count_include_pad:  # the window clipped to the padded input (not to ceil_mode's overhang)
            ones = torch.ones([1, 1] + [spatial[i] + 2 * padding[i] for i in range(n)], device=x.device)
            ones = _pad_for(ones, kernel, stride, [0] * n, dilation, out, 0.0)
        else:
            ones = torch.ones([1, 1] + list(spatial), device=x.device)
            ones = _pad_for(ones, kernel, stride, padding, dilation, out, 0.0)
        count = _crop_windows(ones, kernel, stride, dilation, out).sum(list(range(-n, 0)))
        result = torch.div(total, count.to(total.dtype), rounding_mode="trunc")  # C's integer division
    return result if batched else result.squeeze(0)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """Mean over sliding windows of (N, C, L) or (C, L) input."""
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, None, 1, "avg_pool1d")


def avg_pool2d(
    input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None
):
    """Mean over sliding windows of (N, C, H, W) or (C, H, W) input."""
    return _avg_pool(
        input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, 2, "avg_pool2d"
    )


@autocast_policy(cpu="fp32")
def avg_pool3d(
    input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None
):
    """Mean over sliding windows of (N, C, D, H, W) or (C, D, H, W) input."""
    return _avg_pool(
        input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, 3, "avg_pool3d"
    )


def _adaptive_bins(size: int, out: int):
    """PyTorch's adaptive pooling bins: [floor(i * size / out), ceil((i + 1) * size / out))."""
    return [((i * size) // out, -(-((i + 1) * size) // out)) for i in range(out)]


def _adaptive_args(input, output_size, n, name):
    if input.dim() not in (n + 1, n + 2):
        raise RuntimeError(f"{name}(): Expected {n + 1}D or {n + 2}D tensor, but got {list(input.shape)}")
    for i in range(1, input.dim()):
        if input.shape[i] == 0:
            raise RuntimeError(
                f"{name}(): Expected input to have non-zero size for non-batch dimensions, but input has sizes "
                f"{list(input.shape)} with dimension {i} being empty"
            )
    batched = input.dim() == n + 2
    x = input if batched else input.unsqueeze(0)
    out = list(_ntuple(n)(output_size))
    out = [x.shape[2 + i] if o is None else o for i, o in enumerate(out)]
    return x, out, batched


def _adaptive_avg(input, output_size, n, name):
    x, out, batched = _adaptive_args(input, output_size, n, name)
    if x.is_floating_point():  # the THNN/THCUNN adaptive pooling kernel (any bins)
        x = laid_out_like(torch._adaptive_pool_nd(x, n, out, False)[0], x, ranks=(3, 4))
        return x if batched else x.squeeze(0)
    for i in range(n):  # averaging is separable: one spatial dim at a time
        dim = 2 + i
        bins = _adaptive_bins(x.shape[dim], out[i])
        x = torch.stack([x.narrow(dim, a, b - a).mean(dim) for a, b in bins], dim)
    return x if batched else x.squeeze(0)


def adaptive_avg_pool1d(input, output_size):
    """Mean over adaptive bins giving output length `output_size`."""
    return _adaptive_avg(input, output_size, 1, "adaptive_avg_pool1d")


def adaptive_avg_pool2d(input, output_size):
    """Mean over adaptive bins giving spatial output `output_size` (None keeps a dim)."""
    return _adaptive_avg(input, output_size, 2, "adaptive_avg_pool2d")


@autocast_policy(cpu="fp32")
def adaptive_avg_pool3d(input, output_size):
    """Mean over adaptive bins giving spatial output `output_size`."""
    return _adaptive_avg(input, output_size, 3, "adaptive_avg_pool3d")


def _adaptive_max(input, output_size, return_indices, n, name):
    x, out, batched = _adaptive_args(input, output_size, n, name)
    if x.is_floating_point():  # the THNN/THCUNN adaptive pooling kernel (any bins; flat indices)
        v, idx = torch._adaptive_pool_nd(x, n, out, True)
        v, idx = laid_out_like(v, x, ranks=(3, 4)), laid_out_like(idx, x, ranks=(3, 4))
        if not batched:
            v, idx = v.squeeze(0), idx.squeeze(0)
        return (v, idx) if return_indices else v
    spatial = x.shape[2:]
    bins = [_adaptive_bins(spatial[i], out[i]) for i in range(n)]
    values, indices = [], []
    for cell in __import__("itertools").product(*[range(o) for o in out]):
        region = x
        for i, c in enumerate(cell):
            a, b = bins[i][c]
            region = region.narrow(2 + i, a, b - a)
        sizes = region.shape[2:]
        v, arg = region.reshape(x.shape[0], x.shape[1], -1).max(-1)
        values.append(v)
        if return_indices:
            index = torch.zeros_like(arg)
            rem = arg
            for i in range(n):
                inner = math.prod(sizes[i + 1 :])
                k = rem.div(inner, rounding_mode="floor")
                rem = rem - k * inner
                index = index * spatial[i] + (k + bins[i][cell[i]][0])
            indices.append(index)
    shape = [x.shape[0], x.shape[1]] + out
    v = torch.stack(values, -1).reshape(shape)
    if not batched:
        v = v.squeeze(0)
    if not return_indices:
        return v
    idx = torch.stack(indices, -1).reshape(shape)
    return v, idx if batched else idx.squeeze(0)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """Max over adaptive bins giving output length `output_size`."""
    return _adaptive_max(input, output_size, return_indices, 1, "adaptive_max_pool1d")


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """Max over adaptive bins giving spatial output `output_size`."""
    return _adaptive_max(input, output_size, return_indices, 2, "adaptive_max_pool2d")


@autocast_policy(cpu="fp32")
def adaptive_max_pool3d(input, output_size, return_indices=False):
    """Max over adaptive bins giving spatial output `output_size`."""
    return _adaptive_max(input, output_size, return_indices, 3, "adaptive_max_pool3d")


def _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, n):
    kernel = _ntuple(n)(kernel_size)
    pool = {1: avg_pool1d, 2: avg_pool2d, 3: avg_pool3d}[n]
    if stride is not None:
        out = pool(input.pow(norm_type), kernel, stride, 0, ceil_mode)
    else:
        out = pool(input.pow(norm_type), kernel, padding=0, ceil_mode=ceil_mode)
    return (torch.sign(out) * torch.relu(torch.abs(out))).mul(math.prod(kernel)).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """(sum over window of x^p)^(1/p) on (N, C, L) input."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 1)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """(sum over window of x^p)^(1/p) on (N, C, H, W) input."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 2)


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """(sum over window of x^p)^(1/p) on (N, C, D, H, W) input."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 3)


def _max_unpool(input, indices, kernel_size, stride, padding, output_size, n):
    kernel = _ntuple(n)(kernel_size)
    stride = kernel if stride is None else _ntuple(n)(stride)
    padding = _ntuple(n)(padding)
    lead = input.shape[: input.dim() - n]
    if output_size is None:
        out = [(input.shape[input.dim() - n + i] - 1) * stride[i] - 2 * padding[i] + kernel[i] for i in range(n)]
    else:
        out = list(output_size)[-n:]
    flat_in = input.reshape(list(lead) + [-1])
    flat_idx = indices.reshape(list(lead) + [-1])
    result = input.new_zeros(list(lead) + [math.prod(out)]).scatter(-1, flat_idx, flat_in)
    return result.reshape(list(lead) + out)


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Partial inverse of max_pool1d: scatters values back to their indices, zeros elsewhere."""
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 1)


@autocast_policy(cpu="fp32")
def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Partial inverse of max_pool2d."""
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 2)


@autocast_policy(cpu="fp32")
def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Partial inverse of max_pool3d."""
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 3)


def max_pool1d_with_indices(
    input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False
):
    """max_pool1d returning (values, indices)."""
    return max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices=True)


def max_pool2d_with_indices(
    input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False
):
    """max_pool2d returning (values, indices)."""
    return max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices=True)


def max_pool3d_with_indices(
    input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False
):
    """max_pool3d returning (values, indices)."""
    return max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices=True)


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    """adaptive_max_pool1d returning (values, indices)."""
    return adaptive_max_pool1d(input, output_size, return_indices=True)


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    """adaptive_max_pool2d returning (values, indices)."""
    return adaptive_max_pool2d(input, output_size, return_indices=True)


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    """adaptive_max_pool3d returning (values, indices)."""
    return adaptive_max_pool3d(input, output_size, return_indices=True)


def _fractional(input, kernel_size, output_size, output_ratio, _random_samples, n):
    """(output, indices) of fractional max pooling over the last n dims (the kernel draws nothing: the window
    starts come from _random_samples, [N, C, n] in [0, 1), drawn here when not given)."""
    name = f"fractional_max_pool{n}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    if output_size is None:
        ratio = _ntuple(n)(output_ratio)
        if len(ratio) > n:
            raise ValueError(f"{name} requires output_ratio to either be a single Int or tuple of Ints.")
        output_size = [int(input.size(i - n) * ratio[i]) for i in range(n)]
    if _random_samples is None:
        n_batch = 1 if input.dim() == n + 1 else input.size(0)
        _random_samples = torch.rand(n_batch, input.size(-n - 1), n, dtype=input.dtype, device=input.device)
    return torch._fractional_max_pool_nd(
        input, n, list(_ntuple(n)(kernel_size)), list(_ntuple(n)(output_size)), _random_samples
    )


def fractional_max_pool2d_with_indices(
    input, kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None
):
    """(output, indices) of fractional_max_pool2d."""
    return _fractional(input, kernel_size, output_size, output_ratio, _random_samples, 2)


@autocast_policy(cpu="fp32")
def fractional_max_pool2d(
    input, kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None
):
    """2-D fractional max pooling (Graham, 2015) of (N, C, H, W) or (C, H, W) input to output_size (or
    output_ratio of the input's size) by kernel_size windows at pseudo-random starts, one draw per plane."""
    out = _fractional(input, kernel_size, output_size, output_ratio, _random_samples, 2)
    return out if return_indices else out[0]


def fractional_max_pool3d_with_indices(
    input, kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None
):
    """(output, indices) of fractional_max_pool3d."""
    return _fractional(input, kernel_size, output_size, output_ratio, _random_samples, 3)


@autocast_policy(cpu="fp32")
def fractional_max_pool3d(
    input, kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None
):
    """3-D fractional max pooling of (N, C, T, H, W) or (C, T, H, W) input (see fractional_max_pool2d)."""
    out = _fractional(input, kernel_size, output_size, output_ratio, _random_samples, 3)
    return out if return_indices else out[0]
