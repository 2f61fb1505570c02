"""Bit shifts (`<<`, `>>`, bitwise_left_shift / bitwise_right_shift and their in-place forms) on
integer tensors, written with multiply / floor_divide by powers of two, so every integer dtype and
device comes for free. PyTorch's semantics: the result dtype follows type promotion (Python ints are
weak), left shifts wrap, a shift by a negative amount or by the width or more gives 0 (left) or the
sign fill (right, arithmetic for signed types)."""

from __future__ import annotations

import torch
from torch._C import Tensor

# PyTorch's ScalarType names, as its messages print them
_NAMES = {
    torch.float32: "Float",
    torch.float64: "Double",
    torch.float16: "Half",
    torch.bfloat16: "BFloat16",
    torch.int64: "Long",
    torch.int32: "Int",
    torch.int16: "Short",
    torch.int8: "Char",
    torch.uint8: "Byte",
    torch.bool: "Bool",
}


def _promotion_proxy(x):
    """x for type promotion only: a dimensioned tensor becomes an empty one of its dtype (promotion looks
    at the dtype and whether the tensor is 0-dim; Python ints stay weak), so no element is computed."""
    if type(x) is Tensor and x.dim() > 0:
        return torch.empty(0, dtype=x.dtype, device=x.device)
    return x


def _operands(a, b, name: str):
    """(a as a tensor of the result dtype, b: an int64 tensor or a Python int, the result dtype)."""
    pa, pb = _promotion_proxy(a), _promotion_proxy(b)
    dtype = (pa + pb).dtype if type(a) is Tensor else (pb + pa).dtype
    if dtype.is_floating_point:
        raise NotImplementedError(f"\"{name}\" not implemented for '{_NAMES.get(dtype, str(dtype))}'")
    a = a.to(dtype) if type(a) is Tensor else torch.tensor(a, dtype=dtype, device=b.device)
    if type(b) is Tensor:
        b = b.to(torch.int64)
    return a, int(b) if isinstance(b, (bool, int)) else b, dtype


def _by_powers_of_two(a: Tensor, s, op):
    """op(op(a, 2**h), 2**(s - h)) with h = s // 2: each factor fits every integer dtype."""
    if type(s) is int:
        h = s // 2
        return op(op(a, 1 << h), 1 << (s - h))
    h = s // 2
    return op(op(a, (2**h).to(a.dtype)), (2 ** (s - h)).to(a.dtype))


def bitwise_left_shift(input, other) -> Tensor:
    """input << other elementwise (wrapping; 0 for shifts < 0 or >= the bit width)."""
    a, s, dtype = _operands(input, other, "lshift_cpu")
    bits = dtype.itemsize * 8
    if type(s) is int:
        return _by_powers_of_two(a, s, torch.mul) if 0 <= s < bits else torch.zeros_like(a)
    shifted = _by_powers_of_two(a, s.clamp(0, bits - 1), torch.mul)
    return torch.where((s >= 0) & (s < bits), shifted, torch.zeros((), dtype=dtype, device=shifted.device))


def bitwise_right_shift(input, other) -> Tensor:
    """input >> other elementwise (arithmetic for signed types; the sign fill for shifts < 0 or >= the
    bit width)."""
    a, s, dtype = _operands(input, other, "rshift_cpu")
    bits = dtype.itemsize * 8
    if type(s) is int and 0 <= s < bits:
        return _by_powers_of_two(a, s, torch.floor_divide)
    fill = torch.where(a < 0, -1, 0).to(dtype) if dtype != torch.uint8 else torch.zeros_like(a)
    if type(s) is int:
        return fill
    shifted = _by_powers_of_two(a, s.clamp(0, bits - 1), torch.floor_divide)
    return torch.where((s >= 0) & (s < bits), shifted, fill)


def _in_place(fn, name: str):
    def method(self: Tensor, other) -> Tensor:
        result = fn(self, other)
        if result.shape != self.shape:  # checked here: copy_ into an empty self checks nothing (as upstream's)
            raise RuntimeError(
                f"output with shape {list(self.shape)} doesn't match the broadcast shape {list(result.shape)}"
            )
        if not torch.can_cast(result.dtype, self.dtype):
            raise RuntimeError(
                f"result type {_NAMES[result.dtype]} can't be cast to the desired output type {_NAMES[self.dtype]}"
            )
        return self.copy_(result)

    method.__name__ = name
    method.__doc__ = f"In-place {fn.__name__}: self is overwritten with the result."
    return method


def _operator(fn, reflected: bool = False):
    def method(self: Tensor, other):
        if not isinstance(other, (Tensor, int)):
            return NotImplemented
        return fn(other, self) if reflected else fn(self, other)

    return method


def install() -> None:
    """Adds the shift functions to torch and the methods and operators to torch.Tensor."""
    torch.bitwise_left_shift = bitwise_left_shift
    torch.bitwise_right_shift = bitwise_right_shift
    Tensor.bitwise_left_shift = bitwise_left_shift
    Tensor.bitwise_right_shift = bitwise_right_shift
    Tensor.bitwise_left_shift_ = _in_place(bitwise_left_shift, "bitwise_left_shift_")
    Tensor.bitwise_right_shift_ = _in_place(bitwise_right_shift, "bitwise_right_shift_")
    Tensor.__lshift__ = _operator(bitwise_left_shift)
    Tensor.__rshift__ = _operator(bitwise_right_shift)
    Tensor.__rlshift__ = _operator(bitwise_left_shift, reflected=True)
    Tensor.__rrshift__ = _operator(bitwise_right_shift, reflected=True)
    Tensor.__ilshift__ = Tensor.bitwise_left_shift_
    Tensor.__irshift__ = Tensor.bitwise_right_shift_
