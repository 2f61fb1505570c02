"""torch.nn.functional: stateless NN ops backed by THNN (CPU) and THCUNN (CUDA)."""

from __future__ import annotations

import torch


def relu(input: torch.Tensor, inplace: bool = False) -> torch.Tensor:
    """max(input, 0) elementwise; in place if `inplace`."""
    return torch.relu_(input) if inplace else torch.relu(input)
