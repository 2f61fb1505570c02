"""torch.nn.functional: stateless NN ops backed by THNN (CPU) and THCUNN (CUDA)."""

from __future__ import annotations

import warnings

import torch


def relu(input: torch.Tensor, inplace: bool = False) -> torch.Tensor:
    """max(input, 0) elementwise; in place if `inplace`."""
    return torch.relu_(input) if inplace else torch.relu(input)


def _softmax_dim(ndim: int, stacklevel: int) -> int:
    """PyTorch's legacy choice of dim for softmax called without one (with its deprecation warning)."""
    warnings.warn(
        "Implicit dimension choice for softmax has been deprecated. Change the call to include dim=X as an argument.",
        stacklevel=stacklevel,
    )
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input: torch.Tensor, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> torch.Tensor:
    """exp(input) normalized along dim (PyTorch's legacy rule, with a warning, when dim is None)."""
    return torch.softmax(input, _softmax_dim(input.dim(), _stacklevel) if dim is None else dim, dtype=dtype)


def log_softmax(input: torch.Tensor, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> torch.Tensor:
    """log(softmax(input)) along dim, computed stably (input - logsumexp)."""
    return torch.log_softmax(input, _softmax_dim(input.dim(), _stacklevel) if dim is None else dim, dtype=dtype)
