"""torch.backends.mha (PyTorch's API): whether nn.MultiheadAttention and the Transformer layers may take
their inference fast path. Here the switch is recorded and read back; the layers run the same kernels
(scaled_dot_product_attention's fused one) either way."""

from __future__ import annotations

__all__ = ["get_fastpath_enabled", "set_fastpath_enabled"]

_fastpath = [True]


def get_fastpath_enabled() -> bool:
    """Whether the fast path of MultiheadAttention/TransformerEncoder is allowed (default True)."""
    return _fastpath[0]


def set_fastpath_enabled(value: bool) -> None:
    """Allows or forbids that fast path."""
    _fastpath[0] = bool(value)
