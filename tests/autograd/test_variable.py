"""torch.autograd.Variable (the legacy alias of Tensor) and torch.utils.hooks."""

from __future__ import annotations

import warnings
from collections import OrderedDict

import pytest

import torch
from torch import nn
from torch.autograd.variable import Variable
from torch.utils.hooks import RemovableHandle, unserializable_hook, warn_if_has_hooks


def test_every_tensor_is_a_variable():
    assert isinstance(torch.tensor(1.0), Variable)
    assert isinstance(nn.Parameter(torch.ones(2)), Variable)
    assert not isinstance(1.0, Variable)
    assert not issubclass(torch.Tensor, Variable)


def test_constructor_returns_a_detached_tensor():
    t = torch.ones(2)
    v = Variable(t, requires_grad=True)
    assert type(v) is type(t) and v is not t
    assert v.requires_grad and v.is_leaf and not t.requires_grad
    assert v.data_ptr() == t.data_ptr()  # shares the data
    x = torch.ones(2, requires_grad=True)
    d = Variable(x * 2)
    assert d.grad_fn is None and not d.requires_grad and torch.equal(d, torch.full((2,), 2.0))
    e = Variable()
    assert tuple(e.shape) == (0,) and e.dtype == torch.get_default_dtype()
    assert Variable(t, True).requires_grad  # positional requires_grad
    (v * 3).sum().backward()
    assert torch.equal(v.grad, torch.full((2,), 3.0))


def test_volatile_and_errors():
    t = torch.ones(2)
    with pytest.warns(UserWarning, match="volatile was removed and now has no effect"):
        v = Variable(t, volatile=True)
    assert not v.requires_grad
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match="Variable can't be volatile and require_grad at the same time!"):
            Variable(t, True, True)
    with pytest.raises(TypeError, match="Variable data has to be a tensor, but got int"):
        Variable(3)
    with pytest.raises(TypeError, match="'foo' is an invalid keyword argument for this function"):
        Variable(t, foo=1)
    with pytest.raises(TypeError, match="_grad_fn has to be a Function object or None, but got int"):
        Variable(t, _grad_fn=3)
    with pytest.raises(RuntimeError, match="(?i)only Tensors of floating point and complex dtype can require"):
        Variable(torch.ones(2, dtype=torch.long), requires_grad=True)


def test_execution_engine_run_backward():
    x = torch.ones(2, requires_grad=True)
    y = (x * 2).sum()
    (g,) = Variable._execution_engine.run_backward((y,), (torch.tensor(1.0),), False, False, (x,), True, False)
    assert torch.equal(g, torch.full((2,), 2.0)) and x.grad is None


def test_removable_handle():
    hooks, extra = OrderedDict(), OrderedDict()  # upstream's handle holds weak references: no plain dicts
    h = RemovableHandle(hooks, extra_dict=extra)
    h2 = RemovableHandle(hooks)
    assert h2.id == h.id + 1
    hooks[h.id] = hooks[h2.id] = print
    extra[h.id] = True
    h.remove()
    assert h.id not in hooks and h.id not in extra and h2.id in hooks
    h.remove()  # twice: nothing to do
    with h2:
        pass
    assert hooks == {}


def test_module_hooks_return_this_handle():
    m = nn.Module()
    handle = m.register_forward_hook(lambda mod, inp, out: None)
    assert isinstance(handle, RemovableHandle) and handle.id in m._forward_hooks
    handle.remove()
    assert handle.id not in m._forward_hooks


def test_unserializable_hook_and_warn_if_has_hooks():
    def f(grad):
        return grad

    assert unserializable_hook(f) is f and f.__torch_unserializable__
    t = torch.ones(2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warn_if_has_hooks(t)  # no hooks: no warning
