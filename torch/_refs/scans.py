"""Scans and sorted searches written with whole-tensor ops: cummax, cummin and logcumsumexp as log-step
(Hillis-Steele) scans, ceil(log2(n)) rounds of one combine each, so their values, indices and gradients come
from where/logaddexp; searchsorted and bucketize as a binary search run on every value at once
(ceil(log2(n + 1)) rounds of gather and compare). PyTorch's semantics: cummax/cummin take the latest index on a
tie and let NaN win; logcumsumexp never overflows or loses a small prefix to a large one."""

from __future__ import annotations

import warnings

import torch
from torch import return_types
from torch._C import Tensor
from torch._C import scatter as _scatter
from torch._dtypes import scalar_type
from torch._refs._dims import wrap_dim
from torch._refs.promotion import checked_scalar
from torch._registry import register
from torch._warnings import user_stacklevel

_scatter_ = Tensor.scatter_  # the generated in-place scatter (src or value), before scatter_ below replaces it


def _scan(parts: tuple, dim: int, combine) -> tuple:
    """The inclusive scan along dim of the tuple of tensors `parts` (same shape) under `combine(earlier, later)`,
    an associative function of two such tuples: each round combines every position with the one `step` before."""
    n = parts[0].shape[dim]
    step = 1
    while step < n:
        earlier = tuple(p.narrow(dim, 0, n - step) for p in parts)
        later = tuple(p.narrow(dim, step, n - step) for p in parts)
        merged = combine(earlier, later)
        parts = tuple(torch.cat([p.narrow(dim, 0, step), m], dim) for p, m in zip(parts, merged))
        step *= 2
    return parts


def _cum_extreme(name: str, input: Tensor, dim: int, larger: bool):
    result = return_types.make(name, ("values", "indices"))
    if input.dim() == 0:
        return result(input.clone(), torch.zeros((), dtype=torch.int64, device=input.device))
    d = wrap_dim(dim, input.dim())
    shape = [1] * input.dim()
    shape[d] = input.shape[d]
    index = torch.arange(input.shape[d], device=input.device).reshape(shape).expand(input.shape)
    floating = input.dtype.is_floating_point

    def combine(earlier, later):
        (a, ia), (b, ib) = earlier, later
        wins = (b >= a) if larger else (b <= a)  # a tie goes to the later index
        if floating:
            wins = b.isnan() | (wins & ~a.isnan())  # NaN wins, the latest NaN on a tie
        return torch.where(wins, b, a), torch.where(wins, ib, ia)

    values, indices = _scan((input, index), d, combine)
    return result(values, indices.contiguous())


@register(method=True, out="exact")
def cummax(input: Tensor, dim: int):
    """(values, indices): the running maximum along dim and where it was found (the latest index on a tie; a
    NaN is the maximum from where it appears)."""
    return _cum_extreme("cummax", input, dim, larger=True)


@register(method=True, out="exact")
def cummin(input: Tensor, dim: int):
    """(values, indices): the running minimum along dim and where it was found (the latest index on a tie)."""
    return _cum_extreme("cummin", input, dim, larger=False)


@register(method=True, out="castable")
def logcumsumexp(input: Tensor, dim: int) -> Tensor:
    """log(cumsum(exp(input))) along dim, combined pairwise with logaddexp: no overflow, and a small prefix is
    not lost next to a large element. Floating and complex types only."""
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise NotImplementedError(
            f"\"logcumsumexp_out_{input.device.type}\" not implemented for '{scalar_type(input.dtype)}'"
        )
    if input.dim() == 0:
        return input.clone()
    (out,) = _scan((input,), wrap_dim(dim, input.dim()), lambda a, b: (torch.logaddexp(a[0], b[0]),))
    return out


def _search(seq: Tensor, values: Tensor, right: bool) -> Tensor:
    """For each value, how many elements of its row of seq (sorted along the last dim) are < it (<= with
    right): a binary search of every value at once."""
    n = seq.shape[-1]
    lo = torch.zeros(values.shape, dtype=torch.int64, device=values.device)
    hi = torch.full(values.shape, n, dtype=torch.int64, device=values.device)
    if n == 0:
        return lo
    for _ in range(n.bit_length()):
        mid = (lo + hi) // 2
        at = mid.clamp(max=n - 1)
        s = seq[at] if seq.dim() == 1 else seq.gather(-1, at)
        # upstream's bounds: right of s unless s > v (right) or s >= v (left); NaN sorts last either way
        go_right = ~(s > values) if right else ~(s >= values)
        active = lo < hi
        lo = torch.where(active & go_right, mid + 1, lo)
        hi = torch.where(active & ~go_right, mid, hi)
    return lo


@register
def searchsorted(sorted_sequence: Tensor, input, *, out_int32: bool = False, right: bool = False, side=None,
                 sorter: Tensor | None = None, out: Tensor | None = None) -> Tensor:  # fmt: skip
    """The indices at which input's values would be inserted into sorted_sequence (sorted along its last dim;
    1-D, or with input's leading dims) to keep it sorted: before equal elements, or after them with right=True
    (side='right'). sorter: the indices that sort sorted_sequence. int64 indices (int32 with out_int32)."""
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
        if right and side == "left":
            raise RuntimeError(
                "torch.searchsorted(): side and right can't be set to opposites, got side of left while right was True"
            )
        right = side == "right"
    scalar = not isinstance(input, Tensor)
    values = torch.tensor(input, device=sorted_sequence.device) if scalar else input
    seq = sorted_sequence if sorter is None else sorted_sequence.gather(-1, sorter)
    if seq.dim() > 1 and (values.dim() != seq.dim() or values.shape[:-1] != seq.shape[:-1]):
        raise RuntimeError(
            "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries "
            f"tensor and input value tensor must match, but we got boundaries tensor {list(seq.shape)} and input "
            f"value tensor {list(values.shape)}"
        )
    dtype = torch.promote_types(seq.dtype, values.dtype)
    result = _search(seq.to(dtype), values.to(dtype), right)
    result = result.to(torch.int32) if out_int32 else result
    return result if out is None else out.resize_(result.shape).copy_(result)


@register(numbers=False)
def bucketize(input, boundaries: Tensor, *, out_int32: bool = False, right: bool = False,
              out: Tensor | None = None) -> Tensor:  # fmt: skip
    """The bucket of each of input's values among the sorted 1-D boundaries: i with boundaries[i-1] < x <=
    boundaries[i] (boundaries[i-1] <= x < boundaries[i] with right=True)."""
    if boundaries.dim() != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.dim()})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right, out=out)


_REDUCTIONS = ("sum", "prod", "mean", "amax", "amin")


@register(method=True, inplace=True, out="exact")
def scatter_reduce(input: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *, include_self: bool = True):
    """input with src's elements reduced into the positions index names along dim (sum, prod, mean, amax or
    amin), together with input's own value there unless include_self=False; untouched positions keep input's.
    Deterministic: the elements bound for one position are grouped by a stable sort and combined by a segmented
    log-step scan (mean of integers rounds down, as PyTorch's)."""
    # upstream's order: the dim, the index's dtype, src's dtype, then the reduction's name
    d = wrap_dim(dim, max(input.dim(), 1))
    if index.numel() and index.dtype not in (torch.int64, torch.int32):  # an empty index may have any dtype
        raise RuntimeError("scatter(): Expected dtype int32/int64 for index")
    if input.dtype != src.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")  # upstream's wording
    reduce = {"max": "amax", "min": "amin"}.get(reduce, reduce)  # PyTorch takes these older names too
    if reduce not in _REDUCTIONS:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    if index.numel() == 0:  # upstream checks no shapes then
        return input.contiguous().clone()
    if len({max(t.dim(), 1) for t in (input, index, src)}) > 1:  # a 0-dim tensor counts as one of shape (1,)
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    result = input.contiguous().clone()
    # the work is done on 1-D views of 0-dim tensors: out is one of result
    out, index, src = (t.reshape(t.shape or (1,)) for t in (result, index.to(torch.int64), src))
    if any(index.shape[k] > src.shape[k] or (k != d and index.shape[k] > out.shape[k]) for k in range(index.dim())):
        raise RuntimeError(
            f"Expected index {list(index.shape)} to be no larger than self {list(out.shape)} apart from "
            f"dimension {d} and to be no larger size than src {list(src.shape)}"
        )
    bad = (index < 0) | (index >= out.shape[d])
    if bool(bad.any()):
        raise RuntimeError(
            f"index {index[bad].reshape(-1)[0].item()} is out of bounds for dimension {d} with size {out.shape[d]}"
        )
    if (reduce == "mean" and input.dtype == torch.bool) or (reduce in ("amax", "amin") and input.dtype.is_complex):
        raise NotImplementedError(  # upstream's kernels: no bool mean, no complex ordering
            f'"scatter_gather_tensor_{input.device.type}_reduce_{reduce}" not implemented for '
            f"'{scalar_type(input.dtype)}'"
        )
    values = src[tuple(slice(0, n) for n in index.shape)]
    # the flat position in out of every element of index
    strides = out.stride()
    flat = index * strides[d]
    for k in range(index.dim()):
        if k != d:
            shape = [1] * index.dim()
            shape[k] = index.shape[k]
            flat = flat + torch.arange(index.shape[k], device=index.device).reshape(shape) * strides[k]
    flat = flat.reshape(-1)
    order = torch.sort(flat, stable=True).indices
    target, v = flat[order], values.reshape(-1)[order]
    starts = torch.ones_like(target, dtype=torch.bool)
    starts[1:] = target[1:] != target[:-1]
    op = {"sum": torch.add, "mean": torch.add, "prod": torch.mul, "amax": torch.maximum, "amin": torch.minimum}[reduce]

    def combine(earlier, later):
        (fe, ve, ce), (fl, vl, cl) = earlier, later
        return fe | fl, torch.where(fl, vl, op(ve, vl)), torch.where(fl, cl, ce + cl)

    ones = torch.ones_like(target)
    _, acc, count = _scan((starts, v, ones), 0, combine)
    ends = torch.ones_like(starts)
    ends[:-1] = starts[1:]
    positions, acc, count = target[ends], acc[ends], count[ends]
    flat_out = out.reshape(-1)
    current = flat_out[positions]
    if reduce == "mean":
        total = acc + current if include_self else acc
        n = count + 1 if include_self else count
        exact = out.dtype.is_floating_point or out.dtype.is_complex
        combined = total / n if exact else torch.div(total, n, rounding_mode="floor")
    else:
        combined = op(current, acc) if include_self else acc
    flat_out[positions] = combined.to(out.dtype)
    return result


_WARNED_REDUCE = False  # upstream warns once per process (TORCH_WARN_ONCE)


def _scatter_with(reduce: str, input: Tensor, dim: int, index: Tensor, src) -> Tensor:
    global _WARNED_REDUCE
    if isinstance(src, Tensor) and not _WARNED_REDUCE:
        _WARNED_REDUCE = True
        warnings.warn(
            "The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in a future "
            "PyTorch release. Use torch.scatter_reduce instead for more reduction options.",
            UserWarning,
            stacklevel=user_stacklevel(),
        )
    wrap_dim(dim, max(input.dim(), 1))  # upstream's order: the dim, the dtypes, then the reduction's name
    if index.numel() and index.dtype not in (torch.int64, torch.int32):
        raise RuntimeError("scatter(): Expected dtype int32/int64 for index")
    if isinstance(src, Tensor) and src.dtype != input.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if reduce not in ("add", "multiply"):
        raise RuntimeError("reduce argument must be either add or multiply.")
    if not isinstance(src, Tensor):  # the number converted checked, as upstream's value.to<scalar_t>()
        src = checked_scalar(src, input.dtype, input.device).expand(tuple(index.shape))
    values = src
    return scatter_reduce(input, dim, index, values, "sum" if reduce == "add" else "prod")


@register(method=True, out="exact")
def scatter(input: Tensor, dim: int, index: Tensor, src=None, reduce: str | None = None, *, value=None) -> Tensor:
    """input with src's elements (or a number, value) written at the positions index names along dim; with
    reduce='add' or 'multiply' they are combined with what is there instead (PyTorch's older scatter_reduce)."""
    src = value if src is None else src
    if reduce is None:
        return _scatter(input, dim, index, src)
    return _scatter_with(reduce, input, dim, index, src)


@register(function=False, method=True)
def scatter_(self: Tensor, dim: int, index: Tensor, src=None, reduce: str | None = None, *, value=None) -> Tensor:
    """In-place scatter (with reduce='add' or 'multiply': combined with what is there)."""
    src = value if src is None else src
    if reduce is None:
        return _scatter_(self, dim, index, src)
    return self.copy_(_scatter_with(reduce, self, dim, index, src))
