"""nn.Module's backward hooks (full, pre, the deprecated non-full form, global ones), forward hooks with
always_call, and torch.utils.hooks.RemovableHandle. Runs against upstream PyTorch too (tests-reference)."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest

import torch
from torch import nn
from torch.nn.modules import module as module_mod
from torch.utils.hooks import RemovableHandle


def _model(seed=0):
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2)).double()


def _x(seed=1, requires_grad=True):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(5, 3, generator=g, dtype=torch.float64).requires_grad_(requires_grad)


def test_full_backward_hook_sees_the_gradients_of_the_modules_inputs_and_outputs():
    m, x = _model(), _x()
    seen = {}
    m[2].register_full_backward_hook(lambda mod, gi, go: seen.update(mod=mod, gi=gi, go=go))
    h = m[1](m[0](x))
    h.retain_grad()
    out = m[2](h)
    out.retain_grad()
    (out**2).sum().backward()
    assert seen["mod"] is m[2] and len(seen["gi"]) == 1 and len(seen["go"]) == 1
    np.testing.assert_allclose(seen["go"][0].numpy(), out.grad.numpy())
    np.testing.assert_allclose(seen["gi"][0].numpy(), h.grad.numpy())


def test_pre_hook_and_hook_can_replace_gradients():
    m, x = _model(), _x()
    (m(x) ** 2).sum().backward()
    want = x.grad.clone()
    x.grad = None
    m[2].register_full_backward_pre_hook(lambda mod, go: (go[0] * 3,))
    m[0].register_full_backward_hook(lambda mod, gi, go: (gi[0] + 1,))
    (m(x) ** 2).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), want.numpy() * 3 + 1, rtol=1e-12)


def test_non_tensor_arguments_are_none_and_order_and_prepend():
    class Scale(nn.Module):
        def forward(self, a, k, b):
            return a * k + b

    m = Scale()
    calls = []
    m.register_full_backward_hook(lambda mod, gi, go: calls.append(("second", [g is None for g in gi])))
    m.register_full_backward_hook(lambda mod, gi, go: calls.append(("first", None)), prepend=True)
    a, b = torch.ones(2, requires_grad=True), torch.ones(2)  # b does not require grad
    m(a, 3.0, b).sum().backward()
    assert calls == [("first", None), ("second", [False, True, False])]  # the float 3.0 is None


def test_no_input_requiring_grad_fires_with_grad_output_and_warns():
    m = nn.Linear(3, 2)
    seen = []
    m.register_full_backward_hook(lambda mod, gi, go: seen.append((gi, go[0].shape)))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        m(torch.ones(4, 3)).sum().backward()
    assert seen == [((None,), torch.Size([4, 2]))]
    assert any("Full backward hook is firing when gradients are computed" in str(x.message) for x in w)
    assert m.weight.grad is not None


def test_removed_hooks_do_not_run_and_kinds_do_not_mix():
    m, x = nn.Linear(3, 2), torch.ones(2, 3, requires_grad=True)
    calls = []
    with m.register_full_backward_hook(lambda *a: calls.append(1)):
        m(x).sum().backward()
    m(x).sum().backward()
    assert calls == [1]
    with pytest.raises(RuntimeError, match="Cannot use both regular backward hooks and full backward hooks"):
        m.register_backward_hook(lambda *a: None)
    m2 = nn.Linear(3, 2)
    m2.register_backward_hook(lambda *a: None)
    with pytest.raises(RuntimeError, match="Cannot use both regular backward hooks and full backward hooks"):
        m2.register_full_backward_hook(lambda *a: None)


def test_deprecated_backward_hook_runs_on_the_last_node():
    m = nn.Linear(3, 2)
    seen = []
    m.register_backward_hook(lambda mod, gi, go: seen.append((mod, go[0].shape)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m(torch.ones(4, 3, requires_grad=True)).sum().backward()
    assert len(seen) == 1 and seen[0][0] is m and seen[0][1] == torch.Size([4, 2])


def test_global_backward_hooks():
    seen = []
    h = module_mod.register_module_full_backward_hook(lambda mod, gi, go: seen.append(type(mod).__name__))
    try:
        _model()(_x()).sum().backward()
    finally:
        h.remove()
    assert seen == ["Linear", "Tanh", "Linear", "Sequential"]
    _model()(_x()).sum().backward()
    assert len(seen) == 4


def test_forward_hook_with_always_call_runs_when_forward_raises():
    m = nn.Linear(3, 3)
    called, not_called = [], []
    m.register_forward_hook(lambda mod, a, r: called.append(r), always_call=True)
    m.register_forward_hook(lambda mod, a, r: not_called.append(r))
    with pytest.raises(RuntimeError):
        m(torch.ones(2, 4))
    assert called == [None] and not_called == []
    m(torch.ones(2, 3))
    assert len(called) == 2 and len(not_called) == 1


def test_removable_handle():
    from collections import OrderedDict

    hooks, extra = OrderedDict(), OrderedDict()
    h = RemovableHandle(hooks, extra_dict=extra)
    hooks[h.id], extra[h.id] = "hook", True
    h2 = RemovableHandle(hooks)
    assert h2.id == h.id + 1
    h.remove()
    h.remove()
    assert h.id not in hooks and h.id not in extra
    restored = pickle.loads(pickle.dumps(h2))
    assert restored.id == h2.id
