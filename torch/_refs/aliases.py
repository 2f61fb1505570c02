"""PyTorch's other names for ops that exist under one name (NumPy's spellings: arccos, divide, greater, ...),
registered as the same callables, and the small methods that are one op on self (positive, argwhere,
where, fill_diagonal_, index_fill, index_copy, masked_scatter, sum_to_size, ...)."""

from __future__ import annotations

import torch
from torch import _C
from torch._C import Tensor
from torch._dtypes import scalar_type
from torch._registry import in_place, register
from torch.amp.autocast_mode import autocast_policy

# alias -> the op it names: torch.<alias>, Tensor.<alias> and Tensor.<alias>_ where the op has them
_ALIASES = {
    "absolute": "abs",
    "arccos": "acos",
    "arcsin": "asin",
    "arctan": "atan",
    "arccosh": "acosh",
    "arcsinh": "asinh",
    "arctanh": "atanh",
    "arctan2": "atan2",
    "divide": "div",
    "multiply": "mul",
    "subtract": "sub",
    "negative": "neg",
    "greater": "gt",
    "greater_equal": "ge",
    "less": "lt",
    "less_equal": "le",
    "not_equal": "ne",
    "fix": "trunc",
    "ger": "outer",
}


def _register_aliases() -> None:
    for alias, op in _ALIASES.items():
        register(getattr(_C, op), name=alias)
        register(getattr(Tensor, op), name=alias, function=False, method=True)
        if hasattr(Tensor, op + "_"):
            register(getattr(Tensor, op + "_"), name=alias + "_", function=False, method=True)


_register_aliases()


@register(method=True)
def positive(input: Tensor) -> Tensor:
    """input itself (unary plus); refused for bool, as in PyTorch."""
    if input.dtype == torch.bool:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


@register(method=True)
def argwhere(input: Tensor) -> Tensor:
    """The indices of input's nonzero elements, one row each ([N, input.dim()])."""
    return torch.nonzero(input)


@register(method=True, out="exact")
def vdot(input: Tensor, other: Tensor) -> Tensor:
    """The dot product of two 1-D tensors, conjugating the first (the same as dot for real tensors)."""
    return torch.dot(input.conj() if input.is_complex() else input, other)


@register(method=True, numbers=False)
@autocast_policy(cuda="fp32")
def dist(input: Tensor, other: Tensor, p=2) -> Tensor:
    """The p-norm of input - other (broadcast)."""
    return torch.norm(input - other, p)


@register(name="where", function=False, method=True)
def _where_method(self: Tensor, condition: Tensor, other) -> Tensor:
    """self where condition holds, else other (torch.where(condition, self, other))."""
    return torch.where(condition, self, other)


@register(name="broadcast_to", function=False, method=True)
def _broadcast_to_method(self: Tensor, *sizes, size=None) -> Tensor:
    """self broadcast to size (a view; a sequence, the sizes as arguments or size=), as torch.broadcast_to."""
    return torch.broadcast_to(self, _size_arg(sizes, size))


def _size_arg(sizes: tuple, size) -> tuple:
    """A method's size given as a sequence, as the sizes themselves (x.new_zeros(2, 3)) or as size= (upstream's
    keyword for it)."""
    if size is not None:
        if sizes:
            raise TypeError("size given both as arguments and as size=")
        sizes = (size,)
    return tuple(sizes[0]) if len(sizes) == 1 and not isinstance(sizes[0], int) else tuple(sizes)


@register(function=False, method=True)
def split_with_sizes(self: Tensor, split_sizes, dim: int = 0) -> tuple:
    """self split along dim into pieces of split_sizes (which must add up to its size)."""
    if sum(split_sizes) != self.shape[dim]:
        raise RuntimeError(
            f"split_with_sizes expects split_sizes to sum exactly to {self.shape[dim]} (input tensor's size at "
            f"dimension {dim}), but got split_sizes={list(split_sizes)}"
        )
    return torch.split(self, list(split_sizes), dim)


@register(function=False, method=True)
def sum_to_size(self: Tensor, *sizes, size=None) -> Tensor:
    """self summed down to `size`, which it must broadcast from (autograd's reduction of a broadcast gradient)."""
    shape = _size_arg(sizes, size)
    if torch.broadcast_shapes(shape, self.shape) != self.shape:
        raise RuntimeError(f"size {{{', '.join(map(str, shape))}}} is not expandable to size {list(self.shape)}.")
    if not shape:  # upstream's sum_to: a full sum, so an integer or bool self sums to int64
        return self.sum()
    lead = self.dim() - len(shape)
    dims = list(range(lead)) + [lead + i for i, n in enumerate(shape) if n == 1 and self.shape[lead + i] != 1]
    out = self.sum(dims, keepdim=True) if dims else self
    return out.reshape(shape)


@register(function=False, method=True)
def is_nonzero(self: Tensor) -> bool:
    """The truth of a one-element tensor (an error for any other size)."""
    if self.numel() != 1:
        raise RuntimeError(
            "Boolean value of Tensor with no values is ambiguous"
            if self.numel() == 0
            else "Boolean value of Tensor with more than one value is ambiguous"
        )
    return bool(self.item())


@register(function=False, method=True)
def is_same_size(self: Tensor, other: Tensor) -> bool:
    """Whether self and other have the same shape."""
    return self.shape == other.shape


@register(function=False, method=True)
def get_device(self: Tensor) -> int:
    """The index of self's CUDA device, -1 on the CPU."""
    return -1 if self.device.type == "cpu" else self.device.index


register(property(lambda self: self.device.type == "cpu", doc="Whether the tensor is on the CPU."), name="is_cpu",
         function=False, method=True)  # fmt: skip


def _first_out_of_bounds(index: Tensor, size: int, negative: bool):
    """The first element of index (in order) outside [-size, size) (negative) or [0, size), or None."""
    lowest = -size if negative else 0
    bad = (index < lowest) | (index >= size)
    return int(index[bad][0]) if bool(bad.any()) else None


@register(method=True, inplace=True)
def index_fill(input: Tensor, dim: int, index: Tensor, value) -> Tensor:
    """input with the slices `index` (int64; negative ones count from the end) along dim set to value (a
    number or a 0-dim tensor)."""
    if index.dtype != torch.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    if index.dim() > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    if isinstance(value, Tensor) and value.dim() != 0:
        raise RuntimeError(
            f"index_fill_ only supports a 0-dimensional value tensor, but got tensor with {value.dim()} dimension(s)."
        )
    d = dim % max(input.dim(), 1) if -max(input.dim(), 1) <= dim < max(input.dim(), 1) else dim
    n = input.shape[d] if input.dim() else 1
    index = index.reshape(-1)
    bad = _first_out_of_bounds(index, n, negative=True)
    if bad is not None:
        raise IndexError(f"index {bad} is out of bounds for dimension {d} with size {n}")
    mask = torch.zeros(n, dtype=torch.bool, device=input.device)
    mask[index] = True
    shape = [1] * input.dim()
    if input.dim():
        shape[d] = n
    return input.masked_fill(mask.reshape(shape), value)


def _check_index_copy(input: Tensor, d: int, index: Tensor, source: Tensor) -> None:
    """index_copy's checks, in upstream's order and with its messages."""
    if index.dim() > 1:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {index.dim()})")
    if source.dim() and input.dim() and source.dim() != input.dim():
        raise IndexError(
            "index_copy_(): When source and destination are not scalars, their dimensionality must match. "
            f"Source dimensionality ({source.dim()}), destination dimensionality ({input.dim()})"
        )
    n = index.numel()
    along = source.shape[d] if source.dim() else 1
    if n != along:
        raise IndexError(f"index_copy_(): Number of indices ({n}) should be equal to source.size(dim) ({along})")
    if source.dim() and input.dim():
        dst = [s for k, s in enumerate(input.shape) if k != d]
        src = [s for k, s in enumerate(source.shape) if k != d]
        if dst != src:
            raise RuntimeError(
                "index_copy_(): Source/destination tensor must have same slice shapes. Destination slice shape: "
                f"{' '.join(map(str, dst))} at dimension {d} and source slice shape: {' '.join(map(str, src))} "
                "at dimension 0."
            )
    if index.dtype != torch.int64:
        raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got {scalar_type(index.dtype)}")
    if input.dtype != source.dtype:
        raise RuntimeError(
            "index_copy_(): self and source expected to have the same dtype, but got (self) "
            f"{scalar_type(input.dtype)} and (source) {scalar_type(source.dtype)}"
        )
    size = input.shape[d] if input.dim() else 1
    bad = _first_out_of_bounds(index.reshape(-1), size, negative=False)
    if bad is not None:
        raise IndexError(f"index_copy_(): index {bad} is out of bounds for dimension {d} with size {size}")


@register(method=True, inplace=True, out="exact")
@autocast_policy(cpu="promote", cuda="promote")
def index_copy(input: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
    """input with its slices `index` (int64, in [0, size)) along dim replaced by source's slices, in order: a
    repeated index takes the last of its slices. A copy (an assignment through the index), so values are not
    combined: infinities and NaN in input do not reach the result."""
    rank = max(input.dim(), 1)
    if not -rank <= dim < rank:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-rank}, {rank - 1}], but got {dim})")
    d = dim % rank
    _check_index_copy(input, d, index, source)
    out = input.clone()
    if index.numel() == 0:
        return out
    if input.dim() == 0:
        out[...] = source.reshape(())
        return out
    shape = list(input.shape)
    shape[d] = index.numel()
    out[(slice(None),) * d + (index.reshape(-1),)] = source.reshape(shape)
    return out


@register(method=True, inplace=True)
def masked_scatter(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    """input with the positions where mask (broadcast) holds taken from source's elements, in row-major order."""
    if mask.dtype != torch.bool:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype {mask.dtype}")
    if input.dtype != source.dtype:
        raise RuntimeError(
            f"masked_scatter: expected self and source to have same dtypes but got{scalar_type(input.dtype)} and "
            f"{scalar_type(source.dtype)}"
        )
    m = mask.expand(torch.broadcast_shapes(mask.shape, input.shape))
    out = input.expand(m.shape).clone()
    n = int(m.sum().item())
    if n > source.numel():
        raise RuntimeError("masked_scatter: expected source to have at least as many elements as ones in mask")
    out[m] = source.reshape(-1)[:n].to(out.dtype)
    return out


@register(function=False, method=True)
def fill_diagonal_(self: Tensor, fill_value, wrap: bool = False) -> Tensor:
    """Fills the main diagonal of self (2-D, or every dim of one size) with fill_value, in place; with wrap, a
    tall matrix's diagonal starts again after every N + 1 rows (NumPy's fill_diagonal)."""
    if self.dim() < 2:
        raise RuntimeError("dimensions must larger than 1")
    if self.dim() > 2 and len(set(self.shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    n = min(self.shape)
    if self.dim() == 2 and wrap and self.shape[0] > self.shape[1] + 1:
        flat = self.view(-1)
        step = self.shape[1] + 1
        flat[torch.arange(0, self.numel(), step, device=self.device)] = fill_value
        return self
    idx = torch.arange(n, device=self.device)
    self[(idx,) * self.dim()] = fill_value
    return self


register(in_place(_C.cumsum, "cumsum_"), name="cumsum_", function=False, method=True)
register(in_place(_C.cumprod, "cumprod_"), name="cumprod_", function=False, method=True)
register(in_place(_C.bitwise_not, "bitwise_not_"), name="bitwise_not_", function=False, method=True)


register(lambda self: self.data_ptr(), name="const_data_ptr", function=False, method=True)
