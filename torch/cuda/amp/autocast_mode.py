"""The deprecated torch.cuda.amp.autocast: torch.amp.autocast('cuda', ...)."""

import warnings

from torch.amp.autocast_mode import autocast as _autocast

__all__ = ["autocast"]


class autocast(_autocast):
    """Deprecated: torch.amp.autocast('cuda', ...)."""

    def __init__(self, enabled: bool = True, dtype=None, cache_enabled: bool = True) -> None:
        warnings.warn(
            "`torch.cuda.amp.autocast(args...)` is deprecated. Please use `torch.amp.autocast('cuda', args...)` "
            "instead.",
            FutureWarning,
            stacklevel=2,
        )
        import torch  # noqa: PLC0415

        super().__init__("cuda", dtype=torch.float16 if dtype is None else dtype, enabled=enabled,
                         cache_enabled=cache_enabled)  # fmt: skip
