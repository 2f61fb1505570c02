"""Python protocols of torch.Tensor beyond the operators: `in`, operator.index, format(), NumPy's
operator priority, pickle and copy.deepcopy (these tests run against upstream too)."""

from __future__ import annotations

import copy
import operator
import pickle

import numpy as np
import pytest

import torch


def test_contains():
    t = torch.arange(6.0).reshape(2, 3)
    assert 2 in t and 2.0 in t and torch.tensor(5.0) in t and True in torch.tensor([True])
    assert 7 not in t and 0.5 not in t
    with pytest.raises(RuntimeError, match="Tensor.__contains__ only supports Tensor or scalar"):
        "a" in t  # noqa: B015


def test_index():
    assert [10, 11, 12][torch.tensor(1)] == 11
    assert operator.index(torch.tensor([2], dtype=torch.int32)) == 2
    assert list(range(torch.tensor(3))) == [0, 1, 2]
    assert operator.index(torch.tensor(True)) == 1
    for bad in (torch.tensor(1.0), torch.tensor([1, 2])):
        with pytest.raises(TypeError, match="only integer tensors of a single element can be converted to an index"):
            operator.index(bad)


def test_format():
    assert f"{torch.tensor(1.23456):.2f}" == "1.23"
    assert f"{torch.tensor(7):>4}" == "   7"
    t = torch.ones(2)
    assert f"{t}" == str(t)
    with pytest.raises(TypeError, match="unsupported format string"):
        f"{t:.2f}"  # noqa: B018


def test_numpy_scalars_defer_to_tensors():
    t = torch.ones(3)
    for r in (np.float64(2) * t, np.float32(2) + t, np.int64(1) - t):
        assert isinstance(r, torch.Tensor)
    assert (np.float64(2) * t).dtype == torch.float32


@pytest.mark.parametrize(
    "make",
    [
        lambda: torch.arange(6.0).reshape(2, 3),
        lambda: torch.arange(6.0).reshape(2, 3).t(),
        lambda: torch.tensor([1.5, -2], dtype=torch.bfloat16),
        lambda: torch.tensor([1.5, -2], dtype=torch.float16),
        lambda: torch.tensor(True),
        lambda: torch.tensor([[1, -2]], dtype=torch.int8),
        lambda: torch.ones(0, 3, dtype=torch.int64),
        lambda: torch.tensor(3.0, dtype=torch.float64),
    ],
)
def test_pickle_round_trip(make):
    t = make()
    r = pickle.loads(pickle.dumps(t))
    assert r.dtype == t.dtype and r.shape == t.shape and r.device == t.device
    assert torch.equal(r, t) and (r.data_ptr() != t.data_ptr() or t.numel() == 0)


def test_pickle_keeps_requires_grad():
    w = torch.ones(2, requires_grad=True)
    r = pickle.loads(pickle.dumps(w))
    assert r.requires_grad and r.is_leaf and torch.equal(r.detach(), w.detach())


def test_deepcopy():
    w = torch.ones(2, requires_grad=True)
    w.grad = torch.full((2,), 3.0)
    c = copy.deepcopy(w)
    assert c is not w and c.requires_grad and c.is_leaf and torch.equal(c.grad, w.grad)
    c.detach().add_(1)
    assert (w.detach() == 1).all()  # new memory
    d = copy.deepcopy({"a": w, "b": w})
    assert d["a"] is d["b"]  # the memo keeps aliases
    plain = copy.deepcopy(torch.arange(3))
    assert plain.tolist() == [0, 1, 2] and not plain.requires_grad
    with pytest.raises(RuntimeError, match="Only Tensors created explicitly by the user"):
        copy.deepcopy(w * 2)
