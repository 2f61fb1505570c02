"""Elementwise composites: clamp/clip with tensor bounds, square, addcmul, addcdiv, logaddexp,
deg2rad/rad2deg, signbit, isposinf/isneginf. Dtypes, results and errors follow PyTorch."""

from __future__ import annotations

import math

import torch
from torch._C import Tensor
from torch._C import clamp as _clamp
from torch._C import clamp_ as _clamp_
from torch._C import round_ as _round_
from torch._dtypes import scalar_type, signed_integer
from torch._refs.promotion import cast_into, common_dtype, in_float32
from torch._registry import in_place, register
from torch.amp.autocast_mode import autocast_policy

# ---- clamp / clip: number bounds go straight to the generated kernel; tensor bounds (PyTorch's
# `clamp.Tensor` overload) are written with `where`, so autograd and every device come for free


def _overload(min, max) -> tuple:
    """(tensor overload?, min, max) as PyTorch's parser picks them: tensor bounds (at least one) take
    the tensor overload; number bounds, or none, the number one (whose kernel raises for none); a
    number mixed with a 0-dim tensor the number one too (the tensor as its value); any other mix is
    a TypeError."""
    tensors = [isinstance(b, Tensor) for b in (min, max) if b is not None]
    if not any(tensors):
        return False, min, max
    if all(tensors):
        return True, min, max
    if all(b.dim() == 0 for b in (min, max) if isinstance(b, Tensor)):
        return False, *(b.item() if isinstance(b, Tensor) else b for b in (min, max))
    got = ", ".join(f"{n}={type(b).__name__}" for n, b in (("min", min), ("max", max)))
    raise TypeError(
        f"clamp() received an invalid combination of arguments - got (Tensor, {got}), but expected one of:\n"
        " * (Tensor input, Tensor min = None, Tensor max = None)\n"
        " * (Tensor input, Number min = None, Number max = None)"
    )


def _clamp_tensors(input: Tensor, min: Tensor | None, max: Tensor | None) -> Tensor:
    # the three promote at once (a 0-dim bound does not outrank a dimensioned one of its category); a NaN
    # bound gives NaN, and on a tie the input wins (its gradient, PyTorch's convention)
    dtype = common_dtype(input, min, max)
    input, min, max = (b if b is None or b.dtype == dtype else b.to(dtype) for b in (input, min, max))
    out = input
    if min is not None:
        out = torch.where((out < min) | min.isnan(), min, out)
    if max is not None:
        out = torch.where((out > max) | max.isnan(), max, out)
    return out


@register(aliases=("clip",))
def clamp(input: Tensor, min=None, max=None, *, out: Tensor | None = None) -> Tensor:
    """Every element of input limited to [min, max]: bounds are numbers or tensors (broadcast with input;
    the result's dtype promotes all three). NaN stays NaN; a NaN bound gives NaN. With out=, the result
    goes there, resized to the result's shape; as in PyTorch, out must have the result's dtype with
    number bounds, and the result must cast to out's dtype with tensor bounds."""
    tensors, min, max = _overload(min, max)
    if not tensors:
        return _clamp(input, min, max) if out is None else _clamp(input, min, max, out=out)
    if out is None:
        return _clamp_tensors(input, min, max)
    if torch.is_grad_enabled() and any(isinstance(t, Tensor) and t.requires_grad for t in (input, min, max)):
        raise RuntimeError(
            "clamp(): functions with out=... arguments don't support automatic differentiation, "
            "but one of the arguments requires grad."
        )
    return cast_into(out, _clamp_tensors(input, min, max))  # this overload casts into out, as PyTorch's


@register(method=True, aliases=("clip_",))
def clamp_(input: Tensor, min=None, max=None) -> Tensor:
    """clamp in place: the promoted result must be castable to input's dtype."""
    tensors, min, max = _overload(min, max)
    if not tensors:
        return _clamp_(input, min, max)
    out = _clamp_tensors(input, min, max)
    if (out.dtype.is_floating_point and not input.dtype.is_floating_point) or (
        input.dtype == torch.bool and out.dtype != torch.bool
    ):
        raise RuntimeError(
            f"result type {scalar_type(out.dtype)} can't be cast to the desired output type {scalar_type(input.dtype)}"
        )
    if out.shape != input.shape:
        raise RuntimeError(f"output with shape {list(input.shape)} doesn't match the broadcast shape {list(out.shape)}")
    return input.copy_(out)


@register(name="clamp", function=False, method=True, aliases=("clip",))
def _clamp_method(self: Tensor, min=None, max=None) -> Tensor:
    """Tensor.clamp: torch.clamp without out=."""
    return clamp(self, min, max)


def _one_bound(name: str, bound, bound_name: str):
    """Upstream's TypeError for clamp_min/clamp_max without a bound (it has no None default there)."""
    if bound is None:
        raise TypeError(
            f"{name}() received an invalid combination of arguments - got (Tensor, NoneType), but expected one of:\n"
            f" * (Tensor input, Tensor {bound_name}, *, Tensor out = None)\n"
            f" * (Tensor input, Number {bound_name}, *, Tensor out = None)\n"
        )


@register
def clamp_min(input: Tensor, min, *, out: Tensor | None = None) -> Tensor:
    """Every element at least min: torch.clamp(input, min=min, out=out)."""
    _one_bound("clamp_min", min, "min")
    return clamp(input, min=min, out=out)


@register
def clamp_max(input: Tensor, max, *, out: Tensor | None = None) -> Tensor:
    """Every element at most max: torch.clamp(input, max=max, out=out)."""
    _one_bound("clamp_max", max, "max")
    return clamp(input, max=max, out=out)


@register(method=True)
def clamp_min_(input: Tensor, min) -> Tensor:
    """clamp_min in place (torch.clamp_(input, min=min))."""
    _one_bound("clamp_min_", min, "min")
    return clamp_(input, min=min)


@register(method=True)
def clamp_max_(input: Tensor, max) -> Tensor:
    """clamp_max in place (torch.clamp_(input, max=max))."""
    _one_bound("clamp_max_", max, "max")
    return clamp_(input, max=max)


@register(name="clamp_min", function=False, method=True)
def _clamp_min_method(self: Tensor, min) -> Tensor:
    """Tensor.clamp_min: torch.clamp_min without out=."""
    return clamp_min(self, min)


@register(name="clamp_max", function=False, method=True)
def _clamp_max_method(self: Tensor, max) -> Tensor:
    """Tensor.clamp_max: torch.clamp_max without out=."""
    return clamp_max(self, max)


# ---- arithmetic


def _float_result(input: Tensor) -> Tensor:
    """input as the float dtype an integer input promotes to (the default dtype)."""
    return input if input.dtype._differentiable else input.to(torch.get_default_dtype())


@register(method=True, inplace=True, out="castable")
def square(input: Tensor) -> Tensor:
    """input ** 2 (bool promotes to int64, as pow does)."""
    return torch.pow(input, 2)


@register(method=True, inplace=True, out="castable")
@autocast_policy(cuda="promote")
def addcmul(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value=1) -> Tensor:
    """input + value * tensor1 * tensor2 (broadcast; the tensors promote, value is cast to their type,
    so an integer result truncates a float value, as in PyTorch)."""
    tensors = (input, tensor1, tensor2)
    if all(t.dtype == torch.bool for t in tensors):
        raise NotImplementedError(f"\"addcmul_{input.device.type}_out\" not implemented for 'Bool'")
    if not any(t.dtype.is_floating_point or t.dtype.is_complex for t in tensors):
        value = int(value)
    return in_float32(lambda x, a, b: x + value * a * b, common_dtype(*tensors), *tensors)


@register(method=True, inplace=True, out="castable")
@autocast_policy(cuda="promote")
def addcdiv(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value=1) -> Tensor:
    """input + value * tensor1 / tensor2 (true division; integer tensor1 and tensor2 are an error)."""

    def integral(t):
        return not (t.dtype.is_floating_point or t.dtype.is_complex)

    if integral(tensor1) and integral(tensor2):
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform "
            "a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as "
            "(input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as "
            "(input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the "
            "latter implementation: (input + value * tensor1 / tensor2), for all dtypes."
        )
    return in_float32(lambda x, a, b: x + value * a / b, common_dtype(input, tensor1, tensor2), input, tensor1, tensor2)


@register(method=True, numbers=False, out="castable")
def logaddexp(input: Tensor, other: Tensor) -> Tensor:
    """log(exp(input) + exp(other)) without overflow: max + log1p(exp(-|input - other|)); equal infinities
    give that infinity."""
    dtype = torch.promote_types(input.dtype, other.dtype)
    if dtype.is_complex:  # the operand of the larger real part factored out: m + log1p(exp(other - m))
        a, b = input.to(dtype), other.to(dtype)
        first = a.real >= b.real
        m, rest = torch.where(first, a, b), torch.where(first, b, a)
        # equal infinite real parts (-inf and -inf, inf and inf): m itself, not m + log1p(exp(nan))
        same_inf = (a.real == b.real) & a.real.isinf()
        return torch.where(same_inf, m, m + torch.log1p(torch.exp(torch.where(same_inf, m, rest) - m)))
    if not dtype.is_floating_point:
        raise NotImplementedError(f"\"logaddexp_{input.device.type}\" not implemented for '{scalar_type(dtype)}'")
    a, b = input.to(dtype), other.to(dtype)
    m, d, same_inf = larger_and_gap(a, b)
    return torch.where(same_inf, (a + b) * 0.5, m + torch.log1p(torch.exp(d)))


def larger_and_gap(a: Tensor, b: Tensor) -> tuple:
    """(the larger of a and b, the smaller minus the larger, where both are the same infinity), the first two
    chosen by one where (a on a tie): unlike maximum and -|a - b|, whose subgradients split a tie, each branch is
    smooth, so logaddexp's second derivative at a tie is right (1/4, not 0). A NaN gives NaN; equal infinities
    get a gap of 0 (the caller's case: its value there is (a + b) / 2, the infinity, with the tie's gradient
    split as 1/2 each)."""
    first = a >= b
    same_inf = (a == b) & a.isinf()
    m = torch.where(first, a, b)
    d = torch.where(first, b - a, a - b)
    return m, torch.where(same_inf, torch.zeros_like(d), d), same_inf


def _scaled(input: Tensor, factor: float) -> Tensor:
    """input * factor in the result's float type; 16-bit floats multiply in float32 and round once (the
    factor is not rounded to 16 bits first, as in PyTorch's kernels)."""
    if input.is_complex():
        raise RuntimeError("deg2rad and rad2deg are not supported for complex tensors.")
    x = _float_result(input)
    return in_float32(lambda t: t * factor, x.dtype, x)


@register(method=True, inplace=True, out="castable")
def deg2rad(input: Tensor) -> Tensor:
    """Degrees to radians (integers give the default float dtype)."""
    return _scaled(input, math.pi / 180.0)


@register(method=True, inplace=True, out="castable")
def rad2deg(input: Tensor) -> Tensor:
    """Radians to degrees (integers give the default float dtype)."""
    return _scaled(input, 180.0 / math.pi)


# ---- classification


@register(method=True, out="castable")
def signbit(input: Tensor) -> Tensor:
    """Whether each element's sign bit is set: true for -0.0 and negative NaNs too (floats read as
    integers of their width); false for every unsigned or bool element."""
    if input.dtype.is_floating_point:
        return input.detach().view(signed_integer(input.dtype.itemsize)) < 0
    if not input.dtype.is_signed:
        return torch.zeros_like(input, dtype=torch.bool)
    return input < 0


@register(method=True, out="castable")
def isposinf(input: Tensor) -> Tensor:
    """Whether each element is +inf (false everywhere for integer dtypes)."""
    if input.is_complex():
        raise RuntimeError("isposinf does not support complex inputs.")
    if not input.dtype.is_floating_point:
        return torch.zeros_like(input, dtype=torch.bool)
    return input == math.inf


@register(method=True, out="castable")
def isneginf(input: Tensor) -> Tensor:
    """Whether each element is -inf (false everywhere for integer dtypes)."""
    if input.is_complex():
        raise RuntimeError("isneginf does not support complex inputs.")
    if not input.dtype.is_floating_point:
        return torch.zeros_like(input, dtype=torch.bool)
    return input == -math.inf


register(in_place(Tensor.logical_not, "logical_not_"), name="logical_not_", function=False, method=True)
register(in_place(Tensor.nan_to_num, "nan_to_num_"), name="nan_to_num_", function=False, method=True)


@register(function=False, method=True)
def is_signed(self: Tensor) -> bool:
    """Whether self's dtype is signed (every floating type; the integer types but uint8; not bool)."""
    return self.dtype.is_signed


@register(method=True)
def round_(input: Tensor, *, decimals: int = 0) -> Tensor:
    """round in place: half to even, at `decimals` decimal places (upstream's round_.decimals overload)."""
    if decimals == 0:
        return _round_(input)
    return input.copy_(torch.round(input, decimals=decimals))
