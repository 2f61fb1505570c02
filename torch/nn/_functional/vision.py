"""Resampling and rearranging of images: interpolate (upsample*), pixel_shuffle/unshuffle, channel_shuffle."""

from __future__ import annotations

import math

import torch
from torch.amp.autocast_mode import autocast_policy
from torch.nn._functional._layout import laid_out_like
from torch.nn._functional._utils import _ntuple

__all__ = [
    "affine_grid", "channel_shuffle", "grid_sample", "interpolate", "pixel_shuffle", "pixel_unshuffle", "upsample",
    "upsample_bilinear", "upsample_nearest",
]  # fmt: skip


def pixel_shuffle(input, upscale_factor: int):
    """(*, C r^2, H, W) -> (*, C, H r, W r)."""
    if input.dim() < 3:
        raise RuntimeError(
            f"pixel_shuffle expects input to have at least 3 dimensions, but got input with {input.dim()} dimension(s)"
        )
    r = upscale_factor
    c, h, w = input.shape[-3:]
    if c % (r * r):
        raise RuntimeError(
            "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, "
            f"but input.size(-3)={c} is not divisible by {r * r}"
        )
    lead = list(input.shape[:-3])
    x = input.reshape(lead + [c // (r * r), r, r, h, w])
    k = len(lead)
    x = x.permute(list(range(k)) + [k, k + 3, k + 1, k + 4, k + 2])
    return x.reshape(lead + [c // (r * r), h * r, w * r])


def pixel_unshuffle(input, downscale_factor: int):
    """(*, C, H r, W r) -> (*, C r^2, H, W)."""
    if input.dim() < 3:
        raise RuntimeError(
            "pixel_unshuffle expects input to have at least 3 dimensions, but got input with "
            f"{input.dim()} dimension(s)"
        )
    r = downscale_factor
    c, h, w = input.shape[-3:]
    if h % r:
        raise RuntimeError(
            f"pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)={h} is not "
            f"divisible by {r}"
        )
    if w % r:
        raise RuntimeError(
            f"pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)={w} is not "
            f"divisible by {r}"
        )
    lead = list(input.shape[:-3])
    k = len(lead)
    x = input.reshape(lead + [c, h // r, r, w // r, r])
    x = x.permute(list(range(k)) + [k, k + 2, k + 4, k + 1, k + 3])
    return x.reshape(lead + [c * r * r, h // r, w // r])


def channel_shuffle(input, groups: int):
    """Interleaves the channels of `groups` groups: (N, g * c, *) -> (N, c * g, *)."""
    n, ch = input.shape[:2]
    rest = list(input.shape[2:])
    return input.reshape([n, groups, ch // groups] + rest).transpose(1, 2).reshape([n, ch] + rest)


_INTERP_MODES = ("linear", "bilinear", "bicubic", "trilinear")


@autocast_policy(cuda="fp32")
def interpolate(
    input, size=None, scale_factor=None, mode: str = "nearest", align_corners=None, recompute_scale_factor=None,
    antialias: bool = False,
):  # fmt: skip
    """Resamples the spatial dims (all but the first two) to `size` or by `scale_factor`: nearest, nearest-exact,
    (bi/tri)linear, bicubic and area; with antialias (4-D input), bilinear, bicubic and lanczos filter over the
    inputs each output covers when downsampling (PyTorch's _upsample_*2d_aa)."""
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError(
                "align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | "
                "trilinear"
            )
    elif align_corners is None:
        align_corners = False
    n = input.dim() - 2
    if n < 1:
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for the modes: nearest | "
            f"linear | bilinear | bicubic | trilinear | area | nearest-exact (got {mode})"
        )
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != n:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got input with spatial "
                    f"dimensions of {list(input.shape[2:])} and output size of {size}. Please provide input tensor "
                    "in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format."
                )
            out = [int(s) for s in size]
        else:
            out = [int(size)] * n
        scales = [None] * n
    elif scale_factor is not None:
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != n:
                raise ValueError(
                    "Input and scale_factor must have the same number of spatial dimensions, but got input with "
                    f"spatial dimensions of {list(input.shape[2:])} and scale_factor of shape {scale_factor}. Please "
                    "provide input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) "
                    "format."
                )
            scales = [float(s) for s in scale_factor]
        else:
            scales = [float(scale_factor)] * n
        out = [int(math.floor(input.shape[2 + i] * scales[i])) for i in range(n)]
        if recompute_scale_factor:
            scales = [None] * n
    else:
        raise ValueError("either size or scale_factor should be defined")
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.dim() == 4):
        raise ValueError(
            "Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a 4-D tensor as input"
        )
    needs = {"linear": 1, "bilinear": 2, "bicubic": 2, "trilinear": 3}
    if mode in needs and needs[mode] != n:
        raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs {needs[mode] + 2}D input")
    if mode == "lanczos" and n == 2:
        if align_corners:
            raise ValueError("Lanczos mode does not support align_corners=True")
        if not antialias:
            raise ValueError("Lanczos mode requires antialias=True")
    elif mode not in ("nearest", "nearest-exact", "area") + _INTERP_MODES:
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for the modes: nearest | "
            "linear | "
            f"bilinear | bicubic | trilinear | area | nearest-exact (got {mode})"
        )
    if mode == "area":
        from torch.nn._functional.pooling import _adaptive_avg

        return _adaptive_avg(input, out, n, f"adaptive_avg_pool{n}d")
    # every mode is separable: the THNN/THCUNN upsample kernel resamples one spatial dim after another (the
    # antialiased ones the last dim first, as upstream's separable kernel)
    kind = {"bicubic": "cubic", "lanczos": "lanczos", "nearest": "nearest", "nearest-exact": "nearest-exact"}.get(
        mode, "linear"
    )
    # uint8 (images: bilinear/bicubic only, as upstream) takes upstream's separable uint8 path: each pass rounded
    separable = antialias or (input.dtype == torch.uint8 and mode in ("bilinear", "bicubic"))
    if input.dtype == torch.uint8 and mode in _INTERP_MODES and not separable:
        raise NotImplementedError(f"\"upsample_{mode}\" not implemented for 'Byte'")
    x = input
    for i in reversed(range(n)) if separable else range(n):
        if separable and out[i] == x.shape[2 + i]:
            continue  # upstream's separable kernel skips a dim whose size stays, whatever the scale
        scale = scales[i] if scales[i] is not None else 0.0
        if mode == "nearest" and n == 2 and out[i] in (x.shape[2 + i], 2 * x.shape[2 + i]):
            scale = 0.0  # upstream's 2-D nearest (nearest_idx) copies or doubles exactly here, whatever the scale
        x = torch._resample_1d(x, 2 + i, out[i], kind, bool(align_corners), scale, bool(antialias))
    if x is input:  # every dim skipped: still a new tensor
        x = input.clone()
    return laid_out_like(x, input, ranks=(4, 5))  # channels-last in, out (upstream's upsample kernels)


def upsample(input, size=None, scale_factor=None, mode: str = "nearest", align_corners=None):
    """Deprecated alias of interpolate."""
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    """Deprecated: interpolate(mode='nearest')."""
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    """Deprecated: interpolate(mode='bilinear', align_corners=True)."""
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


_pair = _ntuple(2)


_GRID_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
_GRID_PADDINGS = {"zeros": 0, "border": 1, "reflection": 2}


@autocast_policy(cpu="fp32", cuda="promote")
def grid_sample(input, grid, mode: str = "bilinear", padding_mode: str = "zeros", align_corners=None):
    """Samples the input at the grid's points on the THNN/THCUNN kernels: 4-D input (N, C, H, W) at a grid
    (N, Ho, Wo, 2) of (x, y), or 5-D input (N, C, D, H, W) at a grid (N, Do, Ho, Wo, 3) of (x, y, z), in
    [-1, 1]; bilinear (trilinear on 5-D), nearest or bicubic (4-D only); zeros / border / reflection outside;
    align_corners as PyTorch's."""
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError(
            f"nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: '{mode}'"
        )
    if padding_mode not in _GRID_PADDINGS:
        raise ValueError(
            "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or 'reflection', but got: "
            f"'{padding_mode}'"
        )
    if mode == "bicubic" and input.dim() != 4:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    if input.dim() == 5:
        return torch.grid_sampler_3d(input, grid, _GRID_MODES[mode], _GRID_PADDINGS[padding_mode], bool(align_corners))
    if input.dim() != 4 or grid.dim() != input.dim():
        raise RuntimeError(
            "grid_sampler(): expected 4D or 5D input and grid with same number of dimensions, but got input with "
            f"sizes {list(input.shape)} and grid with sizes {list(grid.shape)}"
        )
    return torch.grid_sampler_2d(input, grid, _GRID_MODES[mode], _GRID_PADDINGS[padding_mode], bool(align_corners))


def _base_coordinates(n: int, align_corners: bool, like):
    """The normalized coordinates of n pixel centres along a dim: -1 .. 1 at the corner pixels' centres
    (align_corners) or scaled by (n - 1) / n (their outer edges at -1 and 1)."""
    steps = (
        torch.linspace(-1.0, 1.0, n, dtype=like.dtype, device=like.device)
        if n > 1
        else torch.zeros(1, dtype=like.dtype, device=like.device)
    )
    return steps if align_corners else steps * ((n - 1) / n)


def affine_grid(theta, size, align_corners=None):
    """The sampling grid of affine transforms for an output of `size`: (N, H, W, 2) from 2-D transforms theta
    (N, 2, 3) for size (N, C, H, W), or (N, D, H, W, 3) from 3-D ones (N, 3, 4) for size (N, C, D, H, W);
    each output pixel's normalized (x, y[, z], 1) times theta^T."""
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    if len(size) not in (4, 5):
        raise NotImplementedError(
            f"affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, respectively. Got size "
            f"{list(size)}."
        )
    k = len(size) - 2  # spatial dims
    kind = f"{k}D affine matrices of shape Nx{k}x{k + 1}"
    if theta.dim() != 3 or tuple(theta.shape[-2:]) != (k, k + 1) or theta.shape[0] != size[0]:
        raise ValueError(f"Expected a batch of {kind} for size {list(size)}. Got {list(theta.shape)}.")
    if min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {list(size)}")
    ac = bool(align_corners)
    spatial = list(size[2:])
    axes = []  # x (the last dim) first, as grid_sample reads them
    for d in reversed(range(k)):
        view = [1] * k
        view[d] = spatial[d]
        axes.append(_base_coordinates(spatial[d], ac, theta).reshape(view).expand(spatial))
    base = torch.stack([*axes, torch.ones(spatial, dtype=theta.dtype, device=theta.device)], -1)
    points = math.prod(spatial)
    return (base.reshape(1, points, k + 1) @ theta.transpose(1, 2)).reshape(size[0], *spatial, k)
