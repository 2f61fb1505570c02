"""Gradient clipping: get_total_norm, clip_grads_with_norm_, clip_grad_norm_ (the two in one) and clip_grad_value_."""

from __future__ import annotations

import types
import warnings

import torch

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_", "clip_grads_with_norm_", "get_total_norm"]


def _tensors(tensors) -> list:
    return [tensors] if isinstance(tensors, torch.Tensor) else list(tensors)


def _grads(parameters) -> list:
    return [p.grad for p in _tensors(parameters) if p.grad is not None]


def get_total_norm(tensors, norm_type: float = 2.0, error_if_nonfinite: bool = False, foreach=None) -> torch.Tensor:
    """The norm of `tensors` taken together, as if they were one vector: the norm of their norms (each tensor's
    norm in its own dtype, the total on the first tensor's device). Raises RuntimeError for a NaN or infinite
    total when error_if_nonfinite."""
    tensors = _tensors(tensors)
    norm_type = float(norm_type)
    if len(tensors) == 0:
        return torch.tensor(0.0)
    with torch.no_grad():
        first_device = tensors[0].device
        norms = [torch.linalg.vector_norm(t, norm_type) for t in tensors]
        total_norm = torch.linalg.vector_norm(torch.stack([n.to(first_device) for n in norms]), norm_type)
        if error_if_nonfinite and bool(torch.logical_or(total_norm.isnan(), total_norm.isinf())):
            raise RuntimeError(
                f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it cannot be "
                "clipped. To disable this error and scale the gradients by the non-finite norm anyway, set "
                "`error_if_nonfinite=False`"
            )
    return total_norm


def clip_grads_with_norm_(parameters, max_norm: float, total_norm: torch.Tensor, foreach=None) -> None:
    """Scales the parameters' gradients in place by min(max_norm / (total_norm + 1e-6), 1), given the total norm
    (from get_total_norm): clip_grad_norm_ with the norm computed beforehand (e.g. over several models)."""
    grads = _grads(parameters)
    if len(grads) == 0:
        return
    with torch.no_grad():
        clip_coef_clamped = torch.clamp(float(max_norm) / (total_norm + 1e-6), max=1.0)
        for g in grads:
            g.mul_(clip_coef_clamped.to(g.device))


def clip_grad_norm_(
    parameters, max_norm: float, norm_type: float = 2.0, error_if_nonfinite: bool = False, foreach=None
) -> torch.Tensor:
    """Scales the gradients in place so that their total norm (over all of them, as one vector) is at most
    max_norm; returns the total norm before clipping. get_total_norm followed by clip_grads_with_norm_."""
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    else:
        is_generator = isinstance(parameters, types.GeneratorType)
        parameters = list(parameters)
        if is_generator and len(parameters) == 0:
            warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.", stacklevel=2)
    total_norm = get_total_norm(_grads(parameters), norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_norm(parameters, max_norm: float, norm_type: float = 2.0, error_if_nonfinite: bool = False, foreach=None):
    """Deprecated alias of clip_grad_norm_."""
    warnings.warn(
        "`torch.nn.utils.clip_grad_norm` is now deprecated in favor of `torch.nn.utils.clip_grad_norm_`.",
        FutureWarning,
        stacklevel=2,
    )
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters, clip_value: float, foreach=None) -> None:
    """Clamps every gradient in place to [-clip_value, clip_value]."""
    clip_value = float(clip_value)
    with torch.no_grad():
        for g in _grads(parameters):
            g.clamp_(min=-clip_value, max=clip_value)
