"""tanh_backward / sigmoid_backward (the fused kernels tanh and sigmoid use for their gradients)
against NumPy, on broadcast and non-contiguous inputs, and through autograd in float64."""

from __future__ import annotations

import numpy as np
import pytest

import torch

REFS = {
    "tanh_backward": lambda g, y: g * (1 - y * y),
    "sigmoid_backward": lambda g, y: g * y * (1 - y),
}


def op(name):
    return getattr(torch, name, None) or getattr(torch.ops.aten, name)


@pytest.mark.parametrize("name", sorted(REFS))
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_values(name, dtype):
    rng = np.random.default_rng(0)
    g, y = rng.normal(size=(6, 5)), rng.uniform(-1, 1, size=(5, 6))
    tg, ty = torch.from_numpy(g).to(dtype), torch.from_numpy(y).to(dtype)
    got = op(name)(tg, ty.t())  # y transposed: a non-contiguous operand
    assert got.dtype == dtype
    np.testing.assert_allclose(got.numpy(), REFS[name](g, y.T), rtol=1e-6)
    row = op(name)(tg, ty.t()[0])  # broadcast
    np.testing.assert_allclose(row.numpy(), REFS[name](g, y.T[0]), rtol=1e-6)


@pytest.mark.parametrize("fn", [torch.tanh, torch.sigmoid])
def test_gradients_use_them_and_match_finite_differences(fn):
    x = torch.from_numpy(np.random.default_rng(1).normal(size=(3, 4))).requires_grad_()
    assert torch.autograd.gradcheck(fn, (x,))
    assert torch.autograd.gradgradcheck(fn, (x,))  # the backward ops' own derivatives


def test_integer_inputs_are_refused():
    with pytest.raises(RuntimeError, match="not implemented for 'Long'"):
        op("tanh_backward")(torch.ones(2, dtype=torch.int64), torch.ones(2, dtype=torch.int64))
