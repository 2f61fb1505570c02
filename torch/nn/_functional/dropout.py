"""The dropout family: dropout (the native_dropout kernel), dropout1d/2d/3d, alpha_dropout, feature_alpha_dropout
(composites: their masks span whole channels, or shift as well as scale)."""

from __future__ import annotations

import torch
from torch.nn._functional._layout import laid_out_like

__all__ = ["alpha_dropout", "dropout", "dropout1d", "dropout2d", "dropout3d", "feature_alpha_dropout"]


def _check_p(p: float) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _keep_mask(shape, p: float, like) -> torch.Tensor:
    """A {0, 1} mask of `shape` (dtype and device of `like`), each entry 1 with probability 1 - p."""
    return (torch.rand(shape, device=like.device) >= p).to(like.dtype)


def dropout(input, p: float = 0.5, training: bool = True, inplace: bool = False):
    """Zeroes each element with probability p and scales the rest by 1 / (1 - p) (identity unless training)."""
    _check_p(p)
    if not training or p == 0.0:
        return input
    out = torch.native_dropout(input, p, True)[0]  # the THNN/THCUNN kernel: output and mask in one pass
    return input.copy_(out) if inplace else laid_out_like(out, input, ranks=(4, 5))


def _feature_dropout(input, p, training, inplace, batched_dim: int, name: str):
    """Zeroes whole channels: the mask has size 1 past the channel dimension."""
    _check_p(p)
    if input.dim() not in (batched_dim - 1, batched_dim):
        raise RuntimeError(
            f"{name}: Expected {batched_dim - 1}D or {batched_dim}D input, but received a {input.dim()}D input. "
            "Note that dropout1d exists to provide channel-wise dropout on inputs with 1 spatial dimension, a "
            "channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs)."
        )
    if not training or p == 0.0:
        return input
    lead = 2 if input.dim() == batched_dim else 1
    shape = list(input.shape[:lead]) + [1] * (input.dim() - lead)
    out = input * _keep_mask(shape, p, input) * (1.0 / (1.0 - p)) if p < 1.0 else input * 0.0
    return input.copy_(out) if inplace else out


def dropout1d(input, p: float = 0.5, training: bool = True, inplace: bool = False):
    """Channel dropout on (N, C, L) or (C, L) input."""
    return _feature_dropout(input, p, training, inplace, 3, "dropout1d")


def dropout2d(input, p: float = 0.5, training: bool = True, inplace: bool = False):
    """Channel dropout on (N, C, H, W) or (C, H, W) input."""
    _check_p(p)
    if not training or p == 0.0:
        return input
    lead = 2 if input.dim() >= 4 or input.dim() == 2 else 1
    shape = list(input.shape[:lead]) + [1] * (input.dim() - lead)
    out = input * _keep_mask(shape, p, input) * (1.0 / (1.0 - p)) if p < 1.0 else input * 0.0
    return input.copy_(out) if inplace else out


def dropout3d(input, p: float = 0.5, training: bool = True, inplace: bool = False):
    """Channel dropout on (N, C, D, H, W) or (C, D, H, W) input."""
    _check_p(p)
    if not training or p == 0.0:
        return input
    lead = 1 if input.dim() == 4 else 2
    shape = list(input.shape[:lead]) + [1] * (input.dim() - lead)
    out = input * _keep_mask(shape, p, input) * (1.0 / (1.0 - p)) if p < 1.0 else input * 0.0
    return input.copy_(out) if inplace else out


_ALPHA_PRIME = -1.7580993408473766  # -selu_scale * selu_alpha


def _alpha_dropout(input, p, training, inplace, feature: bool):
    _check_p(p)
    if not training or p == 0.0:
        return input
    if p == 1.0:
        return input.copy_(input * 0.0) if inplace else input * 0.0
    shape = list(input.shape[:2]) + [1] * (input.dim() - 2) if feature else input.shape
    keep = _keep_mask(shape, p, input)
    a = (1.0 / ((1 - p) * (1 + p * _ALPHA_PRIME**2))) ** 0.5
    b = -a * _ALPHA_PRIME * p
    out = (input * keep + _ALPHA_PRIME * (1 - keep)) * a + b
    return input.copy_(out) if inplace else out


def alpha_dropout(input, p: float = 0.5, training: bool = False, inplace: bool = False):
    """Dropout that keeps SELU's self-normalizing mean and variance."""
    return _alpha_dropout(input, p, training, inplace, False)


def feature_alpha_dropout(input, p: float = 0.5, training: bool = False, inplace: bool = False):
    """alpha_dropout on whole channels."""
    return _alpha_dropout(input, p, training, inplace, True)
