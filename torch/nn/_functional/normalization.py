"""Normalizations: batch_norm, instance_norm, layer_norm, group_norm, rms_norm, local_response_norm."""

from __future__ import annotations

import math

import torch
from torch._refs.promotion import in_float32
from torch.amp.autocast_mode import autocast_policy
from torch.nn._functional._layout import laid_out_like

__all__ = ["batch_norm", "group_norm", "instance_norm", "layer_norm", "local_response_norm", "rms_norm"]


def _channel_shape(x):
    return [1, x.shape[1]] + [1] * (x.dim() - 2)


def _verify_batch_size(size) -> None:
    """Upstream's check that training statistics see more than one value per channel (the values of a channel:
    size[0] * size[2:], so a size of channels 0 or of one dim passes)."""
    if size[0] * math.prod(size[2:]) == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")


def batch_norm(
    input, running_mean, running_var, weight=None, bias=None, training: bool = False, momentum: float = 0.1,
    eps: float = 1e-5,
):  # fmt: skip
    """Normalizes each channel (dim 1) by its batch statistics in training (updating the running stats in
    place: running = (1 - momentum) * running + momentum * batch, unbiased variance), by the running
    statistics otherwise."""
    if training:
        _verify_batch_size(input.shape)
    if input.numel() == 0:  # upstream's early return: no statistics (the running ones untouched), no size checks
        out = input.clone()
        if weight is not None:
            out = out * weight[0]
        return out + bias[0] if bias is not None else out
    if input.dim() < 2:
        raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")
    c = input.shape[1]
    for name, t in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight), ("bias", bias)):
        if t is not None and t.numel() != c:
            raise RuntimeError(f"{name} should contain {c} elements not {t.numel()}")
    # the THNN/THCUNN kernel: the batch's statistics (returned, for the running update) or the running ones
    use_input_stats = training or running_mean is None or running_var is None
    out, mean, var = torch._batch_norm(input, weight, bias, running_mean, running_var, use_input_stats, eps)
    out = laid_out_like(out, input, ranks=(4, 5))  # channels-last in, out (upstream's)
    if training and running_mean is not None and running_var is not None:
        n = input.numel() // c
        with torch.no_grad():
            # in the statistics' precision (float32 for 16-bit input), rounded once into the running buffers
            running_mean.mul_(1 - momentum).add_(mean * momentum)
            running_var.mul_(1 - momentum).add_(var * (momentum * n / max(n - 1, 1)))
    return out


def instance_norm(
    input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats: bool = True,
    momentum: float = 0.1, eps: float = 1e-5,
):  # fmt: skip
    """Normalizes each (sample, channel) over its spatial dims; running stats average over the batch. As
    upstream, a batch norm (the THNN/THCUNN kernel, one pass with its fused backward) of the input seen as one
    sample of N * C channels, with the affine repeated per sample."""
    if use_input_stats:
        size = input.shape
        if math.prod(size[2:]) == 1:
            raise ValueError(f"Expected more than 1 spatial element when training, got input size {size}")
    n, c = input.shape[0], input.shape[1]
    flat = input.reshape(1, n * c, -1)
    w = weight.repeat(n) if weight is not None else None
    b = bias.repeat(n) if bias is not None else None
    if use_input_stats:
        out, mean, var = torch._batch_norm(flat, w, b, None, None, True, eps)
        if running_mean is not None and running_var is not None:
            count = flat.shape[-1]
            with torch.no_grad():
                running_mean.mul_(1 - momentum).add_(mean.reshape(n, c).mean(0) * momentum)
                running_var.mul_(1 - momentum).add_(var.reshape(n, c).mean(0) * (momentum * count / max(count - 1, 1)))
    else:
        rm, rv = running_mean.repeat(n), running_var.repeat(n)
        out = torch._batch_norm(flat, w, b, rm, rv, False, eps)[0]
    return out.reshape(input.shape)


@autocast_policy(cuda="fp32")
def layer_norm(input, normalized_shape, weight=None, bias=None, eps: float = 1e-5):
    """Normalizes over the last len(normalized_shape) dims, then scales and shifts elementwise: one fused
    kernel (THNN/THCUNN _layer_norm, with PyTorch's shape checks) and its fused backward."""
    normalized_shape = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
    return torch._layer_norm(input, normalized_shape, weight, bias, eps)[0]


def rms_norm(input, normalized_shape, weight=None, eps: float | None = None):
    """input / sqrt(mean(input^2) + eps) over the last dims, times weight."""
    normalized_shape = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
    k = len(normalized_shape)
    if list(input.shape[input.dim() - k :]) != normalized_shape:
        raise RuntimeError(
            f"Given normalized_shape={normalized_shape}, expected input with shape "
            f"[*, {', '.join(map(str, normalized_shape))}], but got input of size{list(input.shape)}"
        )

    def normalized(x):  # x in its compute type: float32 for the 16-bit floats, whose epsilon is the default eps
        e = torch.finfo(x.dtype).eps if eps is None else eps
        return x * torch.rsqrt((x * x).mean(list(range(-k, 0)), keepdim=True) + e)

    # as upstream: cast back to input's dtype before the weight multiplies it
    out = in_float32(normalized, input.dtype, input)
    return out * weight if weight is not None else out


@autocast_policy(cuda="fp32")
def group_norm(input, num_groups: int, weight=None, bias=None, eps: float = 1e-5):
    """Normalizes each group of channels of each sample, then applies a per-channel affine."""
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.dim()}")
    n, c = input.shape[:2]
    if c % num_groups:
        raise RuntimeError(
            "Expected number of channels in input to be divisible by num_groups, but got input of shape "
            f"{list(input.shape)} and num_groups={num_groups}"
        )
    _verify_batch_size([n * c // num_groups, num_groups] + list(input.shape[2:]))  # upstream's check
    # each group's elements are one row of the layer_norm kernel (sized: -1 is ambiguous for an empty batch)
    grouped = input.reshape(n, num_groups, math.prod(input.shape[1:]) // num_groups)
    out = torch._layer_norm(grouped, [grouped.shape[-1]], None, None, eps)[0].reshape(input.shape)
    shape = _channel_shape(input)
    if weight is not None:
        out = out * weight.reshape(shape)
    if bias is not None:
        out = out + bias.reshape(shape)
    return laid_out_like(out, input, ranks=(4, 5))  # channels-last in, out (upstream's)


def local_response_norm(input, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0):
    """input / (k + alpha / size * sum of squares over `size` neighbouring channels)^beta."""
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    sq = (input * input).unsqueeze(1)
    from torch.nn._functional.padding import pad
    from torch.nn._functional.pooling import avg_pool2d, avg_pool3d

    if dim == 3:
        div = pad(sq, (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.shape
        div = sq.reshape(sizes[0], 1, sizes[1], sizes[2], -1)
        div = pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = avg_pool3d(div, (size, 1, 1), stride=1).squeeze(1)
        div = div.reshape(sizes)
    div = (div * alpha + k).pow(beta)
    return input / div
