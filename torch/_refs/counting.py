"""Counting into bins: bincount and histc, with index_add (deterministic: one addition order)."""

from __future__ import annotations

import torch
from torch._C import Tensor
from torch._dtypes import scalar_type
from torch._registry import register


@register(method=True)
def bincount(input: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    """How often each value 0..max(input) occurs in a 1-D tensor of non-negative integers (with weights: the
    sum of their weights), at least minlength bins. int64 counts; float weights keep their dtype, integer
    weights sum as float64 (PyTorch's)."""
    if input.dtype.is_floating_point:
        raise RuntimeError(f"\"bincount_{input.device.type}\" not implemented for '{scalar_type(input.dtype)}'")
    if input.dim() != 1 or input.dtype == torch.bool:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if input.numel() and input.min().item() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is not None and (weights.dim() != 1 or weights.shape[0] != input.shape[0]):
        raise RuntimeError("weights should be 1-d and have the same length as input")
    n = max(int(input.max().item()) + 1 if input.numel() else 0, minlength)
    if weights is None:
        counts = torch.zeros(n, dtype=torch.int64, device=input.device)
        return counts.index_add_(0, input.to(torch.int64), torch.ones_like(input, dtype=torch.int64))
    dtype = torch.float32 if weights.dtype == torch.float32 else torch.float64  # upstream's: float or double
    out = torch.zeros(n, dtype=dtype, device=input.device)
    return out.index_add_(0, input.to(torch.int64), weights.to(dtype))


@register(method=True, out="exact")
def histc(input: Tensor, bins: int = 100, min=0, max=0) -> Tensor:
    """The histogram of input's elements in `bins` equal bins over [min, max] (min == max: the data's own
    range); elements outside are not counted, max itself falls in the last bin. Floating types only."""
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"\"histogram_cpu\" not implemented for '{scalar_type(input.dtype)}'")
    if bins <= 0:
        raise RuntimeError("torch.histc: bins must be > 0")
    x = input.reshape(-1)
    lo, hi = float(min), float(max)
    if lo == hi and x.numel():
        lo, hi = x.min().item(), x.max().item()
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if lo > hi:
        raise RuntimeError("torch.histc: max must be larger than min")
    # the edges and the position in the input's type, op by op, as upstream's kernel computes them (its
    # input_t arithmetic rounds every step to a 16-bit float too): in float64 0.7 of float32 would fall short of
    # bin 7 of 10 over [0, 1]
    lo, hi = (torch.tensor(e, dtype=x.dtype, device=x.device) for e in (lo, hi))
    inside = (x >= lo) & (x <= hi)
    v = x[inside]
    index = ((v - lo) * bins / (hi - lo)).to(torch.int64).clamp(max=bins - 1)
    out = torch.zeros(bins, dtype=input.dtype, device=input.device)
    return out.index_add_(0, index, torch.ones_like(index, dtype=input.dtype))
