"""The CUDA default generators' seeds and states (torch.cuda.manual_seed, get_rng_state, ...), as upstream's
torch.cuda.random: seeding is safe without CUDA (nothing to seed), reading a state needs a GPU."""

from __future__ import annotations

import torch
from torch import _C

__all__ = [
    "get_rng_state",
    "get_rng_state_all",
    "set_rng_state",
    "set_rng_state_all",
    "manual_seed",
    "manual_seed_all",
    "seed",
    "seed_all",
    "initial_seed",
]


def _generator(index: int):
    return _C.default_generator(_C.device("cuda", index))


def _index(device) -> int:
    """The GPU index of a device argument ("cuda" or None: the current GPU), checked to exist."""
    from torch.cuda import _checked_index

    if isinstance(device, int):
        return _checked_index(device)
    device = _C.device(device) if isinstance(device, str) else device
    if device is not None and device.type != "cuda":
        raise ValueError(f"Expected a cuda device, but got: {device}")
    return _checked_index(None if device is None or device.index is None else device.index)


def _gpus() -> range:
    """The visible GPUs (none without a CUDA build or a GPU: seeding then has nothing to do)."""
    from torch.cuda import device_count, is_compiled

    return range(device_count() if is_compiled() else 0)


def get_rng_state(device="cuda") -> torch.Tensor:
    """The state of `device`'s default generator (the current GPU's for "cuda"), a torch.uint8 tensor."""
    return _generator(_index(device)).get_state()


def get_rng_state_all() -> list:
    """The states of every GPU's default generator."""
    return [get_rng_state(i) for i in _gpus()]


def set_rng_state(new_state, device="cuda") -> None:
    """Restores `device`'s default generator to a state from get_rng_state (nothing to do without a GPU)."""
    if len(_gpus()) == 0:
        return
    _generator(_index(device)).set_state(new_state)


def set_rng_state_all(new_states) -> None:
    """Restores every GPU's default generator, the i-th from the i-th state."""
    for i, state in enumerate(new_states):
        set_rng_state(state, i)


def manual_seed(seed) -> None:
    """Seeds the current GPU's default generator (silently nothing without CUDA); manual_seed_all seeds them
    all, torch.manual_seed every device's and the CPU's."""
    seed = int(seed)
    if len(_gpus()):
        _generator(_index(None)).manual_seed(seed)


def manual_seed_all(seed) -> None:
    """Seeds the default generator of every GPU (silently nothing without CUDA)."""
    seed = int(seed)
    for i in _gpus():
        _generator(i).manual_seed(seed)


def seed() -> None:
    """Seeds the current GPU's default generator from a non-deterministic source."""
    if len(_gpus()):
        _generator(_index(None)).seed()


def seed_all() -> None:
    """Seeds every GPU's default generator with one non-deterministic seed."""
    gpus = _gpus()
    if len(gpus):
        s = _generator(gpus[0]).seed()
        for i in gpus[1:]:
            _generator(i).manual_seed(s)


def initial_seed() -> int:
    """The seed of the current GPU's default generator (needs a GPU)."""
    return _generator(_index(None)).initial_seed()
