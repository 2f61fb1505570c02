"""cat, stack, where, clamp/clip, cumsum/cumprod, var/std against NumPy: dtypes, non-contiguous and
broadcast inputs, and PyTorch's errors.

Runs against upstream PyTorch too (nox -s tests-reference).
"""

from __future__ import annotations

import numpy as np
import pytest

import torch


def _t(a):
    return torch.from_numpy(np.ascontiguousarray(a))


def _rng(seed=0):
    return np.random.default_rng(seed)


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cat_and_stack(dim):
    a, b = _rng().standard_normal((2, 3)), _rng(1).standard_normal((2, 3))
    np.testing.assert_array_equal(torch.cat([_t(a), _t(b)], dim).numpy(), np.concatenate([a, b], dim))
    np.testing.assert_array_equal(torch.stack([_t(a), _t(b)], dim).numpy(), np.stack([a, b], dim))


def test_cat_promotes_and_takes_views():
    a = torch.arange(6).view(2, 3)
    b = torch.ones(3, 2, dtype=torch.float32).t()  # non-contiguous
    r = torch.cat((a, b))
    assert r.dtype == torch.float32
    np.testing.assert_array_equal(r.numpy(), np.concatenate([a.numpy(), b.numpy()]).astype(np.float32))
    assert torch.cat([torch.ones(2), torch.empty(0)]).tolist() == [1.0, 1.0]  # legacy empty 1-D input


def test_cat_errors():
    with pytest.raises(RuntimeError, match="Sizes of tensors must match except in dimension 0"):
        torch.cat([torch.ones(2, 3), torch.ones(2, 4)])
    with pytest.raises(RuntimeError, match="stack expects each tensor to be equal size"):
        torch.stack([torch.ones(2), torch.ones(3)])
    with pytest.raises(RuntimeError, match="zero-dimensional tensor"):
        torch.cat([torch.tensor(1.0), torch.tensor(2.0)])


def test_where_broadcasts_and_promotes():
    c = _t(np.array([[True], [False]]))
    a = _t(np.arange(3, dtype=np.float64))
    r = torch.where(c, a, 7)
    assert r.dtype == torch.float64
    np.testing.assert_array_equal(r.numpy(), np.where(c.numpy(), a.numpy(), 7))
    x = torch.tensor([1.0, float("nan"), float("inf")])
    np.testing.assert_array_equal(torch.where(x > 1, x, 0.0).numpy(), [0.0, 0.0, np.inf])


@pytest.mark.parametrize("lo,hi", [(-0.5, 0.5), (None, 0.0), (0.0, None)])
def test_clamp(lo, hi):
    a = _rng(2).standard_normal((3, 4)).astype(np.float32)
    want = np.clip(a, -np.inf if lo is None else lo, np.inf if hi is None else hi)
    np.testing.assert_array_equal(torch.clamp(_t(a), lo, hi).numpy(), want)
    np.testing.assert_array_equal(_t(a).clip(min=lo, max=hi).numpy(), want)
    x = _t(a.copy())
    assert x.clamp_(lo, hi) is x
    np.testing.assert_array_equal(x.numpy(), want)
    nan = torch.tensor([float("nan")]).clamp(0, 1)
    assert np.isnan(nan.numpy()[0])


def test_clamp_needs_a_bound():
    with pytest.raises(RuntimeError, match="At least one of 'min' or 'max' must not be None"):
        torch.clamp(torch.ones(2))


@pytest.mark.parametrize("dim", [0, 1])
def test_cumsum_cumprod(dim):
    a = _rng(3).standard_normal((4, 5))
    np.testing.assert_allclose(torch.cumsum(_t(a), dim).numpy(), np.cumsum(a, dim), rtol=1e-12)
    np.testing.assert_allclose(_t(a).t().cumprod(dim).numpy(), np.cumprod(a.T, dim), rtol=1e-12)
    i = torch.arange(5, dtype=torch.int32)
    assert i.cumsum(0).dtype == torch.int64
    assert i.cumsum(0).tolist() == [0, 1, 3, 6, 10]


def test_var_std():
    a = _rng(4).standard_normal((5, 6))
    x = _t(a)
    np.testing.assert_allclose(x.var().item(), a.var(ddof=1), rtol=1e-12)
    np.testing.assert_allclose(x.var(unbiased=False).item(), a.var(), rtol=1e-12)
    np.testing.assert_allclose(x.var(1).numpy(), a.var(1, ddof=1), rtol=1e-12)
    np.testing.assert_allclose(x.std(0, keepdim=True).numpy(), a.std(0, ddof=1, keepdims=True), rtol=1e-12)
    np.testing.assert_allclose(torch.var(x, dim=(0, 1), correction=0).item(), a.var(), rtol=1e-12)
    np.testing.assert_allclose(x.t().std(dim=1, correction=2).numpy(), a.T.std(1, ddof=2), rtol=1e-12)
    with pytest.raises(RuntimeError):
        torch.arange(4).var()
