"""PyTorch's module of Beta, which is defined in torch.distributions.dirichlet."""

from torch.distributions.dirichlet import Beta

__all__ = ["Beta"]
