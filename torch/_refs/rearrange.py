"""Rearranging composites made of flip and transpose: fliplr, flipud, rot90 (NumPy's)."""

from __future__ import annotations

import torch
from torch._C import Tensor
from torch._refs._dims import wrap_dim
from torch._registry import register


@register(method=True)
def fliplr(input: Tensor) -> Tensor:
    """input with dim 1 reversed (left/right); needs at least 2 dims."""
    if input.dim() < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return torch.flip(input, (1,))


@register(method=True)
def flipud(input: Tensor) -> Tensor:
    """input with dim 0 reversed (up/down); needs at least 1 dim."""
    if input.dim() < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return torch.flip(input, (0,))


@register(method=True)
def rot90(input: Tensor, k: int = 1, dims=(0, 1)) -> Tensor:
    """input rotated by k * 90 degrees in the plane of dims (from the first towards the second), as
    NumPy's rot90."""
    dims = list(dims)
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if input.dim() < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {input.dim()}")
    d0, d1 = (wrap_dim(d, input.dim()) for d in dims)
    if d0 == d1:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {d0} and dim1 = {d1}")
    k %= 4
    if k == 1:
        return torch.flip(input, (d1,)).transpose(d0, d1)
    if k == 2:
        return torch.flip(input, (d0, d1))
    if k == 3:
        return torch.flip(input, (d0,)).transpose(d0, d1)
    return input.clone()
