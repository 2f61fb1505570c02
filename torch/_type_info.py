"""Machine limits of the dtypes: torch.finfo and torch.iinfo (PyTorch's "type info"), read from NumPy
through the dtype table."""

from __future__ import annotations

import numpy as np

from torch import _C
from torch._dtypes import BY_DTYPE, BY_NAME, TO_NUMPY
from torch._registry import register

_NO_NUMPY = {
    _C.bfloat16: (16, 2.0**-7, float.fromhex("0x1.fep127"), 2.0**-126, 0.01),
    _C.float8_e4m3fn: (8, 2.0**-3, 448.0, 2.0**-6, 1.0),
    _C.float8_e5m2: (8, 2.0**-2, 57344.0, 2.0**-14, 1.0),
}


@register
class finfo:
    """Machine limits of a floating-point dtype (torch.finfo)."""

    def __init__(self, type=None) -> None:
        dtype = _C.get_default_dtype() if type is None else type
        dtype = dtype.to_real()  # a complex dtype's limits are its parts' (finfo(complex64) is float32's)
        if not dtype.is_floating_point:
            raise TypeError(f"torch.finfo() requires a floating point input type. Use torch.iinfo to handle '{dtype}'")
        self.dtype = BY_DTYPE[dtype].name
        if dtype in _NO_NUMPY:  # NumPy has no bfloat16 or float8: (bits, eps, max, smallest normal, resolution)
            self.bits, self.eps, self.max, self.tiny, self.resolution = _NO_NUMPY[dtype]
            self.smallest_normal, self.min = self.tiny, -self.max
            return
        info = np.finfo(TO_NUMPY[dtype])
        self.bits = int(info.bits)
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.tiny = self.smallest_normal = float(info.tiny)
        self.resolution = 10.0 ** -int(info.precision)

    def __repr__(self) -> str:
        return (
            f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
            f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})"
        )


@register
class iinfo:
    """Limits of an integer dtype (torch.iinfo)."""

    def __init__(self, type) -> None:
        name = str(type).replace("torch.", "")
        d = BY_NAME.get(name)
        if d is None or d.dtype.is_floating_point or d.dtype.is_complex or d.dtype == _C.bool:
            raise TypeError(f"torch.iinfo() requires an integer input type. Use torch.finfo to handle '{type}'")
        info = np.iinfo(d.numpy)
        self.dtype, self.bits, self.max, self.min = name, int(info.bits), int(info.max), int(info.min)

    def __repr__(self) -> str:
        return f"iinfo(min={self.min}, max={self.max}, dtype={self.dtype})"
