"""Convolutions: conv1d/2d/3d and conv_transpose1d/2d/3d on the THNN/THCUNN kernels (torch._convolution_nd:
im2col + gemm; torch._convolution_transpose_nd: gemm + col2im), unfold and fold."""

from __future__ import annotations

import math
import warnings

import torch
from torch._dtypes import scalar_type
from torch.amp.autocast_mode import autocast_policy
from torch.nn._functional._layout import laid_out_like
from torch.nn._functional._utils import _ntuple
from torch.nn._functional.padding import _constant_pad

__all__ = ["conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "fold", "unfold"]


def _windows(x, kernel, stride, dilation):
    """The sliding windows of the last len(kernel) dims of x as a strided view:
    x (*lead, *S) -> (*lead, *out, *kernel), out_i = (S_i - d_i (k_i - 1) - 1) // s_i + 1."""
    n = len(kernel)
    x = x.contiguous()
    lead = x.shape[: x.dim() - n]
    spatial = x.shape[x.dim() - n :]
    st = x.stride()
    lead_st, sp_st = st[: x.dim() - n], st[x.dim() - n :]
    out = [(spatial[i] - dilation[i] * (kernel[i] - 1) - 1) // stride[i] + 1 for i in range(n)]
    size = list(lead) + out + list(kernel)
    strides = list(lead_st) + [sp_st[i] * stride[i] for i in range(n)] + [sp_st[i] * dilation[i] for i in range(n)]
    return torch.as_strided(x, size, strides, x.storage_offset())


def _batch(input, n: int, name: str):
    """(input with a batch dim, whether it had one) for an N-d convolution: PyTorch's error for any other rank."""
    if input.dim() not in (n + 1, n + 2):
        raise RuntimeError(
            f"Expected {n + 1}D (unbatched) or {n + 2}D (batched) input to {name}, but got input of size: "
            f"{list(input.shape)}"
        )
    batched = input.dim() == n + 2
    return (input if batched else input.unsqueeze(0)), batched


def _complex_conv(kernel, x, weight, bias, args):
    """A complex convolution from the real kernel: (xr + i xi) * (wr + i wi) = xr*wr - xi*wi + i (xr*wi + xi*wr),
    then the bias over the channel dim (PyTorch computes the same with Gauss's three products)."""
    xr, xi, wr, wi = x.real, x.imag, weight.real, weight.imag
    real = kernel(xr, wr, None, *args) - kernel(xi, wi, None, *args)
    imag = kernel(xr, wi, None, *args) + kernel(xi, wr, None, *args)
    out = torch.complex(real, imag)
    if bias is not None:
        out = out + bias.reshape([1, -1] + [1] * (out.dim() - 2))
    return out


def _integer_conv(x, weight, bias, stride, padding, dilation, groups: int):
    """An integer convolution (upstream computes them on the CPU; no gradient): the windows of the padded input
    (a strided view) against the weight, one integer matrix product per group, wrapping as integer sums do."""
    if weight.dtype != x.dtype:
        raise RuntimeError(f"expected scalar type {scalar_type(x.dtype)} but found {scalar_type(weight.dtype)}")
    if any(d != 1 for d in dilation) and x.dtype != torch.int64:  # upstream's dilated kernel: int64 only
        raise NotImplementedError(f"\"slow_conv_dilated<>\" not implemented for '{scalar_type(x.dtype)}'")
    n = weight.dim() - 2
    if any(padding):
        x = _constant_pad(x, tuple(p for i in reversed(range(n)) for p in (padding[i], padding[i])), 0)
    win = _windows(x, tuple(weight.shape[2:]), stride, dilation)  # (N, C, *out, *k)
    N, out = x.shape[0], list(win.shape[2 : 2 + n])
    cg, og = weight.shape[1], weight.shape[0] // groups
    # (N, G, Cg, *out, *k) -> (G, N * prod(out), Cg * prod(k)) against (G, Cg * prod(k), og)
    win = win.reshape([N, groups, cg] + out + list(weight.shape[2:]))
    order = [1, 0] + [3 + i for i in range(n)] + [2] + [3 + n + i for i in range(n)]
    cols = win.permute(order).reshape(groups, -1, cg * math.prod(weight.shape[2:]))
    w = weight.reshape(groups, og, -1).transpose(1, 2)
    y = torch.bmm(cols, w).reshape([groups, N] + out + [og])  # (G, N, *out, og)
    y = y.permute([1, 0, n + 2] + [2 + i for i in range(n)]).reshape([N, groups * og] + out)
    if bias is not None:
        y = y + bias.to(y.dtype).reshape([1, -1] + [1] * n)
    return y


def _integer_conv_transpose(x, weight, bias, stride, padding, output_padding, dilation, groups: int):
    """An int64 transposed convolution (upstream's CPU has one for int64 only): the input spread out by the
    stride (zeros between), padded by dilation * (k - 1) - padding (plus output_padding on the right; a
    negative pad crops), convolved with the flipped weight whose in/out channels are swapped per group."""
    n = weight.dim() - 2
    if x.dtype != torch.int64:
        raise NotImplementedError(
            f"\"slow_conv_transpose{3 if n == 3 else 2}d_out_cpu\" not implemented for '{scalar_type(x.dtype)}'"
        )
    spread = x.new_zeros(list(x.shape[:2]) + [(x.shape[2 + i] - 1) * stride[i] + 1 for i in range(n)])
    spread[(slice(None), slice(None)) + tuple(slice(None, None, stride[i]) for i in range(n))] = x
    for i in range(n):
        reach = dilation[i] * (weight.shape[2 + i] - 1)
        lo, hi = reach - padding[i], reach - padding[i] + output_padding[i]
        d = 2 + i
        if lo < 0:
            spread = spread.narrow(d, -lo, spread.shape[d] + lo)
        if hi < 0:
            spread = spread.narrow(d, 0, spread.shape[d] + hi)
        pad = [0, 0] * n
        pad[2 * (n - 1 - i)], pad[2 * (n - 1 - i) + 1] = max(lo, 0), max(hi, 0)
        if any(pad):
            spread = _constant_pad(spread, tuple(pad), 0)
    cin, og = weight.shape[0], weight.shape[1]
    w = weight.reshape([groups, cin // groups, og] + list(weight.shape[2:])).transpose(1, 2)
    w = w.flip(list(range(3, 3 + n))).reshape([groups * og, cin // groups] + list(weight.shape[2:]))
    return _integer_conv(spread, w, bias, [1] * n, [0] * n, dilation, groups)


def _conv(input, weight, bias, stride, padding, dilation, groups, n: int, name: str):
    """The N-d convolution (cross-correlation) shared by conv1d/2d/3d, with PyTorch's input checks."""
    x, batched = _batch(input, n, name)
    tup = _ntuple(n)
    stride, dilation = tup(stride), tup(dilation)
    if weight.dim() != n + 2:
        raise RuntimeError(
            f"Expected {n + 2}-dimensional input for {n + 2}-dimensional weight {list(weight.shape)}, but got "
            f"{x.dim()}-dimensional input of size {list(x.shape)} instead"
        )
    kernel = tuple(weight.shape[2:])
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("dilation should be greater than zero")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if isinstance(padding, str):
        if padding == "valid":
            pads = [(0, 0)] * n
        elif padding == "same":
            if any(s != 1 for s in stride):
                raise RuntimeError("padding='same' is not supported for strided convolutions")
            pads = []
            for i in range(n):
                total = dilation[i] * (kernel[i] - 1)
                pads.append((total // 2, total - total // 2))
        else:
            raise RuntimeError(f"Invalid padding string: '{padding}'")
    else:
        padding = tup(padding)
        if any(p < 0 for p in padding):
            raise RuntimeError("negative padding is not supported")
        pads = [(p, p) for p in padding]
    if weight.shape[0] % groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but got weight of "
            f"size [{list(weight.shape)}] instead"
        )
    channels = x.shape[1]
    if channels != weight.shape[1] * groups:
        raise RuntimeError(
            f"Given groups={groups}, weight of size {list(weight.shape)}, expected input{list(x.shape)} to have "
            f"{weight.shape[1] * groups} channels, but got {channels} channels instead"
        )
    padded = [x.shape[2 + i] + pads[i][0] + pads[i][1] for i in range(n)]
    dilated = [dilation[i] * (kernel[i] - 1) + 1 for i in range(n)]
    if any(dilated[i] > padded[i] for i in range(n)):
        raise RuntimeError(
            f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). "
            f"Kernel size: ({' x '.join(map(str, dilated))}). Kernel size can't be greater than actual input size"
        )
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != weight.shape[0]):
        raise RuntimeError(
            f"Given weight of size {list(weight.shape)}, expected bias to be 1-dimensional with {weight.shape[0]} "
            f"elements, but got bias of size {list(bias.shape)} instead"
        )
    unpadded = x
    if all(lo == hi for lo, hi in pads):
        pad_arg = [lo for lo, _ in pads]
    else:  # 'same' with an even effective kernel: the extra zero goes on the right, padded here
        warnings.warn(
            "Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy of the "
            "input be created",
            UserWarning,
            stacklevel=3,
        )
        x = _constant_pad(x, tuple(p for pair in reversed(pads) for p in pair), 0.0)
        pad_arg = [0] * n
    # the THNN/THCUNN convolution kernels (im2col + matmul) and their backward
    args = (list(stride), pad_arg, list(dilation), groups)
    if x.is_complex() and weight.is_complex():
        out = _complex_conv(torch._convolution_nd, x, weight, bias, args)
    elif not (x.is_floating_point() or x.is_complex() or x.dtype == torch.bool):
        out = _integer_conv(x, weight, bias, stride, pad_arg, dilation, groups)
    else:
        out = torch._convolution_nd(x, weight, bias, *args)
    # a channels-last input or weight gives a channels-last output, as upstream's 2-D floating kernels (its 1-D
    # ones follow the weight alone, its 3-D and integer ones return row-major results)
    if out.is_floating_point():
        out = laid_out_like(out, unpadded if n == 2 else weight, ranks=(3, 4), weight=weight)
    else:
        out = out.contiguous()
    return out if batched else out.squeeze(0)


@autocast_policy(cpu="lower_precision_fp", cuda="lower_precision_fp")
def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1D convolution over (N, C_in, L) or (C_in, L) input with weight (C_out, C_in/groups, k)."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


@autocast_policy(cpu="lower_precision_fp", cuda="lower_precision_fp")
def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2D convolution over (N, C_in, H, W) or (C_in, H, W) input with weight (C_out, C_in/groups, kH, kW)."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


@autocast_policy(cpu="lower_precision_fp", cuda="lower_precision_fp")
def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """3D convolution over (N, C_in, D, H, W) or (C_in, D, H, W) input."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 3, "conv3d")


def _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, n: int, name: str):
    """The N-d transposed convolution shared by conv_transpose1d/2d/3d."""
    x, batched = _batch(input, n, name)
    tup = _ntuple(n)
    stride, padding, output_padding, dilation = tup(stride), tup(padding), tup(output_padding), tup(dilation)
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(op >= s and op >= d for op, s, d in zip(output_padding, stride, dilation)):
        raise RuntimeError("output padding must be smaller than either stride or dilation")
    cin = weight.shape[0]
    if x.shape[1] != cin:
        raise RuntimeError(
            f"Given transposed=1, weight of size {list(weight.shape)}, expected input{list(x.shape)} to have "
            f"{cin} channels, but got {x.shape[1]} channels instead"
        )
    if cin % groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but got weight of "
            f"size [{list(weight.shape)}] instead"
        )
    og = weight.shape[1]
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != og * groups):
        raise RuntimeError(
            f"Given transposed=1, weight of size {list(weight.shape)}, expected bias to be 1-dimensional with "
            f"{og * groups} elements, but got bias of size {list(bias.shape)} instead"
        )
    # the THNN/THCUNN kernels: the transpose of the convolution with these options (col2im of weight^T @ input)
    args = (list(stride), list(padding), list(output_padding), list(dilation), groups)
    if x.is_complex() and weight.is_complex():
        out = _complex_conv(torch._convolution_transpose_nd, x, weight, bias, args)
    elif not (x.is_floating_point() or x.is_complex() or x.dtype == torch.bool):
        out = _integer_conv_transpose(x, weight, bias, stride, padding, output_padding, dilation, groups)
    else:
        out = torch._convolution_transpose_nd(x, weight, bias, *args)
    if out.is_floating_point():  # a channels-last input or weight gives a channels-last output (upstream's)
        out = laid_out_like(out, x, ranks=(4, 5), weight=weight)
    return out if batched else out.squeeze(0)


@autocast_policy(cpu="lower_precision_fp", cuda="lower_precision_fp")
def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """1D transposed convolution (weight (C_in, C_out/groups, k))."""
    return _conv_transpose(
        input, weight, bias, stride, padding, output_padding, groups, dilation, 1, "conv_transpose1d"
    )


@autocast_policy(cpu="lower_precision_fp", cuda="lower_precision_fp")
def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """2D transposed convolution (weight (C_in, C_out/groups, kH, kW))."""
    return _conv_transpose(
        input, weight, bias, stride, padding, output_padding, groups, dilation, 2, "conv_transpose2d"
    )


@autocast_policy(cpu="lower_precision_fp", cuda="lower_precision_fp")
def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """3D transposed convolution (weight (C_in, C_out/groups, kD, kH, kW))."""
    return _conv_transpose(
        input, weight, bias, stride, padding, output_padding, groups, dilation, 3, "conv_transpose3d"
    )


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """im2col (the convolution family's kernel): (N, C, H, W) -> (N, C * kH * kW, L) columns of sliding blocks."""
    if input.dim() not in (3, 4):
        raise RuntimeError(f"Input Error: Only 3D or 4D input Tensors are supported (got {input.dim()}D)")
    pair = _ntuple(2)
    args = (pair(kernel_size), pair(dilation), pair(padding), pair(stride))
    if input.is_complex():  # the kernel is real, and linear: the real and imaginary parts apart
        return torch.complex(torch._C._nn.im2col(input.real, *args), torch._C._nn.im2col(input.imag, *args))
    return torch._C._nn.im2col(input, *args)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """col2im (the convolution family's kernel): sums (N, C * kH * kW, L) columns back into (N, C, H, W)
    (overlaps add up)."""
    if input.dim() not in (2, 3):
        raise RuntimeError(
            f"Input Error: Only unbatched (2D) or batched (3D) input Tensors are supported (got {input.dim()}D)"
        )
    pair = _ntuple(2)
    args = (pair(output_size), pair(kernel_size), pair(dilation), pair(padding), pair(stride))
    if input.is_complex():  # the kernel is real, and linear: the real and imaginary parts apart
        return torch.complex(torch._C._nn.col2im(input.real, *args), torch._C._nn.col2im(input.imag, *args))
    return torch._C._nn.col2im(input, *args)
