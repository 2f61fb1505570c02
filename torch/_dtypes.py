"""The dtypes, one row each: what PyTorch calls them and what they are in NumPy. Every name, type
and mapping of a dtype in the Python package derives from this table (C++ has its own, in
aten/src/TH/ScalarType.h).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from torch import _C


class Row(NamedTuple):
    """One dtype, a row of DTYPES; its other names (attribute, legacy type, conversion method) derive
    from these columns."""

    dtype: _C.dtype
    scalar_type: str  # c10's ScalarType name, as PyTorch's messages print it: "Float"
    alias: str | None  # the short name torch also has: torch.float is torch.float32
    numpy: type | None  # NumPy's scalar type with the same values (NumPy has no bfloat16)

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
)

BY_DTYPE = {d.dtype: d for d in DTYPES}
BY_NAME = {d.name: d for d in DTYPES}
BY_LEGACY_TYPE = {d.legacy_type: d for d in DTYPES}
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
    "complex64": "c10::complex<float>", "complex128": "c10::complex<double>",
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
