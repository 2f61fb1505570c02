"""torch.compiler and torch.compile (PyTorch's API) in a torch without a graph compiler.

`torch.compile(model)` checks its arguments as upstream does (the mode names, mode with options, a backend
name that exists) and returns what upstream returns: for an nn.Module an `OptimizedModule` wrapping it (its
state_dict keys prefixed `_orig_mod.`), for a function a wrapper of it, and with `disable=True` the model
itself. What runs is the model's own Python, op by op: upstream's `backend="eager"`, whatever backend is named.
There is no TorchDynamo here, so no graph to hand a custom backend: a callable backend is refused with a clear
error rather than silently ignored. `is_compiling()` is always False.
"""

from __future__ import annotations

import contextlib
import functools

from torch._dynamo import (
    OptimizedModule,
    allow_in_graph,
    assume_constant_result,
    disable,
    is_compiling,
    list_backends,
    reset,
)
from torch._dynamo.exc import InvalidBackend, Unsupported
from torch.nn.modules.module import Module

__all__ = [
    "compile",
    "allow_in_graph",
    "assume_constant_result",
    "cudagraph_mark_step_begin",
    "disable",
    "is_compiling",
    "is_dynamo_compiling",
    "is_exporting",
    "list_backends",
    "reset",
    "set_stance",
    "substitute_in_graph",
    "wrap_numpy",
]

MODES = ("default", "lite", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune")


def _check(backend, mode, options) -> None:
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be specified at the same time.")
    if backend == "inductor" and mode is not None and mode not in MODES:  # the mode names are inductor's
        raise RuntimeError(f"Unrecognized mode={mode}, should be one of: {', '.join(MODES)}")
    if callable(backend):
        raise Unsupported(
            "torch.compile with a custom backend needs TorchDynamo's FX graph, which this torch does not have; "
            "use a named backend (each runs the model eagerly here)"
        )
    if backend not in list_backends(exclude_tags=None):
        raise InvalidBackend(backend)


def compile(
    model=None,
    *,
    fullgraph: bool = False,
    dynamic: bool | None = None,
    backend="inductor",
    mode: str | None = None,
    options: dict | None = None,
    name: str | None = None,
    disable: bool = False,
    recompile_limit: int | None = None,
    isolate_recompiles: bool = False,
    shapes_spec=None,
):
    """torch.compile: validates the arguments as upstream does and returns the model wrapped to run eagerly (an
    OptimizedModule for an nn.Module, a wrapper for a function; the model itself with disable=True). Without
    a model, returns a decorator (`@torch.compile(mode=...)`)."""
    if backend is None:
        backend = "inductor"
    if model is None:

        def decorator(model):
            if model is None:
                raise RuntimeError("Model can't be None")
            return compile(
                model,
                fullgraph=fullgraph,
                dynamic=dynamic,
                backend=backend,
                mode=mode,
                options=options,
                name=name,
                disable=disable,
            )

        return decorator
    _check(backend, mode, options)
    if disable:
        return model
    if isinstance(model, Module):
        return OptimizedModule(model, {"backend": backend, "mode": mode, "options": options})
    if not callable(model):
        raise RuntimeError(f"torch.compile expects a callable or an nn.Module, got {type(model).__name__}")

    @functools.wraps(model)
    def compiled(*args, **kwargs):
        return model(*args, **kwargs)

    compiled._torchdynamo_orig_callable = model
    return compiled


def substitute_in_graph(original_fn, *, can_constant_fold_through: bool = False, skip_signature_check: bool = False):
    """Registers a polyfill for original_fn inside compiled code; a decorator returning its function."""
    return lambda fn: fn


def is_dynamo_compiling() -> bool:
    """Whether TorchDynamo is tracing: never here."""
    return False


def is_exporting() -> bool:
    """Whether torch.export is tracing: never here."""
    return False


def cudagraph_mark_step_begin() -> None:
    """Marks the start of a training step for CUDA graph trees (none are recorded here)."""


def set_stance(stance: str = "default", *, skip_guard_eval_unsafe: bool = False, force_backend=None):
    """Sets how compiled code behaves ("default", "force_eager", "eager_on_recompile", "fail_on_recompile"):
    everything runs eagerly here whatever the stance; usable as a context manager or decorator."""
    if stance not in ("default", "force_eager", "eager_on_recompile", "fail_on_recompile", "eager_then_compile"):
        raise RuntimeError(f"invalid torch.compiler.set_stance stance: {stance!r}")
    return _Stance()


class _Stance(contextlib.ContextDecorator):
    def __enter__(self):
        return self

    def __exit__(self, *exc) -> bool:
        return False


def wrap_numpy(fn):
    """Lets fn take and return tensors where it computes on NumPy arrays (upstream, under torch.compile):
    tensors in are converted to arrays and arrays out to tensors."""
    import numpy as np

    import torch
    from torch.utils._pytree import tree_map

    @functools.wraps(fn)
    def wrapped(*args, **kwargs):
        to_np = lambda x: x.numpy() if isinstance(x, torch.Tensor) else x  # noqa: E731
        out = fn(*tree_map(to_np, args), **tree_map(to_np, kwargs))
        return tree_map(lambda x: torch.from_numpy(x) if isinstance(x, np.ndarray) else x, out)

    return wrapped
