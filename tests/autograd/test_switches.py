"""torch.autograd's process-wide switches read back and restore as upstream's. Runs against upstream PyTorch
too (TORCH_REFERENCE)."""

from __future__ import annotations

import torch


def test_multithreading_switch():
    assert torch.autograd.is_multithreading_enabled() is True
    with torch.autograd.set_multithreading_enabled(False):
        assert torch.autograd.is_multithreading_enabled() is False
        x = torch.ones(2, requires_grad=True)
        (x * 3).sum().backward()
        torch.testing.assert_close(x.grad, torch.full((2,), 3.0))
    assert torch.autograd.is_multithreading_enabled() is True


def test_view_replay_default():
    assert torch.autograd.is_view_replay_enabled() is False
