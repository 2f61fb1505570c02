"""Views: movedim/moveaxis, swapaxes/swapdims, diagonal, broadcast_to/broadcast_tensors (and
broadcast_shapes), the shape-alike methods (expand_as, view_as, reshape_as), T and mT, and the
in-place view methods (t_, transpose_, ...). Each tensor they return shares its input's memory."""

from __future__ import annotations

import warnings

import torch
from torch._C import Tensor, transpose
from torch._refs._dims import wrap_dim
from torch._registry import register

# NumPy's names of transpose (a generated op): swapdims takes its dim0/dim1, swapaxes NumPy's axis0/axis1
register(transpose, name="swapdims")
register(Tensor.transpose, name="swapdims", function=False, method=True)


@register(method=True)
def swapaxes(input: Tensor, axis0: int, axis1: int) -> Tensor:
    """input with dims axis0 and axis1 swapped: a view (transpose under NumPy's name)."""
    return transpose(input, axis0, axis1)


@register(method=True, aliases=("moveaxis",))
def movedim(input: Tensor, source, destination) -> Tensor:
    """A view with the dims in `source` moved to the positions in `destination` (the others keep their order)."""
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    n = input.dim()
    if len(src) != len(dst):
        raise RuntimeError(
            f"movedim: Invalid source or destination dims: source ({src} dims) should contain the same number "
            f"of dims as destination ({dst} dims)"
        )

    src, dst = [wrap_dim(d, n) for d in src], [wrap_dim(d, n) for d in dst]
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise RuntimeError("movedim: repeated dim in `source` or `destination`")
    if n == 0:  # dim 0 (or -1) of a 0-dim tensor: itself, as a view
        return input.view(())
    order = [None] * n
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter(d for d in range(n) if d not in src)
    return input.permute([o if o is not None else next(rest) for o in order])


@register(method=True)
def diagonal(input: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """A view of the diagonal of dims (dim1, dim2), shifted by offset; it becomes the last dim."""
    n = input.dim()
    d1, d2 = wrap_dim(dim1, n), wrap_dim(dim2, n)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    size, stride = list(input.shape), list(input.stride())
    start = input.storage_offset()
    if offset >= 0:
        length = max(0, min(size[d1], size[d2] - offset))
        start += offset * stride[d2] if length else 0
    else:
        length = max(0, min(size[d1] + offset, size[d2]))
        start += -offset * stride[d1] if length else 0
    keep = [d for d in range(n) if d not in (d1, d2)]
    return input.as_strided(
        [size[d] for d in keep] + [length], [stride[d] for d in keep] + [stride[d1] + stride[d2]], start
    )


@register
def broadcast_to(input: Tensor, size) -> Tensor:
    """input expanded (a view) to `size`, as broadcasting would."""
    return input.expand(size)


@register
def broadcast_tensors(*tensors) -> tuple:
    """The tensors expanded (views) to their common broadcast shape."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    shape = broadcast_shapes(*(t.shape for t in tensors))
    return tuple(t.expand(shape) for t in tensors)


@register
def broadcast_shapes(*shapes) -> torch.Size:
    """The shape tensors of these shapes broadcast to (RuntimeError if they cannot)."""
    out: list = []
    for shape in shapes:
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        if len(shape) > len(out):
            out = [1] * (len(shape) - len(out)) + out
        for i, n in enumerate(shape):
            j = len(out) - len(shape) + i
            if n != out[j] and n != 1 and out[j] != 1:
                raise RuntimeError(
                    f"Shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg "
                    f"and {n} at dimension {i}"
                )
            if out[j] == 1:
                out[j] = n
    return torch.Size(out)


@register(function=False, method=True)
def expand_as(self: Tensor, other: Tensor) -> Tensor:
    """self expanded to other's shape."""
    return self.expand(other.shape)


@register(function=False, method=True)
def view_as(self: Tensor, other: Tensor) -> Tensor:
    """self viewed with other's shape."""
    return self.view(other.shape)


@register(function=False, method=True)
def reshape_as(self: Tensor, other: Tensor) -> Tensor:
    """self reshaped to other's shape."""
    return self.reshape(other.shape)


@register(function=False, method=True)
@property
def T(self: Tensor) -> Tensor:
    """Dims reversed."""
    return self.permute(list(reversed(range(self.dim()))))


@register(function=False, method=True)
@property
def mT(self: Tensor) -> Tensor:
    """The last two dims swapped (a 0-D tensor: itself, deprecated upstream)."""
    if self.dim() < 2:
        if self.dim() == 1:
            raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.")
        warnings.warn(
            "Tensor.mT is deprecated on 0-D tensors. This function is the identity in these cases.",
            UserWarning,
            stacklevel=2,
        )
    return self.transpose(-2, -1) if self.dim() else self.view(())


def _inplace_view(view, name: str):
    """The in-place form of a view op (t_, transpose_, ...): self takes the view's sizes, strides
    and offset, as PyTorch's in-place view ops do."""

    def method(self, *args, **kwargs):
        v = view(self, *args, **kwargs)
        return self.as_strided_(v.shape, v.stride(), v.storage_offset())

    method.__name__ = name
    method.__doc__ = f"{view.__name__} in place: self becomes that view of its storage."
    return method


for _view in ("t", "transpose", "squeeze", "unsqueeze"):
    register(_inplace_view(getattr(Tensor, _view), _view + "_"), function=False, method=True)
register(_inplace_view(Tensor.transpose, "swapdims_"), function=False, method=True)
register(_inplace_view(swapaxes, "swapaxes_"), function=False, method=True)


@register(method=True)
def slice_inverse(input: Tensor, src: Tensor, dim: int = 0, start=None, end=None, step: int = 1) -> Tensor:
    """The inverse of `input = src[start:end:step]` along dim, as functionalization uses it: the view of input's
    storage with src's sizes, strides and offset (upstream's: out of input's storage bounds is an error)."""
    return input.as_strided(src.shape, src.stride(), src.storage_offset())


@register(method=True)
def ravel(input: Tensor) -> Tensor:
    """input flattened to 1-D and contiguous: a view of a contiguous input, else a copy (upstream's
    contiguous().view(-1), unlike reshape, which also views some non-contiguous inputs)."""
    return input.contiguous().view(-1)


@register(function=False, method=True)
def unfold(self: Tensor, dimension: int, size: int, step: int) -> Tensor:
    """A view of every slice of `size` elements along `dimension`, `step` apart, in a new last dim of that size
    (the windows share self's memory)."""
    d = wrap_dim(dimension, max(self.dim(), 1))
    length = self.shape[d] if self.dim() else 1
    if size > length:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {length} but size is {size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    if self.dim() == 0:
        return self.reshape(1)
    count = (length - size) // step + 1
    if self.requires_grad and torch.is_grad_enabled() and not self.is_contiguous():
        # the gradient of a strided view is known for contiguous bases only: gather the windows instead (a copy)
        index = torch.arange(count, device=self.device).unsqueeze(1) * step + torch.arange(size, device=self.device)
        windows = self.index_select(d, index.reshape(-1))
        windows = windows.reshape(self.shape[:d] + (count, size) + self.shape[d + 1 :])
        return windows.movedim(d + 1, -1)
    shape, strides = list(self.shape), list(self.stride())
    shape[d] = count
    strides[d] = strides[d] * step
    return self.as_strided(shape + [size], strides + [self.stride(d)], self.storage_offset())
