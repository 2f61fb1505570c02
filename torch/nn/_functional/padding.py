"""pad: constant, reflect, replicate and circular padding of the last dimensions, on the THNN/THCUNN padding
kernels (torch._pad_nd: 1-3 padded dims; constant padding of more dims is a composite)."""

from __future__ import annotations

import torch
from torch.nn._functional._layout import laid_out_like

__all__ = ["pad"]


def _constant_pad(input, pad, value):
    """Pads (or crops, for negative amounts) the last len(pad)//2 dims with `value`."""
    n = len(pad) // 2
    if 1 <= n <= 3 and not input.is_complex():
        return torch._pad_nd(input, list(pad), "constant", float(value))
    out = input
    for i in range(n):
        dim = input.dim() - 1 - i
        left, right = pad[2 * i], pad[2 * i + 1]
        size = out.shape[dim]
        if left < 0:
            out = out.narrow(dim, -left, size + left)
            left = 0
        if right < 0:
            out = out.narrow(dim, 0, out.shape[dim] + right)
            right = 0
        if out.shape[dim] < 0:
            raise RuntimeError("The input size is too small for the negative padding")
        parts = []
        if left:
            shape = list(out.shape)
            shape[dim] = left
            parts.append(torch.full(shape, value, dtype=out.dtype, device=out.device))
        parts.append(out)
        if right:
            shape = list(out.shape)
            shape[dim] = right
            parts.append(torch.full(shape, value, dtype=out.dtype, device=out.device))
        if len(parts) > 1:
            out = torch.cat(parts, dim)
    return out


_SUPPORTED = (
    "Supported combinations for non-constant padding:\n"
    "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
    "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
    "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)"
)


def pad(input, pad, mode: str = "constant", value: float | None = None):
    """Pads the last len(pad)//2 dimensions: pad = (left_last, right_last, left_2nd_last, ...)."""
    pad = tuple(int(p) for p in pad)
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise RuntimeError(
            "Padding length should be less than or equal to two times the input dimension but got padding length "
            f"{len(pad)} and input of dimension {input.dim()}"
        )
    if mode == "constant":  # channels-last in, out (upstream's)
        return laid_out_like(_constant_pad(input, pad, 0.0 if value is None else value), input, ranks=(4, 5))
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    n = len(pad) // 2
    if n not in (1, 2, 3) or input.dim() not in (n + 1, n + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {input.dim()}D input tensor.\n" + _SUPPORTED
        )
    if input.is_complex():  # the kernels are real: the real and imaginary parts padded alike
        return torch.complex(torch._pad_nd(input.real, list(pad), mode), torch._pad_nd(input.imag, list(pad), mode))
    return torch._pad_nd(input, list(pad), mode)
