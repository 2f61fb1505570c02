"""torch.utils: data loading (torch.utils.data) and other utilities."""

from torch.utils import data

__all__ = ["data"]
