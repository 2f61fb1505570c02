"""torch.backends.mkldnn (PyTorch's API): this torch has no oneDNN (its CPU convolutions are THNN's
im2col/Winograd kernels on OpenBLAS), so `is_available()` is False, as in upstream's builds without it; the
switches are kept and read back, and `flags()` sets them for a block."""

from __future__ import annotations

import contextlib
import sys

from torch.backends._flags import PropModule, Switch, allow_nonbracketed_mutation

__all__ = ["is_available", "is_acl_available", "verbose", "VERBOSE_OFF", "VERBOSE_ON", "set_flags", "flags"]

VERBOSE_OFF = 0
VERBOSE_ON = 1
VERBOSE_ON_CREATION = 2

_ENABLED = Switch(True)
_DETERMINISTIC = Switch(False)
_ALLOW_TF32 = Switch(True)


def is_available() -> bool:
    """Whether oneDNN (MKL-DNN) is linked: never here."""
    return False


def is_acl_available() -> bool:
    """Whether oneDNN was built with the Arm Compute Library: never here."""
    return False


class verbose:
    """`with torch.backends.mkldnn.verbose(level):` oneDNN's verbose logging; a no-op without oneDNN (as
    upstream's, which does nothing where oneDNN is absent)."""

    def __init__(self, level):
        self.level = level

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        return False


def set_flags(_enabled=None, _deterministic=None, _allow_tf32=None, _fp32_precision="none"):
    """Sets the switches that are not None; returns the old ones (`flags()` restores them)."""
    orig = (_ENABLED.get(), _DETERMINISTIC.get(), _ALLOW_TF32.get(), "none")
    for switch, value in ((_ENABLED, _enabled), (_DETERMINISTIC, _deterministic), (_ALLOW_TF32, _allow_tf32)):
        if value is not None:
            switch.set(value)
    return orig


@contextlib.contextmanager
def flags(enabled=False, deterministic=False, allow_tf32=True, fp32_precision="none"):
    """Sets oneDNN's switches for the block and restores them after."""
    with allow_nonbracketed_mutation():
        orig = set_flags(enabled, deterministic, allow_tf32, fp32_precision)
    try:
        yield
    finally:
        with allow_nonbracketed_mutation():
            set_flags(*orig)


class MkldnnModule(PropModule):
    """The module object of torch.backends.mkldnn: its switches are properties."""

    def is_available(self):
        return is_available()

    enabled = _ENABLED.prop()
    deterministic = _DETERMINISTIC.prop()
    allow_tf32 = _ALLOW_TF32.prop()


sys.modules[__name__] = MkldnnModule(sys.modules[__name__], __name__)
