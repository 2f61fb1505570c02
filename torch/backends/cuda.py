"""torch.backends.cuda (PyTorch's API): whether CUDA was built in, and the switches of the CUDA matrix
products (`matmul.allow_tf32`, the reduced-precision reductions) and of the cuFFT plan cache."""

from torch import _C

__all__ = ["is_built", "matmul", "cufft_plan_cache", "cuBLASModule", "cuFFTPlanCache"]


def is_built() -> bool:
    """Whether this torch was built with CUDA (THC/THCUNN); says nothing of a GPU being present."""
    return bool(_C._cuda_is_compiled())


class cuBLASModule:
    """`torch.backends.cuda.matmul`: allow_tf32 (float32 products on TF32 tensor cores: the same switch as
    torch.set_float32_matmul_precision, 'highest' being off) and the fp16/bf16 reduced-precision
    reductions (recorded; cuBLAS is asked for float32 accumulation in both cases)."""

    _flags = {"allow_fp16_reduced_precision_reduction": True, "allow_bf16_reduced_precision_reduction": True}

    def __getattr__(self, name):
        if name == "allow_tf32":
            return _C._get_float32_matmul_precision() != 0
        if name in cuBLASModule._flags:
            return cuBLASModule._flags[name]
        raise AttributeError(f"Unknown attribute {name}")

    def __setattr__(self, name, value):
        if name == "allow_tf32":
            _C._set_float32_matmul_precision(1 if value else 0)
        elif name in cuBLASModule._flags:
            cuBLASModule._flags[name] = bool(value)
        else:
            raise AttributeError(f"Unknown attribute {name}")


class cuFFTPlanCache:
    """The cuFFT plan cache of one device (`torch.backends.cuda.cufft_plan_cache[i]`, or of the current
    device without an index): `size` (plans held), `max_size` (settable) and `clear()`."""

    def __init__(self, device_index=None):
        self.device_index = device_index

    def _device(self) -> int:
        return _C._cuda_current_device() if self.device_index is None else int(self.device_index)

    @property
    def size(self) -> int:
        """How many plans the cache holds."""
        return _C._cufft_plan_cache_size(self._device())

    @property
    def max_size(self) -> int:
        """The most plans it keeps (the least recently used one goes first)."""
        return _C._cufft_plan_cache_max_size(self._device())

    @max_size.setter
    def max_size(self, value: int) -> None:
        if value < 0:
            raise RuntimeError(f"cuFFT plan cache size must be non-negative, but got {value}")
        _C._cufft_set_plan_cache_max_size(self._device(), int(value))

    def clear(self) -> None:
        """Destroys the cached plans."""
        _C._cufft_clear_plan_cache(self._device())


class _cuFFTPlanCacheManager(cuFFTPlanCache):
    """`cufft_plan_cache`: the current device's cache, and `cufft_plan_cache[i]` for device i."""

    def __getitem__(self, device) -> cuFFTPlanCache:
        index = device.index if hasattr(device, "index") else int(device)
        return cuFFTPlanCache(index)


matmul = cuBLASModule()
cufft_plan_cache = _cuFFTPlanCacheManager()
