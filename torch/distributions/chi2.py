"""PyTorch's module of Chi2, which is defined in torch.distributions.gamma."""

from torch.distributions.gamma import Chi2

__all__ = ["Chi2"]
