"""nn.CrossMapLRN2d (the legacy cross-channel LRN) against its loop definition in float64, with gradients, and the
deprecated nn.Container. Runs against upstream PyTorch too (TORCH_REFERENCE)."""

from __future__ import annotations

import os

import pytest

import torch
from torch import nn


def _loop_reference(x, size, alpha, beta, k):
    """Upstream's sliding-window recurrence, written out per channel."""
    sq = x * x
    channels = x.size(1)
    pre_pad = int((size - 1) / 2 + 1)
    scale = [sq[:, : min(pre_pad, channels)].sum(1)]
    for c in range(1, channels):
        cur = scale[-1].clone()
        if c < channels - pre_pad + 1:
            cur = cur + sq[:, c + pre_pad - 1]
        if c > pre_pad:
            cur = cur - sq[:, c - pre_pad]
        scale.append(cur)
    scale = torch.stack(scale, 1) * (alpha / size) + k
    return x * scale.pow(-beta)


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 9])
@pytest.mark.parametrize("channels", [1, 3, 7])
def test_matches_the_recurrence(size, channels):
    torch.manual_seed(size * 10 + channels)
    x = torch.randn(2, channels, 3, 4, dtype=torch.float64)
    out = nn.CrossMapLRN2d(size, alpha=0.05, beta=0.75, k=2.0)(x)
    torch.testing.assert_close(out, _loop_reference(x, size, 0.05, 0.75, 2.0))


@pytest.mark.skipif(
    "TORCH_REFERENCE" in os.environ, reason="upstream's hand-written CrossMapLRN2d backward fails gradcheck"
)
def test_gradient():
    x = torch.randn(2, 5, 3, 3, dtype=torch.float64, requires_grad=True)
    m = nn.CrossMapLRN2d(3, alpha=0.1, beta=0.75, k=1.5)
    assert torch.autograd.gradcheck(m, (x,))


def test_errors_and_repr():
    m = nn.CrossMapLRN2d(3)
    assert repr(m) == "CrossMapLRN2d(3, alpha=0.0001, beta=0.75, k=1)"
    with pytest.raises(ValueError, match="CrossMapLRN2d: Expected input to be 4D, got 3D instead."):
        m(torch.randn(2, 3, 4))


def test_container_is_deprecated_but_works():
    with pytest.warns(FutureWarning):
        c = nn.Container(a=nn.Linear(1, 1))
    assert isinstance(c.a, nn.Linear) and list(c.state_dict()) == ["a.weight", "a.bias"]
