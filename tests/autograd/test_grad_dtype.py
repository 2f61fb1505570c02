"""Tensor.grad_dtype (upstream 2.10+): a leaf's gradients are cast to it as they accumulate (its own dtype by
default; None lets any dtype through); only leaves have one. Also run on upstream 2.13."""

from __future__ import annotations

import pytest

import torch


def test_default_is_the_leaf_dtype():
    x = torch.ones(2, requires_grad=True)
    assert x.grad_dtype == torch.float32
    (x * 2).sum().backward()
    assert x.grad.dtype == torch.float32


def test_gradients_are_cast_and_accumulate_in_grad_dtype():
    x = torch.ones(2, requires_grad=True)
    x.grad_dtype = torch.float64
    assert x.grad_dtype == torch.float64
    (x * 2).sum().backward()
    assert x.grad.dtype == torch.float64 and x.grad.tolist() == [2.0, 2.0]
    (x * 3).sum().backward()
    assert x.grad.dtype == torch.float64 and x.grad.tolist() == [5.0, 5.0]


def test_none_allows_any_dtype():
    x = torch.ones(2, requires_grad=True)
    x.grad_dtype = None
    assert x.grad_dtype is None
    (x * 2).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_only_leaves_have_one():
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    with pytest.raises(RuntimeError, match="grad_dtype can only be accessed on leaf tensors"):
        y.grad_dtype  # noqa: B018
    with pytest.raises(RuntimeError, match="grad_dtype can only be set on leaf tensors"):
        y.grad_dtype = torch.float64
