"""Tensors from Python data: torch.tensor, torch.as_tensor (NumPy does the parsing)."""

from __future__ import annotations

import numpy as np

import torch

_FROM_NUMPY_KINDS = "biuf"


def _infer(data) -> tuple[np.ndarray, torch.dtype | None]:
    """An ndarray holding `data`, and the dtype PyTorch infers for it when NumPy has none like it
    (Python floats follow the default dtype, which may be bfloat16)."""
    if isinstance(data, np.ndarray):
        return data, None
    arr = np.asarray(data)
    if arr.dtype == object or arr.dtype.kind not in _FROM_NUMPY_KINDS:
        raise TypeError(f"Could not infer dtype of {type(data).__name__}")
    if arr.dtype.kind == "f" and not isinstance(data, np.generic):
        default = torch.get_default_dtype()
        return arr.astype(np.float64 if default == torch.float64 else np.float32), default
    if arr.dtype.kind in "iu" and not isinstance(data, np.generic):
        arr = arr.astype(np.int64)
    return arr, None


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False) -> torch.Tensor:
    """A new tensor copying `data` (nested lists, scalars, NumPy arrays, tensors); a leaf."""
    if isinstance(data, torch.Tensor):  # one copy, already in the wanted dtype and device
        t = data.detach().to(device if device is not None else data.device, dtype, copy=True)
    else:
        arr, inferred = _infer(data)
        t = torch.from_numpy(np.array(arr, copy=True, order="C"))
        dtype = dtype if dtype is not None else inferred
        if dtype is not None or device is not None:
            t = t.to(device if device is not None else t.device, dtype)
    if requires_grad:
        t.requires_grad_(True)
    return t


def as_tensor(data, dtype=None, device=None) -> torch.Tensor:
    """Like tensor(), but shares memory with a NumPy array or tensor when it can."""
    if isinstance(data, torch.Tensor):
        t = data
    elif isinstance(data, np.ndarray) and data.dtype.kind in _FROM_NUMPY_KINDS:
        t = torch.from_numpy(data)
    else:
        return tensor(data, dtype=dtype, device=device)
    return t.to(device if device is not None else t.device, dtype)
