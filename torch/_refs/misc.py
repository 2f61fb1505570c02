"""The rest of torch's namespace that is one step from what exists: the constants (e, pi, inf, nan, newaxis),
torch.strided (the only layout), the torch.<op>_ in-place forms of the methods, window functions, isin,
unravel_index, trapz/cumulative_trapezoid, rsub, scalar_tensor, fill, range, empty_strided, randint_like, and the
torch-namespace norms and pools with their own argument orders (batch_norm, instance_norm, constant_pad_nd,
adaptive_max_pool1d, max_pool1d_with_indices, rms_norm)."""

from __future__ import annotations

import itertools
import math
import operator
import warnings
from collections.abc import Sequence

import torch
from torch._C import Tensor, contiguous_format
from torch._dtypes import scalar_type
from torch._refs._dims import wrap_dim
from torch._refs.creation import factory_result
from torch._registry import register
from torch._warnings import user_stacklevel
from torch.amp.autocast_mode import autocast_policy
from torch.autograd._stepwise import record_stepwise

for _name, _value in (("e", math.e), ("pi", math.pi), ("inf", math.inf), ("nan", math.nan), ("newaxis", None)):
    register(_value, name=_name)


class layout:
    """A tensor's memory layout: torch.strided (dense, with strides) is the only one here."""

    def __init__(self, name: str):
        self._name = name

    def __repr__(self) -> str:
        return f"torch.{self._name}"

    def __reduce__(self):
        return (getattr, (torch, self._name))


strided = layout("strided")
register(layout, name="layout")
register(strided, name="strided")
register(property(lambda self: strided, doc="The memory layout: torch.strided."), name="layout", function=False,
         method=True)  # fmt: skip

# torch.<name>_(input, ...) is input.<name>_(...) for these methods
_IN_PLACE = (
    "arccos_", "arccosh_", "arcsin_", "arcsinh_", "arctan_", "arctanh_", "deg2rad_", "rad2deg_", "fix_", "gcd_",
    "lcm_", "ldexp_", "logit_", "negative_", "nan_to_num_", "square_", "xlogy_", "addmv_", "zero_",
    "conj_physical_", "resize_as_", "detach_", "index_put_", "as_strided_",
)  # fmt: skip


def _method_as_function(name: str):
    def fn(input: Tensor, *args, **kwargs):
        return getattr(input, name)(*args, **kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"input.{name}(...): the method as a function."
    return fn


for _name in (*_IN_PLACE, "detach", "is_nonzero", "is_same_size", "is_signed", "get_device", "split_with_sizes"):
    register(_method_as_function(_name), name=_name)


@register
def rsub(input: Tensor, other, *, alpha=1) -> Tensor:
    """other - alpha * input (subtraction with the operands swapped; other may be a number)."""
    if isinstance(other, Tensor):
        return torch.sub(other, input, alpha=alpha)
    return other - (input if alpha == 1 else alpha * input)


@register
def scalar_tensor(
    s, *, dtype=None, layout=None, device=None, requires_grad: bool = False, pin_memory: bool = False
) -> Tensor:
    """A 0-dim tensor holding s, of dtype (the default float dtype unless given)."""
    return torch.full((), s, dtype=dtype or torch.get_default_dtype(), layout=layout, device=device,
                      pin_memory=pin_memory, requires_grad=requires_grad)  # fmt: skip


@register
def fill(input: Tensor, value) -> Tensor:
    """A tensor like input, every element value; a tensor value gets the sum of the gradient, input zeros."""
    if not isinstance(value, Tensor):
        return record_stepwise(torch.full_like(input, value), [input], ["zeros"])
    return record_stepwise(torch.full_like(input, value.item()), [input, value], ["zeros", "grad"])


@register(name="range", out="castable")
def range_(start=0, end=None, step=1, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """Deprecated (as in PyTorch): start, start + step, ... up to and including end; use torch.arange."""
    warnings.warn(
        "torch.range is deprecated and will be removed in a future release because its behavior is inconsistent "
        "with Python's range builtin. Instead, use torch.arange, which produces values in [start, end).",
        UserWarning,
        stacklevel=2,
    )
    if end is None:
        start, end = 0, start
    count = int(math.floor((end - start) / step)) + 1
    dtype = dtype or torch.get_default_dtype()
    if dtype == torch.bool or dtype.is_complex:
        kind = torch.device(device).type if device is not None else torch.empty(0).device.type
        raise NotImplementedError(f"\"range_{kind}\" not implemented for '{scalar_type(dtype)}'")
    exact = not dtype.is_floating_point and not dtype.is_complex and all(type(v) is int for v in (start, step))
    # integer values in integer arithmetic (float64 rounds past 2**53)
    out = torch.arange(count, dtype=torch.int64 if exact else torch.float64, device=device) * step + start
    return out.to(dtype).requires_grad_(requires_grad)


@register
def empty_strided(size, stride, *, dtype=None, device=None, requires_grad: bool = False, layout=None,
                  pin_memory: bool = False) -> Tensor:  # fmt: skip
    """An uninitialized tensor of size with the given strides (over a storage just large enough)."""
    extent = 1 + sum((n - 1) * s for n, s in zip(size, stride)) if all(n > 0 for n in size) else 0
    if pin_memory:
        if device is not None and torch.device(device).type != "cpu":
            raise RuntimeError("Only dense CPU tensors can be pinned")
        base = torch._C._empty_pinned([extent], dtype or torch.get_default_dtype())
    else:
        base = torch.empty(extent, dtype=dtype, layout=layout, device=device)
    return base.as_strided(tuple(size), tuple(stride)).requires_grad_(requires_grad)


@register
def randint_like(
    input: Tensor, low=0, high=None, *, generator=None, dtype=None, layout=None, device=None,
    pin_memory: bool = False, requires_grad: bool = False, memory_format=None,
) -> Tensor:  # fmt: skip
    """Random integers in [low, high) (randint_like(input, high) means [0, high)) of input's shape and layout
    (memory_format, default preserve_format, as torch.empty_like's)."""
    if high is None:
        low, high = 0, low
    out = torch.empty_like(input, dtype=dtype, layout=layout, device=device, pin_memory=pin_memory,
                           memory_format=memory_format)  # fmt: skip
    draws = torch.randint(low, high, tuple(input.shape), generator=generator, dtype=out.dtype, device=out.device)
    return out.copy_(draws).requires_grad_(requires_grad)


def _window(name: str, length: int, periodic: bool, dtype, device, fn) -> Tensor:
    if length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length={length}")
    dtype = dtype or torch.get_default_dtype()
    if length <= 1:
        return torch.ones(length, dtype=dtype, device=device)
    n = length if periodic else length - 1
    k = torch.arange(length, dtype=torch.float64, device=device)
    return fn(k, n).to(dtype)


@register
def hann_window(window_length: int, periodic: bool = True, *, dtype=None, device=None, layout=None,
                requires_grad: bool = False, pin_memory: bool = False) -> Tensor:  # fmt: skip
    """0.5 - 0.5 cos(2 pi k / N) (N = length, or length - 1 when not periodic)."""
    return factory_result(_window("hann_window", window_length, periodic, dtype, device,
                   lambda k, n: 0.5 - 0.5 * torch.cos(2 * math.pi * k / n)), pin_memory, requires_grad)  # fmt: skip


@register
def hamming_window(window_length: int, periodic: bool = True, alpha: float = 0.54, beta: float = 0.46, *,
                   dtype=None, device=None, layout=None, requires_grad: bool = False,
                   pin_memory: bool = False) -> Tensor:  # fmt: skip
    """alpha - beta cos(2 pi k / N)."""
    w = _window("hamming_window", window_length, periodic, dtype, device,
                lambda k, n: alpha - beta * torch.cos(2 * math.pi * k / n))  # fmt: skip
    return factory_result(w, pin_memory, requires_grad)


@register
def blackman_window(window_length: int, periodic: bool = True, *, dtype=None, device=None, layout=None,
                    requires_grad: bool = False, pin_memory: bool = False) -> Tensor:  # fmt: skip
    """0.42 - 0.5 cos(2 pi k / N) + 0.08 cos(4 pi k / N)."""
    return factory_result(_window("blackman_window", window_length, periodic, dtype, device,
                   lambda k, n: 0.42 - 0.5 * torch.cos(2 * math.pi * k / n) + 0.08 * torch.cos(4 * math.pi * k / n),
                   ), pin_memory, requires_grad)  # fmt: skip


@register
def bartlett_window(window_length: int, periodic: bool = True, *, dtype=None, device=None, layout=None,
                    requires_grad: bool = False, pin_memory: bool = False) -> Tensor:  # fmt: skip
    """The triangular window 1 - |2k / N - 1|."""
    return factory_result(_window("bartlett_window", window_length, periodic, dtype, device,
                   lambda k, n: 1 - (2 * k / n - 1).abs()), pin_memory, requires_grad)  # fmt: skip


@register
def kaiser_window(window_length: int, periodic: bool = True, beta: float = 12.0, *, dtype=None, device=None,
                  layout=None, requires_grad: bool = False, pin_memory: bool = False) -> Tensor:  # fmt: skip
    """I0(beta sqrt(1 - (2k / N - 1)^2)) / I0(beta) (torch.special.i0's kernel)."""
    w = _window("kaiser_window", window_length, periodic, dtype, device,
                lambda k, n: torch.i0(beta * (1 - (2 * k / n - 1) ** 2).clamp(min=0).sqrt()) / torch.i0(
                    torch.tensor(float(beta), dtype=torch.float64, device=device)))  # fmt: skip
    return factory_result(w, pin_memory, requires_grad)


@register(out="exact")
def isin(
    elements=None, test_elements=None, *, assume_unique: bool = False, invert: bool = False, element=None,
    test_element=None,
) -> Tensor:  # fmt: skip
    """Whether each of elements is among test_elements (either may be a number, also named element= and
    test_element= then, as upstream's overloads): a binary search of the sorted test elements, O((n + m) log m)."""
    elements = element if elements is None else elements
    test_elements = test_element if test_elements is None else test_elements
    if elements is None or test_elements is None:
        raise TypeError("isin() missing the elements or the test elements")
    like = elements if isinstance(elements, Tensor) else test_elements
    e = elements if isinstance(elements, Tensor) else torch.tensor(elements, device=like.device)
    t = test_elements if isinstance(test_elements, Tensor) else torch.tensor(test_elements, device=like.device)
    for x in (e, t):
        if x.dtype == torch.bool or x.dtype.is_complex:
            raise RuntimeError(f"Unsupported input type encountered for isin(): {scalar_type(x.dtype)}")
    dtype = torch.promote_types(e.dtype, t.dtype)
    s = t.reshape(-1).to(dtype).sort().values
    if s.numel() == 0:
        found = torch.zeros(e.shape, dtype=torch.bool, device=e.device)
    else:
        ev = e.to(dtype)
        at = torch.searchsorted(s, ev.reshape(-1)).clamp(max=s.numel() - 1).reshape(ev.shape)
        found = s[at] == ev
    return ~found if invert else found


@register
def unravel_index(indices, shape) -> tuple:
    """The coordinates in a tensor of `shape` of flat (row-major) indices, one tensor per dim. As upstream's,
    an index is taken modulo each dim (a negative or too-large index wraps around) and a 0 in shape raises."""
    if not isinstance(indices, Tensor):
        raise TypeError(f"expected 'indices' to be a Tensor, but got {type(indices)}")
    if indices.dtype.is_floating_point or indices.dtype.is_complex or indices.dtype == torch.bool:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    if not isinstance(shape, (int, Sequence)) or isinstance(shape, bool):
        raise TypeError(f"expected 'shape' to be int or sequence of ints, but got {type(shape)}")
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    for n in shape:
        if not isinstance(n, int):
            raise TypeError(f"expected 'shape' sequence to only contain ints, but got a {type(n)}")
    if any(n < 0 for n in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {shape}")
    if 0 in shape:
        raise RuntimeError("ZeroDivisionError")
    # the stride of each dim (row-major); the last dim's coordinate is the index modulo its size
    strides = list(itertools.accumulate(reversed(shape[1:] + (1,)), operator.mul))[::-1]
    flat = indices.to(torch.int64).unsqueeze(-1)
    coords = flat.div(torch.tensor(strides, device=indices.device), rounding_mode="floor")
    coords = coords.remainder(torch.tensor(shape, dtype=torch.int64, device=indices.device))
    return coords.unbind(-1)


@register
def trapz(y: Tensor, x=None, *, dx=None, dim: int = -1) -> Tensor:
    """torch.trapezoid (its older name)."""
    return torch.trapezoid(y, x, dx=dx, dim=dim)


@register
def cumulative_trapezoid(y: Tensor, x: Tensor | None = None, *, dx=None, dim: int = -1) -> Tensor:
    """The running trapezoidal integral of y along dim (one element shorter than y there)."""
    n = y.shape[dim]
    if n == 0:
        return y.narrow(dim, 0, 0)
    pairs = y.narrow(dim, 1, n - 1) + y.narrow(dim, 0, n - 1)
    if x is None:
        return (pairs * ((1 if dx is None else dx) / 2)).cumsum(dim)
    if x.dim() == 1:
        shape = [1] * y.dim()
        shape[dim] = n
        x = x.reshape(shape)
    widths = x.narrow(dim, 1, n - 1) - x.narrow(dim, 0, n - 1)
    return (widths * pairs / 2).cumsum(dim)


@register
def batch_norm(input, weight, bias, running_mean, running_var, training: bool, momentum: float, eps: float,
               cudnn_enabled: bool = True) -> Tensor:  # fmt: skip
    """torch.nn.functional.batch_norm, with torch.batch_norm's argument order."""
    return torch.nn.functional.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


@register
def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats: bool, momentum: float,
                  eps: float, cudnn_enabled: bool = True) -> Tensor:  # fmt: skip
    """torch.nn.functional.instance_norm, with torch.instance_norm's argument order."""
    return torch.nn.functional.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats,
                                             momentum, eps)  # fmt: skip


@register
def rms_norm(input, normalized_shape, weight=None, eps=None) -> Tensor:
    """torch.nn.functional.rms_norm."""
    return torch.nn.functional.rms_norm(input, normalized_shape, weight, eps)


@register
def constant_pad_nd(input, pad, value=0) -> Tensor:
    """input padded with value (pad as torch.nn.functional.pad's: last dim first)."""
    return torch.nn.functional.pad(input, pad, "constant", value)


@register
def adaptive_max_pool1d(input, output_size):
    """(values, indices) of torch.nn.functional.adaptive_max_pool1d."""
    return torch.nn.functional.adaptive_max_pool1d(input, output_size, return_indices=True)


@register
def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False):
    """(values, indices) of torch.nn.functional.max_pool1d."""
    return torch.nn.functional.max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode,
                                          return_indices=True)  # fmt: skip


@register(method=True, out="castable")
def mvlgamma(input: Tensor, p: int) -> Tensor:
    """The log multivariate gamma function of dimension p (torch.special.multigammaln)."""
    return torch.special.multigammaln(input, p)


@register(function=False, method=True)
def mvlgamma_(self: Tensor, p: int) -> Tensor:
    """In-place mvlgamma."""
    return self.copy_(torch.special.multigammaln(self, p))


@register
def polygamma(n: int, input: Tensor, *, out=None) -> Tensor:
    """The n-th derivative of digamma (n >= 0): digamma for n = 0, trigamma for 1, (-1)**(n+1) n! zeta(n + 1,
    x) beyond; differentiable in x (through zeta's gradient, polygamma(n + 1, x))."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"polygamma(): argument 'n' (position 1) must be int, not {type(n).__name__}")
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    x = input if input.dtype._differentiable else input.to(torch.get_default_dtype())
    if n == 0:
        result = torch.digamma(x)
    elif n == 1:
        result = torch._trigamma(x)
    else:
        scale = (-1.0) ** (n + 1) * math.factorial(n)
        result = scale * torch._special_zeta(torch.full_like(x, float(n + 1)), x)
    return result if out is None else out.copy_(result)


@register(name="polygamma", function=False, method=True, inplace=True)
def _polygamma_method(self: Tensor, n: int) -> Tensor:
    """Tensor.polygamma(n): torch.polygamma(n, self) (and polygamma_, PyTorch's checked in-place form)."""
    return polygamma(n, self)


@register(method=True, inplace=True, numbers=False, out="castable")
def nextafter(input: Tensor, other: Tensor) -> Tensor:
    """The next floating-point value after input towards other (other itself where they are equal; NaN if
    either is): input's bits stepped by one (from 0: the smallest subnormal with other's sign)."""
    dtype = torch.result_type(input, other)
    if not dtype.is_floating_point or dtype.itemsize < 2:
        raise NotImplementedError(f"\"nextafter_cpu\" not implemented for '{scalar_type(dtype)}'")
    x, y = torch.broadcast_tensors(input.to(dtype).detach(), other.to(dtype).detach())
    bits_type = {2: torch.int16, 4: torch.int32}.get(dtype.itemsize, torch.int64)  # float16/bfloat16 too
    bits = x.contiguous().view(bits_type)
    up = (y > x) == (x > 0)  # away from zero when moving the same way as x's sign
    stepped = torch.where(up, bits + 1, bits - 1).view(dtype)
    tiny = torch.tensor(1, dtype=bits_type).view(dtype).item()
    from_zero = torch.where(y > 0, torch.full_like(x, tiny), torch.full_like(x, -tiny))
    out = torch.where(x == 0, from_zero, stepped)
    out = torch.where(x == y, y, out)
    out = torch.where(x.isnan() | y.isnan(), torch.full_like(x, float("nan")), out)
    return record_stepwise(out, [input, other], ["grad", "zeros"])  # upstream's: input's the gradient, other's 0


@register(method=True, inplace=True, out="castable")
@autocast_policy(cuda="fp32")
def renorm(input: Tensor, p, dim: int, maxnorm) -> Tensor:
    """input with every slice along dim whose p-norm exceeds maxnorm scaled down to norm maxnorm."""
    if p <= 0:
        raise RuntimeError(f"renorm: non-positive-norm not supported")  # noqa: F541 (PyTorch's text)
    d = dim % max(input.dim(), 1)
    others = [k for k in range(input.dim()) if k != d]
    norms = torch.linalg.vector_norm(input, p, others, keepdim=True)  # 16-bit floats summed in float32
    factor = torch.where(norms > maxnorm, maxnorm / (norms + 1e-7), torch.ones_like(norms))
    return input * factor


_WARNED_BETA = False


@register(method=True, inplace=True, out="exact")
def index_reduce(input: Tensor, dim: int, index: Tensor, source: Tensor, reduce: str, *,
                 include_self: bool = True) -> Tensor:  # fmt: skip
    """input with source's slices (along dim) reduced into the slices index names: prod, mean, amax or amin,
    together with input's own unless include_self=False (scatter_reduce with index spread over source)."""
    global _WARNED_BETA
    if not _WARNED_BETA:  # upstream warns once per process (TORCH_WARN_ONCE)
        _WARNED_BETA = True
        warnings.warn(
            "index_reduce() is in beta and the API may change at any time.", UserWarning, stacklevel=user_stacklevel()
        )
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}.")
    d = wrap_dim(dim, max(input.dim(), 1))
    # upstream's index_func_meta_impl, in its order
    if index.dim() > 1:
        raise IndexError(
            f"index_reduce_(): Index is supposed to be a vector, but got dim: {index.dim()} with type: "
            f"{scalar_type(index.dtype)} and size: {list(index.shape)}"
        )
    if index.dtype not in (torch.int64, torch.int32):
        raise RuntimeError(f"index_reduce_(): Expected dtype int32/int64 for index but got: {scalar_type(index.dtype)}")
    if input.dtype != source.dtype:
        raise RuntimeError(
            f"index_reduce_(): self ({scalar_type(input.dtype)}) and source ({scalar_type(source.dtype)}) must have "
            "the same scalar type"
        )
    along = source.shape[d] if source.dim() else 1
    if index.numel() != along:
        raise RuntimeError(
            f"index_reduce_(): Number of indices ({index.numel()}) should be equal to source.size(dim): ({along}), "
            f"for dim: {d}"
        )
    both = input.dim() > 0 and source.dim() > 0  # the sizes apart from dim must agree (all of them for a 0-dim)
    if [n for k, n in enumerate(input.shape) if k != d or not both] != [
        n for k, n in enumerate(source.shape) if k != d or not both
    ]:
        raise RuntimeError(
            "source tensor shape must match self tensor shape, excluding the specified dimension. Got self.shape = "
            f"{list(input.shape)} source.shape = {list(source.shape)}"
        )
    if input.dtype == torch.bool or input.dtype.is_complex:  # upstream's kernel has neither
        raise NotImplementedError(f"\"index_func_\" not implemented for '{scalar_type(input.dtype)}'")
    size = input.shape[d] if input.dim() else 1
    if index.numel() and bool(((index < 0) | (index >= size)).any()):
        raise IndexError("index out of range in self")
    if input.dim() == 0 or source.dim() == 0:
        input, source, index = input.reshape(1), source.reshape(1), index.reshape(1)
        return torch.scatter_reduce(input, 0, index, source, reduce, include_self=include_self).reshape(())
    shape = [1] * source.dim()
    shape[d] = -1
    spread = index.reshape(shape).expand(source.shape)
    return torch.scatter_reduce(input, d, spread, source, reduce, include_self=include_self)


@register(function=False, method=True)
def new(self: Tensor, *args, **kwargs) -> Tensor:
    """The legacy constructor with self's dtype and device: new(sizes...) is uninitialized, new(data) holds data."""
    if len(args) == 1 and not isinstance(args[0], int) and not isinstance(args[0], torch.Size):
        return torch.tensor(args[0], dtype=self.dtype, device=self.device)
    sizes = tuple(args[0]) if len(args) == 1 and isinstance(args[0], torch.Size) else args
    return torch.empty(sizes if sizes else (0,), dtype=self.dtype, device=self.device)


@register(function=False, method=True)
def apply_(self: Tensor, callable) -> Tensor:
    """Applies a Python function to every element in place (slow: one call per element; CPU only)."""
    if self.device.type != "cpu":
        raise TypeError("apply_ is only implemented on CPU tensors")
    values = [callable(v) for v in self.reshape(-1).tolist()]
    return self.copy_(torch.tensor(values, dtype=self.dtype).reshape(self.shape))


@register(function=False, method=True)
def map_(self: Tensor, other: Tensor, callable) -> Tensor:
    """self[i] = callable(self[i], other[i]) in place, other broadcast to self (one call per element)."""
    if self.device.type != "cpu":
        raise TypeError("map_ is only implemented on CPU tensors")
    values = other.expand(self.shape).reshape(-1).tolist()
    values = [callable(a, b) for a, b in zip(self.reshape(-1).tolist(), values)]
    return self.copy_(torch.tensor(values, dtype=self.dtype).reshape(self.shape))


@register(function=False, method=True)
def map2_(self: Tensor, x: Tensor, y: Tensor, callable) -> Tensor:
    """self[i] = callable(self[i], x[i], y[i]) in place, x and y broadcast to self (one call per element)."""
    if self.device.type != "cpu":
        raise TypeError("map2_ is only implemented on CPU tensors")
    xs, ys = (t.expand(self.shape).reshape(-1).tolist() for t in (x, y))
    values = [callable(a, b, c) for a, b, c in zip(self.reshape(-1).tolist(), xs, ys)]
    return self.copy_(torch.tensor(values, dtype=self.dtype).reshape(self.shape))


@register(method=True)
def as_strided_scatter(input: Tensor, src: Tensor, size, stride, storage_offset=None) -> Tensor:
    """A copy of input with src written into its as_strided(size, stride, storage_offset) view."""
    out = input.clone()
    out.as_strided(size, stride, storage_offset).copy_(src)
    return out


@register
def empty_permuted(size, physical_layout, *, dtype=None, layout=None, device=None, requires_grad=False,
                   pin_memory=False) -> Tensor:  # fmt: skip
    """An uninitialized tensor of the given (logical) size whose dims lie in memory in physical_layout's order
    (physical_layout[0] outermost)."""
    if sorted(physical_layout) != list(range(len(size))):
        raise RuntimeError(f"Number of dimensions in size does not match the length of the physical_layout; "
                           f"or physical_layout is not a permutation: {list(physical_layout)}")  # fmt: skip
    physical = torch.empty([size[d] for d in physical_layout], dtype=dtype, device=device)
    inverse = [0] * len(size)
    for i, d in enumerate(physical_layout):
        inverse[d] = i
    return physical.permute(inverse).requires_grad_(requires_grad)


@register(method=True)
def put(input: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    """A copy of input with put_ applied: source's elements written (or added) at flat positions index."""
    return input.clone().put_(index, source, accumulate)


@register(function=False, method=True)
def new_empty_strided(
    self: Tensor, size, stride, *, dtype=None, layout=None, device=None, requires_grad: bool = False,
    pin_memory: bool = False,
):  # fmt: skip
    """An uninitialized tensor of the given size and strides, with self's dtype and device unless given."""
    t = torch.empty_strided(size, stride, dtype=dtype or self.dtype, layout=layout, device=device or self.device,
                            pin_memory=pin_memory)  # fmt: skip
    return t.requires_grad_(requires_grad) if requires_grad else t


@register(function=False, method=True)
def is_set_to(self: Tensor, tensor: Tensor) -> bool:
    """Whether self and tensor view the same memory with the same metadata (storage, offset, sizes, strides)."""
    return (
        self._is_view_of(tensor)
        and self.storage_offset() == tensor.storage_offset()
        and self.shape == tensor.shape
        and self.stride() == tensor.stride()
    )


@register(function=False, method=True)
def as_subclass(self: Tensor, cls) -> Tensor:
    """self as an instance of cls (a subclass of torch.Tensor), sharing its data and autograd history."""
    return Tensor._make_subclass(cls, self)


register(contiguous_format, name="legacy_contiguous_format")
