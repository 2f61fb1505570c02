"""Seeding the default generators (PyTorch's torch.random API)."""

from __future__ import annotations

from torch import _C
from torch._C import Generator

__all__ = ["Generator", "manual_seed", "seed", "initial_seed", "get_rng_state", "set_rng_state", "default_generator"]

default_generator: Generator = _C.default_generator("cpu")


def manual_seed(seed) -> Generator:
    """Seeds the default generator of every device; returns the CPU one."""
    _C.manual_seed(int(seed))
    return default_generator


def seed() -> int:
    """Seeds every default generator from a non-deterministic source; returns the seed."""
    s = _C._random_seed() & 0x7FFF_FFFF_FFFF_FFFF
    _C.manual_seed(s)
    return s


def initial_seed() -> int:
    """The seed of the default CPU generator."""
    return default_generator.initial_seed()


def get_rng_state():
    """The default CPU generator's state (pass it to set_rng_state)."""
    return default_generator.get_state()


def set_rng_state(new_state) -> None:
    """Restores the default CPU generator's state."""
    default_generator.set_state(new_state)
