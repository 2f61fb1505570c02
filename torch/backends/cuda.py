"""torch.backends.cuda (PyTorch's API): whether CUDA was built in, and the switches of the CUDA matrix
products (`matmul.allow_tf32`, the reduced-precision reductions), of the cuFFT plan cache, and of
scaled_dot_product_attention's backends (which, as upstream's, apply on the CPU too)."""

from __future__ import annotations

import contextlib
import warnings
from dataclasses import dataclass

from torch import _C

__all__ = [
    "is_built",
    "matmul",
    "cufft_plan_cache",
    "cuBLASModule",
    "cuFFTPlanCache",
    "SDPAParams",
    "can_use_flash_attention",
    "can_use_efficient_attention",
    "can_use_cudnn_attention",
    "flash_sdp_enabled",
    "enable_flash_sdp",
    "mem_efficient_sdp_enabled",
    "enable_mem_efficient_sdp",
    "math_sdp_enabled",
    "enable_math_sdp",
    "cudnn_sdp_enabled",
    "enable_cudnn_sdp",
    "allow_fp16_bf16_reduction_math_sdp",
    "fp16_bf16_reduction_math_sdp_allowed",
    "is_ck_sdpa_available",
    "sdp_kernel",
]


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


# scaled_dot_product_attention's backends: "math" is the composite (batched gemms and a softmax), and the fused
# kernel (torch._fused_attention, which never stores the score matrix) stands for upstream's flash attention on
# the CPU and for flash and memory-efficient attention on a GPU; cuDNN's and the overrideable one have no kernel
_sdp_enabled = {"flash": True, "mem_efficient": True, "math": True, "cudnn": True, "overrideable": True}
_sdp_math_fp16_bf16_reduction = [False]


def flash_sdp_enabled() -> bool:
    """Whether scaled_dot_product_attention may use flash attention (here: the fused kernel)."""
    return _sdp_enabled["flash"]


def enable_flash_sdp(enabled: bool) -> None:
    """Allows or forbids flash attention (here: the fused kernel) in scaled_dot_product_attention."""
    _sdp_enabled["flash"] = bool(enabled)


def mem_efficient_sdp_enabled() -> bool:
    """Whether scaled_dot_product_attention may use memory-efficient attention (the fused kernel on a GPU)."""
    return _sdp_enabled["mem_efficient"]


def enable_mem_efficient_sdp(enabled: bool) -> None:
    """Allows or forbids memory-efficient attention (the fused kernel on a GPU)."""
    _sdp_enabled["mem_efficient"] = bool(enabled)


def math_sdp_enabled() -> bool:
    """Whether scaled_dot_product_attention may use the math composite."""
    return _sdp_enabled["math"]


def enable_math_sdp(enabled: bool) -> None:
    """Allows or forbids the math composite in scaled_dot_product_attention."""
    _sdp_enabled["math"] = bool(enabled)


def cudnn_sdp_enabled() -> bool:
    """Whether cuDNN attention is allowed (this library has no cuDNN attention kernel)."""
    return _sdp_enabled["cudnn"]


def enable_cudnn_sdp(enabled: bool) -> None:
    """Allows or forbids cuDNN attention (recorded; this library has no cuDNN attention kernel)."""
    _sdp_enabled["cudnn"] = bool(enabled)


def allow_fp16_bf16_reduction_math_sdp(enabled: bool) -> None:
    """Allows the math backend to reduce in float16/bfloat16 (recorded: the composite accumulates in float32)."""
    _sdp_math_fp16_bf16_reduction[0] = bool(enabled)


def fp16_bf16_reduction_math_sdp_allowed() -> bool:
    """Whether allow_fp16_bf16_reduction_math_sdp was switched on."""
    return _sdp_math_fp16_bf16_reduction[0]


def is_ck_sdpa_available() -> bool:
    """Whether ROCm's Composable Kernel attention is available: never here."""
    return False


@dataclass
class SDPAParams:
    """The inputs of one scaled_dot_product_attention call, for the can_use_* checks (upstream's positional
    constructor: query, key, value, attn_mask, dropout, is_causal, enable_gqa)."""

    query: object
    key: object
    value: object
    attn_mask: object
    dropout: float
    is_causal: bool
    enable_gqa: bool = False


def _fused_reasons(params: SDPAParams) -> list[str]:
    """Why the fused kernel cannot run these inputs (empty: it can)."""
    q, k, v = params.query, params.key, params.value
    reasons = []
    if params.dropout != 0.0:
        reasons.append("Both fused kernels do not support non-zero dropout.")
    if q.dim() < 2 or not (q.shape[:-2] == k.shape[:-2] == v.shape[:-2]):
        reasons.append("Both fused kernels require query, key and value to have the same batch dimensions.")
    if q.dtype != k.dtype or q.dtype != v.dtype or not q.dtype.is_floating_point:
        reasons.append("Expected query, key and value to all be of the same floating point dtype.")
    return reasons


def _can_use_fused(params: SDPAParams, debug: bool) -> bool:
    reasons = _fused_reasons(params)
    if debug:
        for r in reasons:
            warnings.warn(r, stacklevel=3)
    return not reasons


def can_use_flash_attention(params: SDPAParams, debug: bool = False) -> bool:
    """Whether flash attention (here: the fused kernel) can run these inputs; `debug` warns why not."""
    return _can_use_fused(params, debug)


def can_use_efficient_attention(params: SDPAParams, debug: bool = False) -> bool:
    """Whether memory-efficient attention (the fused kernel, on a GPU) can run these inputs."""
    if not params.query.is_cuda:
        if debug:
            warnings.warn("Memory efficient attention runs on CUDA tensors only.", stacklevel=2)
        return False
    return _can_use_fused(params, debug)


def can_use_cudnn_attention(params: SDPAParams, debug: bool = False) -> bool:
    """Whether cuDNN attention can run these inputs: never here (no cuDNN attention kernel)."""
    if debug:
        warnings.warn("This library has no cuDNN attention kernel.", stacklevel=2)
    return False


@contextlib.contextmanager
def sdp_kernel(
    enable_flash: bool = True, enable_math: bool = True, enable_mem_efficient: bool = True, enable_cudnn: bool = True
):
    """Deprecated: torch.nn.attention.sdpa_kernel. Enables exactly the named backends inside the block."""
    warnings.warn(
        "`torch.backends.cuda.sdp_kernel()` is deprecated. In the future, this context manager will be removed. "
        "Please see `torch.nn.attention.sdpa_kernel()` for the new context manager, with updated signature.",
        FutureWarning,
        stacklevel=3,
    )
    previous = dict(_sdp_enabled)
    _sdp_enabled.update(flash=enable_flash, math=enable_math, mem_efficient=enable_mem_efficient, cudnn=enable_cudnn)
    try:
        yield {}
    finally:
        _sdp_enabled.update(previous)
