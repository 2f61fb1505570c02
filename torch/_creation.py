"""Tensors from Python data: torch.tensor, torch.as_tensor (NumPy does the parsing)."""

from __future__ import annotations

import numpy as np

import torch

_FROM_NUMPY_KINDS = "biuf"


def _infer(data) -> np.ndarray:
    """An ndarray holding `data` with PyTorch's dtype inference for Python values."""
    if isinstance(data, torch.Tensor):
        return data.cpu().numpy()
    if isinstance(data, np.ndarray):
        return data
    arr = np.asarray(data)
    if arr.dtype == object or arr.dtype.kind not in _FROM_NUMPY_KINDS:
        raise TypeError(f"Could not infer dtype of {type(data).__name__}")
    if arr.dtype.kind == "f":  # Python floats follow the default dtype, not float64
        arr = arr.astype(np.float32 if torch.get_default_dtype() == torch.float32 else np.float64)
    elif arr.dtype.kind in "iu" and not isinstance(data, np.generic):
        arr = arr.astype(np.int64)
    return arr


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False) -> torch.Tensor:
    """A new tensor copying `data` (nested lists, scalars, NumPy arrays, tensors); a leaf."""
    if isinstance(data, torch.Tensor):
        data = data.detach()
    t = torch.from_numpy(np.array(_infer(data), copy=True, order="C"))
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
