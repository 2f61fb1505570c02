"""torch.nn: neural-network building blocks (functional ops so far)."""

from torch.nn import functional

__all__ = ["functional"]
