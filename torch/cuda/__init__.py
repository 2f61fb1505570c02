"""torch.cuda: GPU availability and memory, through the THC backend when it is built."""

from __future__ import annotations

from torch import _C


def is_compiled() -> bool:
    """Whether this torch was built with CUDA (USE_CUDA)."""
    return _C._cuda_is_compiled()


def device_count() -> int:
    """Number of visible GPUs (0 without a GPU or without a CUDA build)."""
    return _C._cuda_device_count()


def is_available() -> bool:
    """True when torch was built with CUDA and a GPU is visible."""
    return is_compiled() and device_count() > 0


def _device_index(device) -> int:
    if device is None:
        return 0
    if isinstance(device, int):
        return device
    idx = getattr(device, "index", None) if not isinstance(device, str) else _C.device(device).index
    return idx or 0


def synchronize(device=None) -> None:
    """Waits for all kernels on `device` to complete."""
    _C._cuda_synchronize(_device_index(device))


def empty_cache() -> None:
    """Releases cached, unused GPU memory held by the caching allocator."""
    _C._cuda_empty_cache()


def memory_allocated(device=None) -> int:
    """Bytes of GPU memory held by live tensors on `device`."""
    return _C._cuda_memory_allocated(_device_index(device))


def manual_seed(seed) -> None:
    """Seeds the CUDA generators (here: every default generator, as torch.manual_seed does)."""
    _C.manual_seed(int(seed))


def manual_seed_all(seed) -> None:
    """Seeds the generators of every CUDA device."""
    _C.manual_seed(int(seed))
