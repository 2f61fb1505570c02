"""torch.utils.dlpack (PyTorch's API): tensors to and from DLPack capsules, the exchange format of NumPy,
JAX, CuPy and the other array libraries. `from_dlpack` takes an object with `__dlpack__` or a capsule and
shares its memory; `to_dlpack` makes a capsule of a tensor (consumable once)."""

from __future__ import annotations

import enum

from torch._refs.creation import from_dlpack

__all__ = ["DLDeviceType", "from_dlpack", "to_dlpack"]


class DLDeviceType(enum.IntEnum):
    """DLPack's device types (dlpack.h's DLDeviceType)."""

    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLROCMHost = 11
    kDLExtDev = 12
    kDLCUDAManaged = 13
    kDLOneAPI = 14
    kDLWebGPU = 15
    kDLHexagon = 16
    kDLMAIA = 17


def to_dlpack(tensor):
    """A DLPack capsule over tensor's memory (the legacy exchange; `tensor.__dlpack__()` is the protocol's)."""
    import torch

    if not isinstance(tensor, torch.Tensor):
        raise TypeError(f"to_dlpack(): argument 'tensor' must be Tensor, not {type(tensor).__name__}")
    return tensor.__dlpack__()
