"""Elementwise functions of two tensors from C99 and NumPy: copysign, hypot, fmax/fmin, xlogy, heaviside, ldexp,
float_power, logaddexp2, true_divide, and logit. Broadcasting, dtypes, NaN rules, gradients and errors follow
PyTorch's; where a branch is not taken its inputs are made safe first, so no NaN from it reaches a gradient."""

from __future__ import annotations

import math

import torch
from torch import return_types
from torch._C import Tensor
from torch._C import div as _div
from torch._dtypes import scalar_type
from torch._refs.pointwise import larger_and_gap
from torch._refs.promotion import in_float32
from torch._registry import register
from torch.autograd._formulas import sum_to
from torch.autograd._stepwise import record_stepwise
from torch.autograd.function import Function


def _as_tensor(x, like: Tensor) -> Tensor:
    """A Python number as a 0-dim tensor on like's device (its dtype the number's: promotion treats it as weak)."""
    return x if isinstance(x, Tensor) else torch.tensor(x, device=like.device)


def _float_dtype(*operands, name: str) -> torch.dtype:
    """The promoted dtype of one or two operands, integers and bool promoted to the default float dtype; the
    real-only function `name` refuses complex operands (PyTorch's error)."""
    dtype = torch.result_type(*operands) if len(operands) == 2 else operands[0].dtype
    if dtype.is_complex:
        raise NotImplementedError(f"\"{name}\" not implemented for '{scalar_type(dtype)}'")
    return dtype if dtype.is_floating_point else torch.get_default_dtype()


def _floating_only(name: str, dtype: torch.dtype, device) -> None:
    if not dtype.is_floating_point:
        raise NotImplementedError(f"\"{name}_{device.type}\" not implemented for '{scalar_type(dtype)}'")


def _one(like: Tensor) -> Tensor:
    return torch.ones((), dtype=like.dtype, device=like.device)


@register(method=True, inplace=True, out="castable")
def copysign(input: Tensor, other) -> Tensor:
    """|input| with the sign of other (its sign bit: -0.0 and negative NaNs count as negative); integers give
    the default float dtype. The gradient flows to input only (0 where input is 0)."""
    dtype = _float_dtype(input, other, name="copysign")
    a = input.to(dtype)
    negative = torch.signbit(_as_tensor(other, input).to(dtype))
    result = torch.where(negative, -a.abs(), a.abs())
    return record_stepwise(result, [other], ["zeros"]) if isinstance(other, Tensor) else result


@register(method=True, inplace=True, numbers=False, out="castable")
def hypot(input: Tensor, other: Tensor) -> Tensor:
    """sqrt(input**2 + other**2) without overflow or underflow in between (scaled by the larger magnitude, as
    C's hypot); floating types only."""
    dtype = torch.result_type(input, other)
    _floating_only("hypot", dtype, input.device)
    a, b = input.to(dtype).abs(), other.to(dtype).abs()
    m = torch.maximum(a, b)
    inf = a.isinf() | b.isinf()  # an infinity wins even over NaN (C's hypot(inf, nan) is inf)
    safe = torch.where((m == 0) | inf | m.isnan(), _one(m), m)
    r = safe * torch.sqrt((a / safe) ** 2 + (b / safe) ** 2)
    return torch.where(inf, torch.full_like(m, float("inf")), torch.where(m == 0, 0 * r, torch.where(m.isnan(), m, r)))


@register(method=True, numbers=False, out="castable")
def fmax(input: Tensor, other: Tensor) -> Tensor:
    """The elementwise maximum, a NaN losing to a number (NumPy's fmax; maximum propagates NaN). On a tie the
    gradient goes to input, as in PyTorch."""
    dtype = torch.result_type(input, other)
    a, b = input.to(dtype), other.to(dtype)
    if not dtype.is_floating_point:
        return torch.maximum(a, b)
    return torch.where((a >= b) | b.isnan(), a, b)


@register(method=True, numbers=False, out="castable")
def fmin(input: Tensor, other: Tensor) -> Tensor:
    """The elementwise minimum, a NaN losing to a number (NumPy's fmin; minimum propagates NaN)."""
    dtype = torch.result_type(input, other)
    a, b = input.to(dtype), other.to(dtype)
    if not dtype.is_floating_point:
        return torch.minimum(a, b)
    return torch.where((a <= b) | b.isnan(), a, b)


class _TimesLog(Function):
    """x * log(y) with upstream's derivatives: x's is xlogy(grad, y), 0 where x is 0 and y <= pole (so inf at
    y = inf); y's is grad * x / (y - pole) (NaN at x = y - pole = 0)."""

    @staticmethod
    def forward(ctx, x, y, log, pole: float):
        ctx.save_for_backward(x, y)
        ctx.log, ctx.pole = log, pole
        undefined = (x == 0) & ((y <= pole) | (y == float("inf")))
        zero = torch.zeros((), dtype=x.dtype, device=x.device)
        safe = torch.where(undefined, torch.full((), pole + 1.0, dtype=x.dtype, device=x.device), y)
        return zero + x * torch.where(undefined, zero, log(safe))  # zero + : -0.0 becomes 0.0, as PyTorch's

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        gx = gy = None
        if ctx.needs_input_grad[0]:
            gx = sum_to(_TimesLog.apply(grad, y, ctx.log, ctx.pole).masked_fill((x == 0) & (y <= ctx.pole), 0), x.shape)
        if ctx.needs_input_grad[1]:
            gy = sum_to(grad * x / (y - ctx.pole), y.shape)
        return gx, gy, None, None


def x_times_log(input, other, log, pole: float, name: str = "xlogy") -> Tensor:
    """input * log(other) (log: torch.log for xlogy, torch.log1p for xlog1py, whose logs are -inf at `pole`),
    either operand a number, integers as the default float dtype. The value is 0 where input is 0 and other is
    <= pole or inf (0 * -inf, 0 * inf); a NaN other gives NaN. The derivatives are upstream's (_TimesLog)."""
    like = input if isinstance(input, Tensor) else other
    x, y = _as_tensor(input, like), _as_tensor(other, like)
    dtype = _float_dtype(x, y, name=name)
    return _TimesLog.apply(x.to(dtype), y.to(dtype), log, pole)


@register(method=True, inplace=True, out="castable")
def xlogy(input, other) -> Tensor:
    """input * log(other), 0 where input is 0 (unless other is NaN); either may be a number; integers give the
    default float dtype."""
    return x_times_log(input, other, torch.log, 0.0)


@register(method=True, inplace=True, numbers=False, out="castable")
def heaviside(input: Tensor, values: Tensor) -> Tensor:
    """The step function: 0 where input < 0 (and NaN), values where input == 0, 1 where input > 0. input and
    values must have one dtype, as in PyTorch."""
    if input.dtype != values.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    return torch.where(input == 0, values, (input > 0).to(input.dtype))


@register(method=True, inplace=True, numbers=False, out="castable")
def ldexp(input: Tensor, other: Tensor) -> Tensor:
    """input * 2 ** other (integers give the default float dtype). A complex operand: upstream's
    input * pow(2.0, other), as the two promote (a complex exponent turns as well as scales)."""
    if input.is_complex() or other.is_complex():
        return torch.mul(input, torch.pow(2.0, other))
    dtype = _float_dtype(input, other, name="ldexp")
    # 2 ** other in two halves, so that a result that fits does not under- or overflow on the way (2**100 *
    # 2**-200 is 2**-100, not 0 * 2**100)
    two = torch.tensor(2.0, dtype=dtype, device=input.device)
    e = other.to(dtype)
    half = torch.trunc(e / 2)
    return input.to(dtype) * torch.pow(two, half) * torch.pow(two, e - half)


@register(method=True, out="castable")
def float_power(input, exponent) -> Tensor:
    """input ** exponent computed in double precision (float64 result, complex128 if either is complex; either
    may be a number)."""
    like = input if isinstance(input, Tensor) else exponent
    cplx = any(isinstance(x, complex) or (isinstance(x, Tensor) and x.is_complex()) for x in (input, exponent))
    dtype = torch.complex128 if cplx else torch.float64
    base = _as_tensor(input, like).to(dtype)
    if isinstance(exponent, Tensor):
        return torch.pow(base, exponent.to(dtype))
    return torch.pow(base, complex(exponent) if cplx else float(exponent))


@register(function=False, method=True)
def float_power_(self: Tensor, exponent) -> Tensor:
    """In-place float_power: self must be float64 (the result's dtype), as in PyTorch."""
    if self.dtype != torch.float64:
        raise RuntimeError(
            f"the base given to float_power_ has dtype {scalar_type(self.dtype)} but the operation's result "
            "requires dtype Double"
        )
    return self.copy_(float_power(self, exponent))


@register(method=True, numbers=False, out="castable")
def logaddexp2(input: Tensor, other: Tensor) -> Tensor:
    """log2(2 ** input + 2 ** other) without overflow (floating types only): max + log2(1 + 2 ** -|input -
    other|), upstream's form (16-bit floats in float32), with no round trip through natural logs."""
    dtype = torch.result_type(input, other)
    _floating_only("logaddexp2", dtype, input.device)

    def log2_sum(a, b):
        m, d, same_inf = larger_and_gap(a, b)  # (one branch per side: the second derivative at a tie is right)
        return torch.where(same_inf, (a + b) * 0.5, m + torch.log1p(torch.exp2(d)) / math.log(2))

    return in_float32(log2_sum, dtype, input.to(dtype), other.to(dtype))


@register(method=True, inplace=True, out="castable")
def logit(input: Tensor, eps: float | None = None) -> Tensor:
    """log(p / (1 - p)), the inverse of sigmoid; with eps, p is clamped to [eps, 1 - eps] first (its gradient
    0 outside). Integers give the default float dtype."""
    p = input.to(_float_dtype(input, name="logit"))  # 16-bit inputs compute in 16 bits, as upstream's kernel rounds
    if eps is not None:
        p = p.clamp(eps, 1 - eps)
    return torch.log(p / (1 - p))


register(_div, name="true_divide", method=True)
register(Tensor.div_, name="true_divide_", function=False, method=True)


def _integers_only(name: str, dtype: torch.dtype, device) -> None:
    if dtype._differentiable or dtype == torch.bool:
        raise NotImplementedError(f"\"{name}_{device.type}\" not implemented for '{scalar_type(dtype)}'")


@register(method=True, inplace=True, numbers=False, out="castable")
def gcd(input: Tensor, other: Tensor) -> Tensor:
    """The greatest common divisor (non-negative; gcd(0, 0) is 0) of integer tensors, by Euclid's algorithm run
    on every element at once."""
    dtype = torch.result_type(input, other)
    _integers_only("gcd", dtype, input.device)
    a, b = torch.broadcast_tensors(input.to(dtype).abs(), other.to(dtype).abs())
    a, b = a.clone(), b.clone()
    while bool((b != 0).any()):
        nonzero = b != 0
        r = torch.where(nonzero, torch.remainder(a, torch.where(nonzero, b, torch.ones_like(b))), b)
        a, b = torch.where(nonzero, b, a), r
    return a


@register(method=True, inplace=True, numbers=False, out="castable")
def lcm(input: Tensor, other: Tensor) -> Tensor:
    """The least common multiple (non-negative; 0 if either is 0) of integer tensors."""
    g = gcd(input, other)
    a, b = torch.broadcast_tensors(input.abs(), other.abs())
    return torch.where(g == 0, torch.zeros_like(g), (a // torch.where(g == 0, torch.ones_like(g), g)) * b).to(g.dtype)


@register(method=True, out="castable")
def frexp(input: Tensor):
    """(mantissa, exponent) with input = mantissa * 2 ** exponent and 0.5 <= |mantissa| < 1 (0, inf and NaN
    keep exponent 0 and are their own mantissa); exponent is int32. Floating types only."""
    if not input.dtype.is_floating_point:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    result = return_types.make("frexp", ("mantissa", "exponent"))
    x = input.to(torch.float64)
    special = (x == 0) | ~torch.isfinite(x)
    safe = torch.where(special, torch.ones_like(x), x.abs())
    e = torch.floor(torch.log2(safe)) + 1
    half = torch.trunc(e / 2)
    m = x / torch.pow(2.0, half) / torch.pow(2.0, e - half)  # 2**1024 (of 1.7e308) is past float64
    # log2 can be off by one just below a power of two: bring |m| back into [0.5, 1)
    high, low = m.abs() >= 1, m.abs() < 0.5
    e = torch.where(high, e + 1, torch.where(low, e - 1, e))
    m = torch.where(high, m / 2, torch.where(low, m * 2, m))
    e = torch.where(special, torch.zeros_like(e), e)
    m = torch.where(special, x, m)
    return result(m.to(input.dtype), e.to(torch.int32))
