"""Tensor.share_memory_ / is_shared and Module.share_memory: the storage moves into shared memory for every
view of it, keeps its values and version, stays usable by autograd and optimizers, and a forked process's
writes reach the parent (Hogwild-style training)."""

from __future__ import annotations

import os

import pytest

import torch


def test_moves_the_storage_for_every_view():
    x = torch.arange(12.0).reshape(3, 4)
    row = x[1]
    x.add_(1)  # a version the move must keep
    version = x._version
    assert not x.is_shared() and not row.is_shared()
    assert x.share_memory_() is x
    assert x.is_shared() and row.is_shared()
    assert x._version == version
    assert x.tolist() == (torch.arange(12.0).reshape(3, 4) + 1).tolist()
    row.zero_()  # the view still aliases x
    assert x[1].tolist() == [0.0] * 4
    assert x.share_memory_() is x and x.is_shared()  # already shared: nothing to do
    assert not torch.ones(3).is_shared()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_process_writes_into_the_parents_tensor():
    x = torch.zeros(5).share_memory_()
    pid = os.fork()
    if pid == 0:  # the child: write, and leave without running the parent's cleanup
        x.add_(torch.arange(5.0))
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert status == 0
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]


def test_module_parameters_stay_trainable():
    torch.manual_seed(0)
    model = torch.nn.Linear(4, 2)
    before = [p.detach().clone() for p in model.parameters()]
    params = list(model.parameters())
    assert model.share_memory() is model
    assert all(p.is_shared() and p.requires_grad for p in model.parameters())
    assert [p for p in model.parameters()] == params  # the same Parameter objects
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(3, 4)
    y = (model(x) ** 2).sum()
    y.backward()
    opt.step()
    assert all(p.is_shared() for p in model.parameters())
    assert any(not torch.equal(p.detach(), b) for p, b in zip(model.parameters(), before))


def test_autograd_saved_tensors_survive_the_move():
    w = torch.randn(3, requires_grad=True)
    y = (w * w).sum()
    w.share_memory_()
    y.backward()
    torch.testing.assert_close(w.grad, 2 * w.detach())
