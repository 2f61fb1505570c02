"""Order statistics and distinct values over a stable sort: median and nanmedian (the lower median),
kthvalue, msort; unique and unique_consecutive (with PyTorch's inverse indices and counts). NaN sorts
last, so it is the largest value (kthvalue) and, in median, it wins (the row's first NaN); NaNs are
all distinct in unique, as in PyTorch."""

from __future__ import annotations

import torch
from torch import return_types
from torch._C import Tensor
from torch._dtypes import scalar_type
from torch._refs._dims import wrap_dim
from torch._registry import register


def _along(name: str, input: Tensor, dim: int, keepdim: bool, pick) -> tuple:
    """(values, indices) of `pick(sorted values, sorted indices, d)` along dim as a named tuple."""
    if input.dtype == torch.bool:
        kernel = "median" if name == "nanmedian" else name
        raise NotImplementedError(f"\"{kernel}_{input.device.type}\" not implemented for 'Bool'")
    result = return_types.make(name, ("values", "indices"))
    if input.dim() == 0:
        return result(input.clone(), torch.zeros((), dtype=torch.int64, device=input.device))
    d = wrap_dim(dim, input.dim())
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


@register(method=True, out="exact")
def median(input: Tensor, dim=None, keepdim: bool = False):
    """The lower median of all elements (NaN if any is NaN), or (values, indices) along dim."""
    return _median("median", input, dim, keepdim, skip_nan=False)


@register(method=True, out="exact")
def nanmedian(input: Tensor, dim=None, keepdim: bool = False):
    """median ignoring NaNs (NaN only where every element is NaN), or (values, indices) along dim."""
    return _median("nanmedian", input, dim, keepdim, skip_nan=True)


@register(method=True, out="exact")
def kthvalue(input: Tensor, k: int, dim: int = -1, keepdim: bool = False):
    """(values, indices) of the k-th smallest element along dim (k from 1; NaN counts as the largest)."""
    n = input.shape[wrap_dim(dim, input.dim())] if input.dim() else 1
    if not 1 <= k <= n:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {wrap_dim(dim, input.dim())}")
    return _along(
        "kthvalue", input, dim, keepdim, lambda v, d: torch.full_like(v.narrow(d, 0, 1), k - 1, dtype=torch.int64)
    )


@register(method=True, out="exact")
def msort(input: Tensor) -> Tensor:
    """input sorted along dim 0."""
    return torch.sort(input, 0).values


def _rows(input: Tensor, dim: int | None) -> tuple[Tensor, int]:
    """input as a 2-D (slices, values) tensor with the slices along `dim` as rows; dim wrapped."""
    if dim is None:
        return input.reshape(-1, 1), 0
    if input.dim() == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    d = wrap_dim(dim, input.dim())
    if input.numel() == 0 and input.shape[d] != 0:
        raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique cannot be applied")
    other = 1
    for i, size in enumerate(input.shape):
        other *= size if i != d else 1
    return input.movedim(d, 0).reshape(input.shape[d], other), d


def _runs(rows: Tensor, order: Tensor | None) -> tuple:
    """(ordered rows, start mask): a run starts where a row differs from the one before."""
    ordered = rows if order is None else rows[order]
    starts = torch.ones(ordered.shape[0], dtype=torch.bool, device=rows.device)
    if ordered.shape[0] > 1:
        starts[1:] = (ordered[1:] != ordered[:-1]).any(1) if ordered.shape[1] else False
    return ordered, starts


def _finish(input: Tensor, dim, d: int, ordered: Tensor, starts: Tensor, order, return_inverse, return_counts):
    firsts = ordered[starts]
    if dim is None:
        out = firsts.reshape(-1)
    else:
        shape = list(input.shape)
        shape[d] = firsts.shape[0]
        out = firsts.reshape([shape[d]] + shape[:d] + shape[d + 1 :]).movedim(0, d)
    results = [out]
    if return_inverse:
        group = starts.to(torch.int64).cumsum(0) - 1  # the run of each ordered row
        inverse = group if order is None else torch.empty_like(group).scatter_(0, order, group)
        results.append(inverse.reshape(input.shape) if dim is None else inverse)
    if return_counts:
        begin = torch.nonzero(starts).reshape(-1)
        end = torch.cat([begin[1:], torch.tensor([starts.shape[0]], device=starts.device)])
        results.append(end - begin)
    return results[0] if len(results) == 1 else tuple(results)


def _lexsort(rows: Tensor) -> Tensor:
    """The permutation that sorts the rows lexicographically (stable sorts from the last column)."""
    order = torch.arange(rows.shape[0], device=rows.device)
    for j in range(rows.shape[1] - 1, -1, -1):
        key = rows[order, j]
        order = order[torch.sort(key, stable=True).indices]
    return order


@register(method=True)
def unique(input: Tensor, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False, dim=None):
    """The distinct values of input (flattened) or its distinct slices along dim, in ascending order;
    optionally where each element (slice) went (inverse) and how often each occurs (counts)."""
    rows, d = _rows(input, dim)
    if dim is None:
        order = torch.sort(rows.reshape(-1), stable=True).indices
    else:
        order = _lexsort(rows)
    ordered, starts = _runs(rows, order)
    return _finish(input, dim, d, ordered, starts, order, return_inverse, return_counts)


@register(method=True)
def unique_consecutive(input: Tensor, return_inverse: bool = False, return_counts: bool = False, dim=None):
    """input with each run of equal consecutive values (or slices along dim) kept once, as
    itertools.groupby; optionally the inverse indices and each run's length."""
    if input.dtype.is_complex:  # upstream's kernels have no complex
        kernel = "unique" if dim is None else "unique_dim"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{scalar_type(input.dtype)}'")
    rows, d = _rows(input, dim)
    ordered, starts = _runs(rows, None)
    return _finish(input, dim, d, ordered, starts, None, return_inverse, return_counts)
