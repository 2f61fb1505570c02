"""torch.cuda.amp: the deprecated CUDA forms of torch.amp (autocast, GradScaler, custom_fwd/custom_bwd)."""

from torch.amp.autocast_mode import custom_bwd as _custom_bwd
from torch.amp.autocast_mode import custom_fwd as _custom_fwd
from torch.cuda.amp.autocast_mode import autocast
from torch.cuda.amp.common import amp_definitely_not_available
from torch.cuda.amp.grad_scaler import GradScaler

__all__ = ["amp_definitely_not_available", "autocast", "custom_bwd", "custom_fwd", "GradScaler"]


def custom_fwd(fwd=None, *, cast_inputs=None):
    """Deprecated: torch.amp.custom_fwd(device_type='cuda')."""
    import warnings  # noqa: PLC0415

    warnings.warn(
        "`torch.cuda.amp.custom_fwd(args...)` is deprecated. Please use `torch.amp.custom_fwd(args..., "
        "device_type='cuda')` instead.",
        FutureWarning,
        stacklevel=2,
    )
    return _custom_fwd(fwd, device_type="cuda", cast_inputs=cast_inputs)


def custom_bwd(bwd=None):
    """Deprecated: torch.amp.custom_bwd(device_type='cuda')."""
    import warnings  # noqa: PLC0415

    warnings.warn(
        "`torch.cuda.amp.custom_bwd(args...)` is deprecated. Please use `torch.amp.custom_bwd(args..., "
        "device_type='cuda')` instead.",
        FutureWarning,
        stacklevel=2,
    )
    return _custom_bwd(bwd, device_type="cuda")
