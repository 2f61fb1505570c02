"""torch.cpu.amp: the deprecated CPU forms of torch.amp (autocast, GradScaler)."""

import warnings

from torch.amp.autocast_mode import autocast as _autocast
from torch.amp.grad_scaler import GradScaler as _GradScaler

__all__ = ["autocast", "GradScaler"]


class autocast(_autocast):
    """Deprecated: torch.amp.autocast('cpu', ...)."""

    def __init__(self, enabled: bool = True, dtype=None, cache_enabled: bool = True) -> None:
        warnings.warn(
            "`torch.cpu.amp.autocast(args...)` is deprecated. Please use `torch.amp.autocast('cpu', args...)` instead.",
            FutureWarning,
            stacklevel=2,
        )
        import torch  # noqa: PLC0415

        super().__init__("cpu", dtype=torch.bfloat16 if dtype is None else dtype, enabled=enabled,
                         cache_enabled=cache_enabled)  # fmt: skip


class GradScaler(_GradScaler):
    """Deprecated: torch.amp.GradScaler('cpu', ...)."""

    def __init__(self, init_scale: float = 2.0**16, growth_factor: float = 2.0, backoff_factor: float = 0.5,
                 growth_interval: int = 2000, enabled: bool = True) -> None:  # fmt: skip
        warnings.warn(
            "`torch.cpu.amp.GradScaler(args...)` is deprecated. Please use `torch.amp.GradScaler('cpu', args...)` "
            "instead.",
            FutureWarning,
            stacklevel=2,
        )
        super().__init__("cpu", init_scale=init_scale, growth_factor=growth_factor, backoff_factor=backoff_factor,
                         growth_interval=growth_interval, enabled=enabled)  # fmt: skip
