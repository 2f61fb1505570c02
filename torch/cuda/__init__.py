"""torch.cuda: GPUs, their memory, streams and events, through the THC backend when it is built."""

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
from torch.cuda.random import (  # noqa: F401
    get_rng_state,
    get_rng_state_all,
    initial_seed,
    manual_seed,
    manual_seed_all,
    seed,
    seed_all,
    set_rng_state,
    set_rng_state_all,
)
from torch.cuda.streams import Event, ExternalStream, Stream  # noqa: F401


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
    """The GPU index `device` names: an int as is, "cuda:i" / torch.device i, and the current GPU for
    None or "cuda" without an index (0 where there is no GPU to ask)."""
    if isinstance(device, int):
        return device
    if device is None:
        idx = None
    else:
        idx = _C.device(device).index if isinstance(device, str) else getattr(device, "index", None)
    if idx is None:
        return _C._cuda_current_device() if is_available() else 0
    return idx


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


def is_bf16_supported(including_emulation: bool = True) -> bool:
    """Whether the current GPU computes in bfloat16: natively from compute capability 8.0 (Ampere), and
    emulated before it when `including_emulation`; False without a GPU."""
    if not is_available():
        return False
    return including_emulation or get_device_capability()[0] >= 8


def current_device() -> int:
    """The index of the GPU that "cuda" without an index refers to."""
    return _checked_index(None)


def synchronize(device=None) -> None:
    """Waits for all kernels on all streams of `device` (the current GPU when None) to complete."""
    _C._cuda_synchronize(_checked_index(device))


def set_device(device) -> None:
    """Makes `device` this thread's current GPU ("cuda" without an index); a negative index does nothing."""
    index = _device_index(device)
    if index >= 0:
        _C._cuda_set_device(_checked_index(index))


class device:
    """Context manager that makes `device` the current GPU inside it (no-op for None or a negative index)."""

    def __init__(self, device):
        kind = getattr(device, "type", None) if not isinstance(device, str) else _C.device(device).type
        if kind is not None and kind != "cuda":
            raise ValueError(f"Expected a cuda device, but got: {device}")
        self.idx = -1 if device is None else _device_index(device)
        self.prev_idx = -1

    def __enter__(self):
        if self.idx >= 0:
            self.prev_idx = current_device()
            if self.prev_idx != self.idx:
                set_device(self.idx)

    def __exit__(self, *exc):
        if self.idx >= 0 and self.prev_idx != self.idx:
            set_device(self.prev_idx)
        return False


class device_of(device):
    """Context manager that makes the GPU of tensor `obj` current (no-op for a CPU tensor)."""

    def __init__(self, obj):
        super().__init__(obj.get_device() if obj.is_cuda else -1)


def current_stream(device=None) -> Stream:
    """This thread's current stream on `device` (the current GPU when None)."""
    index = _checked_index(device)
    return Stream(_handle=_C._cuda_current_stream(index), _device_index=index)


def default_stream(device=None) -> Stream:
    """The default stream of `device` (the current GPU when None)."""
    return Stream(_handle=0, _device_index=_checked_index(device))


def set_stream(stream: Stream | None) -> None:
    """Makes `stream` current on its device, and its device the current GPU (no-op for None). Prefer
    `with torch.cuda.stream(s):`, which restores the previous stream."""
    if stream is None:
        return
    if current_device() != stream.device_index:
        set_device(stream.device_index)
    _C._cuda_set_stream(stream.device_index, stream.cuda_stream)


class StreamContext:
    """Context manager that makes `stream` current (and its device the current GPU) inside it, and
    restores the previous streams and device after; a no-op for None."""

    def __init__(self, stream: Stream | None):
        self.stream = stream
        self.src_prev_stream = None
        self.dst_prev_stream = None

    def __enter__(self):
        if self.stream is None:
            return
        self.src_prev_stream = current_stream()
        if self.src_prev_stream.device_index != self.stream.device_index:
            self.dst_prev_stream = current_stream(self.stream.device_index)
        set_stream(self.stream)

    def __exit__(self, *exc):
        if self.stream is None:
            return
        if self.dst_prev_stream is not None:
            set_stream(self.dst_prev_stream)
        set_stream(self.src_prev_stream)


def stream(stream: Stream | None) -> StreamContext:
    """`with torch.cuda.stream(s):` queues the work inside on `s` (no-op for None)."""
    return StreamContext(stream)


from torch.cuda import amp  # noqa: E402, F401  (the deprecated torch.cuda.amp, as upstream)
from torch.cuda._legacy import TYPES as _LEGACY_TYPES  # noqa: E402

globals().update(_LEGACY_TYPES)  # torch.cuda.FloatTensor, ...
