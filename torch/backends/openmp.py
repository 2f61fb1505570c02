"""torch.backends.openmp (PyTorch's API): TH parallelizes on its own thread pool (`torch.set_num_threads`),
not OpenMP, so `is_available()` is False, as in upstream's builds without OpenMP."""

from __future__ import annotations

__all__ = ["is_available"]


def is_available() -> bool:
    """Whether the CPU kernels run on OpenMP: never here (TH's own thread pool)."""
    return False
