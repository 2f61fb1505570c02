"""The rebuild functions PyTorch's checkpoints name (torch._utils._rebuild_tensor_v2 and _rebuild_parameter): a
pickle written by upstream PyTorch calls them by these names, and torch.save here writes the same calls, so
checkpoints go both ways (torch/serialization.py)."""

from __future__ import annotations

import torch

__all__: list[str] = []


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad=False, backward_hooks=None, metadata=None):
    """The tensor of `size` and `stride` at storage_offset into `storage` (a flat tensor of the storage's
    elements, shared by every tensor of the checkpoint that views it); `metadata` {"conj": True} makes it a
    conjugate view of that memory, as upstream writes one."""
    t = storage.as_strided(tuple(size), tuple(stride), int(storage_offset))
    if metadata and metadata.get("conj"):
        t = t.conj()
    return t.requires_grad_() if requires_grad else t


def _rebuild_tensor_v3(storage, storage_offset, size, stride, requires_grad, backward_hooks, dtype, metadata=None):
    """_rebuild_tensor_v2 over an untyped storage (its bytes, as uint8) holding elements of `dtype` (the
    dtypes with no storage class: uint16/32/64, float8)."""
    typed = storage.view(dtype)
    return _rebuild_tensor_v2(typed, storage_offset, size, stride, requires_grad, backward_hooks, metadata)


def _rebuild_tensor(storage, storage_offset, size, stride):
    """The older form of _rebuild_tensor_v2 (no requires_grad)."""
    return _rebuild_tensor_v2(storage, storage_offset, size, stride)


def _rebuild_parameter(data, requires_grad, backward_hooks=None):
    """An nn.Parameter over `data`."""
    return torch.nn.Parameter(data, requires_grad)


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    """An nn.Parameter over `data` (extra Python attributes in `state` are set on it)."""
    param = torch.nn.Parameter(data, requires_grad)
    for key, value in (state or {}).items():
        setattr(param, key, value)
    return param
