"""The Python-level part of torch.Tensor: operators, conversions, printing.

The class itself is torch._C.Tensor (ops are generated bindings); this module adds what is
simplest in Python.
"""

from __future__ import annotations

import numbers

import numpy as np

import torch
from torch._C import Tensor


def _as_operand(self: Tensor, other) -> Tensor:
    """`other` as a tensor for a binary op with `self` (Python numbers become 0-dim tensors)."""
    if isinstance(other, Tensor):
        return other
    if isinstance(other, bool):
        return torch.full([], other, dtype=self.dtype, device=self.device)
    if isinstance(other, numbers.Integral):  # an int keeps the tensor's dtype unless it is bool
        dtype = torch.int64 if self.dtype == torch.bool else self.dtype
        return torch.full([], int(other), dtype=dtype, device=self.device)
    if isinstance(other, numbers.Real):
        dtype = self.dtype if self.dtype.is_floating_point else torch.get_default_dtype()
        return torch.full([], float(other), dtype=dtype, device=self.device)
    return NotImplemented


def _binary(op: str, reflected: bool = False):
    def method(self, other):
        other = _as_operand(self, other)
        if other is NotImplemented:
            return NotImplemented
        a, b = (other, self) if reflected else (self, other)
        return getattr(a, op)(b)

    method.__name__ = f"__{'r' if reflected else ''}{op.rstrip('_')}__"
    return method


def _inplace(op: str):
    def method(self, other):
        other = _as_operand(self, other)
        if other is NotImplemented:
            return NotImplemented
        return getattr(self, op)(other)

    method.__name__ = f"__i{op.rstrip('_')}__"
    return method


def _repr(self: Tensor) -> str:
    """PyTorch-style `tensor([...])` with the dtype/device suffix PyTorch prints."""
    arr = self.cpu().numpy()
    if arr.dtype.kind == "f":
        body = np.array2string(arr, separator=", ", precision=4, floatmode="maxprec_equal", prefix="tensor(")
    else:
        body = np.array2string(arr, separator=", ", prefix="tensor(")
    suffix = []
    if self.device.type != "cpu":
        suffix.append(f"device='{self.device}'")
    default_dtypes = (torch.get_default_dtype(), torch.int64, torch.bool)
    if self.dtype not in default_dtypes or self.numel() == 0:
        suffix.append(f"dtype={self.dtype}")
    return "tensor(" + body + "".join(", " + s for s in suffix) + ")"


def _item(self: Tensor):
    """The value of a one-element tensor as a Python number."""
    if self.numel() != 1:
        raise RuntimeError(f"a Tensor with {self.numel()} elements cannot be converted to Scalar")
    return self.cpu().numpy().reshape(()).item()


def _tolist(self: Tensor):
    """The tensor as (nested) Python lists."""
    return self.cpu().numpy().tolist()


def _cpu(self: Tensor) -> Tensor:
    """This tensor in CPU memory (itself if already there)."""
    return self.to("cpu")


def _cuda(self: Tensor, device=None) -> Tensor:
    """This tensor in GPU memory."""
    return self.to(torch.device("cuda", device) if isinstance(device, int) else device or "cuda")


def _array(self: Tensor, dtype=None):
    arr = self.cpu().numpy()
    return arr if dtype is None else arr.astype(dtype)


def _bool(self: Tensor) -> bool:
    if self.numel() != 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(_item(self))


def install() -> None:
    """Adds the methods above to torch.Tensor (called once by torch/__init__.py)."""
    for op in ("add", "sub", "mul"):
        setattr(Tensor, f"__{op}__", _binary(op))
        setattr(Tensor, f"__r{op}__", _binary(op, reflected=True))
        setattr(Tensor, f"__i{op}__", _inplace(op + "_"))
    conversions = {
        "float": torch.float32,
        "double": torch.float64,
        "long": torch.int64,
        "int": torch.int32,
        "bool": torch.bool,
    }
    for name, dtype in conversions.items():
        setattr(Tensor, name, lambda self, _d=dtype: self.to(_d))
    Tensor.__repr__ = _repr
    Tensor.__str__ = _repr
    Tensor.item = _item
    Tensor.tolist = _tolist
    Tensor.cpu = _cpu
    Tensor.cuda = _cuda
    Tensor.__array__ = _array
    Tensor.__bool__ = _bool
    Tensor.__float__ = lambda self: float(_item(self))
    Tensor.__int__ = lambda self: int(_item(self))
    Tensor.__neg__ = lambda self: torch.zeros([], dtype=self.dtype, device=self.device) - self
