"""PyTorch's module of Gumbel, which is defined in torch.distributions.extreme_value."""

from torch.distributions.extreme_value import Gumbel

__all__ = ["Gumbel"]
