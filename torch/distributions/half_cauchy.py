"""PyTorch's module of HalfCauchy, which is defined in torch.distributions.extreme_value."""

from torch.distributions.extreme_value import HalfCauchy

__all__ = ["HalfCauchy"]
