"""``make_tensor``: a random tensor of a given shape, dtype and device for tests (PyTorch's defaults)."""

from __future__ import annotations

import collections.abc
import math

import torch

__all__ = ["make_tensor"]


def _bounds(dtype, low, high) -> tuple[float, float]:
    """[low, high) clamped to the dtype's range; PyTorch's defaults: [-9, 9] ([0, 9] for unsigned)."""
    if dtype.is_floating_point:
        lowest, highest = torch.finfo(dtype).min, torch.finfo(dtype).max
    else:
        lowest, highest = torch.iinfo(dtype).min, torch.iinfo(dtype).max
    low = -9 if low is None else low
    high = 9 if high is None else high
    if math.isnan(low) or math.isnan(high):
        raise ValueError(f"`low` and `high` cannot be NaN, but got low={low} and high={high}")
    if low > high:
        raise ValueError(f"`low` must be less than or equal to `high`, but got {low} > {high}")
    return max(low, lowest), min(high, highest)


def make_tensor(
    *shape,
    dtype,
    device,
    low=None,
    high=None,
    requires_grad: bool = False,
    noncontiguous: bool = False,
    exclude_zero: bool = False,
    memory_format=None,
):
    """A tensor of ``shape`` (ints or one sequence) filled with values uniform in ``[low, high)`` (integers:
    ``[low, high)`` with ``high`` exclusive; bool: random True/False). ``noncontiguous`` returns a strided
    view of a larger tensor; ``exclude_zero`` replaces zeros by the dtype's smallest positive step."""
    if len(shape) == 1 and isinstance(shape[0], collections.abc.Sequence):
        shape = tuple(shape[0])
    shape = tuple(shape)
    if dtype is torch.bool:
        result = torch.randint(0, 2, shape, device=device).to(torch.bool)
    elif dtype.is_floating_point:
        low, high = _bounds(dtype, low, high)
        result = (torch.rand(shape, dtype=torch.float64, device=device) * (high - low) + low).to(dtype)
    else:
        low, high = _bounds(dtype, low, high)
        result = torch.randint(math.ceil(low), max(math.ceil(high), math.ceil(low) + 1), shape, device=device).to(dtype)
    if noncontiguous and result.numel() > 1:
        result = torch.stack([result, result], dim=-1).flatten(-2)[..., ::2]  # every other element
    elif memory_format is not None:
        result = result.clone(memory_format=memory_format)
    if exclude_zero:
        replacement = 1 if not dtype.is_floating_point else torch.finfo(dtype).tiny
        result = torch.where(result == 0, torch.tensor(replacement, dtype=dtype, device=device), result)
    if requires_grad:
        result.requires_grad_(True)
    return result
