"""PyTorch's module of Weibull, which is defined in torch.distributions.extreme_value."""

from torch.distributions.extreme_value import Weibull

__all__ = ["Weibull"]
