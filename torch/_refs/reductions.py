"""Sums, means, moments and differences made of the generated reductions: trace, count_nonzero,
aminmax, var_mean/std_mean, nansum/nanmean, diff, and softmax/log_softmax (normalizations along a
dim). Dtypes, results and errors follow PyTorch."""

from __future__ import annotations

import torch
from torch import return_types
from torch._C import Tensor
from torch._dtypes import scalar_type
from torch._refs._dims import wrap_dim
from torch._registry import register


@register(method=True)
def trace(input: Tensor) -> Tensor:
    """The sum of the main diagonal of a matrix (integers sum in int64)."""
    if input.dim() != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.dim()}")
    if input.dtype == torch.bool:
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
    return torch.diagonal(input).sum()


@register(method=True)
def count_nonzero(input: Tensor, dim=None) -> Tensor:
    """How many elements are not zero, over all of input or along dim (an int or a tuple), as int64."""
    nonzero = input != 0
    return nonzero.sum() if dim is None else nonzero.sum(dim)


@register(method=True)
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
    d = wrap_dim(dim, input.dim())
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


@register
def var_mean(input: Tensor, *args, **kwargs) -> tuple:
    """(var, mean) over the same dims, with var's arguments (unbiased or correction, dim, keepdim)."""
    return _with_mean(torch.var, input, args, kwargs)


@register
def std_mean(input: Tensor, *args, **kwargs) -> tuple:
    """(std, mean) over the same dims, with std's arguments (unbiased or correction, dim, keepdim)."""
    return _with_mean(torch.std, input, args, kwargs)


def _check_float(name: str, input: Tensor) -> None:
    if not input.dtype.is_floating_point:
        raise RuntimeError(
            f"{name}(): expected input to have floating point or complex dtype but got {scalar_type(input.dtype)}"
        )


@register(method=True)
def nansum(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """sum with NaNs counted as zero."""
    x = torch.where(input.isnan(), torch.zeros_like(input), input) if input.dtype.is_floating_point else input
    if dim is None and not keepdim:
        return x.sum(dtype=dtype)
    return x.sum(tuple(range(input.dim())) if dim is None else dim, keepdim, dtype=dtype)


@register(method=True)
def nanmean(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """mean over the elements that are not NaN (NaN where there are none)."""
    _check_float("nanmean", input)
    kept = (~input.isnan()).sum(tuple(range(input.dim())) if dim is None else dim, keepdim)
    return nansum(input, dim, keepdim, dtype=dtype) / kept


@register(method=True)
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
    d = wrap_dim(dim, input.dim())
    parts = [p for p in (prepend, input, append) if p is not None]
    x = torch.cat(parts, d) if len(parts) > 1 else input
    for _ in range(n):
        size = x.shape[d]
        if size == 0:
            break
        later, earlier = x.narrow(d, 1, size - 1), x.narrow(d, 0, size - 1)
        x = later != earlier if x.dtype == torch.bool else later - earlier
    return x


def _floating(input: Tensor, dtype, op: str) -> Tensor:
    x = input if dtype is None else input.to(dtype)
    if not x.dtype.is_floating_point:
        raise RuntimeError(f"{op}(): expected a floating-point input (or dtype=), got {x.dtype}")
    return x


@register(method=True)
def log_softmax(input: Tensor, dim: int, dtype=None) -> Tensor:
    """log(softmax(input)) along dim: x - max - log(sum(exp(x - max))), one fused kernel (THNN/THCUNN)."""
    return torch._log_softmax(_floating(input, dtype, "log_softmax"), dim, False)


@register(method=True)
def softmax(input: Tensor, dim: int, dtype=None) -> Tensor:
    """exp(input) normalized to sum to 1 along dim (the max subtracted first), one fused kernel."""
    return torch._softmax(_floating(input, dtype, "softmax"), dim, False)
