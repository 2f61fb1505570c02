"""Joining and splitting, NumPy style (atleast_*d, hstack/vstack/dstack/column_stack, tensor_split/
hsplit/vsplit/dsplit, split), and grids (meshgrid, cartesian_prod), written over cat, stack and views
so that autograd and every device come for free. Shapes, results and errors follow PyTorch."""

from __future__ import annotations

import torch
from torch._C import Tensor, cat
from torch._C import split as _split
from torch._dtypes import scalar_type
from torch._refs._dims import wrap_dim
from torch._registry import register

register(cat, name="concat", aliases=("concatenate",))  # NumPy's names of cat (a generated op)


def _at_least(n: int, t: Tensor) -> Tensor:
    if not isinstance(t, Tensor):
        raise TypeError(f"atleast_{n}d(): expected Tensor, but got {type(t).__name__}")
    if t.dim() >= n:
        return t
    if n == 3 and t.dim() == 2:
        return t.unsqueeze(-1)  # (m, n) -> (m, n, 1)
    if n == 3 and t.dim() == 1:
        return t.reshape(1, -1, 1)  # (n,) -> (1, n, 1)
    return t.reshape((1,) * (n - t.dim()) + tuple(t.shape))


def _atleast(n: int, tensors: tuple):
    """atleast_{n}d: one tensor gives a tensor; several, or one list/tuple of them, give a tuple."""
    if len(tensors) == 1 and isinstance(tensors[0], Tensor):
        return _at_least(n, tensors[0])
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    return tuple(_at_least(n, t) for t in tensors)


@register
def atleast_1d(*tensors):
    """Each input as a view with at least 1 dim (a 0-dim tensor becomes shape (1,))."""
    return _atleast(1, tensors)


@register
def atleast_2d(*tensors):
    """Each input with at least 2 dims: () -> (1, 1), (n,) -> (1, n)."""
    return _atleast(2, tensors)


@register
def atleast_3d(*tensors):
    """Each input with at least 3 dims: () -> (1, 1, 1), (n,) -> (1, n, 1), (m, n) -> (m, n, 1)."""
    return _atleast(3, tensors)


def _sequence(tensors, name: str) -> tuple:
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise TypeError(
            f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, not {type(tensors).__name__}"
        )
    if not tensors:
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    return tuple(tensors)


@register(out="castable")
def hstack(tensors) -> Tensor:
    """Concatenation along dim 1 (dim 0 for 1-D inputs), after atleast_1d."""
    ts = atleast_1d(_sequence(tensors, "hstack"))
    return torch.cat(ts, 0 if ts[0].dim() == 1 else 1)


@register(aliases=("row_stack",), out="castable")
def vstack(tensors) -> Tensor:
    """Concatenation along dim 0, after atleast_2d (1-D inputs become rows)."""
    ts = atleast_2d(_sequence(tensors, "vstack"))
    return torch.cat(ts, 0)


@register(out="castable")
def dstack(tensors) -> Tensor:
    """Concatenation along dim 2, after atleast_3d."""
    ts = atleast_3d(_sequence(tensors, "dstack"))
    return torch.cat(ts, 2)


@register(out="castable")
def column_stack(tensors) -> Tensor:
    """0-D and 1-D inputs as columns (n, 1), others as they are, concatenated along dim 1."""
    ts = [t.reshape(t.numel(), 1) if t.dim() <= 1 else t for t in _sequence(tensors, "column_stack")]
    return torch.cat(ts, 1)


def _split_spec(name: str, indices_or_sections, **named):
    """The one split spec of a call: positional, or under one of upstream's keywords (sections=, indices=,
    tensor_indices_or_sections=)."""
    given = [v for v in (indices_or_sections, *named.values()) if v is not None]
    if len(given) != 1:
        raise TypeError(f"{name}() takes one of a section count or indices ({', '.join(named)}), got {len(given)}")
    return given[0]


@register(method=True)
def tensor_split(
    input: Tensor, indices_or_sections=None, dim: int = 0, *, sections=None, indices=None,
    tensor_indices_or_sections=None,
) -> tuple:  # fmt: skip
    """Views of input along dim: `n` sections (the first size % n one element longer), or the pieces
    between the given indices (NumPy's array_split)."""
    indices_or_sections = _split_spec(
        "tensor_split", indices_or_sections, sections=sections, indices=indices,
        tensor_indices_or_sections=tensor_indices_or_sections,
    )  # fmt: skip
    if input.dim() == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
    if isinstance(indices_or_sections, Tensor):
        if indices_or_sections.dtype != torch.int64:
            raise RuntimeError(
                "tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
                f"{scalar_type(indices_or_sections.dtype)}"
            )
        if indices_or_sections.dim() > 1:
            raise RuntimeError(
                "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or one-dimensional "
                f"tensor, but got a tensor with {indices_or_sections.dim()} dims"
            )
        indices_or_sections = (
            indices_or_sections.item() if indices_or_sections.dim() == 0 else indices_or_sections.tolist()
        )
    d = wrap_dim(dim, input.dim())
    size = input.shape[d]
    if isinstance(indices_or_sections, int):
        n = indices_or_sections
        if n <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {n}")
        small, extra = divmod(size, n)
        bounds, start = [], 0
        for i in range(n):
            stop = start + small + (1 if i < extra else 0)
            bounds.append((start, stop))
            start = stop
    else:
        edges = [0, *(int(i) for i in indices_or_sections), size]
        bounds = []
        for lo, hi in zip(edges, edges[1:]):
            lo = min(max(lo + size if lo < 0 else lo, 0), size)
            hi = min(max(hi + size if hi < 0 else hi, 0), size)
            bounds.append((lo, max(lo, hi)))
    return tuple(input.narrow(d, lo, hi - lo) for lo, hi in bounds)


def _split_along(name: str, min_dims: int, dim: int, input: Tensor, indices_or_sections) -> tuple:
    if input.dim() < min_dims:
        raise RuntimeError(
            f"torch.{name} requires a tensor with at least {min_dims} dimension{'s' if min_dims > 1 else ''}, "
            f"but got a tensor with {input.dim()} dimensions!"
        )
    if isinstance(indices_or_sections, int):
        size = input.shape[dim]
        if indices_or_sections == 0 or size % indices_or_sections:
            raise RuntimeError(
                f"torch.{name} attempted to split along dimension {dim}, but the size of the dimension {size} "
                f"is not divisible by the split_size {indices_or_sections}!"
            )
    return tensor_split(input, indices_or_sections, dim)


@register(method=True)
def hsplit(input: Tensor, indices_or_sections=None, *, sections=None, indices=None) -> tuple:
    """tensor_split along dim 1 (dim 0 for a 1-D input); a section count must divide the size."""
    spec = _split_spec("hsplit", indices_or_sections, sections=sections, indices=indices)
    return _split_along("hsplit", 1, 1 if input.dim() > 1 else 0, input, spec)


@register(method=True)
def vsplit(input: Tensor, indices_or_sections=None, *, sections=None, indices=None) -> tuple:
    """tensor_split along dim 0 of an input with at least 2 dims; a section count must divide the size."""
    spec = _split_spec("vsplit", indices_or_sections, sections=sections, indices=indices)
    return _split_along("vsplit", 2, 0, input, spec)


@register(method=True)
def dsplit(input: Tensor, indices_or_sections=None, *, sections=None, indices=None) -> tuple:
    """tensor_split along dim 2 of an input with at least 3 dims; a section count must divide the size."""
    spec = _split_spec("dsplit", indices_or_sections, sections=sections, indices=indices)
    return _split_along("dsplit", 3, 2, input, spec)


@register
def split(tensor: Tensor, split_size_or_sections, dim: int = 0) -> tuple:
    """Views of `tensor` along dim: chunks of split_size_or_sections elements (the last one smaller), or
    one chunk per entry of a list of sizes (which must sum to the size of dim)."""
    if isinstance(split_size_or_sections, int) or (
        isinstance(split_size_or_sections, Tensor) and split_size_or_sections.dim() == 0
    ):
        return _split(tensor, int(split_size_or_sections), dim)
    sizes = [int(s) for s in split_size_or_sections]
    if tensor.dim() == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    n = tensor.size(dim)
    if sum(sizes) != n or any(s < 0 for s in sizes):
        raise RuntimeError(
            f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size at dimension "
            f"{dim}), but got split_sizes={sizes}"
        )
    out, start = [], 0
    for s in sizes:
        out.append(tensor.narrow(dim, start, s))
        start += s
    return tuple(out)


@register(name="split", function=False, method=True)
def _split_method(self: Tensor, split_size, dim: int = 0) -> tuple:
    """Tensor.split: torch.split with PyTorch's method argument names."""
    return split(self, split_size, dim)


@register
def meshgrid(*tensors, indexing: str | None = None) -> tuple:
    """Coordinate grids from 0-D/1-D tensors, as expanded views: with "ij" output i varies along dim i;
    with "xy" the first two dims are swapped (NumPy's default). No indexing warns and uses "ij"."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        import warnings  # noqa: PLC0415

        warnings.warn(
            "torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.",
            UserWarning,
            stacklevel=2,
        )
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in tensors:
        if t.dim() > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {t}")
        if t.dtype != tensors[0].dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
        if t.device != tensors[0].device:
            raise RuntimeError("meshgrid expects all tensors to have the same device")
    axis = list(range(len(tensors)))
    if indexing == "xy" and len(tensors) >= 2:
        axis[0], axis[1] = 1, 0
    shape = [0] * len(tensors)
    for t, a in zip(tensors, axis):
        shape[a] = t.numel()
    grids = []
    for t, a in zip(tensors, axis):
        view = [1] * len(tensors)
        view[a] = -1
        grids.append(t.reshape(view).expand(shape))
    return tuple(grids)


@register
def cartesian_prod(*tensors) -> Tensor:
    """Every combination of the elements of the 1-D inputs, one per row (itertools.product order); one
    input is returned as it is."""
    for t in tensors:
        if t.dim() != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)}")
    if len(tensors) == 1:
        return tensors[0]
    return torch.stack([g.reshape(-1) for g in meshgrid(*tensors, indexing="ij")], 1)
