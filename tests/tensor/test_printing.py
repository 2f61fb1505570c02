"""repr() of tensors, character for character as upstream PyTorch prints them."""

from __future__ import annotations

import numpy as np
import pytest

import torch

CASES = [
    (lambda: torch.tensor([1.5, 2.0, -3.25]), "tensor([ 1.5000,  2.0000, -3.2500])"),
    (lambda: torch.tensor([1.0, 2.0]), "tensor([1., 2.])"),
    (
        lambda: torch.tensor([[0.0, 0.0, 0.0], [0.5, 1.5, 2.5]]),
        "tensor([[0.0000, 0.0000, 0.0000],\n        [0.5000, 1.5000, 2.5000]])",
    ),
    (lambda: torch.tensor([1e-5, 1.0]), "tensor([1.0000e-05, 1.0000e+00])"),
    (lambda: torch.tensor([1, 2, 3]), "tensor([1, 2, 3])"),
    (lambda: torch.ones(2, dtype=torch.int32), "tensor([1, 1], dtype=torch.int32)"),
    (lambda: torch.zeros(0), "tensor([])"),
    (lambda: torch.zeros(2, 0), "tensor([], size=(2, 0))"),
    (lambda: torch.tensor(3.5), "tensor(3.5000)"),
    (
        lambda: torch.from_numpy(np.arange(2000.0)),
        "tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, 1.9980e+03,\n"
        "        1.9990e+03], dtype=torch.float64)",
    ),
    (lambda: torch.tensor([True, False]), "tensor([ True, False])"),
    (lambda: torch.tensor([float("nan"), 1.0, float("inf")]), "tensor([nan, 1., inf])"),
    (
        lambda: torch.ones(2, 2, 2),
        "tensor([[[1., 1.],\n         [1., 1.]],\n\n        [[1., 1.],\n         [1., 1.]]])",
    ),
]


# zeros, nan and inf never set the column width (PyTorch pads to the widest nonzero finite value)
NAN, INF = float("nan"), float("inf")
CASES += [
    (lambda: torch.tensor([INF, -INF, NAN]), "tensor([inf, -inf, nan])"),
    (lambda: torch.tensor([INF, 0.0]), "tensor([inf, 0.])"),
    (lambda: torch.tensor([NAN, 0.0, 1.0]), "tensor([nan, 0., 1.])"),
    (lambda: torch.tensor([[INF], [-INF]]), "tensor([[inf],\n        [-inf]])"),
    (lambda: torch.tensor([0.0, -0.0]), "tensor([0., -0.])"),
    (lambda: torch.tensor([0.0, -0.0, 1.0]), "tensor([0., -0., 1.])"),
    (lambda: torch.tensor([0.0, 0.5]), "tensor([0.0000, 0.5000])"),
    (lambda: torch.tensor([-0.5, 0.0, 100.0]), "tensor([ -0.5000,   0.0000, 100.0000])"),
    (lambda: torch.tensor([1e-5, 0.0, 1.0]), "tensor([1.0000e-05, 0.0000e+00, 1.0000e+00])"),
    (lambda: torch.zeros(3), "tensor([0., 0., 0.])"),
    (lambda: torch.tensor([0.0, 1e10]), "tensor([0.0000e+00, 1.0000e+10])"),
    (lambda: torch.tensor([-INF, 1.5, 1e-9]), "tensor([      -inf, 1.5000e+00, 1.0000e-09])"),
    (lambda: torch.tensor(-0.0), "tensor(-0.)"),
    (lambda: torch.tensor([[0.0, 1.0], [-2.5, 0.0]]), "tensor([[ 0.0000,  1.0000],\n        [-2.5000,  0.0000]])"),
    (lambda: torch.tensor([0.1, -0.0], dtype=torch.float16), "tensor([0.1000, -0.0000], dtype=torch.float16)"),
    (lambda: torch.tensor([NAN], dtype=torch.bfloat16), "tensor([nan], dtype=torch.bfloat16)"),
]


@pytest.mark.parametrize("make,want", CASES, ids=[w.split("\n")[0][:40] for _, w in CASES])
def test_repr(make, want):
    assert repr(make()) == want
    assert str(make()) == want


def test_named_tuple_results_print_as_pytorch():
    t = torch.tensor([[1.0, 5.0], [3.0, 2.0]])
    r = t.max(1)
    assert type(r) is torch.return_types.max and type(r).__module__ == "torch.return_types"
    assert repr(r) == str(r) == ("torch.return_types.max(\nvalues=tensor([5., 3.]),\nindices=tensor([1, 0]))")
    values, indices = torch.tensor([3.0, 1.0, 2.0]).sort()
    assert repr(torch.tensor([3.0, 1.0, 2.0]).sort()).startswith(
        "torch.return_types.sort(\nvalues=tensor([1., 2., 3.])"
    )
    assert indices.tolist() == [1, 2, 0]


def test_repr_shows_autograd_state():
    x = torch.ones(2, requires_grad=True)
    assert repr(x) == "tensor([1., 1.], requires_grad=True)"
    assert repr(x * 2) == "tensor([2., 2.], grad_fn=<MulBackward0>)"
    assert repr((x * 2).sum()) == "tensor(4., grad_fn=<SumBackward0>)"
    assert repr(x.detach()) == "tensor([1., 1.])"
    assert repr(torch.ones(2, dtype=torch.float64, requires_grad=True) + 1) == (
        "tensor([2., 2.], dtype=torch.float64, grad_fn=<AddBackward0>)"
    )
    with torch.no_grad():
        assert repr(x * 2) == "tensor([2., 2.])"
