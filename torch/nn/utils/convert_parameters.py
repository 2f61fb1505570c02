"""parameters_to_vector and vector_to_parameters."""

from __future__ import annotations

import torch

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def _check_param_device(param, old_param_device):
    """The device the parameters share; raises TypeError when they are on different devices."""
    if old_param_device is None:
        return param.device
    if param.device != old_param_device:
        raise TypeError("Found two parameters on different devices, this is currently not supported.")
    return old_param_device


def parameters_to_vector(parameters):
    """The parameters flattened and concatenated into one vector."""
    param_device = None
    vec = []
    for param in parameters:
        param_device = _check_param_device(param, param_device)
        vec.append(param.reshape(-1))
    return torch.cat(vec)


def vector_to_parameters(vec, parameters) -> None:
    """Copies consecutive slices of `vec` into the parameters (in place)."""
    if not isinstance(vec, torch.Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    param_device = None
    pointer = 0
    with torch.no_grad():
        for param in parameters:
            param_device = _check_param_device(param, param_device)
            num_param = param.numel()
            param.copy_(vec[pointer : pointer + num_param].reshape(param.shape))
            pointer += num_param
