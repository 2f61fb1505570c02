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
from torch.amp.autocast_mode import autocast_policy


@register(method=True)
@autocast_policy(cpu="fp32")
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


@register(method=True, out="castable")
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


@register(method=True, out="castable")
def nansum(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """sum with NaNs counted as zero."""
    if input.is_complex():
        raise RuntimeError("nansum does not support complex inputs")
    x = torch.where(input.isnan(), torch.zeros_like(input), input) if input.dtype.is_floating_point else input
    if dim is None and not keepdim:
        return x.sum(dtype=dtype)
    return x.sum(tuple(range(input.dim())) if dim is None else dim, keepdim, dtype=dtype)


@register(method=True, out="castable")
def nanmean(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """mean over the elements that are not NaN (NaN where there are none)."""
    _check_float("nanmean", input)
    kept = (~input.isnan()).sum(tuple(range(input.dim())) if dim is None else dim, keepdim)
    return nansum(input, dim, keepdim, dtype=dtype) / kept


@register(method=True, out="castable")
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


def _floating(input: Tensor, dtype, dim: int, op: str) -> Tensor:
    """input cast to dtype: floating for the kernel, or an empty non-floating tensor (upstream returns it as it
    is); upstream's NotImplementedError for a non-empty non-floating one."""
    x = input if dtype is None else input.to(dtype)
    if not x.dtype.is_floating_point:
        d = wrap_dim(dim, x.dim())  # checked for an empty one too
        if x.numel() != 0:
            kernel = f"{op}_lastdim_kernel_impl" if d == max(x.dim() - 1, 0) else f"{op}_kernel_impl"
            raise NotImplementedError(f"\"{kernel}\" not implemented for '{scalar_type(x.dtype)}'")
    return x


@register(method=True, out="exact")
@autocast_policy(cuda="fp32")
def log_softmax(input: Tensor, dim: int, dtype=None) -> Tensor:
    """log(softmax(input)) along dim: x - max - log(sum(exp(x - max))), one fused kernel (THNN/THCUNN)."""
    x = _floating(input, dtype, dim, "log_softmax")
    return torch._log_softmax(x, dim, False) if x.dtype.is_floating_point else x.clone()


@register(method=True, out="exact")
@autocast_policy(cuda="fp32")
def softmax(input: Tensor, dim: int, dtype=None) -> Tensor:
    """exp(input) normalized to sum to 1 along dim (the max subtracted first), one fused kernel."""
    x = _floating(input, dtype, dim, "softmax")
    return torch._softmax(x, dim, False) if x.dtype.is_floating_point else x.clone()


def _spacing_steps(spacing, dims, input):
    """Per dim: a float step, or a 1-D tensor of coordinates (torch.gradient's spacing forms; None is a step of 1)."""
    if spacing is None or isinstance(spacing, (int, float)):
        return [1.0 if spacing is None else float(spacing)] * len(dims)
    spacing = list(spacing)
    if len(spacing) == 1 and len(dims) > 1 and not isinstance(spacing[0], Tensor):
        spacing = spacing * len(dims)
    if len(spacing) != len(dims):
        raise RuntimeError(
            f"torch.gradient expected spacing to be unspecified, a scalar, or a list of length equal to 'self.dim() "
            f"= {input.dim()}', since dim argument was not given, but got a list of length {len(spacing)}"
        )
    return [s if isinstance(s, Tensor) else float(s) for s in spacing]


def _gradient_along(f: Tensor, d: int, step, edge_order: int) -> Tensor:
    n = f.shape[d]
    sl = lambda a, b: f.narrow(d, a, b - a)  # noqa: E731
    if isinstance(step, Tensor):  # coordinates: NumPy's second-order formula for uneven steps
        x = step.to(f.dtype.to_real() if f.dtype._differentiable else torch.get_default_dtype())
        shape = [1] * f.dim()
        shape[d] = -1
        dx = (x[1:] - x[:-1]).reshape(shape)
        dx1, dx2 = dx.narrow(d, 0, n - 2), dx.narrow(d, 1, n - 2)
        a = -dx2 / (dx1 * (dx1 + dx2))
        b = (dx2 - dx1) / (dx1 * dx2)
        c = dx1 / (dx2 * (dx1 + dx2))
        interior = a * sl(0, n - 2) + b * sl(1, n - 1) + c * sl(2, n)
        h = [dx.narrow(d, i, 1) for i in (0, 1, n - 3, n - 2)] if n > 2 else [dx] * 4
    else:
        interior = (sl(2, n) - sl(0, n - 2)) / (2 * step)
        h = [step] * 4
    if edge_order == 1:
        first = (sl(1, 2) - sl(0, 1)) / h[0]
        last = (sl(n - 1, n) - sl(n - 2, n - 1)) / h[3]
    else:  # NumPy's one-sided second-order formulas (for even steps: (-3 f0 + 4 f1 - f2) / 2h)
        d1, d2 = h[0], h[1]
        first = (-(2 * d1 + d2) / (d1 * (d1 + d2)) * sl(0, 1) + (d1 + d2) / (d1 * d2) * sl(1, 2)
                 - d1 / (d2 * (d1 + d2)) * sl(2, 3))  # fmt: skip
        d1, d2 = h[2], h[3]
        last = (d2 / (d1 * (d1 + d2)) * sl(n - 3, n - 2) - (d1 + d2) / (d1 * d2) * sl(n - 2, n - 1)
                + (2 * d2 + d1) / (d2 * (d1 + d2)) * sl(n - 1, n))  # fmt: skip
    return torch.cat([first, interior, last], d)


@register
def gradient(input: Tensor, *, spacing=1, dim=None, edge_order: int = 1):
    """The derivative estimates of input along each of dim (every dim by default), as NumPy's gradient:
    central differences inside, one-sided ones of order edge_order (1 or 2) at the ends; spacing is a step, a
    step per dim, or a coordinate tensor per dim."""
    if edge_order not in (1, 2):
        raise RuntimeError(f"torch.gradient only supports edge_order=1 and edge_order=2, but got {edge_order}.")
    dims = list(range(input.dim())) if dim is None else ([dim] if isinstance(dim, int) else list(dim))
    dims = [wrap_dim(d, input.dim()) for d in dims]
    steps = _spacing_steps(spacing, dims, input)
    f = input if input.dtype._differentiable else input.to(torch.get_default_dtype())
    for d in dims:
        if input.shape[d] < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least edge_order+1")
    return tuple(_gradient_along(f, d, s, edge_order) for d, s in zip(dims, steps))
