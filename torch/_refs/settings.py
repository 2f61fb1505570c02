"""PyTorch's global switches that code sets once and libraries query: deterministic algorithms (and their
debug mode), float32 matmul precision, the inter-op thread count, warn-always, the default device. The CPU
kernels here are deterministic for a given thread count whatever the switch says; the matmul precision lets
CUDA float32 products use TF32 (the CPU's stay float32); the inter-op thread count is recorded (ops run one
after another)."""

from __future__ import annotations

import warnings

import torch
from torch import _C
from torch._refs import deterministic_fill
from torch._registry import register

_state = {
    "deterministic": False,
    "warn_only": False,
    "fill_uninitialized_memory": True,
    "interop_threads": 1,
    "warn_always": False,
}
_PRECISIONS = ("highest", "high", "medium")  # torch._C's 0, 1, 2 (TH/MatmulPrecision.h)
_DEBUG_MODES = ("default", "warn", "error")


@register
def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    """Asks for deterministic algorithms only (warn_only: warn instead of raising where one is not)."""
    _state["deterministic"], _state["warn_only"] = bool(mode), bool(warn_only)
    deterministic_fill.update(_state["deterministic"] and _state["fill_uninitialized_memory"])


def _get_fill_uninitialized_memory() -> bool:
    return _state["fill_uninitialized_memory"]


def _set_fill_uninitialized_memory(mode) -> None:
    if not isinstance(mode, bool):
        raise RuntimeError(f"expected a bool, but got {type(mode).__name__}")
    _state["fill_uninitialized_memory"] = mode
    deterministic_fill.update(_state["deterministic"] and mode)


@register
def are_deterministic_algorithms_enabled() -> bool:
    """Whether use_deterministic_algorithms(True) is in force."""
    return _state["deterministic"]


@register
def is_deterministic_algorithms_warn_only_enabled() -> bool:
    """Whether use_deterministic_algorithms(True, warn_only=True) is in force."""
    return _state["warn_only"]


@register
def set_deterministic_debug_mode(debug_mode) -> None:
    """use_deterministic_algorithms by level: 0 / 'default' (off), 1 / 'warn', 2 / 'error'."""
    if isinstance(debug_mode, str):
        if debug_mode not in _DEBUG_MODES:
            raise RuntimeError(
                f"invalid value of debug_mode, expected one of `default`, `warn`, `error`, but got {debug_mode}"
            )
        debug_mode = _DEBUG_MODES.index(debug_mode)
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}")
    use_deterministic_algorithms(debug_mode > 0, warn_only=debug_mode == 1)


@register
def get_deterministic_debug_mode() -> int:
    """0 (off), 1 (warn) or 2 (error): the level set_deterministic_debug_mode sets."""
    return 0 if not _state["deterministic"] else 1 if _state["warn_only"] else 2


@register
def set_float32_matmul_precision(precision: str) -> None:
    """'highest' (float32 throughout), 'high' or 'medium' (CUDA float32 products on TF32 tensor cores, i.e.
    torch.backends.cuda.matmul.allow_tf32; the CPU products stay float32)."""
    if precision not in _PRECISIONS:
        warnings.warn(
            f"{precision} is not one of 'highest', 'high', or 'medium'; the current setFloat32MatmulPrecision "
            "call has no effect.",
            stacklevel=2,
        )
        return
    torch._C._set_float32_matmul_precision(_PRECISIONS.index(precision))


@register
def get_float32_matmul_precision() -> str:
    """The precision set_float32_matmul_precision set ('highest' by default)."""
    return _PRECISIONS[torch._C._get_float32_matmul_precision()]


@register
def set_num_interop_threads(num: int) -> None:
    """The inter-op thread count: recorded (ops run one after another on the calling thread here)."""
    if not isinstance(num, int) or num <= 0:
        raise RuntimeError("set_num_interop_threads expects a positive integer")
    _state["interop_threads"] = num


@register
def get_num_interop_threads() -> int:
    """The inter-op thread count set_num_interop_threads recorded."""
    return _state["interop_threads"]


@register
def set_warn_always(b: bool) -> None:
    """Whether warnings that PyTorch gives once per process are given every time."""
    _state["warn_always"] = bool(b)


@register
def is_warn_always_enabled() -> bool:
    """Whether set_warn_always(True) is in force."""
    return _state["warn_always"]


@register
def set_default_device(device) -> None:
    """Makes factories (empty, zeros, arange, rand, tensor, ...) called without `device` put tensors on
    `device` ("cuda", torch.device, an index); None goes back to the CPU."""
    if isinstance(device, int):
        device = torch.device("cuda", device)
    _C._set_default_device(None if device is None else torch.device(device))


@register
def get_default_device() -> torch.device:
    """The device of tensors made without one: what set_default_device set ("cuda" as the current GPU),
    else the CPU."""
    d = _C._get_default_device()
    if d is None:
        return torch.device("cpu")
    if d.type == "cuda" and d.index is None:
        return torch.device("cuda", torch.cuda.current_device())
    return d


@register
def get_device_module(device=None):
    """The module of a device's API: torch.cuda for "cuda" (or a CUDA torch.device), torch.cpu for the CPU;
    without a device, the current accelerator's (CUDA where it is available) or torch.cpu."""
    if device is None:
        return torch.cuda if torch.cuda.is_available() else torch.cpu
    kind = device.type if isinstance(device, torch.device) else torch.device(device).type
    modules = {"cpu": torch.cpu, "cuda": torch.cuda}
    if kind not in modules:
        raise RuntimeError(f"Device '{kind}' does not have a corresponding module registered as 'torch.{kind}'.")
    return modules[kind]


@register
def set_default_tensor_type(t) -> None:
    """Deprecated (upstream too, as of 2.1, warning once): sets the default dtype from a floating tensor type
    (torch.DoubleTensor or "torch.DoubleTensor"), and the default device to CUDA for a torch.cuda type."""
    if _state["warn_always"] or not _state.get("warned_tensor_type"):  # once, as upstream's TORCH_WARN_ONCE
        _state["warned_tensor_type"] = True
        warnings.warn(
            "torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() "
            "and torch.set_default_device() as alternatives.",
            UserWarning,
            stacklevel=2,
        )
    name = t if isinstance(t, str) else f"{getattr(t, '__module__', '')}.{getattr(t, '__name__', '')}"
    if isinstance(t, str):
        kind = t.rsplit(".", 1)[-1]
    elif isinstance(t, type) and t.__name__.endswith("Tensor"):
        kind = t.__name__
    else:
        raise TypeError("invalid type object: only floating-point types are supported as the default type")
    dtypes = {"HalfTensor": torch.float16, "BFloat16Tensor": torch.bfloat16, "FloatTensor": torch.float32}
    dtypes["DoubleTensor"] = torch.float64
    if kind not in dtypes:
        raise TypeError("only floating-point types are supported as the default type")
    _C.set_default_dtype(dtypes[kind])
    set_default_device("cuda" if ".cuda." in name or name.startswith("torch.cuda") else None)


@register
def is_storage(obj) -> bool:
    """Whether obj is a storage object (torch.FloatStorage, ...)."""
    return type(obj).__name__.endswith("Storage") and type(obj).__module__.startswith("torch")


@register(method=True)
def is_distributed(input) -> bool:
    """False: tensors here are never distributed."""
    return False
