"""torch.cuda: GPU availability and memory, through the THC backend when it is built."""

from __future__ import annotations

from typing import NamedTuple

from torch import _C
from torch.cuda.memory import (  # noqa: F401  (torch.cuda's names, as PyTorch's)
    OutOfMemoryError,
    empty_cache,
    max_memory_allocated,
    max_memory_reserved,
    memory_allocated,
    memory_reserved,
    memory_stats,
    memory_summary,
    reset_max_memory_allocated,
    reset_peak_memory_stats,
)


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


def _checked_index(device) -> int:
    """The index of `device`, after PyTorch's checks: CUDA built, a GPU present, the id valid."""
    if not is_compiled():
        raise AssertionError("Torch not compiled with CUDA enabled")
    n = device_count()
    if n == 0:
        raise RuntimeError("No CUDA GPUs are available")
    index = _C._cuda_current_device() if device is None else _device_index(device)
    if not 0 <= index < n:
        raise AssertionError("Invalid device id")
    return index


class _CudaDeviceProperties(NamedTuple):
    """What get_device_properties reports: name, compute capability, memory and SM count."""

    name: str
    major: int
    minor: int
    total_memory: int
    multi_processor_count: int
    L2_cache_size: int

    def __repr__(self) -> str:
        return (
            f"_CudaDeviceProperties(name='{self.name}', major={self.major}, minor={self.minor}, "
            f"total_memory={self.total_memory // (1024 * 1024)}MB, "
            f"multi_processor_count={self.multi_processor_count}, "
            f"L2_cache_size={self.L2_cache_size // (1024 * 1024)}MB)"
        )


def get_device_properties(device=None) -> _CudaDeviceProperties:
    """Name, compute capability, total memory and multiprocessor count of a GPU."""
    return _CudaDeviceProperties(*_C._cuda_device_properties(_checked_index(device)))


def get_device_name(device=None) -> str:
    """The name of a GPU, e.g. 'NVIDIA H100 80GB HBM3'."""
    return get_device_properties(device).name


def get_device_capability(device=None) -> tuple[int, int]:
    """The (major, minor) compute capability of a GPU, e.g. (9, 0) for Hopper."""
    p = get_device_properties(device)
    return p.major, p.minor


def current_device() -> int:
    """The index of the GPU that "cuda" without an index refers to."""
    return _checked_index(None)


def synchronize(device=None) -> None:
    """Waits for all kernels on `device` to complete."""
    _C._cuda_synchronize(_device_index(device))


def manual_seed(seed) -> None:
    """Seeds the CUDA generators (here: every default generator, as torch.manual_seed does)."""
    _C.manual_seed(int(seed))


def manual_seed_all(seed) -> None:
    """Seeds the generators of every CUDA device."""
    _C.manual_seed(int(seed))
