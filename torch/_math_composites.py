"""Pointwise and reduction ops that are short compositions of the generated ones (square, addcmul,
addcdiv, logaddexp, deg2rad/rad2deg, signbit, isposinf/isneginf, trace, count_nonzero, aminmax,
var_mean/std_mean, nansum/nanmean): autograd and every device come from the ops they are made of.
Dtypes, results and errors follow PyTorch."""

from __future__ import annotations

import math

import torch
from torch import return_types
from torch._C import Tensor
from torch._shift import _NAMES  # PyTorch's dtype names, as its messages print them
from torch.functional import _wrap_dim

# the signed integer type of each float's width (signbit reads the sign bit through a view)
_SIGNED_BITS = {
    torch.float64: torch.int64,
    torch.float32: torch.int32,
    torch.float16: torch.int16,
    torch.bfloat16: torch.int16,
}

__all__ = [
    "square",
    "addcmul",
    "addcdiv",
    "logaddexp",
    "deg2rad",
    "rad2deg",
    "signbit",
    "isposinf",
    "isneginf",
    "trace",
    "count_nonzero",
    "aminmax",
    "var_mean",
    "std_mean",
    "nansum",
    "nanmean",
    "diff",
]


def _float_result(input: Tensor) -> Tensor:
    """input as the float dtype an integer input promotes to (the default dtype)."""
    return input if input.dtype.is_floating_point else input.to(torch.get_default_dtype())


def square(input: Tensor) -> Tensor:
    """input ** 2 (bool promotes to int64, as pow does)."""
    return torch.pow(input, 2)


def addcmul(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value=1) -> Tensor:
    """input + value * tensor1 * tensor2 (broadcast; the tensors promote, value is cast to their type,
    so an integer result truncates a float value, as in PyTorch)."""
    tensors = (input, tensor1, tensor2)
    if all(t.dtype == torch.bool for t in tensors):
        raise NotImplementedError(f"\"addcmul_{input.device.type}_out\" not implemented for 'Bool'")
    if not any(t.dtype.is_floating_point for t in tensors):
        value = int(value)
    return input + value * tensor1 * tensor2


def addcdiv(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value=1) -> Tensor:
    """input + value * tensor1 / tensor2 (true division; integer tensor1 and tensor2 are an error)."""
    if not tensor1.dtype.is_floating_point and not tensor2.dtype.is_floating_point:
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform "
            "a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as "
            "(input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as "
            "(input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the "
            "latter implementation: (input + value * tensor1 / tensor2), for all dtypes."
        )
    return input + value * tensor1 / tensor2


def logaddexp(input: Tensor, other: Tensor) -> Tensor:
    """log(exp(input) + exp(other)) without overflow: max + log1p(exp(-|input - other|)); equal infinities
    give that infinity."""
    dtype = torch.promote_types(input.dtype, other.dtype)
    if not dtype.is_floating_point:
        raise NotImplementedError(f"\"logaddexp_{input.device.type}\" not implemented for '{_NAMES[dtype]}'")
    a, b = input.to(dtype), other.to(dtype)
    m = torch.maximum(a, b)
    same_inf = (a == b) & a.isinf()
    safe = torch.where(same_inf, torch.zeros_like(m), (a - b).abs())
    return torch.where(same_inf, m, m + torch.log1p(torch.exp(-safe)))


def _scaled(input: Tensor, factor: float) -> Tensor:
    """input * factor in the result's float type; 16-bit floats multiply in float32 and round once (the
    factor is not rounded to 16 bits first, as in PyTorch's kernels)."""
    x = _float_result(input)
    if x.dtype in (torch.float16, torch.bfloat16):
        return (x.float() * factor).to(x.dtype)
    return x * factor


def deg2rad(input: Tensor) -> Tensor:
    """Degrees to radians (integers give the default float dtype)."""
    return _scaled(input, math.pi / 180.0)


def rad2deg(input: Tensor) -> Tensor:
    """Radians to degrees (integers give the default float dtype)."""
    return _scaled(input, 180.0 / math.pi)


def signbit(input: Tensor) -> Tensor:
    """Whether each element's sign bit is set: true for -0.0 and negative NaNs too (floats read as
    integers of their width); false for every unsigned or bool element."""
    bits = _SIGNED_BITS.get(input.dtype)
    if bits is not None:
        return input.detach().view(bits) < 0
    if input.dtype in (torch.bool, torch.uint8):
        return torch.zeros_like(input, dtype=torch.bool)
    return input < 0


def isposinf(input: Tensor) -> Tensor:
    """Whether each element is +inf (false everywhere for integer dtypes)."""
    if not input.dtype.is_floating_point:
        return torch.zeros_like(input, dtype=torch.bool)
    return input == math.inf


def isneginf(input: Tensor) -> Tensor:
    """Whether each element is -inf (false everywhere for integer dtypes)."""
    if not input.dtype.is_floating_point:
        return torch.zeros_like(input, dtype=torch.bool)
    return input == -math.inf


def trace(input: Tensor) -> Tensor:
    """The sum of the main diagonal of a matrix (integers sum in int64)."""
    if input.dim() != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.dim()}")
    if input.dtype == torch.bool:
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
    return torch.diagonal(input).sum()


def count_nonzero(input: Tensor, dim=None) -> Tensor:
    """How many elements are not zero, over all of input or along dim (an int or a tuple), as int64."""
    nonzero = input != 0
    return nonzero.sum() if dim is None else nonzero.sum(dim)


def aminmax(input: Tensor, *, dim=None, keepdim: bool = False):
    """(min, max) of input, over everything or along one dim, as torch.return_types.aminmax."""
    result = return_types.make("aminmax", ("min", "max"))
    if dim is None:
        if input.numel() == 0:
            raise RuntimeError(
                "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity."
            )
        lo, hi = input.amin(), input.amax()
        if keepdim:
            lo, hi = lo.reshape((1,) * input.dim()), hi.reshape((1,) * input.dim())
        return result(lo, hi)
    d = _wrap_dim(dim, input.dim())
    if input.dim() and input.shape[d] == 0:
        raise IndexError(f"aminmax: Expected reduction dim {d} to have non-zero size.")
    return result(input.amin(dim, keepdim), input.amax(dim, keepdim))


def _dim_keepdim(args: tuple, kwargs: dict) -> tuple:
    """The dim and keepdim of var/std's overloads: (unbiased), (dim, unbiased, keepdim) or
    (dim, *, correction, keepdim)."""
    if args and isinstance(args[0], bool):
        return None, False
    dim = args[0] if args else kwargs.get("dim")
    keepdim = args[2] if len(args) > 2 else kwargs.get("keepdim", False)
    return dim, keepdim


def _with_mean(moment, input: Tensor, args: tuple, kwargs: dict) -> tuple:
    value = moment(input, *args, **kwargs)
    dim, keepdim = _dim_keepdim(args, kwargs)
    if dim is None:
        mean = torch.mean(input)
        if keepdim:
            mean = mean.reshape((1,) * input.dim())
    else:
        mean = torch.mean(input, dim, keepdim)
    return value, mean


def var_mean(input: Tensor, *args, **kwargs) -> tuple:
    """(var, mean) over the same dims, with var's arguments (unbiased or correction, dim, keepdim)."""
    return _with_mean(torch.var, input, args, kwargs)


def std_mean(input: Tensor, *args, **kwargs) -> tuple:
    """(std, mean) over the same dims, with std's arguments (unbiased or correction, dim, keepdim)."""
    return _with_mean(torch.std, input, args, kwargs)


def _check_float(name: str, input: Tensor) -> None:
    if not input.dtype.is_floating_point:
        raise RuntimeError(
            f"{name}(): expected input to have floating point or complex dtype but got {_NAMES[input.dtype]}"
        )


def nansum(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """sum with NaNs counted as zero."""
    x = torch.where(input.isnan(), torch.zeros_like(input), input) if input.dtype.is_floating_point else input
    if dim is None and not keepdim:
        return x.sum(dtype=dtype)
    return x.sum(tuple(range(input.dim())) if dim is None else dim, keepdim, dtype=dtype)


def nanmean(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """mean over the elements that are not NaN (NaN where there are none)."""
    _check_float("nanmean", input)
    kept = (~input.isnan()).sum(tuple(range(input.dim())) if dim is None else dim, keepdim)
    return nansum(input, dim, keepdim, dtype=dtype) / kept


def diff(input: Tensor, n: int = 1, dim: int = -1, prepend: Tensor | None = None, append: Tensor | None = None):
    """The n-th forward difference along dim (x[i+1] - x[i], n times; bool: x[i+1] != x[i]), after
    prepend/append are concatenated along dim (same number of dims as input)."""
    if input.dim() == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    for extra in (prepend, append):
        if extra is not None and extra.dim() != input.dim():
            raise RuntimeError("diff expects prepend or append to be the same dimension as input")
    if n == 0:  # as NumPy: prepend/append are not even concatenated
        return input
    d = _wrap_dim(dim, input.dim())
    parts = [p for p in (prepend, input, append) if p is not None]
    x = torch.cat(parts, d) if len(parts) > 1 else input
    for _ in range(n):
        size = x.shape[d]
        if size == 0:
            break
        later, earlier = x.narrow(d, 1, size - 1), x.narrow(d, 0, size - 1)
        x = later != earlier if x.dtype == torch.bool else later - earlier
    return x
