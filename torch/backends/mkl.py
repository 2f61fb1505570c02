"""torch.backends.mkl (PyTorch's API): this torch's BLAS/LAPACK is OpenBLAS (the scipy-openblas32 wheel),
not Intel MKL, so `is_available()` is False, as in upstream's builds without MKL."""

from __future__ import annotations

__all__ = ["is_available", "verbose", "VERBOSE_OFF", "VERBOSE_ON"]

VERBOSE_OFF = 0
VERBOSE_ON = 1


def is_available() -> bool:
    """Whether Intel MKL is linked: never here (OpenBLAS is)."""
    return False


class verbose:
    """`with torch.backends.mkl.verbose(level):` MKL's verbose logging; a no-op without MKL (as upstream's)."""

    def __init__(self, enable):
        self.enable = enable

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        return False
