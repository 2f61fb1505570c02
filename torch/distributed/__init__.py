"""torch.distributed (PyTorch's API) in a build without it: `is_available()` is False, as in upstream's builds
without distributed support, and the queries that single-process code makes before deciding not to use it
(`is_initialized`, `get_rank`, `get_world_size`) answer as upstream's do without a process group. Code guarded
by `dist.is_available() and dist.is_initialized()` runs its single-process path."""

from __future__ import annotations

__all__ = [
    "is_available",
    "is_initialized",
    "is_torchelastic_launched",
    "get_rank",
    "get_world_size",
    "init_process_group",
]

_NO_GROUP = "Default process group has not been initialized, please make sure to call init_process_group."


def is_available() -> bool:
    """Whether torch.distributed's process groups can be used: never in this build."""
    return False


def is_initialized() -> bool:
    """Whether the default process group is initialized: never here."""
    return False


def is_torchelastic_launched() -> bool:
    """Whether the process was started by torchrun (its TORCHELASTIC_RUN_ID is set)."""
    import os

    return os.getenv("TORCHELASTIC_RUN_ID") is not None


def get_rank(group=None) -> int:
    """This process's rank in the default group: there is none (upstream's ValueError)."""
    raise ValueError(_NO_GROUP)


def get_world_size(group=None) -> int:
    """The default group's size: there is none (upstream's ValueError)."""
    raise ValueError(_NO_GROUP)


def init_process_group(*args, **kwargs) -> None:
    """Starts a process group: refused, this torch is built without distributed support."""
    raise RuntimeError("torch.distributed is not available in this build: it has no process group backends")
