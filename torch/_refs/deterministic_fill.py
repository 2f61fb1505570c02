"""Deterministic fill of uninitialized memory: while ``torch.use_deterministic_algorithms(True)`` is in force and
``torch.utils.deterministic.fill_uninitialized_memory`` is True (its default), the tensors that ``torch.empty``,
``empty_like``, ``empty_strided``, ``empty_permuted``, ``Tensor.new_empty``/``new_empty_strided`` return, and the
memory ``resize_``/``resize_as_`` add, hold NaN (floating and complex: NaN + 0j), the dtype's largest value
(integers) or True (bool), as upstream. The wrappers are swapped in only while the mode is on (torch._registry.
swap), so ``torch.empty`` costs nothing extra otherwise; tensors that ops allocate inside C++ are written by
those ops, never returned uninitialized.
"""

from __future__ import annotations

import functools

from torch import _C, _registry

_FUNCTIONS = ("empty", "empty_like", "empty_strided", "empty_permuted")
_METHODS = ("new_empty", "new_empty_strided")
_RESIZES = ("resize_", "resize_as_")
_restore = None


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
        return _fill(fn(*args, **kwargs))

    return wrapper


def _filling_resize(name, fn):
    @functools.wraps(fn)
    def wrapper(self, *args, **kwargs):
        capacity = self.untyped_storage().nbytes() // self.element_size() - self.storage_offset()
        result = fn(self, *args, **kwargs)
        if result.numel() > max(capacity, 0) and result.is_contiguous():
            _fill(result, max(capacity, 0))
        return result

    return wrapper


def update(enabled: bool) -> None:
    """Swaps the filling wrappers in (enabled) or the originals back."""
    global _restore
    import torch  # noqa: PLC0415

    if enabled and _restore is None:
        plain = _registry.swap(vars(torch), torch.Tensor, _FUNCTIONS, _METHODS, _filling)
        resizes = _registry.swap(vars(torch), torch.Tensor, (), _RESIZES, _filling_resize)

        def restore() -> None:
            resizes()
            plain()

        _restore = restore
    elif not enabled and _restore is not None:
        _restore()
        _restore = None
