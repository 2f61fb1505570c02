"""tanh_backward / sigmoid_backward (the fused kernels tanh and sigmoid use for their gradients) through
autograd in float64, and their dtype check. Their values against NumPy, on broadcast and non-contiguous
inputs, are op table entries (tests/opinfo.py, checked by tests/tensor/test_ops.py)."""

from __future__ import annotations

import numpy as np
import pytest

import torch


def op(name):
    return getattr(torch, name, None) or getattr(torch.ops.aten, name)


@pytest.mark.parametrize("fn", [torch.tanh, torch.sigmoid])
def test_gradients_use_them_and_match_finite_differences(fn):
    x = torch.from_numpy(np.random.default_rng(1).normal(size=(3, 4))).requires_grad_()
    assert torch.autograd.gradcheck(fn, (x,))
    assert torch.autograd.gradgradcheck(fn, (x,))  # the backward ops' own derivatives


def test_integer_inputs_are_refused():
    with pytest.raises(RuntimeError, match="not implemented for 'Long'"):
        op("tanh_backward")(torch.ones(2, dtype=torch.int64), torch.ones(2, dtype=torch.int64))


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_glu_values_and_gradients(device, dim):
    """glu's kernel (both halves' gradients from one backward) against NumPy, gradcheck and gradgradcheck."""
    import torch.nn.functional as F

    x = torch.from_numpy(np.random.default_rng(2).normal(size=(4, 6, 2))).to(device).requires_grad_()
    a, b = np.split(x.detach().cpu().numpy(), 2, axis=dim)
    np.testing.assert_allclose(F.glu(x, dim).detach().cpu().numpy(), a / (1 + np.exp(-b)), rtol=1e-12)
    assert torch.autograd.gradcheck(lambda t: F.glu(t, dim), (x,))
    assert torch.autograd.gradgradcheck(lambda t: F.glu(t, dim), (x,))
    with pytest.raises(RuntimeError, match="Halving dimension must be even"):
        F.glu(torch.ones(3, 5, device=device), 1)


@pytest.mark.parametrize("shape, weight", [((2, 3, 4), (3,)), ((5, 4), (1,)), ((3,), (1,))])
def test_prelu_and_threshold(device, shape, weight):
    import torch.nn.functional as F

    rng = np.random.default_rng(3)
    x = torch.from_numpy(rng.normal(size=shape)).to(device).requires_grad_()
    w = torch.from_numpy(rng.uniform(0.1, 0.5, size=weight)).to(device).requires_grad_()
    wb = (
        w.detach().cpu().numpy().reshape([-1] + [1] * (len(shape) - 2)) if len(shape) >= 2 else w.detach().cpu().numpy()
    )
    xn = x.detach().cpu().numpy()
    np.testing.assert_allclose(F.prelu(x, w).detach().cpu().numpy(), np.where(xn > 0, xn, wb * xn), rtol=1e-12)
    assert torch.autograd.gradcheck(lambda t, s: F.prelu(t, s), (x, w))
    np.testing.assert_array_equal(F.threshold(x, 0.2, -3.0).detach().cpu().numpy(), np.where(xn > 0.2, xn, -3.0))
    assert torch.autograd.gradcheck(lambda t: F.threshold(t, 0.2, -3.0), (x,))
