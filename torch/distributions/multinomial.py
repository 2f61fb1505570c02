"""PyTorch's module of Multinomial, which is defined in torch.distributions.one_hot_categorical."""

from torch.distributions.one_hot_categorical import Multinomial

__all__ = ["Multinomial"]
