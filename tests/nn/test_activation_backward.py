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
