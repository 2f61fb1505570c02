"""Seeding the default generators (PyTorch's torch.random API)."""

from __future__ import annotations

import contextlib
import warnings

from torch import _C
from torch._C import Generator

__all__ = [
    "Generator",
    "manual_seed",
    "seed",
    "initial_seed",
    "get_rng_state",
    "set_rng_state",
    "default_generator",
    "fork_rng",
]

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


_fork_rng_warned_already = False


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices", device_type=None):
    """Forks the RNG: on exit the CPU generator (and those of `devices`, GPU indices of `device_type`,
    default "cuda"; None: every visible one) get back the state they had on entry. enabled=False: a no-op."""
    import torch  # noqa: PLC0415

    if device_type == "meta":
        yield
        return
    device_type = device_type or "cuda"
    device_mod = getattr(torch, device_type, None)
    if device_mod is None:
        raise RuntimeError(
            f"torch has no module of `{device_type}`, you should register a module by `torch._register_device_module`."
        )
    if not enabled:
        yield
        return
    global _fork_rng_warned_already
    if devices is None:
        num_devices = device_mod.device_count()
        if num_devices > 1 and not _fork_rng_warned_already:
            up = device_type.upper()
            warnings.warn(
                f"{up} reports that you have {num_devices} available devices, and you have used {_caller} without "
                f"explicitly specifying which devices are being used. For safety, we initialize *every* {up} device "
                f"by default, which can be quite slow if you have a lot of {up}s. If you know that you are only making "
                f"use of a few {up} devices, set the environment variable {up}_VISIBLE_DEVICES or the "
                f"'{_devices_kw}' keyword argument of {_caller} with the set of devices you are actually using. For "
                f"example, if you are using CPU only, set device.upper()_VISIBLE_DEVICES= or devices=[]; if you are "
                f"using device 0 only, set {up}_VISIBLE_DEVICES=0 or devices=[0].  To initialize all devices and "
                f"suppress this warning, set the '{_devices_kw}' keyword argument to "
                f"`range(torch.{device_type}.device_count())`.",
                stacklevel=3,
            )
            _fork_rng_warned_already = True
        devices = list(range(num_devices))
    else:
        devices = list(devices)  # a generator would be exhausted by the first pass
    cpu_rng_state = get_rng_state()
    device_rng_states = [device_mod.get_rng_state(device) for device in devices]
    try:
        yield
    finally:
        set_rng_state(cpu_rng_state)
        for device, state in zip(devices, device_rng_states):
            device_mod.set_rng_state(state, device)
