"""Gradient clipping: clip_grad_norm_ and clip_grad_value_."""

from __future__ import annotations

import math
import warnings

import torch

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_"]


def _grads(parameters):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


def clip_grad_norm_(
    parameters, max_norm: float, norm_type: float = 2.0, error_if_nonfinite: bool = False, foreach=None
):
    """Scales the gradients in place so that their total norm (over all of them, as one vector) is at most
    max_norm; returns the total norm before clipping."""
    grads = _grads(parameters)
    max_norm, norm_type = float(max_norm), float(norm_type)
    if len(grads) == 0:
        return torch.tensor(0.0)
    device = grads[0].device
    with torch.no_grad():
        if norm_type == math.inf:
            norms = [g.detach().abs().amax() for g in grads]
            total_norm = norms[0] if len(norms) == 1 else torch.stack([n.to(device) for n in norms]).amax()
        else:
            norms = [g.detach().abs().pow(norm_type).sum().pow(1.0 / norm_type) for g in grads]
            stacked = torch.stack([n.to(device) for n in norms])
            total_norm = stacked.pow(norm_type).sum().pow(1.0 / norm_type)
        if error_if_nonfinite and bool(torch.logical_or(total_norm.isnan(), total_norm.isinf())):
            raise RuntimeError(
                f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it cannot be "
                "clipped. To disable this error and scale the gradients by the non-finite norm anyway, set "
                "`error_if_nonfinite=False`"
            )
        clip_coef = max_norm / (total_norm + 1e-6)
        clip_coef_clamped = torch.clamp(clip_coef, max=1.0)
        for g in grads:
            g.mul_(clip_coef_clamped.to(g.device).to(g.dtype))
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
