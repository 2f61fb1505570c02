"""t.data = value (the tensor object takes value's memory and keeps its own autograd state), and
Module.to / .double() / .half() converting parameters in place, so that an optimizer built before keeps them."""

from __future__ import annotations

import pytest

import torch


def test_set_data_keeps_the_autograd_state():
    p = torch.ones(3, requires_grad=True)
    value = torch.zeros(3, dtype=torch.float64)
    p.data = value
    assert p.dtype == torch.float64 and p.tolist() == [0.0, 0.0, 0.0]
    assert p.requires_grad and p.is_leaf
    assert p.data_ptr() == value.data_ptr()
    (p * 2).sum().backward()
    assert p.grad.tolist() == [2.0, 2.0, 2.0]


def test_set_data_refuses_a_non_tensor():
    p = torch.ones(2)
    with pytest.raises(TypeError, match="Variable data has to be a tensor, but got int"):
        p.data = 3


def test_module_conversion_keeps_parameter_objects():
    torch.manual_seed(0)
    m = torch.nn.Linear(3, 2)
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    w = m.weight
    m.double()
    assert m.weight is w and w.dtype == torch.float64 and isinstance(w, torch.nn.Parameter)
    before = w.detach().clone()
    m(torch.randn(4, 3, dtype=torch.float64)).sum().backward()
    opt.step()  # the optimizer holds the same (now float64) parameter and updates it
    assert not torch.equal(before, m.weight.detach())
