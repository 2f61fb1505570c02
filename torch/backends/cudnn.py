"""torch.backends.cudnn (PyTorch's API). This torch has no cuDNN (its CUDA convolutions are THCUNN's own
kernels), so `is_available()` is False and `version()` None, as in upstream's builds without cuDNN; the
switches that training scripts set (`benchmark`, `deterministic`, `enabled`, `allow_tf32`) are kept and
read back as upstream's are, and `flags()` sets several for a block. THCUNN's convolutions are deterministic
whatever `deterministic` says, and `benchmark` has no algorithms to choose among."""

from __future__ import annotations

import contextlib
import sys

from torch.backends._flags import PropModule, Switch, allow_nonbracketed_mutation

__all__ = ["is_available", "version", "is_acceptable", "set_flags", "flags"]

CUDNN_TENSOR_DTYPES = {"float16", "float32", "float64"}

_ENABLED = Switch(True)
_BENCHMARK = Switch(False)
_DETERMINISTIC = Switch(False)
_ALLOW_TF32 = Switch(True)
_DEPTHWISE_KERNEL = Switch("auto", convert=str)


def is_available() -> bool:
    """Whether cuDNN can be used: never here (no cuDNN is linked)."""
    return False


def version():
    """cuDNN's version as an int (e.g. 90100), or None without cuDNN (always here)."""
    return None


def is_acceptable(tensor) -> bool:
    """Whether cuDNN would take `tensor` (a CUDA tensor of a cuDNN dtype, cuDNN enabled and present)."""
    return False


def set_flags(
    _enabled=None,
    _benchmark=None,
    _benchmark_limit=None,
    _deterministic=None,
    _allow_tf32=None,
    _fp32_precision="none",
    _depthwise_kernel=None,
):
    """Sets the switches that are not None; returns the old ones in this order (`flags()` restores them)."""
    switches = (_ENABLED, _BENCHMARK, None, _DETERMINISTIC, _ALLOW_TF32, None, _DEPTHWISE_KERNEL)
    values = (_enabled, _benchmark, _benchmark_limit, _deterministic, _allow_tf32, _fp32_precision, _depthwise_kernel)
    orig = tuple(s.get() if s is not None else (None if i == 2 else "none") for i, s in enumerate(switches))
    for switch, value in zip(switches, values):
        if switch is not None and value is not None:
            switch.set(value)
    return orig


@contextlib.contextmanager
def flags(
    enabled=False,
    benchmark=False,
    benchmark_limit=10,
    deterministic=False,
    allow_tf32=True,
    fp32_precision="none",
    depthwise_kernel="auto",
):
    """Sets cuDNN's switches for the block (upstream's defaults: everything off but allow_tf32) and restores
    them after."""
    with allow_nonbracketed_mutation():
        orig = set_flags(
            enabled, benchmark, benchmark_limit, deterministic, allow_tf32, fp32_precision, depthwise_kernel
        )
    try:
        yield
    finally:
        with allow_nonbracketed_mutation():
            set_flags(*orig)


class CudnnModule(PropModule):
    """The module object of torch.backends.cudnn: its switches are properties."""

    enabled = _ENABLED.prop()
    benchmark = _BENCHMARK.prop()
    deterministic = _DETERMINISTIC.prop()
    allow_tf32 = _ALLOW_TF32.prop()
    depthwise_kernel = _DEPTHWISE_KERNEL.prop()
    benchmark_limit = None  # upstream's is None where cuDNN is not available


sys.modules[__name__] = CudnnModule(sys.modules[__name__], __name__)
