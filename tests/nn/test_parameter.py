"""nn.Parameter is a real subclass of Tensor, as PyTorch's: it aliases its data, ops on it give plain tensors,
gradients reach it, and it prints, pickles, deep-copies and saves as a Parameter; the uninitialized parameters
of lazy modules become Parameters (and buffers plain tensors) when given a shape."""

from __future__ import annotations

import copy
import io
import pickle

import pytest

import torch
from torch import nn


def test_parameter_is_a_tensor_subclass_aliasing_its_data():
    data = torch.arange(6.0).reshape(2, 3)
    p = nn.Parameter(data)
    assert type(p) is nn.Parameter and isinstance(p, torch.Tensor) and issubclass(nn.Parameter, torch.Tensor)
    assert p.requires_grad and p.is_leaf and p.grad_fn is None
    data[0, 0] = 10.0  # an alias: no copy
    assert p[0, 0].item() == 10.0
    assert not nn.Parameter(data, requires_grad=False).requires_grad
    assert type(nn.Parameter()) is nn.Parameter and nn.Parameter().shape == (0,)
    with pytest.raises((TypeError, AttributeError)):  # upstream: AttributeError ('list' has no detach)
        nn.Parameter([1.0, 2.0])


def test_ops_on_a_parameter_return_plain_tensors_and_gradients_reach_it():
    p = nn.Parameter(torch.tensor([1.0, 2.0, 3.0]))
    for out in (p * 2, p.detach(), p.data, p[1:], torch.mul(p, p), p.clone()):
        assert type(out) is torch.Tensor
    (p * p).sum().backward()
    torch.testing.assert_close(p.grad, torch.tensor([2.0, 4.0, 6.0]))
    assert type(p.grad) is torch.Tensor
    with torch.no_grad():
        p.mul_(2)  # in place: still the same Parameter
    assert type(p) is nn.Parameter and p[2].item() == 6.0


def test_parameter_repr():
    p = nn.Parameter(torch.tensor([1.0, 2.0]))
    assert repr(p) == "Parameter containing:\ntensor([1., 2.], requires_grad=True)"
    assert str(p) == repr(p)
    assert repr(nn.Parameter(torch.tensor([1.0]), requires_grad=False)) == "Parameter containing:\ntensor([1.])"


def test_parameter_pickle_deepcopy_and_save_keep_the_type():
    p = nn.Parameter(torch.tensor([1.0, 2.0]))
    p.grad = torch.tensor([0.5, 0.5])
    for q in (pickle.loads(pickle.dumps(p)), copy.deepcopy(p)):
        assert type(q) is nn.Parameter and q.requires_grad
        torch.testing.assert_close(q.detach(), p.detach())
        assert q.data_ptr() != p.data_ptr()
    assert copy.deepcopy(p).grad is None  # as upstream: the copy has no gradient
    buf = io.BytesIO()
    torch.save({"w": p, "frozen": nn.Parameter(torch.ones(2), requires_grad=False)}, buf)
    buf.seek(0)
    loaded = torch.load(buf)
    assert type(loaded["w"]) is nn.Parameter and loaded["w"].requires_grad
    assert type(loaded["frozen"]) is nn.Parameter and not loaded["frozen"].requires_grad


def test_modules_hold_parameters_and_state_dict_holds_tensors():
    lin = nn.Linear(3, 2)
    assert all(type(p) is nn.Parameter for p in lin.parameters())
    assert all(type(t) is torch.Tensor for t in lin.state_dict().values())
    clone = copy.deepcopy(lin)
    assert all(type(p) is nn.Parameter for p in clone.parameters())
    lin.to(torch.float64)
    assert type(lin.weight) is nn.Parameter and lin.weight.dtype == torch.float64
    lin.weight = nn.Parameter(torch.zeros(2, 3))
    assert "weight" in dict(lin.named_parameters())
    with pytest.raises(TypeError):
        lin.weight = torch.zeros(2, 3)  # a plain tensor cannot replace a parameter


def test_uninitialized_parameter_and_buffer_materialize():
    p = nn.UninitializedParameter()
    assert isinstance(p, nn.Parameter) and repr(p) == "<UninitializedParameter>"
    p.materialize((2, 3))
    assert type(p) is nn.Parameter and p.shape == (2, 3) and p.requires_grad
    b = nn.UninitializedBuffer()
    assert isinstance(b, torch.Tensor) and repr(b) == "<UninitializedBuffer>"
    b.materialize((4,), dtype=torch.float64)
    assert type(b) is torch.Tensor and b.shape == (4,) and b.dtype == torch.float64


def test_buffer_marks_a_plain_tensor():
    b = nn.Buffer(torch.ones(2))
    assert isinstance(b, nn.Buffer) and not isinstance(torch.ones(2), nn.Buffer)
    m = nn.Module()
    m.running = nn.Buffer(torch.zeros(3))
    assert "running" in dict(m.named_buffers())


def test_parameter_crosses_processes_as_a_parameter():
    from multiprocessing.reduction import ForkingPickler

    import torch.multiprocessing  # noqa: F401  (registers the tensor reducers)

    p = nn.Parameter(torch.arange(4.0))
    q = pickle.loads(ForkingPickler.dumps(p))
    assert type(q) is nn.Parameter and q.requires_grad
    torch.testing.assert_close(q.detach(), p.detach())
