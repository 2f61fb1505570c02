"""PyTorch's module of HalfNormal, which is defined in torch.distributions.log_normal."""

from torch.distributions.log_normal import HalfNormal

__all__ = ["HalfNormal"]
