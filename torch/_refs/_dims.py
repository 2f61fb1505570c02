"""Dimension arguments, checked as PyTorch checks them."""

from __future__ import annotations


def wrap_dim(dim: int, ndim: int) -> int:
    """dim in [0, ndim) from a possibly negative one, with PyTorch's IndexError (a 0-dim tensor takes
    dim 0 or -1, as in maybe_wrap_dim)."""
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim % n
