"""amp_definitely_not_available: whether CUDA mixed precision cannot run here."""

from importlib.util import find_spec

import torch

__all__ = ["amp_definitely_not_available"]


def amp_definitely_not_available() -> bool:
    """True without a GPU (and without torch_xla), as upstream's."""
    return not (torch.cuda.is_available() or find_spec("torch_xla"))
