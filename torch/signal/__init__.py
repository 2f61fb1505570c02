"""torch.signal: signal processing (PyTorch's API); window functions live in torch.signal.windows."""

from torch.signal import windows

__all__ = ["windows"]
