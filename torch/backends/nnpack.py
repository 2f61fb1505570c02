"""torch.backends.nnpack (PyTorch's API): this torch has no NNPACK, so `is_available()` is False; the
`enabled` switch is kept for `flags()` and `set_flags()`."""

from __future__ import annotations

import contextlib

from torch.backends._flags import Switch, allow_nonbracketed_mutation

__all__ = ["is_available", "flags", "set_flags"]

_ENABLED = Switch(True)


def is_available() -> bool:
    """Whether NNPACK is linked: never here."""
    return False


def set_flags(_enabled):
    """Sets whether NNPACK may be used; returns the old setting."""
    orig = (_ENABLED.get(),)
    _ENABLED.set(_enabled)
    return orig


@contextlib.contextmanager
def flags(enabled=False):
    """Sets NNPACK's switch for the block and restores it after."""
    with allow_nonbracketed_mutation():
        orig = set_flags(enabled)
    try:
        yield
    finally:
        with allow_nonbracketed_mutation():
            set_flags(orig[0])
