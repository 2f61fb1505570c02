"""torch.autograd.graph.saved_tensors_hooks / save_on_cpu / disable_saved_tensors_hooks: what ops save goes
through the pack hook, backward uses what the unpack hook returns, double backward still reaches the inputs.
Runs against upstream PyTorch too (TORCH_REFERENCE)."""

from __future__ import annotations

import pytest

import torch
from torch.autograd.graph import disable_saved_tensors_hooks, save_on_cpu, saved_tensors_hooks


def test_pack_and_unpack_are_called():
    packed, unpacked = [], []

    def pack(t):
        packed.append(tuple(t.shape))
        return t.clone()

    def unpack(t):
        unpacked.append(tuple(t.shape))
        return t

    x = torch.randn(3, requires_grad=True)
    with saved_tensors_hooks(pack, unpack):
        y = (x * x).exp().sum()  # mul saves both operands, exp its result
    assert packed == [(3,), (3,), (3,)] and unpacked == []
    y.backward()
    assert len(unpacked) == 3
    torch.testing.assert_close(x.grad, 2 * x.detach() * (x.detach() ** 2).exp())


def test_backward_uses_what_unpack_returns():
    x = torch.randn(4, requires_grad=True)
    with saved_tensors_hooks(lambda t: t, lambda t: torch.ones_like(t)):
        y = (x * x).sum()  # d/dx = x + x, each saved x replaced by ones
    y.backward()
    torch.testing.assert_close(x.grad, torch.full((4,), 2.0))


def test_innermost_hooks_apply_and_outside_none():
    calls = []
    x = torch.randn(2, requires_grad=True)
    with saved_tensors_hooks(lambda t: calls.append("outer") or t, lambda t: t):
        with saved_tensors_hooks(lambda t: calls.append("inner") or t, lambda t: t):
            y = x.exp()
        z = x.sin()
    w = x.cos()
    (y.sum() + z.sum() + w.sum()).backward()
    assert calls == ["inner", "outer"]


def test_save_on_cpu_first_and_second_order():
    x = torch.randn(5, dtype=torch.float64, requires_grad=True)
    with save_on_cpu():
        y = (x.sin() * x).sum()
    (g,) = torch.autograd.grad(y, x, create_graph=True)
    torch.testing.assert_close(g, x.cos() * x + x.sin())
    (gg,) = torch.autograd.grad(g.sum(), x)
    torch.testing.assert_close(gg, 2 * x.cos() - x * x.sin())


def test_disable_saved_tensors_hooks():
    with disable_saved_tensors_hooks("saved tensors hooks are off here"):
        with pytest.raises(RuntimeError, match="saved tensors hooks are off here"):
            with saved_tensors_hooks(lambda t: t, lambda t: t):
                pass
    with saved_tensors_hooks(lambda t: t, lambda t: t):
        pass


def test_unpack_must_return_a_tensor():
    x = torch.randn(2, requires_grad=True)
    with saved_tensors_hooks(lambda t: t, lambda t: 3):
        y = x.exp().sum()
    with pytest.raises(TypeError, match="Output of saved tensor unpack_hook expected to be a Tensor"):
        y.backward()
