"""Indexing: advanced indexing (integer and bool tensors or lists in a subscript), index_put_, and
the one-argument forms of nonzero / where.

Advanced indexing follows NumPy's and PyTorch's rules: index tensors broadcast together; their result
dims go where the indexed dims were when those are adjacent, else first. torch._C's
__getitem__/__setitem__ hand such keys to getitem/setitem here. Basic items (ints, slices, None, ...)
are applied first as a view; the selected elements are then read with `take` / written with `put_` at
computed row-major positions, so autograd and every device come from those two ops.
"""

from __future__ import annotations

import math
import operator
import warnings

import torch
from torch._C import Tensor
from torch._C import masked_fill as _masked_fill
from torch._C import nonzero as _nonzero
from torch._C import where as _where
from torch._dtypes import scalar_type
from torch._registry import register
from torch._warnings import user_stacklevel

_masked_fill_ = Tensor.masked_fill_  # the generated method (number values), before the registry replaces it


def _as_index(item):
    if isinstance(item, Tensor):
        return item
    if isinstance(item, (list, tuple)):
        return torch.tensor(item) if len(item) else torch.tensor([], dtype=torch.int64)
    return None


def _as_mask(item):
    """A uint8 index tensor is a mask, as in PyTorch (deprecated there in favour of bool)."""
    if isinstance(item, Tensor) and item.dtype == torch.uint8:
        warnings.warn(
            "indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead.",
            UserWarning,
            stacklevel=user_stacklevel(),
        )
        return item.to(torch.bool)
    return item


class _Bool:
    """A Python bool, or a 0-dim bool/uint8 tensor, in a subscript: upstream adds a dim of size 1 there and
    indexes it with [0] (True) or [] (False), as NumPy does."""

    def __init__(self, value: bool) -> None:
        self.value = value


def _scalar_item(it):
    """Upstream's reading of one subscript item that is a number in disguise: a 0-dim integer tensor is an
    int (a select, so `x[torch.tensor(0), :, [1]]` places the advanced dims as `x[0, :, [1]]` does); a
    Python bool or a 0-dim bool/uint8 tensor is a _Bool."""
    if isinstance(it, bool):
        return _Bool(it)
    if isinstance(it, Tensor) and it.dim() == 0:
        if it.dtype in (torch.bool, torch.uint8):
            return _Bool(bool(it.item()))
        if not it.dtype.is_floating_point and not it.dtype.is_complex:
            return int(it.item())
    return it


def _split(self: Tensor, key, subscript: bool = True) -> tuple:
    """(basic key with full slices for the advanced items, [(view dim, int64 index tensor)]). A subscript
    (`x[key]`) reads numbers in disguise as upstream's subscripts do (_scalar_item); index_put_'s tuple of
    tensors is read as tensors."""
    items = list(key) if isinstance(key, tuple) else [key]
    items = [_as_mask(_scalar_item(it) if subscript else it) for it in items]
    consumed = 0
    for it in items:
        if it is None or it is Ellipsis or isinstance(it, _Bool):
            continue
        t = _as_index(it)
        consumed += t.dim() if t is not None and t.dtype == torch.bool else 1
    if consumed > self.dim():
        raise IndexError(f"too many indices for tensor of dimension {self.dim()}")
    basic, advanced, out_dim, src_dim = [], [], 0, 0
    refused = False  # an index tensor of a refused dtype: raised after the slices are read, as upstream's
    empty_dims = False  # an index into a dim of size 0: raised before any bounds or value check, as upstream's,
    # unless the indices broadcast to an empty shape (then nothing is selected)
    bad_mask = ""  # a mask whose shape does not fit: raised after the slices and numbers are read, as upstream's
    for position, it in enumerate(items):
        t = _as_index(it) if it is not None and it is not Ellipsis and not isinstance(it, _Bool) else None
        if isinstance(it, _Bool):
            basic.append(None)
            advanced.append((out_dim, torch.zeros(int(it.value), dtype=torch.int64)))
            out_dim += 1
        elif it is Ellipsis:
            n = self.dim() - consumed
            basic.append(Ellipsis)
            out_dim += n
            src_dim += n
        elif it is None:
            basic.append(None)
            out_dim += 1
        elif t is None:  # int or slice
            if isinstance(it, slice) and it.step is not None:
                step = operator.index(it.step)
                if step == 0:
                    raise ValueError("slice step cannot be zero")
                if step < 0:
                    raise ValueError("step must be greater than zero")
            elif isinstance(it, int) and src_dim < self.dim() and not -self.shape[src_dim] <= it < self.shape[src_dim]:
                raise IndexError(
                    f"index {it} is out of bounds for dimension {position} with size {self.shape[src_dim]}"
                )
            basic.append(it)
            out_dim += 0 if isinstance(it, int) else 1
            src_dim += 1
        elif t.dtype == torch.bool:
            for d in range(t.dim()):
                if t.shape[d] != self.shape[src_dim + d]:
                    bad_mask = bad_mask or (
                        f"The shape of the mask {list(t.shape)} at index {d} does not match the shape of the "
                        f"indexed tensor {list(self.shape)} at index {src_dim + d}"
                    )
            if bad_mask:
                src_dim += t.dim()
                continue
            cols = t.nonzero()  # [n, k]: one int64 index tensor per masked dim
            for d in range(t.dim()):
                basic.append(slice(None))
                advanced.append((out_dim, cols.select(1, d)))
                out_dim += 1
            src_dim += t.dim()
        else:
            refused = refused or t.dtype not in (torch.int64, torch.int32)  # upstream's: int8/int16 too
            empty_dims = empty_dims or (src_dim < self.dim() and self.shape[src_dim] == 0)
            basic.append(slice(None))
            advanced.append((out_dim, t.to(torch.int64)))
            out_dim += 1
            src_dim += 1
    if refused:
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    if bad_mask:
        raise IndexError(bad_mask)
    if empty_dims and math.prod(_index_shape(advanced)) != 0:  # upstream's: the indices broadcast to a non-empty shape
        raise IndexError("index is out of bounds for dimension with size 0")
    return tuple(basic), advanced


def _index_shape(advanced: list) -> tuple:
    """The shape the index tensors broadcast to, with upstream's IndexError when they do not (raised before the
    value's dtype and the indices' bounds are checked, as upstream's)."""
    shapes = [tuple(i.shape) for _, i in advanced]
    try:
        return torch.broadcast_shapes(*shapes)
    except RuntimeError:
        listed = ", ".join(str(list(s)) for s in shapes)
        raise IndexError(
            f"shape mismatch: indexing tensors could not be broadcast together with shapes {listed}"
        ) from None


def _selects_nothing(view: Tensor, advanced: list) -> bool:
    """Whether the key selects no element (the indices broadcast to an empty shape, or a dim of the view that
    no index reads is empty): upstream then checks no index's bounds (x[[3], 1, -4:0] is an empty result)."""
    dims = {d for d, _ in advanced}
    return math.prod(_index_shape(advanced)) == 0 or any(view.shape[d] == 0 for d in range(view.dim()) if d not in dims)


def _check_bounds(view: Tensor, advanced: list) -> bool:
    """Upstream's IndexError for an index outside its dim (none where the key selects nothing); whether any
    index is negative."""
    if _selects_nothing(view, advanced):
        return False
    negative = False
    for j, (d, idx) in enumerate(advanced):
        n = view.shape[d]
        if idx.numel():
            lo, hi = int(idx.min().item()), int(idx.max().item())
            if lo < -n or hi >= n:  # PyTorch numbers the dims of the indexed subspace
                bad = hi if hi >= n else lo
                raise IndexError(f"index {bad} is out of bounds for dimension {j} with size {n}")
            negative = negative or lo < 0
    return negative


def _in_range(view: Tensor, d: int, idx: Tensor) -> Tensor:
    """idx, or zeros where the key selects nothing and idx was not checked (the rows of an empty result
    still go through index_select or _index_put_rows_, which autograd records)."""
    if idx.numel() and view.numel() == 0:
        return torch.zeros_like(idx)  # dim d is not empty here: _split refuses an index into a size-0 dim
    return idx


def _one_index(view: Tensor, advanced: list) -> tuple:
    """(dim, index) of a key's only index tensor, bounds-checked, on view's device, its negative entries wrapped."""
    ((d, idx),) = advanced
    idx = idx.to(view.device)
    if _check_bounds(view, advanced):
        idx = idx + (idx < 0).to(idx.dtype) * view.shape[d]
    return d, idx


def _positions(view: Tensor, advanced: list) -> tuple:
    """Row-major positions in `view` of the selected elements, shaped like the result."""
    dims = [d for d, _ in advanced]
    shape = _index_shape(advanced)
    _check_bounds(view, advanced)
    rest = [d for d in range(view.dim()) if d not in dims]
    adjacent = dims == list(range(dims[0], dims[0] + len(dims)))
    # result layout: rest dims before the first indexed dim, the broadcast dims, the other rest dims
    before = [d for d in rest if adjacent and d < dims[0]]
    after = [d for d in rest if d not in before]
    nb, out_nd = len(shape), len(before) + len(shape) + len(after)
    strides, acc = [0] * view.dim(), 1
    for d in reversed(range(view.dim())):
        strides[d] = acc
        acc *= view.shape[d]
    pos = torch.zeros((1,) * out_nd, dtype=torch.int64, device=view.device)
    for d, idx in advanced:
        idx = idx.to(view.device)
        idx = idx + (idx < 0).to(torch.int64) * view.shape[d]
        full = idx.expand(shape) if tuple(idx.shape) != tuple(shape) else idx
        full = full.reshape((1,) * len(before) + tuple(shape) + (1,) * len(after))
        pos = pos + full * strides[d]
    for k, d in enumerate(before + after):
        at = k if k < len(before) else k + nb
        along = [1] * out_nd
        along[at] = view.shape[d]
        pos = pos + torch.arange(view.shape[d], device=view.device).view(along) * strides[d]
    out_shape = [view.shape[d] for d in before] + list(shape) + [view.shape[d] for d in after]
    return pos.expand(out_shape).contiguous(), out_shape


def _dense_strides(shape: list, operands: list) -> list:
    """The strides upstream's TensorIterator gives a new output of `shape` from its operands' strides over it
    (reorder_dimensions: for each pair of dims the first operand whose strides there differ and are not
    broadcast decides, equal strides put the smaller dim inside; ambiguous pairs stay row-major)."""
    nd = len(shape)

    def should_swap(d0: int, d1: int) -> int:
        for st in operands:
            s0, s1 = st[d0], st[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    perm = list(range(nd - 1, -1, -1))  # innermost first
    for i in range(1, nd):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    strides, acc = [0] * nd, 1
    for d in perm:
        strides[d] = acc
        acc *= max(shape[d], 1)
    return strides


def _laid_out_as_upstream(result: Tensor, view: Tensor, advanced: list) -> Tensor:
    """result (row-major, shaped [before..., index shape..., after...]) in the layout of upstream's index
    kernel: its TensorIterator over self restrided (stride 0 in the index dims) and the index tensors."""
    if result.dim() < 2 or result.numel() < 2:
        return result
    dims = [d for d, _ in advanced]
    rest = [d for d in range(view.dim()) if d not in dims]
    adjacent = dims == list(range(dims[0], dims[0] + len(dims)))
    before = [d for d in rest if adjacent and d < dims[0]]
    after = [d for d in rest if d not in before]
    shape = list(result.shape)
    nb = len(shape) - len(before) - len(after)

    # a size-1 dim's stride decides nothing (stride 0): views made with None or a size-1 slice differ there
    def stride(t: Tensor, d: int) -> int:
        return t.stride(d) if t.shape[d] != 1 else 0

    operands = [[stride(view, d) for d in before] + [0] * nb + [stride(view, d) for d in after]]
    for _, idx in advanced:  # broadcast to the index shape (no dim: stride 0)
        inner = [0] * (nb - idx.dim()) + [stride(idx, k) for k in range(idx.dim())]
        operands.append([0] * len(before) + inner + [0] * len(after))
    strides = _dense_strides(shape, operands)
    if strides == list(result.stride()):
        return result
    return torch.empty_strided(shape, strides, dtype=result.dtype, device=result.device).copy_(result)


def getitem(self: Tensor, key) -> Tensor:
    """self[key] for a key with index tensors or lists (a copy, as in PyTorch)."""
    basic, advanced = _split(self, key)
    view = self[basic] if basic else self
    if not advanced:  # only numbers in disguise (0-dim integer tensors): a view, as upstream
        return view
    if len(advanced) == 1:  # one index tensor (x[idx], x[:, idx], a 1-D mask): index_select's row copies
        d, idx = _one_index(view, advanced)
        shape = tuple(view.shape[:d]) + tuple(idx.shape) + tuple(view.shape[d + 1 :])
        out = view.index_select(d, _in_range(view, d, idx).reshape(-1)).reshape(shape)
        return _laid_out_as_upstream(out, view, advanced)
    pos, _ = _positions(view, advanced)
    return _laid_out_as_upstream(view.take(pos), view, advanced)


def index_put_(self: Tensor, key, value, accumulate: bool = False) -> Tensor:
    """self[key] = value (or += with accumulate, duplicates summing) for advanced keys; a tensor
    value must have self's dtype, as in PyTorch, unless it is one value written through one mask."""
    return _put(self, key, value, accumulate)


def _mask_dtype(key):
    """The dtype of the key's mask (torch.bool or torch.uint8) when its only advanced entry is one mask, else
    None."""
    items = key if isinstance(key, tuple) else (key,)

    def advanced(k) -> bool:  # a Python bool or 0-dim bool tensor is an index tensor to upstream here too
        if isinstance(k, Tensor) and k.dim() == 0:
            return k.dtype in (torch.bool, torch.uint8)
        return isinstance(k, (list, Tensor, bool))

    adv = [k for k in items if advanced(k)]
    if len(adv) != 1:
        return None
    k = adv[0]
    if isinstance(k, list):  # a list of Python bools is a mask, as upstream reads it
        return torch.bool if k and all(isinstance(b, bool) for b in k) else None
    # a 0-dim bool tensor is an int64 index to upstream here, not a mask
    return k.dtype if isinstance(k, Tensor) and k.dim() > 0 and k.dtype in (torch.bool, torch.uint8) else None


def _check_put_value(self: Tensor, key, value, accumulate: bool) -> None:
    """Upstream's index_put_ on its value: one CPU value written through one mask is its masked_fill_
    (a uint8 mask is refused there, and the value converts checked: 300 into uint8 raises), anything else
    must have self's dtype."""
    mask = _mask_dtype(key)
    one = not isinstance(value, Tensor) or (value.numel() == 1 and value.device.type == "cpu")
    if not accumulate and one and mask is not None:
        if mask == torch.uint8:
            raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype unsigned char")
        if isinstance(value, Tensor) and value.dtype != self.dtype:  # masked_fill_'s checked conversion
            torch.empty((), dtype=self.dtype).masked_fill_(torch.tensor(True), value.item())
    elif isinstance(value, Tensor) and value.dtype != self.dtype:
        raise RuntimeError(
            "Index put requires the source and destination dtypes match, got "
            f"{scalar_type(self.dtype)} for the destination and {scalar_type(value.dtype)} for the source."
        )


def _put(self: Tensor, key, value, accumulate: bool, subscript: bool = False) -> Tensor:
    key = tuple(key) if isinstance(key, list) and any(isinstance(k, Tensor) for k in key) else key
    basic, advanced = _split(self, key, subscript)
    if not advanced:  # only numbers in disguise (0-dim integer tensors): a basic assignment
        self[basic] = value
        return self
    _index_shape(advanced)
    _check_put_value(self, key, value, accumulate)
    view = self[basic] if basic else self
    if len(advanced) == 1:  # one index tensor: rows written (or added) in index order, no position per element
        d, idx = _one_index(view, advanced)
        out_shape = list(view.shape[:d]) + list(idx.shape) + list(view.shape[d + 1 :])
        rows = list(view.shape[:d]) + [idx.numel()] + list(view.shape[d + 1 :])
        values = _put_values(self, value, out_shape, subscript).reshape(rows)
        torch._index_put_rows_(view, d, _in_range(view, d, idx).reshape(-1), values, accumulate)
        return self
    pos, out_shape = _positions(view, advanced)
    view.put_(pos, _put_values(self, value, out_shape, subscript), accumulate)
    return self


def _put_values(self: Tensor, value, out_shape: list, subscript: bool) -> Tensor:
    """The value of an advanced assignment as a contiguous tensor of the result's shape and self's dtype."""
    if isinstance(value, Tensor):
        while subscript and value.dim() > len(out_shape) and value.shape[0] == 1:  # upstream's setitem drops them
            value = value[0]
        return value.to(self.dtype).expand(out_shape).contiguous()
    # a number is written as the basic path writes it (checked, or rounded into a 16- or 8-bit float)
    one = self.new_empty(())
    one[()] = value
    return one.expand(out_shape).contiguous()


def setitem(self: Tensor, key, value) -> None:
    """self[key] = value for advanced keys: a tensor value must have self's dtype (upstream's index_put_),
    unless it is one value written through one bool mask."""
    _put(self, key, value, False, subscript=True)


@register(name="index_put_", function=False, method=True)
def _index_put_method(self: Tensor, indices, values, accumulate: bool = False) -> Tensor:
    """self[indices] = values (+= with accumulate) for a tuple of index tensors."""
    return index_put_(self, tuple(indices), values, accumulate)


@register(method=True)
def index_put(input: Tensor, indices, values, accumulate: bool = False) -> Tensor:
    """index_put_ on a copy of input."""
    return _index_put_method(input.clone(), indices, values, accumulate)


@register(method=True, out="exact")
def nonzero(input: Tensor, *, as_tuple: bool = False):
    """The indices of input's nonzero elements: an [n, input.dim()] int64 tensor, or with
    as_tuple=True a tuple of 1-d index tensors, one per dim (a 0-dim input counts as 1-d)."""
    if not as_tuple:
        return _nonzero(input)
    idx = _nonzero(input.reshape(1) if isinstance(input, Tensor) and input.dim() == 0 else input)
    return tuple(idx.unbind(1))


@register
def where(condition: Tensor, *args, **kwargs):
    """where(condition, input, other): input where condition holds, else other (broadcast);
    where(condition) alone is nonzero(condition, as_tuple=True)."""
    if not args and not kwargs:
        return nonzero(condition, as_tuple=True)
    return _where(condition, *args, **kwargs)


@register(method=True, out="exact")
def take_along_dim(input: Tensor, indices: Tensor, dim: int | None = None) -> Tensor:
    """input's values at `indices` along dim (NumPy's take_along_axis): the other dims of the two broadcast;
    without dim, both are flattened first."""
    if indices.dtype != torch.int64:
        raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got {indices.dtype}")
    if dim is None:
        return input.reshape(-1).gather(0, indices.reshape(-1))
    if input.dim() != indices.dim():
        raise RuntimeError(
            "torch.take_along_dim(): input and indices should have the same number of dimensions, but got "
            f"{input.dim()} dimensions for input, and {indices.dim()} dimensions for indices"
        )
    dim = dim % max(input.dim(), 1)
    # a negative index counts from the end of dim (upstream wraps it once; gather checks the rest)
    indices = torch.where(indices < 0, indices + input.shape[dim], indices) if input.dim() else indices
    common = []
    for d, (x, i) in enumerate(zip(input.shape, indices.shape)):
        if d != dim and x != i and 1 not in (x, i):
            raise RuntimeError(
                f"The size of tensor a ({x}) must match the size of tensor b ({i}) at non-singleton dimension {d}"
            )
        common.append(1 if d == dim else max(x, i))
    want_x, want_i = list(common), list(common)
    want_x[dim], want_i[dim] = input.shape[dim], indices.shape[dim]
    return input.expand(want_x).gather(dim, indices.expand(want_i))


def _repeat_index(repeats: Tensor, n: int, output_size: int | None) -> Tensor:
    """[0]*repeats[0] + [1]*repeats[1] + ...: ones at each nonzero repeat's first position, summed up."""
    if repeats.dim() != 1 or repeats.dtype not in (torch.int64, torch.int32):
        raise RuntimeError("repeats has to be a 1-D tensor of integers")
    if repeats.shape[0] != n:
        raise RuntimeError("repeats must have the same size as input along dim")
    if repeats.numel() and repeats.min().item() < 0:
        raise RuntimeError("repeats can not be negative")
    r = repeats.to(torch.int64)
    total = int(r.sum().item())
    if output_size is not None and output_size != total:  # upstream's check: a wrong size is no truncation
        raise RuntimeError("allocated size does not match required size")
    starts = r.cumsum(0) - r
    keep = r > 0
    kept = torch.arange(n, device=r.device)[keep]  # elements repeated at least once: each steps the index
    steps = kept - torch.cat([kept.new_full((1,), -1), kept[:-1]]) if kept.numel() else kept
    marks = torch.zeros(total, dtype=torch.int64, device=r.device)
    marks.index_add_(0, starts[keep], steps)
    return marks.cumsum(0) - 1 if total else marks


@register(method=True)
def repeat_interleave(input: Tensor, repeats=None, dim: int | None = None, *, output_size: int | None = None):
    """Each element (slice along dim; without dim, of the flattened input) repeated `repeats` times (an int, or
    a 1-D tensor of one count per element). With only a tensor of counts: the indices 0, 0, 1, ... it makes."""
    if repeats is None:  # torch.repeat_interleave(repeats)
        return _repeat_index(input, input.shape[0] if input.dim() else 1, output_size)
    x = input.reshape(-1) if dim is None else input
    d = 0 if dim is None else dim % max(x.dim(), 1)
    n = x.shape[d] if x.dim() else 1
    if isinstance(repeats, Tensor) and repeats.numel() == 1 and repeats.dim() <= 1:
        repeats = int(repeats.item())
    if isinstance(repeats, int):
        if repeats < 0:
            raise RuntimeError("repeats can not be negative")
        if output_size is not None and output_size != n * repeats:
            raise RuntimeError(f"repeat_interleave: Invalid output_size, expected {n * repeats} but got {output_size}")
        index = torch.arange(n, device=x.device).unsqueeze(1).expand(n, repeats).reshape(-1)
    else:
        index = _repeat_index(repeats, n, output_size)
    return x.index_select(d, index)


@register(method=True)
def select_scatter(input: Tensor, src: Tensor, dim: int, index: int) -> Tensor:
    """A copy of input with the slice input.select(dim, index) replaced by src."""
    out = input.clone()
    out.select(dim, index).copy_(src)
    return out


@register(method=True, out="exact")
def slice_scatter(input: Tensor, src: Tensor, dim: int = 0, start=None, end=None, step: int = 1) -> Tensor:
    """A copy of input with the slice [start:end:step] along dim replaced by src."""
    out = input.clone()
    index = [slice(None)] * input.dim()
    index[dim] = slice(start, end, step)
    out[tuple(index)] = src
    return out


@register(method=True)
def diagonal_scatter(input: Tensor, src: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """A copy of input with its diagonal (offset, dim1, dim2) replaced by src."""
    out = input.clone()
    out.diagonal(offset, dim1, dim2).copy_(src)
    return out


def _fill_value(value):
    """masked_fill's value: a number, or a 0-dim tensor (upstream's masked_fill.Tensor) read as its number."""
    if isinstance(value, Tensor):
        if value.dim() != 0:
            raise RuntimeError(
                f"masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {value.dim()} "
                "dimension(s)."
            )
        return value.item()
    return value


@register(method=True)
def masked_fill(input: Tensor, mask: Tensor, value) -> Tensor:
    """input with value written where the (broadcast) bool mask is true; value is a number or a 0-dim tensor
    (converted to input's dtype; a value that requires grad gets the sum of the gradient where mask is)."""
    if isinstance(value, Tensor) and value.requires_grad and torch.is_grad_enabled():
        _fill_value(value)  # the 0-dim check
        if mask.dtype != torch.bool:
            raise RuntimeError(
                f"masked_fill_ only supports boolean masks, but got mask with dtype {scalar_type(mask.dtype)}"
            )
        return torch.where(mask, value.to(input.device, input.dtype), input)
    return _masked_fill(input, mask, _fill_value(value))


@register(function=False, method=True)
def masked_fill_(self: Tensor, mask: Tensor, value) -> Tensor:
    """masked_fill in place (value: a number or a 0-dim tensor)."""
    if isinstance(value, Tensor) and value.requires_grad and torch.is_grad_enabled():
        out = masked_fill(self, mask, value)
        if out.shape != self.shape:
            raise RuntimeError(
                f"masked_fill_: mask of shape {list(mask.shape)} cannot be broadcast to self of shape "
                f"{list(self.shape)}"
            )
        return self.copy_(out)
    return _masked_fill_(self, mask, _fill_value(value))
