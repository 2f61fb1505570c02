"""torch.backends.mps (PyTorch's API): Apple's Metal backend, which this torch is not built with; the queries
answer as upstream's do on a machine without it."""

from __future__ import annotations

__all__ = ["get_core_count", "get_name", "is_built", "is_available", "is_macos13_or_newer", "is_macos_or_newer"]


def is_built() -> bool:
    """Whether this torch was built with MPS: never."""
    return False


def is_available() -> bool:
    """Whether an MPS device can be used: never."""
    return False


def is_macos_or_newer(major: int, minor: int) -> bool:
    """Whether MPS runs on macOS major.minor or newer: False without MPS."""
    return False


def is_macos13_or_newer(minor: int = 0) -> bool:
    """Whether MPS runs on macOS 13.minor or newer: False without MPS."""
    return False


def get_name() -> str:
    """The Metal device's name; there is none."""
    raise RuntimeError("MPS is not available: this torch was built without it")


def get_core_count() -> int:
    """The Metal GPU's core count; there is none."""
    raise RuntimeError("MPS is not available: this torch was built without it")
