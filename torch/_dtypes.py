"""The dtypes, one row each: what PyTorch calls them and what they are in NumPy. Every name, type
and mapping of a dtype in the Python package derives from this table (C++ has its own, in
aten/src/TH/ScalarType.h).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from torch import _C

# torch.dtype, as upstream names it: `<class 'torch.dtype'>`, and a pickled dtype is the global torch.uint16
# (upstream's weights_only loader allows those, not torch._C's)
_C.dtype.__module__ = "torch"


class Row(NamedTuple):
    """One dtype, a row of DTYPES; its other names (attribute, legacy type, conversion method) derive
    from these columns."""

    dtype: _C.dtype
    scalar_type: str  # c10's ScalarType name, as PyTorch's messages print it: "Float"
    alias: str | None  # the short name torch also has: torch.float is torch.float32
    numpy: type | None  # NumPy's scalar type with the same values (NumPy has no bfloat16)
    # upstream's "barebones" dtypes (uint16/32/64, float8): made, copied, indexed and converted only; no
    # conversion method (t.float() has none), legacy tensor type or storage class
    barebones: bool = False

    @property
    def name(self) -> str:
        """The attribute name on torch: "float32"."""
        return str(self.dtype).removeprefix("torch.")

    @property
    def legacy_type(self) -> str:
        """PyTorch's legacy tensor type name: "FloatTensor" (torch.FloatTensor, torch.cuda.FloatTensor)."""
        return f"{self.scalar_type}Tensor"

    @property
    def method(self) -> str:
        """The Tensor method converting to this dtype: "float" (t.float()), "cfloat" (t.cfloat())."""
        return self.alias if self.dtype.is_complex else self.scalar_type.lower()


DTYPES = (
    Row(_C.bool, "Bool", None, np.bool_),
    Row(_C.uint8, "Byte", None, np.uint8),
    Row(_C.int8, "Char", None, np.int8),
    Row(_C.int16, "Short", "short", np.int16),
    Row(_C.int32, "Int", "int", np.int32),
    Row(_C.int64, "Long", "long", np.int64),
    Row(_C.float16, "Half", "half", np.float16),
    Row(_C.bfloat16, "BFloat16", None, None),
    Row(_C.float32, "Float", "float", np.float32),
    Row(_C.float64, "Double", "double", np.float64),
    Row(_C.complex64, "ComplexFloat", "cfloat", np.complex64),
    Row(_C.complex128, "ComplexDouble", "cdouble", np.complex128),
    Row(_C.uint16, "UInt16", None, np.uint16, True),
    Row(_C.uint32, "UInt32", None, np.uint32, True),
    Row(_C.uint64, "UInt64", None, np.uint64, True),
    Row(_C.float8_e4m3fn, "Float8_e4m3fn", None, None, True),
    Row(_C.float8_e5m2, "Float8_e5m2", None, None, True),
)

BY_DTYPE = {d.dtype: d for d in DTYPES}
BY_NAME = {d.name: d for d in DTYPES}
BY_LEGACY_TYPE = {d.legacy_type: d for d in DTYPES if not d.barebones}
# torch's attributes: torch.float32 and torch.float, ...
ATTRIBUTES = {name: d.dtype for d in DTYPES for name in (d.name, d.alias) if name}
TO_NUMPY = {d.dtype: d.numpy for d in DTYPES if d.numpy is not None}
FROM_NUMPY = {v: k for k, v in TO_NUMPY.items()}


def scalar_type(dtype: _C.dtype) -> str:
    """PyTorch's name of dtype in messages: "Float" for torch.float32."""
    return BY_DTYPE[dtype].scalar_type


# c10's C++ names of the element types, as upstream's messages print them ("Expected ... dtype float")
_CPP_NAMES = {
    "float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16", "int64": "long int",
    "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char", "bool": "bool",
    "complex64": "c10::complex<float>", "complex128": "c10::complex<double>", "uint16": "uint16_t",
    "uint32": "uint32_t", "uint64": "uint64_t", "float8_e4m3fn": "c10::Float8_e4m3fn",
    "float8_e5m2": "c10::Float8_e5m2",
}  # fmt: skip


def cpp_type_name(dtype: _C.dtype) -> str:
    """c10's C++ name of dtype's element type in messages: "float" for torch.float32, "long int" for int64."""
    name = str(dtype).removeprefix("torch.")
    return _CPP_NAMES.get(name, name)


def signed_integer(itemsize: int) -> _C.dtype:
    """The signed integer dtype of that many bytes (int16 for 2)."""
    return next(
        d.dtype
        for d in DTYPES
        if d.dtype.is_signed
        and not d.dtype.is_floating_point
        and not d.dtype.is_complex
        and d.dtype.itemsize == itemsize
    )
