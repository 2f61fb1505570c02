"""Order statistics over a stable sort: median and nanmedian (the lower median), kthvalue, msort.
NaN sorts last, so it is the largest value (kthvalue) and, in median, it wins (the row's first NaN)."""

from __future__ import annotations

import torch
from torch import return_types
from torch._C import Tensor
from torch.functional import _wrap_dim

__all__ = ["median", "nanmedian", "kthvalue", "msort"]


def _along(name: str, input: Tensor, dim: int, keepdim: bool, pick) -> tuple:
    """(values, indices) of `pick(sorted values, sorted indices, d)` along dim as a named tuple."""
    if input.dtype == torch.bool:
        kernel = "median" if name == "nanmedian" else name
        raise NotImplementedError(f"\"{kernel}_{input.device.type}\" not implemented for 'Bool'")
    result = return_types.make(name, ("values", "indices"))
    if input.dim() == 0:
        return result(input.clone(), torch.zeros((), dtype=torch.int64, device=input.device))
    d = _wrap_dim(dim, input.dim())
    if input.shape[d] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    values, indices = torch.sort(input, dim=d, stable=True)
    position = pick(values, d)  # the chosen position along d, with d kept (size 1)
    v, i = values.gather(d, position), indices.gather(d, position)
    if not keepdim:
        v, i = v.squeeze(d), i.squeeze(d)
    return result(v, i)


def _median_position(values: Tensor, d: int, skip_nan: bool) -> Tensor:
    n = values.shape[d]
    nans = values.isnan().sum(d, keepdim=True) if values.dtype.is_floating_point else None
    if nans is None:
        return torch.full_like(values.narrow(d, 0, 1), (n - 1) // 2, dtype=torch.int64)
    valid = n - nans
    if skip_nan:  # all-NaN lines pick position 0 (a NaN), as PyTorch
        return ((valid - 1).clamp(min=0) // 2).to(torch.int64)
    # a line with a NaN answers with its first NaN: the first of the NaNs sorted (stably) to the end
    return torch.where(nans > 0, valid, (n - 1) // 2).to(torch.int64)


def _median(name: str, input: Tensor, dim, keepdim: bool, skip_nan: bool):
    def pick(v, d):
        return _median_position(v, d, skip_nan)

    if dim is not None:
        return _along(name, input, dim, keepdim, pick)
    if input.numel() == 0:
        return torch.full((), float("nan"), dtype=input.dtype, device=input.device)
    return _along(name, input.reshape(-1), 0, False, pick).values


def median(input: Tensor, dim=None, keepdim: bool = False):
    """The lower median of all elements (NaN if any is NaN), or (values, indices) along dim."""
    return _median("median", input, dim, keepdim, skip_nan=False)


def nanmedian(input: Tensor, dim=None, keepdim: bool = False):
    """median ignoring NaNs (NaN only where every element is NaN), or (values, indices) along dim."""
    return _median("nanmedian", input, dim, keepdim, skip_nan=True)


def kthvalue(input: Tensor, k: int, dim: int = -1, keepdim: bool = False):
    """(values, indices) of the k-th smallest element along dim (k from 1; NaN counts as the largest)."""
    n = input.shape[_wrap_dim(dim, input.dim())] if input.dim() else 1
    if not 1 <= k <= n:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {_wrap_dim(dim, input.dim())}")
    return _along(
        "kthvalue", input, dim, keepdim, lambda v, d: torch.full_like(v.narrow(d, 0, 1), k - 1, dtype=torch.int64)
    )


def msort(input: Tensor) -> Tensor:
    """input sorted along dim 0."""
    return torch.sort(input, 0).values
