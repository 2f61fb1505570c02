"""Reductions against NumPy: sum/prod/mean/amax/amin/all/any over dims, max/min/argmax/argmin with
indices (first occurrence, NaN wins), dtype rules and errors. Runs against upstream PyTorch too."""

from __future__ import annotations

import numpy as np
import pytest

import torch

LAYOUTS = {
    "contiguous": (lambda t: t, lambda a: a),
    "transposed": (lambda t: t.transpose(0, 2), lambda a: a.transpose(2, 1, 0)),
    "stepped": (lambda t: t.as_strided((2, 3, 2), (20, 5, 2)), lambda a: a[:, :3, :4:2]),
}
DIMS = [None, 0, 1, -1, (0, 2), (0, 1, 2)]


def sample(dtype=torch.float64, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.integers(-5, 6, size=(2, 4, 5)).astype(
        {torch.float64: np.float64, torch.float32: np.float32, torch.int64: np.int64, torch.int32: np.int32}[dtype]
    )
    return torch.from_numpy(a.copy()), a


REDUCERS = [("sum", np.sum), ("prod", np.prod), ("amax", np.max), ("amin", np.min), ("mean", np.mean)]
# torch.prod reduces one dim at a time
CASES = [(n, r, d) for n, r in REDUCERS for d in DIMS if not (n == "prod" and isinstance(d, tuple))]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("name,ref,dim", CASES, ids=[f"{n}-{d}" for n, _, d in CASES])
def test_reduce_values(layout, keepdim, name, ref, dim):
    tview, aview = LAYOUTS[layout]
    t, a = sample()
    x, r = tview(t), aview(a)
    fn = getattr(torch, name)
    if dim is None:
        got, want = fn(x), ref(r)
    else:
        got, want = fn(x, dim, keepdim=keepdim), ref(r, axis=dim, keepdims=keepdim)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    assert tuple(got.shape) == np.shape(want)


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32])
def test_integer_sums_and_products_are_int64(dtype):
    t, a = sample(dtype)
    assert t.sum().dtype == torch.int64 and t.prod(1).dtype == torch.int64
    np.testing.assert_array_equal(t.prod(1).numpy(), a.prod(1))
    assert torch.ones(3, dtype=torch.bool).sum().item() == 3


def test_mean_needs_floating_dtype():
    with pytest.raises(RuntimeError, match="mean\\(\\): could not infer output dtype"):
        torch.tensor([1, 2]).mean()
    assert torch.tensor([1, 2]).mean(dtype=torch.float64).item() == 1.5
    assert np.isnan(torch.zeros(0).mean().item())


def test_all_any():
    t = torch.tensor([[1, 0, 2], [3, 4, 5]])
    assert t.all().item() is False and t.any().item() is True
    assert t.all(1).tolist() == [False, True]
    assert t.any(0, keepdim=True).tolist() == [[True, True, True]]
    assert t.all().dtype == torch.bool
    assert torch.zeros(0).all().item() is True and torch.zeros(0).any().item() is False


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dim", [0, 1, 2, -1])
@pytest.mark.parametrize("keepdim", [False, True])
def test_max_min_with_indices(layout, dim, keepdim):
    tview, aview = LAYOUTS[layout]
    t, a = sample(seed=3)
    x, r = tview(t), aview(a)
    for name, ref, argref in (("max", np.max, np.argmax), ("min", np.min, np.argmin)):
        res = getattr(torch, name)(x, dim, keepdim=keepdim)
        values, indices = res
        assert res.values is values and res.indices is indices
        np.testing.assert_array_equal(values.numpy(), ref(r, axis=dim, keepdims=keepdim))
        np.testing.assert_array_equal(indices.numpy(), argref(r, axis=dim, keepdims=keepdim))  # first occurrence
        assert indices.dtype == torch.int64
        np.testing.assert_array_equal(getattr(x, "arg" + name)(dim, keepdim=keepdim).numpy(), indices.numpy())


def test_full_max_min_argmax():
    t, a = sample(seed=4)
    assert t.max().item() == a.max() and t.min().item() == a.min()
    assert t.argmax().item() == a.argmax() and t.argmin().item() == a.argmin()
    np.testing.assert_array_equal(torch.max(t, torch.zeros(5, dtype=torch.float64)).numpy(), np.maximum(a, 0))


def test_nan_wins():
    t = torch.tensor([1.0, float("nan"), 3.0, float("nan")])
    assert np.isnan(t.max().item()) and np.isnan(t.amin().item())
    values, indices = t.max(0)
    assert np.isnan(values.item()) and indices.item() == 1


def test_errors():
    with pytest.raises(RuntimeError, match="Expected reduction dim to be specified for input.numel\\(\\) == 0"):
        torch.zeros(0).max()
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.ones(2, 3).amax(2)
    with pytest.raises(IndexError, match="Expected reduction dim 1 to have non-zero size"):
        torch.zeros(2, 0).max(1)


@pytest.mark.parametrize("op", ["amax", "amin"])
def test_amax_amin_on_empty_tensors(op):
    e = torch.ones(0, 3)
    assert getattr(e, op)(1).shape == (0,)  # the reduced dim is not empty: an empty result
    assert getattr(torch.ones(2, 0), op)((0,)).shape == (0,)
    with pytest.raises(IndexError, match=rf"{op}\(\): Expected reduction dim 0 to have non-zero size"):
        getattr(e, op)(0)
    with pytest.raises(IndexError, match=rf"{op}\(\): Expected reduction dim -2 to have non-zero size"):
        getattr(e, op)((-2, 1))
    with pytest.raises(RuntimeError, match="Expected reduction dim to be specified for input.numel"):
        getattr(e, op)()
