"""Deterministic fill of uninitialized memory: while ``torch.use_deterministic_algorithms(True)`` is in force and
``torch.utils.deterministic.fill_uninitialized_memory`` is True (its default), the tensors that ``torch.empty``,
``empty_like``, ``empty_strided``, ``empty_permuted``, ``Tensor.new_empty``/``new_empty_strided`` return, and the
memory ``resize_``/``resize_as_`` add, hold NaN (floating and complex: NaN + 0j), the dtype's largest value
(integers) or True (bool), as upstream. The wrappers are installed once (torch._registry.wrap, at import) and
check the mode at each call; tensors that ops allocate inside C++ are written by those ops, never returned
uninitialized.
"""

from __future__ import annotations

import functools

from torch import _C, _registry

_FUNCTIONS = ("empty", "empty_like", "empty_strided", "empty_permuted")
_METHODS = ("new_empty", "new_empty_strided")
_RESIZES = ("resize_", "resize_as_")


def _value(dtype):
    import torch  # noqa: PLC0415

    if dtype.is_complex:
        return complex(float("nan"), 0.0)
    if dtype.is_floating_point:
        return float("nan")
    if dtype == torch.bool:
        return True
    return torch.iinfo(dtype).max


def _fill(t, start: int = 0):
    """Fills t's elements from flat position `start` on (t contiguous when start > 0)."""
    if t.numel() > start:
        prev = _C._set_grad_enabled(False)
        try:
            (t.view(-1)[start:] if start else t).fill_(_value(t.dtype))
        finally:
            _C._set_grad_enabled(prev)
    return t


def _filling(name, fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        result = fn(*args, **kwargs)
        return _fill(result) if _on else result

    return wrapper


def _filling_resize(name, fn):
    @functools.wraps(fn)
    def wrapper(self, *args, **kwargs):
        if not _on:
            return fn(self, *args, **kwargs)
        capacity = self.untyped_storage().nbytes() // self.element_size() - self.storage_offset()
        result = fn(self, *args, **kwargs)
        if result.numel() > max(capacity, 0) and result.is_contiguous():
            _fill(result, max(capacity, 0))
        return result

    return wrapper


_on = False  # whether the factories fill (set by update)


def install(namespace: dict, tensor: type) -> None:
    """Wraps the factories once, at import (torch/__init__.py): the wrappers fill only while update(True) holds,
    so that what saves and restores the namespace (torch.profiler's instrument) can neither drop nor keep them."""
    _registry.wrap(namespace, tensor, _FUNCTIONS, _METHODS, _filling)
    _registry.wrap(namespace, tensor, (), _RESIZES, _filling_resize)


def update(enabled: bool) -> None:
    """Turns the fill on or off."""
    global _on
    _on = bool(enabled)
