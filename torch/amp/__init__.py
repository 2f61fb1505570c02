"""torch.amp: automatic mixed precision, autocast regions (autocast_mode.py) and loss scaling (grad_scaler.py)."""

from torch.amp.autocast_mode import autocast, custom_bwd, custom_fwd, is_autocast_available
from torch.amp.grad_scaler import GradScaler

__all__ = ["autocast", "custom_bwd", "custom_fwd", "is_autocast_available", "GradScaler"]
