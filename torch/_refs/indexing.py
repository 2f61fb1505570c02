"""Indexing: advanced indexing (integer and bool tensors or lists in a subscript), index_put_, and
the one-argument forms of nonzero / where.

Advanced indexing follows NumPy's and PyTorch's rules: index tensors broadcast together; their result
dims go where the indexed dims were when those are adjacent, else first. torch._C's
__getitem__/__setitem__ hand such keys to getitem/setitem here. Basic items (ints, slices, None, ...)
are applied first as a view; the selected elements are then read with `take` / written with `put_` at
computed row-major positions, so autograd and every device come from those two ops.
"""

from __future__ import annotations

import warnings

import torch
from torch._C import Tensor
from torch._C import nonzero as _nonzero
from torch._C import where as _where
from torch._dtypes import scalar_type
from torch._registry import register


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
            stacklevel=4,
        )
        return item.to(torch.bool)
    return item


def _split(self: Tensor, key) -> tuple:
    """(basic key with full slices for the advanced items, [(view dim, int64 index tensor)])."""
    items = [_as_mask(it) for it in (list(key) if isinstance(key, tuple) else [key])]
    consumed = 0
    for it in items:
        if it is None or it is Ellipsis:
            continue
        t = _as_index(it)
        consumed += t.dim() if t is not None and t.dtype == torch.bool else 1
    if consumed > self.dim():
        raise IndexError(f"too many indices for tensor of dimension {self.dim()}")
    basic, advanced, out_dim, src_dim = [], [], 0, 0
    for it in items:
        t = _as_index(it) if it is not None and it is not Ellipsis else None
        if it is Ellipsis:
            n = self.dim() - consumed
            basic.append(Ellipsis)
            out_dim += n
            src_dim += n
        elif it is None:
            basic.append(None)
            out_dim += 1
        elif t is None:  # int or slice
            basic.append(it)
            out_dim += 0 if isinstance(it, int) else 1
            src_dim += 1
        elif t.dtype == torch.bool:
            for d in range(t.dim()):
                if t.shape[d] != self.shape[src_dim + d]:
                    raise IndexError(
                        f"The shape of the mask {list(t.shape)} at index {d} does not match the shape of the "
                        f"indexed tensor {list(self.shape)} at index {src_dim + d}"
                    )
            cols = t.nonzero()  # [n, k]: one int64 index tensor per masked dim
            for d in range(t.dim()):
                basic.append(slice(None))
                advanced.append((out_dim, cols.select(1, d)))
                out_dim += 1
            src_dim += t.dim()
        else:
            if t.dtype not in (torch.int64, torch.int32, torch.int16, torch.int8):
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
            basic.append(slice(None))
            advanced.append((out_dim, t.to(torch.int64)))
            out_dim += 1
            src_dim += 1
    return tuple(basic), advanced


def _positions(view: Tensor, advanced: list) -> tuple:
    """Row-major positions in `view` of the selected elements, shaped like the result."""
    dims = [d for d, _ in advanced]
    for j, (d, idx) in enumerate(advanced):
        n = view.shape[d]
        if idx.numel():
            lo, hi = int(idx.min().item()), int(idx.max().item())
            if lo < -n or hi >= n:  # PyTorch numbers the dims of the indexed subspace
                bad = hi if hi >= n else lo
                raise IndexError(f"index {bad} is out of bounds for dimension {j} with size {n}")
    shape = torch.broadcast_shapes(*[tuple(i.shape) for _, i in advanced])
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


def getitem(self: Tensor, key) -> Tensor:
    """self[key] for a key with index tensors or lists (a copy, as in PyTorch)."""
    basic, advanced = _split(self, key)
    view = self[basic] if basic else self
    pos, _ = _positions(view, advanced)
    return view.take(pos)


def index_put_(self: Tensor, key, value, accumulate: bool = False) -> Tensor:
    """self[key] = value (or += with accumulate, duplicates summing) for advanced keys; a tensor
    value must have self's dtype, as in PyTorch (setitem converts it first)."""
    if isinstance(value, Tensor) and value.dtype != self.dtype:
        raise RuntimeError(
            "Index put requires the source and destination dtypes match, got "
            f"{scalar_type(self.dtype)} for the destination and {scalar_type(value.dtype)} for the source."
        )
    return _put(self, key, value, accumulate)


def _put(self: Tensor, key, value, accumulate: bool) -> Tensor:
    key = tuple(key) if isinstance(key, list) and any(isinstance(k, Tensor) for k in key) else key
    basic, advanced = _split(self, key)
    view = self[basic] if basic else self
    pos, out_shape = _positions(view, advanced)
    if isinstance(value, Tensor):
        values = value.to(self.dtype).expand(out_shape).contiguous()
    else:
        values = torch.full(out_shape, value, dtype=self.dtype, device=self.device)
    view.put_(pos, values, accumulate)
    return self


def setitem(self: Tensor, key, value) -> None:
    """self[key] = value for advanced keys (a tensor value of another dtype is converted)."""
    _put(self, key, value, False)


@register(name="index_put_", function=False, method=True)
def _index_put_method(self: Tensor, indices, values, accumulate: bool = False) -> Tensor:
    """self[indices] = values (+= with accumulate) for a tuple of index tensors."""
    return index_put_(self, tuple(indices), values, accumulate)


@register(function=False, method=True)
def index_put(self: Tensor, indices, values, accumulate: bool = False) -> Tensor:
    """index_put_ on a copy of self."""
    return _index_put_method(self.clone(), indices, values, accumulate)


@register(method=True)
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
