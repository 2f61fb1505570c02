"""cummax/cummin/logcumsumexp (log-step scans) and searchsorted/bucketize (a binary search of every value at
once): ties, NaN, large ranges, batched and sorter forms and PyTorch's errors, against NumPy. Also run on
upstream 2.13."""

from __future__ import annotations

import math

import numpy as np
import pytest

import torch

NAN = float("nan")


def test_cummax_cummin_ties_and_nan():
    x = torch.tensor([[1.0, 3, 3, 2, 5, 5], [NAN, 1, 2, NAN, 0, 9]])
    v, i = torch.cummax(x, 1)
    assert v[0].tolist() == [1, 3, 3, 3, 5, 5] and i[0].tolist() == [0, 1, 2, 2, 4, 5]  # the latest index on a tie
    assert all(math.isnan(e) for e in v[1].tolist()) and i[1].tolist() == [0, 0, 0, 3, 3, 3]  # NaN wins
    v, i = torch.cummin(torch.tensor([3, 1, 4, 1, 5, 9, 2, 6]), 0)
    assert v.tolist() == [3, 1, 1, 1, 1, 1, 1, 1] and i.tolist() == [0, 1, 1, 3, 3, 3, 3, 3]
    a = np.random.default_rng(0).normal(size=(4, 37))
    np.testing.assert_array_equal(torch.tensor(a).cummax(1).values.numpy(), np.maximum.accumulate(a, 1))
    np.testing.assert_array_equal(torch.tensor(a).cummin(0).values.numpy(), np.minimum.accumulate(a, 0))
    assert type(torch.cummax(x, 1)).__name__ == "cummax"


def test_logcumsumexp_keeps_small_prefixes_and_never_overflows():
    got = torch.logcumsumexp(torch.tensor([-1000.0, 0, 1000, 3], dtype=torch.float64), 0)
    np.testing.assert_allclose(got.numpy(), [-1000.0, 0.0, 1000.0, 1000.0])
    a = np.random.default_rng(1).normal(size=(3, 50)) * 30
    np.testing.assert_allclose(torch.logcumsumexp(torch.tensor(a), 1).numpy(), np.logaddexp.accumulate(a, 1))
    with pytest.raises(NotImplementedError, match="logcumsumexp"):
        torch.logcumsumexp(torch.tensor([1, 2]), 0)


def test_searchsorted_against_numpy():
    rng = np.random.default_rng(2)
    seq = np.sort(rng.integers(0, 20, size=33))
    values = rng.integers(-2, 23, size=(4, 5))
    for side in ("left", "right"):
        want = np.searchsorted(seq, values, side=side)
        got = torch.searchsorted(torch.tensor(seq), torch.tensor(values), right=side == "right")
        np.testing.assert_array_equal(got.numpy(), want)
        assert torch.equal(torch.searchsorted(torch.tensor(seq), torch.tensor(values), side=side), got)
    rows = np.sort(rng.normal(size=(3, 8)), 1)
    vals = rng.normal(size=(3, 4))
    got = torch.searchsorted(torch.tensor(rows), torch.tensor(vals))
    np.testing.assert_array_equal(got.numpy(), [np.searchsorted(r, v) for r, v in zip(rows, vals)])
    unsorted = torch.tensor([9, 1, 5, 3, 7])
    assert torch.searchsorted(unsorted, torch.tensor([4, 8]), sorter=torch.tensor([1, 3, 2, 4, 0])).tolist() == [2, 4]
    assert torch.searchsorted(torch.tensor([1, 3, 5]), 4).item() == 2
    assert torch.searchsorted(torch.tensor([1, 3, 5]), torch.tensor([4]), out_int32=True).dtype == torch.int32


def test_bucketize_and_errors():
    b = torch.tensor([1, 3, 5, 7, 9])
    x = torch.tensor([[1, 5, 9], [2, 6, 10]])
    assert torch.bucketize(x, b).tolist() == [[0, 2, 4], [1, 3, 5]]
    assert torch.bucketize(x, b, right=True).tolist() == [[1, 3, 5], [1, 3, 5]]
    with pytest.raises(RuntimeError, match="boundaries tensor must be 1 dimension"):
        torch.bucketize(torch.tensor([1]), torch.ones(2, 2))
    with pytest.raises(RuntimeError, match="first N-1 dimensions of boundaries"):
        torch.searchsorted(torch.ones(2, 3), torch.ones(3, 3))
    with pytest.raises(RuntimeError, match="side can only be 'left' or 'right'"):
        torch.searchsorted(b, x, side="middle")


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_against_numpy(reduce, include_self):
    rng = np.random.default_rng(3)
    base = rng.normal(size=6)
    index = rng.integers(0, 5, size=20)  # position 5 is never named: it keeps base's value
    src = rng.normal(size=20)
    want = base.copy()
    for pos in range(6):
        got_here = src[index == pos]
        if got_here.size == 0:
            continue
        vals = np.r_[base[pos], got_here] if include_self else got_here
        want[pos] = {"sum": np.sum, "prod": np.prod, "mean": np.mean, "amax": np.max, "amin": np.min}[reduce](vals)
    got = torch.tensor(base).scatter_reduce(
        0, torch.tensor(index), torch.tensor(src), reduce, include_self=include_self
    )
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)


def test_scatter_reduce_details_and_errors():
    x = torch.tensor([1, 2, 3])
    assert x.scatter_reduce(0, torch.tensor([0, 0]), torch.tensor([5, 7]), "mean").tolist() == [4, 2, 3]
    y = torch.ones(3)
    assert y.scatter_reduce_(0, torch.tensor([2]), torch.tensor([4.0]), "prod") is y and y.tolist() == [1, 1, 4]
    with pytest.raises(RuntimeError, match="reduce argument must be either sum, prod, mean, amax or amin, got add"):
        y.scatter_reduce(0, torch.tensor([0]), torch.tensor([1.0]), "add")
    with pytest.raises(RuntimeError, match="index 9 is out of bounds for dimension 0 with size 3"):
        y.scatter_reduce(0, torch.tensor([9]), torch.tensor([1.0]), "sum")


def test_scatter_with_reduce():
    x = torch.ones(2, 3)
    idx = torch.tensor([[0, 1, 0]])
    assert x.scatter(0, idx, torch.full((1, 3), 2.0), reduce="multiply").tolist() == [[2, 1, 2], [1, 2, 1]]
    assert x.scatter(0, idx, 3.0, reduce="add").tolist() == [[4, 1, 4], [1, 4, 1]]
    assert torch.scatter(x, 0, idx, value=5.0).tolist() == [[5, 1, 5], [1, 5, 1]]
    y = x.clone()
    assert y.scatter_(0, idx, 2.0, reduce="add") is y and y.tolist() == [[3, 1, 3], [1, 3, 1]]
    with pytest.raises(RuntimeError, match="reduce argument must be either add or multiply"):
        x.scatter(0, idx, 3.0, reduce="mean")
