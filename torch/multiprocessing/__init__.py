"""torch.multiprocessing: Python's ``multiprocessing`` with tensors shared through shared memory.

Everything of ``multiprocessing`` is here under the same names (``get_context``, ``Process``, ``Queue``,
...). Importing the package registers a reducer for tensors with ``ForkingPickler``
(``torch.multiprocessing.reductions``): a tensor put on a queue travels as the name of a shared-memory
segment and is rebuilt on the other side without a copy.
"""

import multiprocessing
from multiprocessing import *  # noqa: F403

from torch.multiprocessing import reductions
from torch.multiprocessing.reductions import init_reductions

__all__ = [
    "get_all_sharing_strategies",
    "get_sharing_strategy",
    "init_reductions",
    "reductions",
    "set_sharing_strategy",
    *multiprocessing.__all__,
]

_sharing_strategy = "file_system"


def get_sharing_strategy() -> str:
    """The current strategy for sharing CPU tensors: ``"file_system"`` (named segments in /dev/shm)."""
    return _sharing_strategy


def get_all_sharing_strategies() -> set[str]:
    """The sharing strategies this platform supports."""
    return {"file_system"}


def set_sharing_strategy(new_strategy: str) -> None:
    """Sets the strategy for sharing CPU tensors; only ``"file_system"`` exists here."""
    if new_strategy not in get_all_sharing_strategies():
        raise AssertionError(f"invalid sharing strategy {new_strategy!r}")


init_reductions()
