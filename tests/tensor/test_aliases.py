"""PyTorch's other names for ops (NumPy's spellings) give the op's results, as function, method and in-place
method; and the small one-op methods (positive, argwhere, where, sum_to_size, index_fill, index_copy,
masked_scatter, fill_diagonal_, ...) against NumPy. Also run on upstream 2.13."""

from __future__ import annotations

import numpy as np
import pytest

import torch

ALIASES = {
    "absolute": "abs",
    "arccos": "acos",
    "arcsin": "asin",
    "arctan": "atan",
    "arcsinh": "asinh",
    "arctanh": "atanh",
    "negative": "neg",
    "fix": "trunc",
    "sgn": "sign",
}
BINARY_ALIASES = {
    "arctan2": "atan2",
    "divide": "div",
    "multiply": "mul",
    "subtract": "sub",
    "greater": "gt",
    "greater_equal": "ge",
    "less": "lt",
    "less_equal": "le",
    "not_equal": "ne",
}


@pytest.mark.parametrize("alias, op", ALIASES.items())
def test_unary_alias(alias, op):
    x = torch.tensor(np.random.default_rng(0).uniform(-0.9, 0.9, size=(3, 4)))
    want = getattr(torch, op)(x)
    assert torch.equal(getattr(torch, alias)(x), want) and torch.equal(getattr(x, alias)(), want)
    y = x.clone()
    assert getattr(y, alias + "_")() is y and torch.equal(y, want)


@pytest.mark.parametrize("alias, op", BINARY_ALIASES.items())
def test_binary_alias(alias, op):
    rng = np.random.default_rng(1)
    x, y = torch.tensor(rng.normal(size=(3, 4))), torch.tensor(rng.normal(size=4))
    want = getattr(torch, op)(x, y)
    assert torch.equal(getattr(torch, alias)(x, y), want) and torch.equal(getattr(x, alias)(y), want)
    if want.dtype == x.dtype:
        z = x.clone()
        assert getattr(z, alias + "_")(y) is z and torch.equal(z, want)
    assert torch.equal(torch.arccosh(torch.tensor([1.5, 2.0])), torch.acosh(torch.tensor([1.5, 2.0])))
    assert torch.equal(
        torch.ger(torch.arange(3.0), torch.arange(2.0)), torch.outer(torch.arange(3.0), torch.arange(2.0))
    )


def test_one_op_methods():
    x = torch.tensor([[1.0, -2.0], [3.0, 4.0]])
    assert torch.positive(x) is x
    with pytest.raises(RuntimeError, match="on a bool tensor is not supported"):
        torch.positive(torch.tensor([True]))
    np.testing.assert_array_equal(torch.argwhere(x > 1).numpy(), np.argwhere(x.numpy() > 1))
    assert x.where(x > 0, 0.0).tolist() == [[1.0, 0.0], [3.0, 4.0]]
    assert x.broadcast_to(2, 2, 2).shape == (2, 2, 2)
    assert x.sum_to_size(1, 2).tolist() == [[4.0, 2.0]] and x.sum_to_size(2).tolist() == [4.0, 2.0]
    assert [t.tolist() for t in torch.arange(5).split_with_sizes([2, 3])] == [[0, 1], [2, 3, 4]]
    assert torch.tensor([2.0]).is_nonzero() and not torch.tensor([0]).is_nonzero()
    assert x.is_same_size(torch.ones(2, 2)) and x.is_cpu and x.get_device() == -1
    assert torch.vdot(torch.arange(3.0), torch.arange(3.0)).item() == 5.0
    assert torch.dist(torch.zeros(2), torch.tensor([3.0, 4.0])).item() == pytest.approx(5.0)


def test_index_fill_copy_and_masked_scatter():
    a = np.arange(12.0).reshape(3, 4)
    got = torch.tensor(a).index_fill(1, torch.tensor([0, 2]), -1.0)
    want = a.copy()
    want[:, [0, 2]] = -1
    np.testing.assert_array_equal(got.numpy(), want)
    src = np.arange(8.0).reshape(2, 4)
    got = torch.tensor(a).index_copy(0, torch.tensor([2, 0]), torch.tensor(src))
    want = a.copy()
    want[[2, 0]] = src
    np.testing.assert_array_equal(got.numpy(), want)
    t = torch.tensor(a)
    assert t.index_fill_(0, torch.tensor([1]), 0.0) is t and t[1].tolist() == [0.0] * 4
    mask = np.array([[True, False, True, False]] * 3)
    got = torch.tensor(a).masked_scatter(torch.tensor(mask), torch.arange(100.0, dtype=torch.float64))
    want = a.copy()
    want[mask] = np.arange(6.0)
    np.testing.assert_array_equal(got.numpy(), want)
    with pytest.raises(RuntimeError, match="masked_scatter: expected self and source to have same dtypes"):
        torch.zeros(2).masked_scatter(torch.tensor([True, False]), torch.ones(2, dtype=torch.float64))


def test_fill_diagonal_and_in_place_scans():
    m = np.zeros((7, 3))
    np.fill_diagonal(m, 1, wrap=True)
    np.testing.assert_array_equal(torch.zeros(7, 3).fill_diagonal_(1, wrap=True).numpy(), m)
    m = np.zeros((3, 5))
    np.fill_diagonal(m, 2)
    np.testing.assert_array_equal(torch.zeros(3, 5).fill_diagonal_(2).numpy(), m)
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert x.clone().cumsum_(0).tolist() == [[1.0, 2.0], [4.0, 6.0]]
    assert x.clone().cumprod_(1).tolist() == [[1.0, 2.0], [3.0, 12.0]]
    assert x.clone().square_().tolist() == [[1.0, 4.0], [9.0, 16.0]]
