"""gradcheck itself: it catches a wrong gradient. Every differentiable op of the op table goes through
it in test_ops_grad.py.

Runs against upstream PyTorch too (nox -s tests-reference).
"""

from __future__ import annotations

import pytest

import torch
from torch.autograd import gradcheck


def test_gradcheck_catches_a_wrong_gradient():
    class Wrong(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 3

    x = torch.ones(3, dtype=torch.float64, requires_grad=True)
    assert not gradcheck(Wrong.apply, (x,), raise_exception=False)
    with pytest.raises(RuntimeError, match="Jacobian mismatch"):
        gradcheck(Wrong.apply, (x,))
