"""unique / unique_consecutive, median / nanmedian / kthvalue / msort, meshgrid / cartesian_prod and
diff: values against NumPy (and itertools), PyTorch's index conventions, NaN handling and errors (these
tests run against upstream too)."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest

import torch

NAN = math.nan


def ints(shape, seed=0, high=4):
    return np.random.default_rng(seed).integers(0, high, shape)


# ---- unique --------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [torch.int64, torch.float32, torch.uint8, torch.bool, torch.float64])
@pytest.mark.parametrize("shape", [(10,), (3, 5), (0,), ()])
def test_unique_matches_numpy(dtype, shape):
    a = ints(shape, high=2 if dtype == torch.bool else 5)
    x = torch.from_numpy(np.asarray(a)).to(dtype)
    want_vals, want_inv, want_counts = np.unique(x.numpy(), return_inverse=True, return_counts=True)
    vals, inv, counts = torch.unique(x, return_inverse=True, return_counts=True)
    np.testing.assert_array_equal(vals.numpy(), want_vals)
    np.testing.assert_array_equal(inv.numpy(), np.asarray(want_inv).reshape(x.shape))
    np.testing.assert_array_equal(counts.numpy(), want_counts)
    assert vals.dtype == dtype and inv.dtype == counts.dtype == torch.int64 and inv.shape == x.shape
    assert torch.equal(x.unique(), vals)
    if x.numel():
        assert torch.equal(vals[inv], x)  # the inverse rebuilds the input


def test_unique_nans_are_distinct():
    vals, inv, counts = torch.unique(torch.tensor([NAN, 1.0, NAN, 1.0]), return_inverse=True, return_counts=True)
    assert vals[0].item() == 1 and vals[1:].isnan().all()
    assert inv.tolist() == [1, 0, 2, 0] and counts.tolist() == [2, 1, 1]


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_unique_along_a_dim_matches_numpy(dim):
    a = ints((6, 3), seed=1, high=2)
    a = np.concatenate([a, a[:2]], 0)
    x = torch.from_numpy(a)
    want, want_inv, want_counts = np.unique(a, axis=dim, return_inverse=True, return_counts=True)
    vals, inv, counts = torch.unique(x, dim=dim, return_inverse=True, return_counts=True)
    np.testing.assert_array_equal(vals.numpy(), want)
    np.testing.assert_array_equal(inv.numpy(), np.asarray(want_inv).reshape(-1))
    np.testing.assert_array_equal(counts.numpy(), want_counts)
    assert torch.unique(torch.ones(0, 3), dim=0).shape == (0, 3)
    with pytest.raises(RuntimeError, match="There are 0 sized dimensions, and they aren't selected"):
        torch.unique(torch.ones(0, 3), dim=1)
    with pytest.raises(IndexError, match="Dimension specified as 0 but tensor has no dimensions"):
        torch.unique(torch.tensor(3), dim=0)


def test_unique_consecutive_matches_groupby():
    data = [1, 1, 2, 2, 3, 1, 1, 2]
    vals, inv, counts = torch.unique_consecutive(torch.tensor(data), return_inverse=True, return_counts=True)
    groups = [(k, len(list(g))) for k, g in itertools.groupby(data)]
    assert vals.tolist() == [k for k, _ in groups] and counts.tolist() == [n for _, n in groups]
    assert inv.tolist() == [0, 0, 1, 1, 2, 3, 3, 4]
    rows = torch.tensor([[1, 2], [1, 2], [0, 5], [1, 2]])
    assert torch.unique_consecutive(rows, dim=0).tolist() == [[1, 2], [0, 5], [1, 2]]
    assert torch.tensor([5, 5, 4]).unique_consecutive().tolist() == [5, 4]


# ---- order statistics --------------------------------------------------------------------


@pytest.mark.parametrize("shape, dim", [((7,), 0), ((4, 6), 1), ((4, 6), 0), ((3, 4, 5), -1), ((3, 4, 5), 1)])
@pytest.mark.parametrize("keepdim", [False, True])
def test_median_and_kthvalue_match_numpy(shape, dim, keepdim):
    a = np.random.default_rng(2).permutation(int(np.prod(shape))).reshape(shape).astype(np.float64)
    x = torch.from_numpy(a)
    n = a.shape[dim]
    want = np.take(np.sort(a, axis=dim), [(n - 1) // 2], axis=dim)  # the lower median
    r = torch.median(x, dim, keepdim)
    assert type(r).__name__ == "median"
    np.testing.assert_array_equal(r.values.numpy(), want if keepdim else want.squeeze(dim))
    idx = r.indices if keepdim else r.indices.unsqueeze(dim)
    np.testing.assert_array_equal(np.take_along_axis(a, idx.numpy(), dim), want)  # indices point at the values
    for k in (1, n, (n + 1) // 2):
        v, i = torch.kthvalue(x, k, dim, keepdim)
        kth = np.take(np.sort(a, axis=dim), [k - 1], axis=dim)
        np.testing.assert_array_equal(v.numpy(), kth if keepdim else kth.squeeze(dim))
    assert torch.median(x).item() == np.sort(a.reshape(-1))[(a.size - 1) // 2]


def test_median_nan_and_edge_cases():
    r = torch.median(torch.tensor([1.0, NAN, 3.0, NAN]), 0)
    assert math.isnan(r.values.item()) and r.indices.item() == 1  # the first NaN
    r = torch.median(torch.tensor([[1.0, NAN, 3.0, NAN], [4, 1, 2, 3]]), 1)
    assert math.isnan(r.values[0].item()) and r.values[1].item() == 2 and r.indices.tolist() == [1, 2]
    r = torch.nanmedian(torch.tensor([[NAN, NAN], [1.0, NAN]]), 1)
    assert math.isnan(r.values[0].item()) and r.values[1].item() == 1 and r.indices.tolist() == [0, 0]
    assert torch.nanmedian(torch.tensor([NAN, 2.0, 1.0, 5.0])).item() == 2
    assert math.isnan(torch.median(torch.tensor([])).item())
    assert torch.median(torch.tensor([3, 1, 2, 4])).item() == 2
    assert torch.median(torch.ones(0, 3), 1).values.shape == (0,)
    r = torch.median(torch.tensor(5.0), 0)
    assert r.values.item() == 5 and r.indices.item() == 0
    with pytest.raises(IndexError, match=r"median\(\): Expected reduction dim 0 to have non-zero size"):
        torch.median(torch.ones(0, 3), 0)
    v, i = torch.kthvalue(torch.tensor([3.0, NAN, 2.0]), 3)
    assert math.isnan(v.item()) and i.item() == 1  # NaN is the largest
    flags = torch.tensor([True, False, True])
    for op in (lambda: torch.median(flags), lambda: torch.nanmedian(flags, 0), lambda: torch.kthvalue(flags, 1)):
        with pytest.raises(NotImplementedError, match="not implemented for 'Bool'"):
            op()
    for k in (0, 4):
        with pytest.raises(RuntimeError, match="kthvalue\\(\\): selected number k out of range for dimension 0"):
            torch.kthvalue(torch.tensor([3.0, 1.0, 2.0]), k)


def test_msort():
    a = np.random.default_rng(3).standard_normal((4, 3))
    np.testing.assert_array_equal(torch.msort(torch.from_numpy(a)).numpy(), np.sort(a, axis=0))


def test_median_gradient():
    x = torch.tensor([[3.0, 1.0, 2.0], [0.5, 4.0, 1.5]], dtype=torch.float64, requires_grad=True)
    torch.median(x, 1).values.sum().backward()
    assert x.grad.tolist() == [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0]]


# ---- grids and differences --------------------------------------------------------------


@pytest.mark.parametrize("indexing", ["ij", "xy"])
@pytest.mark.parametrize("sizes", [(2, 3), (2, 3, 4), (5,)])
def test_meshgrid_matches_numpy(indexing, sizes):
    arrays = [np.arange(s) * (i + 1) for i, s in enumerate(sizes)]
    grids = torch.meshgrid(*[torch.from_numpy(a) for a in arrays], indexing=indexing)
    for g, w in zip(grids, np.meshgrid(*arrays, indexing=indexing)):
        np.testing.assert_array_equal(g.numpy(), w)
    listed = torch.meshgrid([torch.from_numpy(a) for a in arrays], indexing=indexing)
    assert [g.shape for g in listed] == [g.shape for g in grids]


def test_meshgrid_views_warning_and_errors():
    a, b = torch.arange(2), torch.arange(3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        grids = torch.meshgrid(a, b)
    assert any("indexing argument" in str(w.message) for w in caught)
    assert grids[0].shape == (2, 3) and grids[0].stride() == (1, 0)  # expanded views, "ij"
    assert torch.meshgrid(a, torch.tensor(5), indexing="ij")[1].shape == (2, 1)
    with pytest.raises(RuntimeError, match="meshgrid expects all tensors to have the same dtype"):
        torch.meshgrid(a, b.float(), indexing="ij")
    with pytest.raises(RuntimeError, match="Expected 0D or 1D tensor in the tensor list"):
        torch.meshgrid(torch.ones(2, 2), indexing="ij")
    with pytest.raises(RuntimeError, match="indexing must be one of"):
        torch.meshgrid(a, indexing="foo")


def test_cartesian_prod():
    a, b, c = [1, 2], [3, 4, 5], [6, 7]
    r = torch.cartesian_prod(torch.tensor(a), torch.tensor(b), torch.tensor(c))
    assert r.tolist() == [list(p) for p in itertools.product(a, b, c)]
    assert torch.cartesian_prod(torch.tensor(a)).tolist() == a
    with pytest.raises(RuntimeError, match="Expect a 1D vector, but got shape \\[1, 2\\]"):
        torch.cartesian_prod(torch.tensor([[1, 2]]))


@pytest.mark.parametrize("n", [0, 1, 2, 5])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_diff_matches_numpy(n, dim):
    a = np.random.default_rng(4).standard_normal((4, 5))
    np.testing.assert_allclose(torch.diff(torch.from_numpy(a), n, dim).numpy(), np.diff(a, n, dim), rtol=1e-14)
    pre, app = a.take([0], axis=dim) * 2, a.take([0, 1], axis=dim) - 1
    got = torch.from_numpy(a).diff(n, dim, prepend=torch.from_numpy(pre), append=torch.from_numpy(app))
    np.testing.assert_allclose(got.numpy(), np.diff(a, n, dim, prepend=pre, append=app), rtol=1e-14)


def test_diff_dtypes_and_errors():
    assert torch.diff(torch.tensor([True, False, False])).tolist() == [True, False]
    r = torch.diff(torch.tensor([1, 2, 4]), prepend=torch.tensor([0.5]))
    assert r.dtype == torch.float32 and r.tolist() == [0.5, 1.0, 2.0]
    with pytest.raises(RuntimeError, match="diff expects input to be at least one-dimensional"):
        torch.diff(torch.tensor(1.0))
    with pytest.raises(RuntimeError, match="order must be non-negative but got -1"):
        torch.diff(torch.tensor([1.0, 2.0]), n=-1)
    with pytest.raises(RuntimeError, match="diff expects prepend or append to be the same dimension as input"):
        torch.diff(torch.tensor([1.0, 2.0]), prepend=torch.tensor(0.0))
    with pytest.raises(
        IndexError, match="Dimension out of range \\(expected to be in range of \\[-1, 0\\], but got 5\\)"
    ):
        torch.diff(torch.ones(3), dim=5)  # not dim % ndim: that was a silent answer along dim 0
    x = torch.rand(5, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda x: torch.diff(x, 2), (x,))
