"""torch.autocast: regions where ops run in an op-specific dtype (mixed precision), as upstream's.

The state is per thread and lives in torch._C (torch/csrc/Autocast.h). The ops with a policy are marked where
they are declared: `autocast:` in aten/native_functions.yaml (their bindings call `_redispatch` first while a
region is active), and `autocast_policy` on the Python functionals (torch.nn.functional.linear, the losses,
...). A policy is upstream's, per device type: lower_precision_fp (floating inputs to the region's dtype),
fp32 (16-bit floating inputs to float32), promote (all to the widest of them) or banned (an error). The casts
are ordinary differentiable `.to(dtype)` calls, so gradients reach the float32 parameters in float32; casts
of float32 leaf parameters are cached for the outermost region, as upstream's weight cache.
"""

from __future__ import annotations

import collections.abc
import functools
import threading
import warnings

import torch
from torch import _C

__all__ = ["autocast_decorator", "autocast", "is_autocast_available", "custom_fwd", "custom_bwd"]

_POLICIES = ("", "lower_precision_fp", "fp32", "promote", "banned")  # tools/codegen/model.py's AUTOCAST_POLICIES
_LOWER, _FP32, _PROMOTE, _BANNED = 1, 2, 3, 4


def is_autocast_available(device_type: str) -> bool:
    """Whether autocast supports `device_type` ('cpu' and 'cuda' here)."""
    return _C._is_autocast_available(device_type)


# ---- the state (torch.is_autocast_enabled and friends) ----


def is_autocast_enabled(device_type: str | None = None) -> bool:
    """Whether autocast is on for `device_type` on this thread (without one: for CUDA, as upstream)."""
    return _C._autocast_is_enabled("cuda" if device_type is None else device_type)


def set_autocast_enabled(device_type, enabled=None) -> None:
    """Switches autocast for a device type on or off on this thread (one argument: CUDA's, as upstream)."""
    if enabled is None:
        device_type, enabled = "cuda", device_type
    _C._autocast_set_enabled(device_type, bool(enabled))


def get_autocast_dtype(device_type: str):
    """The dtype autocast lowers to on `device_type` (bfloat16 on the CPU, float16 on CUDA by default)."""
    return _C._autocast_get_dtype(device_type)


def set_autocast_dtype(device_type: str, dtype) -> None:
    """Sets the dtype autocast lowers to on `device_type`."""
    _C._autocast_set_dtype(device_type, dtype)


def is_autocast_cache_enabled() -> bool:
    """Whether autocast keeps the casts of float32 leaf parameters for the outermost region."""
    return _C._autocast_cache_enabled()


def set_autocast_cache_enabled(enabled: bool) -> None:
    """Switches autocast's weight cache."""
    _C._autocast_set_cache_enabled(bool(enabled))


def clear_autocast_cache() -> None:
    """Drops the casts autocast's weight cache keeps on this thread."""
    _cache().clear()


def autocast_increment_nesting() -> int:
    """Enters one more autocast region; returns the depth."""
    return _C._autocast_increment_nesting()


def autocast_decrement_nesting() -> int:
    """Leaves an autocast region; returns the depth (0: outside every region)."""
    return _C._autocast_decrement_nesting()


def _deprecated_getter(old: str, new: str, fn):
    def getter(*args):
        warnings.warn(f"torch.{old}() is deprecated. Please use torch.{new} instead.", DeprecationWarning, stacklevel=2)
        return fn(*args)

    getter.__name__ = old
    getter.__doc__ = f"Deprecated: torch.{new}."
    return getter


get_autocast_cpu_dtype = _deprecated_getter("get_autocast_cpu_dtype", "get_autocast_dtype('cpu')",
                                            lambda: get_autocast_dtype("cpu"))  # fmt: skip
get_autocast_gpu_dtype = _deprecated_getter("get_autocast_gpu_dtype", "get_autocast_dtype('cuda')",
                                            lambda: get_autocast_dtype("cuda"))  # fmt: skip
is_autocast_cpu_enabled = _deprecated_getter("is_autocast_cpu_enabled", "is_autocast_enabled('cpu')",
                                             lambda: is_autocast_enabled("cpu"))  # fmt: skip
set_autocast_cpu_enabled = _deprecated_getter("set_autocast_cpu_enabled", "set_autocast_enabled('cpu', enabled)",
                                              lambda e: set_autocast_enabled("cpu", e))  # fmt: skip
set_autocast_cpu_dtype = _deprecated_getter("set_autocast_cpu_dtype", "set_autocast_dtype('cpu', dtype)",
                                            lambda d: set_autocast_dtype("cpu", d))  # fmt: skip
set_autocast_gpu_dtype = _deprecated_getter("set_autocast_gpu_dtype", "set_autocast_dtype('cuda', dtype)",
                                            lambda d: set_autocast_dtype("cuda", d))  # fmt: skip


# ---- the context manager ----


def autocast_decorator(autocast_instance, func):
    """`func` run inside `autocast_instance` (what `@torch.autocast(...)` makes of a function)."""

    @functools.wraps(func)
    def decorate_autocast(*args, **kwargs):
        with autocast_instance:
            return func(*args, **kwargs)

    return decorate_autocast


class autocast:
    """A region (context manager or decorator) where the ops autocast knows run in mixed precision: matrix
    products and convolutions in `dtype` (default: bfloat16 on the CPU, float16 on CUDA), the ops that need the
    range (losses, norms, softmax on CUDA, ...) in float32, the others in their inputs' dtype. Wrap the forward
    pass and the loss only; backward runs each op in the dtype its forward used. The state is per thread."""

    def __init__(self, device_type: str, dtype=None, enabled: bool = True, cache_enabled: bool | None = None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.device = device_type
        if not is_autocast_available(self.device):
            raise RuntimeError(f"User specified an unsupported autocast device_type '{self.device}'")
        self.fast_dtype = get_autocast_dtype(device_type) if dtype is None else dtype
        self._cache_enabled = is_autocast_cache_enabled() if cache_enabled is None else cache_enabled
        if enabled:
            if self.device == "cuda":
                if not torch.cuda.is_available():
                    warnings.warn("CUDA is not available or torch_xla is imported. Disabling autocast.", stacklevel=2)
                    enabled = False
                elif self.fast_dtype == torch.bfloat16 and not torch.cuda.is_bf16_supported():
                    raise RuntimeError("Current CUDA Device does not support bfloat16. Please switch dtype to float16.")
            elif self.fast_dtype not in (supported := (torch.bfloat16, torch.float16)):
                name = self.device.upper()
                warnings.warn(
                    f"In {name} autocast, but the target dtype is not supported. Disabling autocast.\n"
                    f"{name} Autocast only supports dtypes of " + ", ".join(map(str, supported)) + " currently.",
                    stacklevel=2,
                )
                enabled = False
        self._enabled = enabled

    def __enter__(self):
        self.prev_cache_enabled = is_autocast_cache_enabled()
        self.prev = is_autocast_enabled(self.device)
        self.prev_fastdtype = get_autocast_dtype(self.device)
        set_autocast_enabled(self.device, self._enabled)
        set_autocast_dtype(self.device, self.fast_dtype)
        autocast_increment_nesting()
        set_autocast_cache_enabled(self._cache_enabled)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        if autocast_decrement_nesting() == 0:  # left the outermost region: drop the weight cache
            clear_autocast_cache()
        set_autocast_enabled(self.device, self.prev)
        set_autocast_dtype(self.device, self.prev_fastdtype)
        set_autocast_cache_enabled(self.prev_cache_enabled)
        return False

    def __call__(self, func):
        if not callable(func):
            raise TypeError(
                f"autocast()(func) requires a callable, but got {type(func).__name__}. "
                "Did you mean to use autocast as a context manager? For example:\n"
                "    with torch.autocast(device_type=...):\n"
                "        output = model(input)"
            )
        return autocast_decorator(self, func)


# ---- casting ----

_local = threading.local()


def _cache() -> dict:
    """This thread's weight cache: id(parameter) -> (parameter, its cast)."""
    cache = getattr(_local, "cache", None)
    if cache is None:
        cache = _local.cache = {}
    return cache


def _cast(value, device_type: str, dtype):
    """`value` with its floating tensors on `device_type` (float64 excepted) cast to `dtype`, through lists,
    tuples and dicts (upstream's torch.amp.autocast_mode._cast, which custom_fwd uses)."""
    if isinstance(value, torch.Tensor):
        return value.to(dtype) if _eligible(value, device_type) else value
    if isinstance(value, (str, bytes)):
        return value
    if isinstance(value, collections.abc.Mapping):
        return {_cast(k, device_type, dtype): _cast(v, device_type, dtype) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_cast(v, device_type, dtype) for v in value)
    return value


def _eligible(t, device_type: str) -> bool:
    return t.is_floating_point() and t.device.type == device_type and t.dtype is not torch.float64


def _cached_cast(t, dtype):
    """t.to(dtype), from the weight cache for a float32 leaf that requires grad (a parameter) when on."""
    if dtype is t.dtype:
        return t
    if (
        dtype is not torch.float32
        and t.dtype is torch.float32
        and t.requires_grad
        and t.grad_fn is None
        and _C._autocast_cache_enabled()
        and torch.is_grad_enabled()
    ):
        cache = _cache()
        hit = cache.get(id(t))
        if hit is not None and hit[0] is t and hit[1].dtype is dtype:
            return hit[1]
        cast = t.to(dtype)
        cache[id(t)] = (t, cast)
        return cast
    return t.to(dtype)


def _tensors(values):
    for v in values:
        if isinstance(v, torch.Tensor):
            yield v
        elif isinstance(v, (list, tuple)):
            yield from _tensors(v)


def _target(policy: int, device_type: str, values) -> object:
    """The dtype the eligible tensors go to under `policy`, or None: nothing to cast."""
    eligible = [t for t in _tensors(values) if _eligible(t, device_type)]
    if policy == _LOWER:
        dtype = get_autocast_dtype(device_type)
    elif policy == _FP32:
        dtype = torch.float32
    else:  # promote: float32 if an eligible input is float32, else the region's dtype (upstream's prioritize)
        dtype = get_autocast_dtype(device_type)
        for t in eligible:
            if t.dtype is torch.float32:
                dtype = torch.float32
            elif t.dtype is not dtype and dtype is not torch.float32:
                raise RuntimeError("Unexpected floating ScalarType in at::autocast::prioritize")
    return dtype if any(t.dtype is not dtype for t in eligible) else None


def _apply(value, device_type: str, dtype):
    if isinstance(value, torch.Tensor):
        return _cached_cast(value, dtype) if _eligible(value, device_type) else value
    if isinstance(value, (list, tuple)):
        return type(value)(_apply(v, device_type, dtype) for v in value)
    return value


_BANNED_MESSAGE = (
    "torch.nn.functional.binary_cross_entropy and torch.nn.BCELoss are unsafe to autocast.\n"
    "Many models use a sigmoid layer right before the binary cross entropy layer.\n"
    "In this case, combine the two layers using torch.nn.functional.binary_cross_entropy_with_logits\n"
    "or torch.nn.BCEWithLogitsLoss.  binary_cross_entropy_with_logits and BCEWithLogits are\n"
    "safe to autocast."
)


def _policy_of(cpu: int, cuda: int, args, kwargs):
    """(device type, policy) of an op call: the device of its tensors (CUDA if any is on a GPU), and the policy
    there if autocast is on for it (else 0)."""
    device_type = "cpu"
    for t in _tensors((*args, *kwargs.values())):
        if t.is_cuda:
            device_type = "cuda"
            break
    policy = cuda if device_type == "cuda" else cpu
    if not policy or not _C._autocast_is_enabled(device_type):
        return device_type, 0
    if policy == _BANNED:
        raise RuntimeError(_BANNED_MESSAGE)
    return device_type, policy


def _excluded(fn, args, kwargs):
    """fn(*args, **kwargs) with autocast excluded: the op autocast has dealt with runs as one op."""
    _C._autocast_exclude(1)
    try:
        return fn(*args, **kwargs)
    finally:
        _C._autocast_exclude(-1)


_OWNERS = {}


def _redispatch(cpu: int, cuda: int, where: int, name: str, args: tuple, kwargs: dict):
    """Called by the binding of an `autocast:` op (torch/csrc/Autocast.h) in an active region: the op's result
    on its arguments cast by its policy, or None when there is nothing to cast."""
    device_type, policy = _policy_of(cpu, cuda, args, kwargs)
    if not policy:
        return None
    dtype = _target(policy, device_type, (*args, *kwargs.values()))
    if dtype is None:
        return None
    fn = _OWNERS.get((where, name))
    if fn is None:
        owner = (_C, _C._nn, _C.Tensor)[where]
        fn = _OWNERS[(where, name)] = getattr(owner, name)
    args = tuple(_apply(a, device_type, dtype) for a in args)
    kwargs = {k: _apply(v, device_type, dtype) for k, v in kwargs.items()}
    return _excluded(fn, args, kwargs)


def autocast_policy(cpu: str = "", cuda: str = ""):
    """Marks a Python-level op (a torch.nn.functional composite) with its autocast policy per device type, as
    aten/native_functions.yaml's `autocast:` marks a kernel: in an active region its tensor arguments are cast
    by the policy and it runs as one op (autocast excluded inside)."""
    codes = (_POLICIES.index(cpu), _POLICIES.index(cuda))

    def mark(fn):
        @functools.wraps(fn)
        def op(*args, **kwargs):
            if _C._autocast_active():
                device_type, policy = _policy_of(*codes, args, kwargs)
                if policy:
                    dtype = _target(policy, device_type, (*args, *kwargs.values()))
                    if dtype is not None:
                        args = tuple(_apply(a, device_type, dtype) for a in args)
                        kwargs = {k: _apply(v, device_type, dtype) for k, v in kwargs.items()}
                    return _excluded(fn, args, kwargs)
            return fn(*args, **kwargs)

        return op

    return mark


# ---- custom autograd Functions ----


def custom_fwd(fwd=None, *, device_type: str, cast_inputs=None):
    """Decorates a custom autograd Function's forward: with `cast_inputs`, in an autocast region its floating
    tensor inputs are cast to that dtype and it runs with autocast off; without, it runs under the current
    state. Either way custom_bwd then runs backward under the same state."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def decorate_fwd(*args, **kwargs):
        args[0]._dtype = get_autocast_dtype(device_type)
        if cast_inputs is None:
            args[0]._fwd_used_autocast = is_autocast_enabled(device_type)
            return fwd(*args, **kwargs)
        autocast_context = is_autocast_enabled(device_type)
        args[0]._fwd_used_autocast = False
        if autocast_context:
            with autocast(device_type=device_type, enabled=False):
                return fwd(*_cast(args, device_type, cast_inputs), **_cast(kwargs, device_type, cast_inputs))
        return fwd(*args, **kwargs)

    return decorate_fwd


def custom_bwd(bwd=None, *, device_type: str):
    """Decorates a custom autograd Function's backward: it runs under the autocast state its forward had."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)

    @functools.wraps(bwd)
    def decorate_bwd(*args, **kwargs):
        with autocast(device_type=device_type, enabled=args[0]._fwd_used_autocast, dtype=args[0]._dtype):
            return bwd(*args, **kwargs)

    return decorate_bwd
