"""pin_memory(data): a batch with every CPU tensor in it copied to pinned memory (DataLoader's
``pin_memory=True``), through mappings, named tuples, tuples, lists and objects with a ``pin_memory``
method, as PyTorch's ``torch.utils.data._utils.pin_memory.pin_memory``."""

from __future__ import annotations

import collections.abc

import torch


def pin_memory(data, device=None):
    """`data` with its tensors pinned (strings, numbers and other leaves as they are)."""
    if isinstance(data, torch.Tensor):
        return data.pin_memory()
    if isinstance(data, (str, bytes)):
        return data
    if isinstance(data, collections.abc.Mapping):
        pinned = {k: pin_memory(v, device) for k, v in data.items()}
        try:
            return type(data)(pinned)
        except TypeError:  # a mapping type that cannot be built from a dict
            return pinned
    if isinstance(data, tuple) and hasattr(data, "_fields"):  # namedtuple
        return type(data)(*(pin_memory(x, device) for x in data))
    if isinstance(data, tuple):
        return tuple(pin_memory(x, device) for x in data)
    if isinstance(data, collections.abc.Sequence):
        items = [pin_memory(x, device) for x in data]
        try:
            return type(data)(items)
        except TypeError:
            return items
    if hasattr(data, "pin_memory"):
        return data.pin_memory()
    return data
