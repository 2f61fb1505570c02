"""torch._dynamo, the part of it that code around torch.compile touches: `OptimizedModule` (what compiling a
module returns, `eval_frame.OptimizedModule`), `exc`, `list_backends`, `reset`, `disable`, `is_compiling`,
`config` (a namespace whose settings are recorded). This torch has no TorchDynamo: torch.compile runs
everything eagerly (upstream's backend="eager"), so there is no graph, no recompilation and no cache."""

from __future__ import annotations

import types

from torch._dynamo import eval_frame, exc
from torch._dynamo.eval_frame import OptimizedModule

__all__ = [
    "OptimizedModule",
    "eval_frame",
    "exc",
    "config",
    "list_backends",
    "reset",
    "disable",
    "allow_in_graph",
    "assume_constant_result",
    "is_compiling",
    "mark_dynamic",
    "mark_static",
    "maybe_mark_dynamic",
    "graph_break",
]

_BACKENDS = ("cudagraphs", "inductor", "openxla", "tvm")
_DEBUG_BACKENDS = ("eager", "aot_eager", "aot_eager_decomp_partition", "aot_eager_default_partitioner", "aot_ts")


def list_backends(exclude_tags=("debug", "experimental")) -> list[str]:
    """The backend names torch.compile takes (upstream's; each runs eagerly here); with exclude_tags=None the
    debug backends ("eager", "aot_eager", ...) too."""
    names = list(_BACKENDS) if exclude_tags else [*_BACKENDS, *_DEBUG_BACKENDS]
    return sorted(names)


def disable(fn=None, recursive: bool = True, *, reason: str | None = None):
    """Excludes fn from compilation (it always runs eagerly here): returns fn, or a decorator without it."""
    if fn is None:
        return lambda f: f
    return fn


def allow_in_graph(fn):
    """Lets the compiler put fn in its graph unexamined; returns fn."""
    return fn


def assume_constant_result(fn):
    """Tells the compiler fn's result is a constant; returns fn."""
    return fn


def is_compiling() -> bool:
    """Whether the code runs under torch.compile's tracing: never here (everything runs eagerly)."""
    return False


def reset() -> None:
    """Clears the compiler's caches (there are none here)."""


config = types.SimpleNamespace(
    suppress_errors=False,
    verbose=False,
    cache_size_limit=8,
    recompile_limit=8,
    accumulated_cache_size_limit=256,
    capture_scalar_outputs=False,
    capture_dynamic_output_shape_ops=False,
    optimize_ddp=True,
    automatic_dynamic_shapes=True,
    assume_static_by_default=True,
)
"""TorchDynamo's settings, recorded (scripts set `torch._dynamo.config.suppress_errors = True`); nothing reads
them, as nothing is compiled."""


def mark_dynamic(t, index, *, min=None, max=None) -> None:
    """Marks dim `index` of t as dynamic for the compiler (nothing to mark here: nothing is specialized)."""


def maybe_mark_dynamic(t, index) -> None:
    """Hints that dim `index` of t may be dynamic (nothing to mark here)."""


def mark_static(t, index=None) -> None:
    """Marks t (or one dim) as static for the compiler (nothing to mark here)."""


def graph_break() -> None:
    """Ends the compiled graph here (there is none: a no-op, as in eager code upstream)."""
