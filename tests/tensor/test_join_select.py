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


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64])
def test_clamp_with_tensor_bounds(dtype):
    a = _rng(3).standard_normal((3, 4)) * 3
    lo, hi = _rng(4).standard_normal(4) - 1, _rng(5).standard_normal((3, 1)) + 1
    x = _t(a).to(dtype)
    tlo, thi = _t(lo).to(dtype), _t(hi).to(dtype)
    want = np.minimum(np.maximum(x.double().numpy(), tlo.double().numpy()), thi.double().numpy())
    for got in (torch.clamp(x, tlo, thi), x.clamp(min=tlo, max=thi), x.clip(tlo, thi), torch.clip(x, tlo, thi)):
        assert got.dtype == dtype and got.shape == (3, 4)
        np.testing.assert_allclose(got.double().numpy(), want)
    np.testing.assert_allclose(x.clamp(min=tlo).double().numpy(), np.maximum(x.double().numpy(), tlo.double().numpy()))
    np.testing.assert_allclose(x.clamp_max(thi).double().numpy(), np.minimum(x.double().numpy(), thi.double().numpy()))
    y = x.clone()
    assert y.clamp_(tlo, thi) is y
    np.testing.assert_allclose(y.double().numpy(), want)
    # min > max gives max; a NaN bound gives NaN; the result dtype promotes all three
    assert torch.clamp(torch.tensor([0.0, 5.0]), torch.tensor([3.0, 3.0]), torch.tensor([1.0, 1.0])).tolist() == [1, 1]
    assert torch.clamp(torch.tensor([1.0]), torch.tensor([float("nan")])).isnan().all()
    assert torch.clamp(torch.arange(3), min=torch.tensor([1.5])).dtype == torch.float32


def test_clamp_with_tensor_bounds_errors_and_gradient():
    a = torch.arange(5)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        a.clone().clamp_(min=torch.tensor([1.5]))
    with pytest.raises(TypeError):
        torch.clamp(a, min=torch.tensor([1]), max=2)
    assert torch.clamp(a, min=torch.tensor(1), max=2).tolist() == [1, 1, 2, 2, 2]  # 0-dim: taken as a number
    with pytest.raises(RuntimeError, match="must match the size"):
        torch.clamp(torch.ones(3), min=torch.ones(2))
    with pytest.raises(RuntimeError, match="At least one of 'min' or 'max' must not be None"):
        torch.clamp(a, None, None)
    x = torch.tensor([0.5, 1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
    lo = torch.tensor([1.0, 1.0, 1.0, 1.0], dtype=torch.float64, requires_grad=True)
    hi = torch.tensor([2.5], dtype=torch.float64, requires_grad=True)
    (x.clamp(lo, hi) * torch.tensor([1.0, 2.0, 3.0, 4.0], dtype=torch.float64)).sum().backward()
    assert x.grad.tolist() == [0.0, 2.0, 3.0, 0.0]  # a tie keeps the input's gradient
    assert lo.grad.tolist() == [1.0, 0.0, 0.0, 0.0] and hi.grad.tolist() == [4.0]


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


@pytest.mark.parametrize("fn", [torch.clamp, torch.clip])
def test_clamp_out(fn):
    x = torch.tensor([-2.0, 0.5, 3.0, float("nan")])
    out = torch.empty(4)
    assert fn(x, -1, 1, out=out) is out
    np.testing.assert_array_equal(out.numpy(), np.clip(x.numpy(), -1, 1))
    out = torch.empty(0)
    fn(torch.ones(2, 3) * 5, max=2, out=out)  # resized to the result
    assert out.shape == (2, 3) and (out == 2).all()
    out = torch.empty(4)
    fn(x, torch.tensor([0.0, 0, 0, 0]), out=out)  # tensor bounds
    np.testing.assert_array_equal(out.numpy(), np.maximum(x.numpy(), 0))
    ints = torch.tensor([1, 2, 3])
    assert fn(ints, max=1, out=torch.empty(3, dtype=torch.int64)).tolist() == [1, 1, 1]
    wide = fn(torch.ones(3), torch.zeros(3), out=torch.empty(3, dtype=torch.float64))  # tensor bounds cast
    assert wide.dtype == torch.float64 and wide.tolist() == [1, 1, 1]
    assert fn(ints, torch.tensor([2]), out=torch.empty(3)).tolist() == [2, 2, 3]


def test_clamp_out_and_inplace_errors():
    ints = torch.tensor([1, 2, 3])
    with pytest.raises(RuntimeError, match="Found dtype Float but expected Long"):
        torch.clamp(ints, 0, 2, out=torch.empty(3))  # out must have the result's dtype
    with pytest.raises(RuntimeError, match="Found dtype Long but expected Float"):
        torch.clamp(ints, 0.5, out=torch.empty(3, dtype=torch.int64))
    with pytest.raises(RuntimeError, match="Found dtype Double but expected Float"):
        torch.clamp(torch.ones(3), 0, 1, out=torch.empty(3, dtype=torch.float64))
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        torch.clamp(torch.ones(3), torch.zeros(3), out=torch.empty(3, dtype=torch.int64))  # tensor bounds cast
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type"):
        ints.clone().clamp_(0.5)  # a float bound on an integer tensor, in place
    with pytest.raises(RuntimeError, match="At least one of 'min' or 'max' must not be None"):
        torch.clamp(ints, out=torch.empty(3, dtype=torch.int64))
    with pytest.raises(RuntimeError, match="out=... arguments don't support automatic differentiation"):
        torch.clamp(torch.ones(3, requires_grad=True), 0, 1, out=torch.empty(3))
    with pytest.raises(RuntimeError, match="out=... arguments don't support automatic differentiation"):
        torch.clamp(torch.ones(3, requires_grad=True), torch.zeros(3), out=torch.empty(3))
