"""Bit shifts (`<<`, `>>`, bitwise_left_shift / bitwise_right_shift and their in-place forms) on
integer tensors, written with multiply / floor_divide by powers of two, so every integer dtype and
device comes for free. PyTorch's semantics: the result dtype follows type promotion (Python ints are
weak), both operands are converted into it first (wrapping, as casts do: a uint8 shifted by 257 is
shifted by 1), left shifts wrap, a shift by a negative amount or by the width or more gives 0 (left) or
the sign fill (right, arithmetic for signed types)."""

from __future__ import annotations

import torch
from torch._C import Tensor
from torch._C import bitwise_not as _bitwise_not
from torch._dtypes import scalar_type
from torch._refs.promotion import cast_into
from torch._registry import in_place, register


def _promotion_proxy(x):
    """x for type promotion only: a dimensioned tensor becomes an empty one of its dtype (promotion looks
    at the dtype and whether the tensor is 0-dim; Python ints stay weak), so no element is computed."""
    if isinstance(x, Tensor) and x.dim() > 0:
        return torch.empty(0, dtype=x.dtype, device=x.device)
    return x


def _wrapped(value: int, dtype) -> int:
    """A Python int converted into an integer dtype as a cast does (two's complement wrap)."""
    bits = dtype.itemsize * 8
    value &= (1 << bits) - 1
    return value - (1 << bits) if dtype.is_signed and value >= 1 << (bits - 1) else value


def _operands(a, b, name: str):
    """(a as a tensor of the result dtype, b: an int64 tensor or a Python int, the result dtype). Both
    operands are converted into the result dtype first, wrapping as casts do (upstream's kernels read
    them there: 2**40 >> int32 is 0 >> ..., a uint8 shifted by 257 is shifted by 1)."""
    pa, pb = _promotion_proxy(a), _promotion_proxy(b)
    dtype = (pa + pb).dtype if isinstance(a, Tensor) else (pb + pa).dtype
    if dtype._differentiable:
        raise NotImplementedError(f"\"{name}\" not implemented for '{scalar_type(dtype)}'")
    if isinstance(a, Tensor):
        a = a.to(dtype)
    else:
        a = torch.tensor(_wrapped(int(a), dtype) if dtype != torch.bool else a, dtype=dtype, device=b.device)
    if isinstance(b, Tensor):
        return a, b.to(dtype).to(torch.int64), dtype
    return a, _wrapped(int(b), dtype) if dtype != torch.bool else int(b), dtype


def _by_powers_of_two(a: Tensor, s, op):
    """op(op(a, 2**h), 2**(s - h)) with h = s // 2: each factor fits every integer dtype."""
    if type(s) is int:
        h = s // 2
        return op(op(a, 1 << h), 1 << (s - h))
    h = s // 2
    return op(op(a, (2**h).to(a.dtype)), (2 ** (s - h)).to(a.dtype))


def _left_shift(input, other) -> Tensor:
    a, s, dtype = _operands(input, other, "lshift_cpu")
    bits = dtype.itemsize * 8
    if type(s) is int:
        return _by_powers_of_two(a, s, torch.mul) if 0 <= s < bits else torch.zeros_like(a)
    shifted = _by_powers_of_two(a, s.clamp(0, bits - 1), torch.mul)
    return torch.where((s >= 0) & (s < bits), shifted, torch.zeros((), dtype=dtype, device=shifted.device))


def _right_shift(input, other) -> Tensor:
    a, s, dtype = _operands(input, other, "rshift_cpu")
    bits = dtype.itemsize * 8
    if type(s) is int and 0 <= s < bits:
        return _by_powers_of_two(a, s, torch.floor_divide)
    fill = torch.where(a < 0, -1, 0).to(dtype) if dtype != torch.uint8 else torch.zeros_like(a)
    if type(s) is int:
        return fill
    shifted = _by_powers_of_two(a, s.clamp(0, bits - 1), torch.floor_divide)
    return torch.where((s >= 0) & (s < bits), shifted, fill)


@register(method=True, inplace=True)
def bitwise_left_shift(input, other, *, out: Tensor | None = None) -> Tensor:
    """input << other elementwise (wrapping; 0 for shifts < 0 or >= the bit width)."""
    return cast_into(out, _left_shift(input, other))


@register(method=True, inplace=True)
def bitwise_right_shift(input, other, *, out: Tensor | None = None) -> Tensor:
    """input >> other elementwise (arithmetic for signed types; the sign fill for shifts < 0 or >= the
    bit width)."""
    return cast_into(out, _right_shift(input, other))


def _operator(fn, reflected: bool = False):
    """The operator method over fn (`a << b`, or `b << a` reflected); NotImplemented for what it does not take."""

    def method(self: Tensor, other):
        if not isinstance(other, (Tensor, int, float)):  # a float reaches the op: its NotImplementedError
            return NotImplemented
        return fn(other, self) if reflected else fn(self, other)

    return method


for _op, _fn in (("lshift", bitwise_left_shift), ("rshift", bitwise_right_shift)):
    register(_operator(_fn), name=f"__{_op}__", function=False, method=True)
    register(_operator(_fn, reflected=True), name=f"__r{_op}__", function=False, method=True)
    register(in_place(_fn, f"__i{_op}__"), function=False, method=True)


register(in_place(_bitwise_not, "bitwise_not_"), name="bitwise_not_", function=False, method=True)
