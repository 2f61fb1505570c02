"""torch.nn.attention: choosing scaled_dot_product_attention's backend (SDPBackend, sdpa_kernel)."""

from __future__ import annotations

import contextlib
import enum

import torch.backends.cuda as _cuda_backends

__all__ = ["SDPBackend", "sdpa_kernel"]

# warn, when a fused kernel is not used, why (upstream's switch of the same name)
WARN_FOR_UNFUSED_KERNELS = False


class SDPBackend(enum.IntEnum):
    """The backends of scaled_dot_product_attention, upstream's values. Here MATH is the composite (batched gemms
    and a softmax), FLASH_ATTENTION the fused kernel (and EFFICIENT_ATTENTION too on a GPU); cuDNN's and the
    overrideable backend have no kernel in this library."""

    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2
    CUDNN_ATTENTION = 3
    OVERRIDEABLE = 4


_NAMES = {
    "cudnn": SDPBackend.CUDNN_ATTENTION,
    "flash": SDPBackend.FLASH_ATTENTION,
    "mem_efficient": SDPBackend.EFFICIENT_ATTENTION,
    "math": SDPBackend.MATH,
    "overrideable": SDPBackend.OVERRIDEABLE,
}


@contextlib.contextmanager
def sdpa_kernel(backends, set_priority: bool = False):
    """Inside the block scaled_dot_product_attention may use only `backends` (one SDPBackend or a list); with
    none of them able to run a call, it raises upstream's RuntimeError. `set_priority` is accepted (this
    library's choice among allowed backends is its own: the fused kernel where the score matrix is big)."""
    if isinstance(backends, SDPBackend):
        backends = [backends]
    if not isinstance(backends, (list, tuple, set)) or not all(isinstance(b, SDPBackend) for b in backends):
        raise AssertionError(
            "Backend must be an instance of SDPBackend or a list of SDPBackend instances, "
            f"got {type(backends).__name__}"
        )
    previous = dict(_cuda_backends._sdp_enabled)
    _cuda_backends._sdp_enabled.update({name: b in backends for name, b in _NAMES.items()})
    try:
        yield {}
    finally:
        _cuda_backends._sdp_enabled.update(previous)
