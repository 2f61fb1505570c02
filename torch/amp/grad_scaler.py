"""torch.amp.GradScaler: dynamic loss scaling for mixed-precision training, as PyTorch's.

``scaler.scale(loss).backward(); scaler.step(optimizer); scaler.update()``: the loss is multiplied by a scale
so float16 gradients do not underflow, the gradients are divided back before the step, a step whose gradients
hold infs/NaNs is skipped and the scale backed off, and the scale grows after ``growth_interval`` clean steps.
"""

from __future__ import annotations

import inspect
import warnings
from collections import abc, defaultdict
from enum import Enum
from importlib.util import find_spec
from typing import Any

import torch
from torch.amp._scaling import _amp_foreach_non_finite_check_and_unscale_, _amp_update_scale_

__all__ = ["OptState", "GradScaler"]


class _MultiDeviceReplicator:
    """Lazily serves copies of a tensor to requested devices, cached per device."""

    def __init__(self, master_tensor: torch.Tensor) -> None:
        self.master = master_tensor
        self._per_device_tensors: dict[torch.device, torch.Tensor] = {}

    def get(self, device: torch.device) -> torch.Tensor:
        """The copy of the master tensor on ``device`` (made on first request)."""
        retval = self._per_device_tensors.get(device, None)
        if retval is None:
            retval = self.master.to(device=device, non_blocking=True, copy=True)
            self._per_device_tensors[device] = retval
        return retval


class OptState(Enum):
    """Where an optimizer is in the scaler's iteration: READY, UNSCALED (after unscale_) or STEPPED."""

    READY = 0
    UNSCALED = 1
    STEPPED = 2


def _refresh_per_optimizer_state() -> dict[str, Any]:
    # A module-level factory (not a lambda) so that GradScaler's defaultdict pickles.
    return {"stage": OptState.READY, "found_inf_per_device": {}}


def _amp_definitely_not_available() -> bool:
    # torch.cuda.amp.common.amp_definitely_not_available, as PyTorch's.
    return not (torch.cuda.is_available() or find_spec("torch_xla"))


class GradScaler:
    """Dynamic loss scaling: ``scale`` the loss, ``step`` the optimizer on unscaled gradients, ``update`` the scale.

    * ``scaler.scale(loss)`` multiplies the loss by the current scale factor.
    * ``scaler.step(optimizer)`` unscales the gradients (unless :meth:`unscale_` already did) and calls
      ``optimizer.step()`` unless they hold infs/NaNs.
    * ``scaler.update()`` multiplies the scale by ``backoff_factor`` if any step was skipped, or by
      ``growth_factor`` after ``growth_interval`` consecutive unskipped iterations.

    Example::

        scaler = GradScaler("cuda")
        for input, target in data:
            optimizer.zero_grad()
            loss = loss_fn(model(input), target)
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()

    Args:
        device (str, default "cuda"): device type of the scale, e.g. "cuda" or "cpu". On "cuda" without a GPU
            the scaler warns and disables itself.
        init_scale (float, default 2.**16): initial scale factor.
        growth_factor (float, default 2.0): factor by which :meth:`update` grows the scale; must be > 1.
        backoff_factor (float, default 0.5): factor by which :meth:`update` shrinks the scale; must be < 1.
        growth_interval (int, default 2000): consecutive clean iterations before the scale grows.
        enabled (bool, default True): if False, :meth:`step` just calls ``optimizer.step()`` and the other
            methods are no-ops.

    An optimizer with ``_step_supports_amp_scaling = True`` does its own unscaling: :meth:`step` calls its
    ``step`` directly, passing ``grad_scaler=self`` if its ``step`` takes that keyword (deprecated, with a
    FutureWarning) or else setting ``optimizer.grad_scale`` and ``optimizer.found_inf`` for the call.
    """

    def __init__(
        self,
        device: str = "cuda",
        init_scale: float = 2.0**16,
        growth_factor: float = 2.0,
        backoff_factor: float = 0.5,
        growth_interval: int = 2000,
        enabled: bool = True,
    ) -> None:
        self._device = device
        self._enabled = enabled
        if self._device == "cuda" and enabled and _amp_definitely_not_available():
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.", stacklevel=2)
            self._enabled = False

        if self._enabled:
            if growth_factor <= 1.0:
                raise AssertionError("The growth factor must be > 1.0.")
            if backoff_factor >= 1.0:
                raise AssertionError("The backoff factor must be < 1.0.")
            self._init_scale = init_scale
            self._scale: torch.Tensor | None = None  # made lazily by the first scale()
            self._growth_factor = growth_factor
            self._backoff_factor = backoff_factor
            self._growth_interval = growth_interval
            self._init_growth_tracker = 0
            self._growth_tracker: torch.Tensor | None = None  # made lazily by the first scale()
            self._per_optimizer_states: dict[int, dict[str, Any]] = defaultdict(_refresh_per_optimizer_state)

    def _check_scale_growth_tracker(self, funcname: str) -> tuple[torch.Tensor, torch.Tensor]:
        fix = "This may indicate your script did not use scaler.scale(loss or outputs) earlier in the iteration."
        if self._scale is None:
            raise AssertionError(f"Attempted {funcname} but _scale is None.  " + fix)
        if self._growth_tracker is None:
            raise AssertionError(f"Attempted {funcname} but _growth_tracker is None.  " + fix)
        return (self._scale, self._growth_tracker)

    def _lazy_init_scale_growth_tracker(self, dev: torch.device) -> None:
        if self._growth_tracker is not None:
            raise AssertionError("_growth_tracker initialized before _scale")
        self._scale = torch.full((), self._init_scale, dtype=torch.float32, device=dev)
        self._growth_tracker = torch.full((), self._init_growth_tracker, dtype=torch.int32, device=dev)

    def scale(self, outputs):
        """Multiply a tensor, or the tensors of a (nested) list/tuple/iterable, by the scale factor.

        Lists and tuples come back as the same type, other iterables as a lazy ``map``. The scale tensor is made
        on the device of the first tensor seen. Disabled, ``outputs`` is returned unmodified.
        """
        if not self._enabled:
            return outputs
        if isinstance(outputs, torch.Tensor):
            if self._scale is None:
                self._lazy_init_scale_growth_tracker(outputs.device)
            return outputs * self._scale.to(device=outputs.device, non_blocking=True)

        stash: list[_MultiDeviceReplicator] = []

        def apply_scale(val):
            if isinstance(val, torch.Tensor):
                if len(stash) == 0:
                    if self._scale is None:
                        self._lazy_init_scale_growth_tracker(val.device)
                    stash.append(_MultiDeviceReplicator(self._scale))
                return val * stash[0].get(val.device)
            if isinstance(val, abc.Iterable):
                iterable = map(apply_scale, val)
                if isinstance(val, (list, tuple)):
                    return type(val)(iterable)
                return iterable
            raise ValueError("outputs must be a Tensor or an iterable of Tensors")

        return apply_scale(outputs)

    def _unscale_grads_(self, optimizer, inv_scale: torch.Tensor, found_inf: torch.Tensor, allow_fp16: bool):
        # Unscale the optimizer's grads, grouped by device and dtype; returns {device: found_inf on it}.
        per_device_inv_scale = _MultiDeviceReplicator(inv_scale)
        per_device_found_inf = _MultiDeviceReplicator(found_inf)
        per_device_and_dtype_grads: dict = defaultdict(lambda: defaultdict(list))
        with torch.no_grad():
            for group in optimizer.param_groups:
                for param in group["params"]:
                    if not isinstance(param, torch.Tensor):
                        raise AssertionError(f"expected param to be torch.Tensor, got {type(param).__name__}")
                    if param.grad is None:
                        continue
                    if (not allow_fp16) and param.grad.dtype == torch.float16:
                        raise ValueError("Attempting to unscale FP16 gradients.")
                    if getattr(param.grad, "is_sparse", False):
                        # Coalesce fp16 so that summed duplicate entries are what gets checked for overflow.
                        if param.grad.dtype is torch.float16:
                            param.grad = param.grad.coalesce()
                        to_unscale = param.grad._values()
                    else:
                        to_unscale = param.grad
                    per_device_and_dtype_grads[to_unscale.device][to_unscale.dtype].append(to_unscale)

            for device, per_dtype_grads in per_device_and_dtype_grads.items():
                for grads in per_dtype_grads.values():
                    _amp_foreach_non_finite_check_and_unscale_(
                        grads, per_device_found_inf.get(device), per_device_inv_scale.get(device)
                    )
        return per_device_found_inf._per_device_tensors

    def unscale_(self, optimizer) -> None:
        """Divide ("unscale") the optimizer's gradients by the scale factor, in place, recording infs/NaNs.

        Optional: :meth:`step` unscales if this was not called, e.g. to clip the unscaled gradients in between.
        Call at most once per optimizer per :meth:`step`, after all gradients are accumulated: a second call,
        or a call after :meth:`step` before :meth:`update`, raises RuntimeError. float16 gradients raise
        ValueError (keep the parameters in float32 under autocast). No host synchronisation.
        """
        if not self._enabled:
            return
        self._check_scale_growth_tracker("unscale_")
        optimizer_state = self._per_optimizer_states[id(optimizer)]
        if optimizer_state["stage"] is OptState.UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")
        elif optimizer_state["stage"] is OptState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")

        # The reciprocal in float64: float32 division can be imprecise for some compile options (not on MPS).
        if self._scale.device.type != "mps":
            inv_scale = self._scale.double().reciprocal().float()
        else:
            inv_scale = self._scale.reciprocal()
        found_inf = torch.full((), 0.0, dtype=torch.float32, device=self._scale.device)
        optimizer_state["found_inf_per_device"] = self._unscale_grads_(optimizer, inv_scale, found_inf, False)
        optimizer_state["stage"] = OptState.UNSCALED

    def _maybe_opt_step(self, optimizer, optimizer_state: dict[str, Any], *args: Any, **kwargs: Any):
        retval = None
        if not sum(v.item() for v in optimizer_state["found_inf_per_device"].values()):
            retval = optimizer.step(*args, **kwargs)
        return retval

    def step(self, optimizer, *args: Any, **kwargs: Any):
        """Unscale the optimizer's gradients (unless :meth:`unscale_` did) and call ``optimizer.step(*args, **kwargs)``
        unless they hold infs/NaNs; returns what ``optimizer.step`` returned (None when skipped).

        A ``closure`` keyword is refused (RuntimeError) while enabled; a second call before :meth:`update` raises
        RuntimeError. Disabled, this is just ``optimizer.step(*args, **kwargs)``.
        """
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        self._check_scale_growth_tracker("step")
        optimizer_state = self._per_optimizer_states[id(optimizer)]
        if optimizer_state["stage"] is OptState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")

        if getattr(optimizer, "_step_supports_amp_scaling", False):
            # The optimizer handles scaling itself: via a grad_scaler keyword (deprecated), or else
            # through the grad_scale and found_inf attributes set for the call.
            kwargs_ = kwargs
            has_grad_scaler_kwarg = "grad_scaler" in inspect.signature(optimizer.step).parameters
            if has_grad_scaler_kwarg:
                warnings.warn(
                    "GradScaler is going to stop passing itself as a keyword argument to the passed "
                    "optimizer. In the near future GradScaler registers `grad_scale: Tensor` and "
                    "`found_inf: Tensor` to the passed optimizer and let the optimizer use them directly.",
                    FutureWarning,
                    stacklevel=2,
                )
                kwargs_.update({"grad_scaler": self})
            else:
                if optimizer_state["stage"] is OptState.READY:
                    self._check_inf_per_device(optimizer)
                scaler = self._get_scale_async()
                found_inf = sum(
                    [t.to(scaler.device, non_blocking=True) for t in optimizer_state["found_inf_per_device"].values()]
                )
                # Multiply into a grad_scale the user set, unless unscale_ already divided the grads.
                optimizer.grad_scale = (
                    getattr(optimizer, "grad_scale", None)
                    if optimizer_state["stage"] == OptState.UNSCALED
                    else scaler * getattr(optimizer, "grad_scale", 1)
                )
                optimizer.found_inf = found_inf
            retval = optimizer.step(*args, **kwargs_)
            optimizer_state["stage"] = OptState.STEPPED
            if not has_grad_scaler_kwarg:
                del optimizer.grad_scale
                del optimizer.found_inf
            return retval

        if optimizer_state["stage"] is OptState.READY:
            self.unscale_(optimizer)
        if len(optimizer_state["found_inf_per_device"]) == 0:
            raise AssertionError("No inf checks were recorded for this optimizer.")
        retval = self._maybe_opt_step(optimizer, optimizer_state, *args, **kwargs)
        optimizer_state["stage"] = OptState.STEPPED
        return retval

    def update(self, new_scale: float | torch.Tensor | None = None) -> None:
        """Update the scale: back off if any optimizer's step was skipped, grow after ``growth_interval`` clean ones.

        ``new_scale`` (a float, or a 1-element tensor on the scaler's device type without requires_grad) sets the
        scale instead; its value is copied. Call at the end of the iteration, after every :meth:`step`.
        """
        if not self._enabled:
            return
        _scale, _growth_tracker = self._check_scale_growth_tracker("update")
        if new_scale is not None:
            if isinstance(new_scale, float):
                self._scale.fill_(new_scale)
            else:
                reason = (
                    "new_scale should be a float or a 1-element torch.cuda.FloatTensor or "
                    "torch.FloatTensor with requires_grad=False."
                )
                if new_scale.device.type != self._device:
                    raise AssertionError(reason)
                if new_scale.numel() != 1:
                    raise AssertionError(reason)
                if new_scale.requires_grad is True:
                    raise AssertionError(reason)
                self._scale.copy_(new_scale)
        else:
            found_infs = [
                found_inf.to(device=_scale.device, non_blocking=True)
                for state in self._per_optimizer_states.values()
                for found_inf in state["found_inf_per_device"].values()
            ]
            if len(found_infs) == 0:
                raise AssertionError("No inf checks were recorded prior to update.")
            found_inf_combined = found_infs[0]
            if len(found_infs) > 1:
                for i in range(1, len(found_infs)):
                    found_inf_combined += found_infs[i]
            _amp_update_scale_(
                _scale,
                _growth_tracker,
                found_inf_combined,
                self._growth_factor,
                self._backoff_factor,
                self._growth_interval,
            )
        self._per_optimizer_states = defaultdict(_refresh_per_optimizer_state)

    def _get_scale_async(self) -> torch.Tensor | None:
        return self._scale

    def get_scale(self) -> float:
        """The current scale as a Python float (``init_scale`` before the first :meth:`scale`), 1.0 when disabled.

        Synchronises with the device.
        """
        if self._enabled:
            scale = self._get_scale_async()
            return self._init_scale if scale is None else scale.item()
        return 1.0

    def get_growth_factor(self) -> float:
        """The scale growth factor."""
        return self._growth_factor

    def set_growth_factor(self, new_factor: float) -> None:
        """Set the scale growth factor."""
        self._growth_factor = new_factor

    def get_backoff_factor(self) -> float:
        """The scale backoff factor."""
        return self._backoff_factor

    def set_backoff_factor(self, new_factor: float) -> None:
        """Set the scale backoff factor."""
        self._backoff_factor = new_factor

    def get_growth_interval(self) -> int:
        """The growth interval."""
        return self._growth_interval

    def set_growth_interval(self, new_interval: int) -> None:
        """Set the growth interval."""
        self._growth_interval = new_interval

    def _get_growth_tracker(self) -> int:
        if self._enabled:
            return self._init_growth_tracker if self._growth_tracker is None else self._growth_tracker.item()
        return 0

    def is_enabled(self) -> bool:
        """Whether this scaler is enabled."""
        return self._enabled

    def state_dict(self) -> dict[str, Any]:
        """The scaler's state: ``scale``, ``growth_factor``, ``backoff_factor``, ``growth_interval`` and
        ``_growth_tracker`` (consecutive unskipped steps); ``{}`` when disabled. Take it after :meth:`update`.
        """
        if self._enabled:
            return {
                "scale": self.get_scale(),
                "growth_factor": self._growth_factor,
                "backoff_factor": self._backoff_factor,
                "growth_interval": self._growth_interval,
                "_growth_tracker": self._get_growth_tracker(),
            }
        return {}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Load a :meth:`state_dict`; a no-op when disabled, RuntimeError for an empty (disabled scaler's) dict."""
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError(
                "The source state dict is empty, possibly because it was saved from a disabled instance of GradScaler."
            )
        self._init_scale = state_dict["scale"]
        if self._scale is not None:
            self._scale.fill_(state_dict["scale"])
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._init_growth_tracker = state_dict["_growth_tracker"]
        if self._growth_tracker is not None:
            self._growth_tracker.fill_(state_dict["_growth_tracker"])

    def __getstate__(self) -> dict[str, Any]:
        """Pickled state: the scale and tracker as Python numbers, to be re-made lazily on unpickling."""
        state = self.__dict__.copy()
        if self._enabled:
            if len(self._per_optimizer_states) != 0:
                raise AssertionError(
                    "A GradScaler instance may only be pickled at the beginning "
                    "of an iteration, or at the end after scaler.update()."
                )
            state["_init_scale"] = self.get_scale()
            state["_init_growth_tracker"] = self._get_growth_tracker()
            state["_scale"] = None
            state["_growth_tracker"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Restore a pickled state."""
        self.__dict__.update(state)

    def _check_inf_per_device(self, optimizer) -> dict[str, Any]:
        # Record infs/NaNs in the optimizer's grads without unscaling them (for _step_supports_amp_scaling).
        _scale, _ = self._check_scale_growth_tracker("_check_inf_per_device")
        dummy_inv_scale = torch.full((), 1.0, dtype=torch.float32, device=_scale.device)
        found_inf = torch.full((), 0.0, dtype=torch.float32, device=_scale.device)
        self._per_optimizer_states[id(optimizer)]["found_inf_per_device"] = self._unscale_grads_(
            optimizer, dummy_inv_scale, found_inf, True
        )
        return self._per_optimizer_states[id(optimizer)]["found_inf_per_device"]

    def _found_inf_per_device(self, optimizer) -> dict[str, Any]:
        return self._per_optimizer_states[id(optimizer)]["found_inf_per_device"]
