"""In-place activations (F.*(inplace=True), nn.*(inplace=True)) on tensors autograd records: the result is the
input tensor itself and the gradient equals the out-of-place one (the backward read the overwritten input and
raised "modified by an inplace operation" for every activation but relu). Runs against upstream PyTorch too."""

from __future__ import annotations

import pytest

import torch
import torch.nn.functional as F

ACTIVATIONS = {
    "relu": lambda x, inplace: F.relu(x, inplace=inplace),
    "relu6": lambda x, inplace: F.relu6(x, inplace=inplace),
    "elu": lambda x, inplace: F.elu(x, 1.3, inplace=inplace),
    "selu": lambda x, inplace: F.selu(x, inplace=inplace),
    "celu": lambda x, inplace: F.celu(x, 0.7, inplace=inplace),
    "leaky_relu": lambda x, inplace: F.leaky_relu(x, 0.2, inplace=inplace),
    "hardtanh": lambda x, inplace: F.hardtanh(x, -0.5, 0.8, inplace=inplace),
    "hardsigmoid": lambda x, inplace: F.hardsigmoid(x, inplace=inplace),
    "silu": lambda x, inplace: F.silu(x, inplace=inplace),
    "mish": lambda x, inplace: F.mish(x, inplace=inplace),
    "hardswish": lambda x, inplace: F.hardswish(x, inplace=inplace),
    "threshold": lambda x, inplace: F.threshold(x, 0.1, -2.0, inplace=inplace),
    "rrelu_eval": lambda x, inplace: F.rrelu(x, training=False, inplace=inplace),
}


@pytest.mark.parametrize("name", ACTIVATIONS)
def test_inplace_activation_of_a_recorded_tensor(name):
    f = ACTIVATIONS[name]
    x = (torch.linspace(-4, 4, 24, dtype=torch.float64).reshape(4, 6) + 0.01).requires_grad_()
    w = torch.linspace(-1, 2, 24, dtype=torch.float64).reshape(4, 6)
    expected_out = f(x * 1.5, False)
    (expected,) = torch.autograd.grad((expected_out * w).sum(), x)
    z = x * 1.5
    out = f(z, True)
    assert out is z
    torch.testing.assert_close(out, expected_out)
    (got,) = torch.autograd.grad((out * w).sum(), x)
    torch.testing.assert_close(got, expected)


def test_a_network_of_inplace_activations_trains_like_the_out_of_place_one():
    def net(inplace):
        torch.manual_seed(0)
        return torch.nn.Sequential(
            torch.nn.Conv2d(2, 4, 3, padding=1),
            torch.nn.BatchNorm2d(4),
            torch.nn.ReLU6(inplace=inplace),
            torch.nn.Conv2d(4, 4, 1),
            torch.nn.Hardswish(inplace=inplace),
            torch.nn.Conv2d(4, 3, 1),
            torch.nn.SiLU(inplace=inplace),
            torch.nn.LeakyReLU(0.1, inplace=inplace),
        ).double()

    x = torch.randn(2, 2, 5, 5, dtype=torch.float64, generator=torch.Generator().manual_seed(1))
    grads = []
    for inplace in (False, True):
        m = net(inplace)
        m(x).square().sum().backward()
        grads.append([p.grad for p in m.parameters()])
    for a, b in zip(*grads):
        torch.testing.assert_close(a, b)


def test_inplace_activation_of_a_leaf_that_requires_grad_raises():
    x = torch.randn(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        F.elu(x, inplace=True)
