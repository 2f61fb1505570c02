"""unique and unique_consecutive over a stable sort: the values (or the slices along `dim`) where a
run starts, with PyTorch's inverse indices and counts. NaNs are all distinct, as in PyTorch."""

from __future__ import annotations

import torch
from torch._C import Tensor
from torch.functional import _wrap_dim

__all__ = ["unique", "unique_consecutive"]


def _rows(input: Tensor, dim: int | None) -> tuple[Tensor, int]:
    """input as a 2-D (slices, values) tensor with the slices along `dim` as rows; dim wrapped."""
    if dim is None:
        return input.reshape(-1, 1), 0
    if input.dim() == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    d = _wrap_dim(dim, input.dim())
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


def unique_consecutive(input: Tensor, return_inverse: bool = False, return_counts: bool = False, dim=None):
    """input with each run of equal consecutive values (or slices along dim) kept once, as
    itertools.groupby; optionally the inverse indices and each run's length."""
    rows, d = _rows(input, dim)
    ordered, starts = _runs(rows, None)
    return _finish(input, dim, d, ordered, starts, None, return_inverse, return_counts)
