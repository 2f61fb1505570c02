"""PyTorch's module of Pareto, which is defined in torch.distributions.extreme_value."""

from torch.distributions.extreme_value import Pareto

__all__ = ["Pareto"]
