"""In-place ops on views: the base's history is rebased onto CopySlices, as in PyTorch, so that a
gradient flowing into the base goes through the in-place op for the viewed region only."""

from __future__ import annotations

from torch import _C
from torch._C import Tensor
from torch.autograd.graph import Node, edge, saved, set_history


class CopySlices(Node):
    """The base's grad_fn after one of its views was modified in place by `fn` (`conj`: the view reads the
    base's memory conjugated, a conj() view, so gradients cross between them conjugated)."""

    __slots__ = ("fn", "geometry", "base_geometry", "as_real", "conj")

    def apply(self, grads: list) -> tuple:
        grad = grads[0]
        if grad is None:
            return (None,) * len(self.next_functions)
        size, stride, offset = self.geometry
        base_size, base_stride, span = self.base_geometry
        grad = _real_of(grad) if self.as_real else grad
        flat = _C.zeros(span, dtype=grad.dtype, device=grad.device)  # laid out like the base's memory
        result = flat.as_strided(base_size, base_stride, 0)
        result.copy_(grad)
        region = flat.as_strided(size, stride, offset)
        res = self.fn.apply([_C.conj_physical(region) if self.conj else region.clone()])
        if res and res[0] is not None:
            region.copy_(_C.conj(res[0]) if self.conj else res[0])
        else:
            region.fill_(0)
        return (_complex_of(result) if self.as_real else result, *res[1:])


class AsStridedBackward0(Node):
    """A view's grad_fn after its base was rebased: the gradient lands in the viewed region."""

    __slots__ = ("base_shape", "base_dtype", "geometry", "base_geometry", "as_real", "conj")

    def apply(self, grads: list) -> tuple:
        grad = grads[0]
        if grad is None:
            return (None,)
        size, stride, offset = self.geometry
        base_size, base_stride, span = self.base_geometry
        flat = _C.zeros(span, dtype=grad.dtype, device=grad.device)
        flat.as_strided(size, stride, offset).copy_(_C.conj(grad) if self.conj else grad)
        result = flat.as_strided(base_size, base_stride, 0)
        return (_complex_of(result) if self.as_real else result,)


def _real_of(t: Tensor) -> Tensor:
    import torch  # noqa: PLC0415

    return torch.view_as_real(t.resolve_conj() if t.is_complex() else t.to(torch.complex128))


def _complex_of(t: Tensor) -> Tensor:
    import torch  # noqa: PLC0415

    return torch.view_as_complex(t.contiguous() if t.stride(-1) != 1 else t)


def _geometry(base: Tensor, view: Tensor) -> tuple:
    """The view's (size, stride, offset) in the base's memory, the base's (size, stride, span), and whether
    the base is complex and the view real (.real, .imag, view_as_real): then the base is taken as its real
    view, [*, 2] in real elements, which is what the view's strides count."""
    if any(s == 0 and n > 1 for n, s in zip(base.shape, base.stride())):
        raise RuntimeError("in-place modification of a view of an expanded (overlapping) base is not supported")
    as_real = base.is_complex() and not view.is_complex()
    shape, strides, offset = tuple(base.shape), tuple(base.stride()), base.storage_offset()
    if as_real:
        shape, strides, offset = (*shape, 2), (*(2 * s for s in strides), 1), 2 * offset
    span = 1 + sum((n - 1) * s for n, s in zip(shape, strides)) if base.numel() else 0
    view_geometry = (tuple(view.shape), view.stride(), view.storage_offset() - offset)
    return view_geometry, (shape, strides, span), as_real


def rebase_view(base: Tensor, view: Tensor, node: Node) -> None:
    """`view` (of `base`) was modified in place by `node`: rewrites both histories."""
    geometry, base_geometry, as_real = _geometry(base, view)
    cs = CopySlices()
    cs.fn = node
    cs.geometry = geometry
    cs.base_geometry = base_geometry
    cs.as_real = as_real
    cs.conj = view.is_conj() != base.is_conj()
    cs.next_functions = (edge(base), *node.next_functions[1:])
    set_history(base, cs, 0)
    back = AsStridedBackward0()
    back.base_shape = tuple(base.shape)
    back.base_dtype = base.dtype
    back.geometry = geometry
    back.base_geometry = base_geometry
    back.as_real = as_real
    back.conj = cs.conj
    back.next_functions = ((cs, 0),)
    set_history(view, back, 0)


__all__ = ["CopySlices", "AsStridedBackward0", "rebase_view", "saved"]


class _IndexBackward(Node):
    """Backward of basic indexing `x[key]`: the gradient lands where the view was taken."""

    __slots__ = ("key", "shape", "dtype")

    def apply(self, grads: list) -> tuple:
        grad = grads[0]
        out = _C.zeros(self.shape, dtype=self.dtype, device=grad.device)
        out[self.key] = grad
        return (out,)


class SelectBackward0(_IndexBackward):
    __slots__ = ()


class SliceBackward0(_IndexBackward):
    __slots__ = ()


class IndexBackward0(_IndexBackward):
    __slots__ = ()


def record_getitem(args: tuple, result: Tensor) -> None:
    """torch._C records `self[key]` through this (see torch/csrc/Indexing.cpp)."""
    self, key = args
    e = edge(self)
    if e[0] is None or not result.dtype._differentiable:
        return
    cls = SelectBackward0 if type(key) is int else SliceBackward0 if type(key) is slice else IndexBackward0
    node = cls()
    node.key = key
    node.shape = tuple(self.shape)
    node.dtype = self.dtype
    node.next_functions = (e,)
    set_history(result, node, 0)
