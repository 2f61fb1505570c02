"""What the op table does not express for the index sets, counting, structure and in-place forms of issue 19
(torch/_refs/structure.py, counting.py, products.py, indexing.py): values against NumPy, dtypes, PyTorch's
errors. Also run on upstream 2.13."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import torch


def test_index_sets_and_combinations():
    for rows, cols, off in [(3, 4, 1), (4, 3, -1), (5, 5, 0), (2, 6, 3), (0, 3, 0)]:
        np.testing.assert_array_equal(torch.triu_indices(rows, cols, off).numpy(), np.triu_indices(rows, off, cols))
        np.testing.assert_array_equal(torch.tril_indices(rows, cols, off).numpy(), np.tril_indices(rows, off, cols))
    assert torch.triu_indices(3, 3).dtype == torch.int64
    x = torch.tensor([4, 5, 6, 7])
    for r in (1, 2, 3):
        for rep, pick in ((False, itertools.combinations), (True, itertools.combinations_with_replacement)):
            got = torch.combinations(x, r, with_replacement=rep)
            assert got.tolist() == [list(c) for c in pick([4, 5, 6, 7], r)]
    assert torch.combinations(x, 5).shape == (0, 5) and torch.combinations(x, 0).shape == (0,)


def test_bincount_and_histc():
    rng = np.random.default_rng(0)
    v = rng.integers(0, 7, size=50)
    np.testing.assert_array_equal(torch.bincount(torch.tensor(v)).numpy(), np.bincount(v))
    w = rng.normal(size=50)
    np.testing.assert_allclose(torch.bincount(torch.tensor(v), torch.tensor(w)).numpy(), np.bincount(v, w))
    assert torch.bincount(torch.tensor([0, 2]), weights=torch.tensor([1, 2])).dtype == torch.float64
    assert torch.bincount(torch.tensor([0, 2]), weights=torch.tensor([1.0, 2.0])).dtype == torch.float32
    assert torch.bincount(torch.tensor([], dtype=torch.int64), minlength=3).tolist() == [0, 0, 0]
    assert torch.bincount(torch.tensor([1]), minlength=4).tolist() == [0, 1, 0, 0]
    assert torch.histc(torch.tensor([1.0, 2, 1, 4, 5]), bins=4, min=0, max=3).tolist() == [0.0, 2.0, 1.0, 0.0]
    data = rng.normal(size=200)
    want, _ = np.histogram(data, bins=10, range=(data.min(), data.max()))
    np.testing.assert_array_equal(torch.histc(torch.tensor(data), bins=10).numpy(), want)
    with pytest.raises(RuntimeError, match="bincount only supports 1-d non-negative integral inputs"):
        torch.bincount(torch.tensor([-1]))
    with pytest.raises(RuntimeError, match="\"bincount_cpu\" not implemented for 'Float'"):
        torch.bincount(torch.tensor([1.0]))


def test_vander_diagflat_ravel_and_repeat_index():
    x = np.array([1, 2, 3])
    np.testing.assert_array_equal(torch.vander(torch.tensor(x)).numpy(), np.vander(x))
    np.testing.assert_array_equal(torch.vander(torch.tensor(x), 4, increasing=True).numpy(), np.vander(x, 4, True))
    assert torch.vander(torch.tensor(x)).dtype == torch.int64
    m = np.arange(4).reshape(2, 2)
    np.testing.assert_array_equal(torch.diagflat(torch.tensor(m), -1).numpy(), np.diagflat(m, -1))
    t = torch.arange(6).reshape(2, 3).t()
    assert t.ravel().tolist() == np.arange(6).reshape(2, 3).T.ravel().tolist()
    assert torch.repeat_interleave(torch.tensor([2, 0, 3])).tolist() == [0, 0, 2, 2, 2]
    assert torch.tensor([[1, 2], [3, 4]]).repeat_interleave(2).tolist() == [1, 1, 2, 2, 3, 3, 4, 4]
    with pytest.raises(RuntimeError, match="repeats can not be negative"):
        torch.tensor([1, 2]).repeat_interleave(torch.tensor([1, -1]))


def test_in_place_forms():
    a = torch.ones(2, 2)
    assert a.addmm_(torch.ones(2, 3), torch.ones(3, 2), beta=2) is a and a.tolist() == [[5.0, 5.0], [5.0, 5.0]]
    b = torch.ones(2)
    assert b.addcmul_(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]), value=2).tolist() == [7.0, 17.0]
    assert torch.ones(2).addcdiv_(torch.tensor([1.0, 2.0]), torch.tensor([2.0, 4.0])).tolist() == [1.5, 1.5]
    assert torch.tensor([0.0, 2.0]).logical_not_().tolist() == [1.0, 0.0]
    assert torch.tensor([float("nan"), 1.0]).nan_to_num_(0.5).tolist() == [0.5, 1.0]
    assert not torch.ones(1, dtype=torch.uint8).is_signed() and torch.ones(1).is_signed()
    assert torch.zeros(3).addmv_(torch.ones(3, 2), torch.ones(2)).tolist() == [2.0, 2.0, 2.0]


def test_beta_zero_ignores_input_and_errors():
    nan = torch.tensor([float("nan")])
    assert torch.addmv(nan, torch.ones(1, 2), torch.ones(2), beta=0).tolist() == [2.0]
    with pytest.raises(RuntimeError, match="addmv input tensors must have the same dtype"):
        torch.addmv(torch.ones(3, dtype=torch.float64), torch.ones(3, 2), torch.ones(2, dtype=torch.float64))
    with pytest.raises(RuntimeError, match="contracted dimensions need to match"):
        torch.tensordot(torch.ones(2, 3), torch.ones(2, 3), ([1], [0]))
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(4\) must match the size of tensor b \(2\)"):
        torch.take_along_dim(torch.ones(3, 4), torch.tensor([[0, 1]]), 0)
    with pytest.raises(RuntimeError, match="Input tensors must have 2 or fewer dimensions"):
        torch.block_diag(torch.ones(2, 2, 2))
