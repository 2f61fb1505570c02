"""torch.backends.opt_einsum (PyTorch's API): whether torch.einsum may ask the opt_einsum package for a
contraction order. Like upstream, `enabled` is True only where opt_einsum is installed; this torch's einsum
contracts left to right either way, so the switches are recorded, validated as upstream's, and read back."""

from __future__ import annotations

import contextlib
import importlib.util
import sys

from torch.backends._flags import ContextProp, PropModule, allow_nonbracketed_mutation

__all__ = ["is_available", "get_opt_einsum", "set_flags", "flags"]

_STRATEGIES = ("auto", "greedy", "optimal")


def is_available() -> bool:
    """Whether the opt_einsum package is installed."""
    return importlib.util.find_spec("opt_einsum") is not None


def get_opt_einsum():
    """The opt_einsum package, or None where it is not installed."""
    return importlib.import_module("opt_einsum") if is_available() else None


_state = {"enabled": is_available(), "strategy": "auto" if is_available() else None}


def _set_enabled(enabled: bool) -> None:
    if not is_available() and enabled:
        raise ValueError(
            f"opt_einsum is not available, so setting `enabled` to {enabled} will not reap "
            "the benefits of calculating an optimal path for einsum. torch.einsum will "
            "fall back to contracting from left to right. To enable this optimal path "
            "calculation, please install opt-einsum."
        )
    _state["enabled"] = bool(enabled)


def _get_enabled() -> bool:
    return _state["enabled"]


def _set_strategy(strategy: str) -> None:
    if not is_available():
        raise ValueError(
            f"opt_einsum is not available, so setting `strategy` to {strategy} will not be meaningful. "
            "torch.einsum will bypass path calculation and simply contract from left to right. "
            "Please install opt_einsum or unset `strategy`."
        )
    if not _state["enabled"]:
        raise ValueError(
            f"opt_einsum is not enabled, so setting a `strategy` to {strategy} will not be meaningful. "
            "torch.einsum will bypass path calculation and simply contract from left to right. "
            "Please set `enabled` to `True` as well or unset `strategy`."
        )
    if strategy not in _STRATEGIES:
        raise ValueError(f"`strategy` must be one of the following: [auto, greedy, optimal] but is {strategy}")
    _state["strategy"] = strategy


def _get_strategy():
    return _state["strategy"]


def set_flags(_enabled=None, _strategy=None):
    """Sets the switches that are not None; returns the old ones (`flags()` restores them)."""
    orig = (_state["enabled"], _state["strategy"])
    if _enabled is not None:
        _set_enabled(_enabled)
    if _strategy is not None:
        _set_strategy(_strategy)
    return orig


@contextlib.contextmanager
def flags(enabled=None, strategy=None):
    """Sets opt_einsum's switches for the block and restores them after."""
    with allow_nonbracketed_mutation():
        orig = set_flags(enabled, strategy)
    try:
        yield
    finally:
        with allow_nonbracketed_mutation():
            _state["enabled"], _state["strategy"] = orig


class OptEinsumModule(PropModule):
    """The module object of torch.backends.opt_einsum: `enabled` and `strategy` are properties."""

    enabled = ContextProp(_get_enabled, _set_enabled)
    strategy = ContextProp(_get_strategy, _set_strategy)


sys.modules[__name__] = OptEinsumModule(sys.modules[__name__], __name__)
