"""Anomaly detection (torch.autograd.detect_anomaly / set_detect_anomaly, torch.set_anomaly_enabled), as
PyTorch's: while enabled, every backward node keeps the stack of the forward call that made it, an error in
a node's backward first warns with that stack, and (with check_nan) a node whose backward returns NaN raises
"Function 'MulBackward0' returned nan values in its 0th output." The engine reads STATE once per node."""

from __future__ import annotations

import functools
import traceback
import warnings

__all__ = ["detect_anomaly", "is_anomaly_check_nan_enabled", "is_anomaly_enabled", "set_anomaly_enabled",
           "set_detect_anomaly"]  # fmt: skip


class _State:
    enabled = False
    check_nan = True


STATE = _State()


def set_anomaly_enabled(enabled: bool, check_nan: bool = True) -> None:
    """Turns anomaly detection on or off for the whole process (torch.set_anomaly_enabled)."""
    STATE.enabled, STATE.check_nan = bool(enabled), bool(check_nan)


def is_anomaly_enabled() -> bool:
    """Whether anomaly detection is on."""
    return STATE.enabled


def is_anomaly_check_nan_enabled() -> bool:
    """Whether anomaly detection also checks the backward's results for NaN."""
    return STATE.check_nan


class detect_anomaly:
    """Context manager and decorator turning anomaly detection on inside it (and restoring the previous mode)."""

    def __init__(self, check_nan: bool = True) -> None:
        self.check_nan = check_nan
        warnings.warn(
            "Anomaly Detection has been enabled. This mode will increase the runtime and should only be enabled "
            "for debugging.",
            stacklevel=2,
        )

    def __enter__(self) -> None:
        self.prev, self.prev_check_nan = STATE.enabled, STATE.check_nan
        set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *exc) -> None:
        set_anomaly_enabled(self.prev, self.prev_check_nan)

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__(self.check_nan):
                return fn(*args, **kwargs)

        return wrapper


class set_detect_anomaly:
    """Sets anomaly detection on or off (from the call on, or inside a with block, restoring it after)."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.prev, self.prev_check_nan = STATE.enabled, STATE.check_nan
        set_anomaly_enabled(mode, check_nan)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> None:
        set_anomaly_enabled(self.prev, self.prev_check_nan)


def record_trace(node) -> None:
    """Keeps the stack of the forward call that made `node` (once per node)."""
    if "_anomaly_trace" not in node.__dict__:
        node.__dict__["_anomaly_trace"] = "".join(traceback.format_stack()[:-3])


def warn_trace(node) -> None:
    """PyTorch's warning before an error in node's backward propagates: where its forward was called."""
    trace = node.__dict__.get("_anomaly_trace")
    if trace is None:
        warnings.warn(f"Error detected in {node.name()}. No forward pass information available.", stacklevel=3)
    else:
        warnings.warn(
            f"Error detected in {node.name()}. Traceback of forward call that caused the error:\n{trace}",
            stacklevel=3,
        )


def check_nan(node, grads_in) -> None:
    """Raises where node's backward returned NaN."""
    for i, g in enumerate(grads_in):
        if g is not None and g.dtype._differentiable and bool(g.isnan().any()):
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.")
