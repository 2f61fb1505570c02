"""Tensor.new_tensor / new_empty / new_zeros / new_ones / new_full, and the one-argument forms of
nonzero(as_tuple=True) / where: PyTorch's semantics (run against upstream too)."""

from __future__ import annotations

import numpy as np
import pytest

import torch


@pytest.mark.parametrize("dtype", [torch.float64, torch.int32, torch.bool])
def test_new_factories_follow_the_source(dtype):
    src = torch.zeros(2, dtype=dtype)
    assert src.new_zeros(2, 3).dtype == dtype and src.new_zeros(2, 3).shape == (2, 3)
    assert src.new_zeros((2, 3)).tolist() == [[0, 0, 0], [0, 0, 0]]
    assert src.new_ones(4).tolist() == [1] * 4 and src.new_ones(4).dtype == dtype
    assert src.new_empty((3, 1)).shape == (3, 1) and src.new_empty(3).dtype == dtype
    assert src.new_full((2,), 1).dtype == dtype
    assert src.new_tensor([1, 0]).dtype == dtype
    assert src.new_zeros(2, dtype=torch.float32).dtype == torch.float32
    assert src.new_tensor([1.5], dtype=torch.float16).dtype == torch.float16


def test_new_factories_do_not_inherit_requires_grad():
    src = torch.ones(2, requires_grad=True)
    assert not src.new_zeros(2).requires_grad
    assert src.new_ones(2, requires_grad=True).requires_grad
    t = src.new_tensor([1.0, 2.0], requires_grad=True)
    assert t.requires_grad and t.is_leaf


def test_new_full_values():
    assert torch.zeros(1).new_full((2, 2), 3.5).tolist() == [[3.5, 3.5], [3.5, 3.5]]


@pytest.mark.parametrize("shape", [(5,), (3, 4), (2, 3, 4), ()])
def test_nonzero_as_tuple_matches_numpy(shape):
    a = np.random.default_rng(0).integers(0, 2, size=shape)
    t = torch.from_numpy(a)
    got = torch.nonzero(t, as_tuple=True)
    want = np.nonzero(np.atleast_1d(a))
    assert isinstance(got, tuple) and len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == torch.int64
        np.testing.assert_array_equal(g.numpy(), w)
    assert [g.tolist() for g in t.nonzero(as_tuple=True)] == [g.tolist() for g in got]
    assert torch.nonzero(t).shape == np.argwhere(a).shape


def test_where_with_only_a_condition():
    t = torch.tensor([[0.0, 2.0], [3.0, 0.0]])
    rows, cols = torch.where(t > 1)
    assert rows.tolist() == [0, 1] and cols.tolist() == [1, 0]
    assert torch.where(t > 1, t, torch.zeros(())).tolist() == [[0.0, 2.0], [3.0, 0.0]]
    t[torch.where(t == 0)] = -1.0
    assert t.tolist() == [[-1.0, 2.0], [3.0, -1.0]]
