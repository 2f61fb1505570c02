"""skip_init: a module built without its parameters' initial values mattering."""

from __future__ import annotations

import inspect

import torch

__all__ = ["skip_init"]


def skip_init(module_cls, *args, **kwargs):
    """An instance of `module_cls(*args, **kwargs)` whose parameters and buffers hold unspecified values, as if
    made by torch.empty, for code that initializes them itself. The class must take a `device` argument.

    Upstream builds the module on the meta device and allocates it empty; this library has no meta device, so
    the module is built on `device` with its usual initialization, which leaves the global random generators as
    they were (the values are still to be treated as uninitialized). It saves no construction time."""
    if not issubclass(module_cls, torch.nn.Module):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    cpu_state = torch.get_rng_state()
    cuda_states = torch.cuda.get_rng_state_all() if torch.cuda.is_available() else None
    try:
        return module_cls(*args, **kwargs)
    finally:
        torch.set_rng_state(cpu_state)
        if cuda_states is not None:
            torch.cuda.set_rng_state_all(cuda_states)
