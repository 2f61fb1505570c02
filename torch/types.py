"""torch.types (PyTorch's API): the type aliases annotations use."""

from __future__ import annotations

import builtins
import os
from typing import IO, Any, Union

from torch._C import Tensor
from torch._size import Size

__all__ = ["Number", "Device", "FileLike", "Storage", "Tensor", "Size", "IntLikeType", "FloatLikeType", "BoolLikeType"]

Number = Union[builtins.int, builtins.float, builtins.bool]
"""A Python number as ops take it."""

Device = Union["torch.device", str, builtins.int, None]  # noqa: F821
"""What a device= argument takes."""

FileLike = Union[str, os.PathLike, IO[bytes]]
"""What torch.save/torch.load take as a file."""

IntLikeType = builtins.int
FloatLikeType = builtins.float
BoolLikeType = builtins.bool
Storage = Any
"""A tensor's storage (torch.UntypedStorage)."""
