"""The two loss-scaling kernels GradScaler uses, as PyTorch's private ``torch._amp_*`` ops, from tensor ops.

Both work on 0-dim (1-element) tensors with ``torch.where``, never reading a value back to the host, so on
an accelerator they queue asynchronously like PyTorch's fused kernels.
"""

from __future__ import annotations

import torch
from torch import _C

__all__ = ["_amp_foreach_non_finite_check_and_unscale_", "_amp_update_scale_"]

_UNSCALABLE = (_C.float16, _C.bfloat16, _C.float32, _C.float64)
_ATEN_NAMES = {_C.int8: "Char", _C.uint8: "Byte", _C.int16: "Short", _C.int32: "Int"}
_ATEN_NAMES.update({_C.int64: "Long", _C.bool: "Bool"})


def _amp_foreach_non_finite_check_and_unscale_(scaled_grads, found_inf, inv_scale) -> None:
    """Multiply every tensor of ``scaled_grads`` by ``inv_scale`` in place, setting ``found_inf`` to 1.0
    when any of them holds an inf or a NaN (``found_inf`` is otherwise left as it was).

    ``found_inf`` and ``inv_scale`` are 1-element float32 tensors; the grads are floating tensors of any
    layout (float16, bfloat16, float32, float64), unscaled even when non-finite, as PyTorch does.
    """
    if found_inf.numel() != 1:
        raise RuntimeError("found_inf must be a 1-element tensor.")
    if inv_scale.numel() != 1:
        raise RuntimeError("inv_scale must be a 1-element tensor.")
    if found_inf.dtype != torch.float32:
        raise RuntimeError("found_inf must be a float tensor.")
    if inv_scale.dtype != torch.float32:
        raise RuntimeError("inv_scale must be a float tensor.")
    grads = list(scaled_grads)
    for g in grads:
        if g.dtype not in _UNSCALABLE:
            name = _ATEN_NAMES.get(g.dtype, str(g.dtype).removeprefix("torch."))
            raise NotImplementedError(f"\"_amp_foreach_non_finite_check_and_unscale_\" not implemented for '{name}'")
        if g.device != found_inf.device or g.device != inv_scale.device:
            raise RuntimeError(
                "scaled_grads, found_inf and inv_scale must be on the same device, got "
                f"{g.device}, {found_inf.device} and {inv_scale.device}."
            )
    if not grads:
        return
    with torch.no_grad():
        non_finite = None
        for g in grads:
            bad = ~torch.isfinite(g).all()
            non_finite = bad if non_finite is None else non_finite | bad
            g.mul_(inv_scale.reshape(()))
        found_inf.masked_fill_(non_finite.reshape(found_inf.shape), 1.0)


def _amp_update_scale_(
    current_scale, growth_tracker, found_inf, scale_growth_factor, scale_backoff_factor, growth_interval
):
    """Update the loss scale and its growth tracker in place, from the step's ``found_inf``; returns ``current_scale``.

    If ``found_inf`` is nonzero (NaN counts as nonzero) the scale is multiplied by ``scale_backoff_factor`` and
    the tracker reset to 0. Otherwise the tracker is incremented, and when it equals ``growth_interval`` the scale
    is multiplied by ``scale_growth_factor`` (kept unchanged if that overflows float32) and the tracker reset to 0.
    ``current_scale`` and ``found_inf`` are 1-element float32 tensors, ``growth_tracker`` a 1-element int32 one.
    """
    if current_scale.numel() != 1:
        raise RuntimeError("current_scale must be a 1-element tensor.")
    if growth_tracker.numel() != 1:
        raise RuntimeError("growth_tracker must be a 1-element tensor.")
    if found_inf.numel() != 1:
        raise RuntimeError("found_inf must be a 1-element tensor.")
    if growth_tracker.dtype != torch.int32:
        raise RuntimeError("growth_tracker must be an int tensor.")
    if current_scale.dtype != torch.float32:
        raise RuntimeError("current_scale must be a float tensor.")
    if found_inf.dtype != torch.float32:
        raise RuntimeError("found_inf must be a float tensor.")
    if growth_tracker.device != current_scale.device or found_inf.device != current_scale.device:
        raise RuntimeError(
            "current_scale, growth_tracker and found_inf must be on the same device, got "
            f"{current_scale.device}, {growth_tracker.device} and {found_inf.device}."
        )
    with torch.no_grad():
        scale = current_scale.reshape(())
        tracker = growth_tracker.reshape(())
        found = found_inf.reshape(()) != 0
        successful = tracker + 1
        grow = ~found & (successful == growth_interval)
        # PyTorch's kernel multiplies in double and rounds the product to float.
        grown = (scale.double() * scale_growth_factor).float()
        backed_off = (scale.double() * scale_backoff_factor).float()
        kept_or_grown = torch.where(grow & torch.isfinite(grown), grown, scale)
        new_scale = torch.where(found, backed_off, kept_or_grown)
        new_tracker = torch.where(found | grow, torch.zeros_like(successful), successful)
        current_scale.copy_(new_scale.reshape(current_scale.shape))
        growth_tracker.copy_(new_tracker.reshape(growth_tracker.shape))
    return current_scale
