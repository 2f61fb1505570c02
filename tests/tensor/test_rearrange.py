"""flip, roll, repeat, tile, tril/triu and diag against NumPy, on contiguous, transposed and stepped
inputs and several dtypes, with PyTorch's errors. Runs against upstream PyTorch too."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy_dtypes import NP

import torch

DTYPES = (torch.float32, torch.float64, torch.int64, torch.int16, torch.bool, torch.float16)
LAYOUTS = {
    "contiguous": lambda a: a,
    "transposed": lambda a: a.transpose(1, 0, 2),
    "stepped": lambda a: a[:, ::2],
}


def sample(dtype, layout, shape=(3, 6, 4)):
    """(tensor, array) with the same values and the layout's strides (a view of a bigger tensor)."""
    a = np.random.default_rng(0).integers(-5, 6, size=shape).astype(NP.get(dtype, np.float16))
    t = torch.from_numpy(a.copy())
    view = {"contiguous": t, "transposed": t.transpose(0, 1), "stepped": t[:, ::2]}[layout]
    return view, LAYOUTS[layout](a)


def check(got: torch.Tensor, want: np.ndarray, source: torch.Tensor):
    assert got.dtype == source.dtype
    np.testing.assert_array_equal(got.numpy(), want)
    if got.numel():
        assert got.data_ptr() != source.data_ptr() or got.storage_offset() != source.storage_offset()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
class TestValues:
    def test_flip(self, dtype, layout):
        t, a = sample(dtype, layout)
        check(torch.flip(t, (0, 2)), np.flip(a, (0, 2)), t)
        check(t.flip(-1), np.flip(a, -1), t)
        check(t.flip(1, 0), np.flip(a, (1, 0)), t)

    def test_roll(self, dtype, layout):
        t, a = sample(dtype, layout)
        check(torch.roll(t, 2, 1), np.roll(a, 2, 1), t)
        check(t.roll((-1, 5), (0, 2)), np.roll(a, (-1, 5), (0, 2)), t)
        check(torch.roll(t, 7), np.roll(a, 7), t)

    def test_repeat_and_tile(self, dtype, layout):
        t, a = sample(dtype, layout)
        check(t.repeat(2, 1, 3), np.tile(a, (2, 1, 3)), t)
        check(t.repeat(2, 1, 1, 2), np.tile(a, (2, 1, 1, 2)), t)
        check(t.repeat(1, 1, 1), a, t)  # a copy even when nothing repeats
        check(torch.tile(t, (2,)), np.tile(a, (2,)), t)
        check(t.tile(2, 1, 1, 1), np.tile(a, (2, 1, 1, 1)), t)

    def test_tril_triu(self, dtype, layout):
        t, a = sample(dtype, layout)
        for k in (-2, 0, 1, 5):
            check(torch.tril(t, k), np.tril(a, k), t)
            check(t.triu(k), np.triu(a, k), t)
        u = t.clone()
        assert u.tril_(1) is u
        np.testing.assert_array_equal(u.numpy(), np.tril(a, 1))

    def test_diag(self, dtype, layout):
        t, a = sample(dtype, layout)
        m, v = t[0], a[0]
        for k in (-2, 0, 1, 3, 7):
            check(torch.diag(m, k), np.diag(v, k), m)
            check(torch.diag(m[:, 0], k), np.diag(v[:, 0], k), m)


def test_errors():
    t = torch.ones(2, 3)
    with pytest.raises(RuntimeError, match="dim 0 appears multiple times in the list of dims"):
        t.flip(0, -2)
    with pytest.raises(IndexError, match="Dimension out of range"):
        t.flip(2)
    with pytest.raises(RuntimeError, match="shifts and dimensions must align"):
        t.roll((1, 2), 0)
    with pytest.raises(RuntimeError, match="Number of dimensions of repeat dims can not be smaller"):
        t.repeat(2)
    with pytest.raises(RuntimeError, match="tril: input tensor must have at least 2 dimensions"):
        torch.ones(3).tril()
    with pytest.raises(RuntimeError, match=r"diag\(\): Supports 1D or 2D tensors. Got 3D"):
        torch.ones(2, 2, 2).diag()


def test_gradients_flow():
    x = torch.arange(6.0, dtype=torch.float64).reshape(2, 3).requires_grad_()
    (x.flip(0) * torch.arange(6.0, dtype=torch.float64).reshape(2, 3)).sum().backward()
    assert x.grad.tolist() == [[3.0, 4.0, 5.0], [0.0, 1.0, 2.0]]
    x.grad = None
    x.repeat(2, 2).sum().backward()
    assert x.grad.tolist() == [[4.0] * 3] * 2
    x.grad = None
    x.triu().sum().backward()
    assert x.grad.tolist() == [[1.0, 1.0, 1.0], [0.0, 1.0, 1.0]]


def test_results_are_fresh_contiguous_tensors():
    base = torch.arange(24.0).reshape(2, 3, 4)
    for view in (base, base.transpose(0, 2), base[:, ::2], base[0].expand(5, 3, 4)):
        for out in (view.roll(1, 1), view.repeat(1, 2, 1), view.tril(), view.triu(2)):  # flip: test_memory_format
            assert out.is_contiguous() and all(s > 0 for s in out.stride())
            assert out.storage_offset() == 0
        np.testing.assert_array_equal(view.flip(0, 2).numpy(), np.flip(view.numpy(), (0, 2)))


def test_edge_shapes():
    empty = torch.ones(0, 3)
    assert empty.flip(0).shape == (0, 3) and empty.roll(2, 1).shape == (0, 3)
    assert torch.roll(empty, 1).shape == (0, 3)
    assert empty.repeat(2, 2).shape == (0, 6) and torch.ones(2, 3).repeat(0, 1).shape == (0, 3)
    assert torch.tril(empty).shape == (0, 3) and torch.diag(empty).shape == (0,)
    assert torch.diag(torch.ones(0)).shape == (0, 0) and torch.diag(torch.ones(0), 2).shape == (2, 2)
    s = torch.tensor(3.0)
    assert s.flip(0).item() == 3.0 and s.roll(1).item() == 3.0 and s.repeat(2, 2).tolist() == [[3.0] * 2] * 2
    assert torch.roll(torch.arange(4), 1, dims=None).tolist() == [3, 0, 1, 2]
    assert torch.roll(torch.arange(4), -9, 0).tolist() == [1, 2, 3, 0]


def test_in_place_triangles_write_through_views():
    base = torch.ones(4, 4)
    view = base.t()[1:]
    assert view.triu_(1) is view
    want = np.ones((4, 4))
    want.T[1:] = np.triu(want.T[1:], 1)
    np.testing.assert_array_equal(base.numpy(), want)


def test_more_errors():
    with pytest.raises(RuntimeError, match=r"Trying to create tensor with negative dimension -2: \[-2\]"):
        torch.ones(2).repeat(-1)
    assert torch.ones(0, 2).repeat(-1, 1).shape == (0, 2)  # the result's sizes are checked, not repeats
    with pytest.raises(RuntimeError, match="shifts and dimensions must align"):
        torch.ones(2, 2).roll((1, 1))
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.ones(2, 2).roll(1, 2)


@given(
    shape=st.lists(st.integers(0, 4), min_size=1, max_size=4),
    data=st.data(),
)
@settings(max_examples=60, deadline=None)
def test_flip_roll_property(shape, data):
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    t = torch.from_numpy(a.copy())
    if len(shape) > 1 and data.draw(st.booleans()):
        t, a = t.transpose(0, -1), a.swapaxes(0, -1)
    dims = data.draw(st.lists(st.integers(-a.ndim, a.ndim - 1), max_size=a.ndim, unique_by=lambda d: d % a.ndim))
    np.testing.assert_array_equal(t.flip(dims).numpy(), np.flip(a, tuple(dims)) if dims else a)
    shifts = [data.draw(st.integers(-6, 6)) for _ in dims]
    if dims:
        np.testing.assert_array_equal(t.roll(shifts, dims).numpy(), np.roll(a, shifts, tuple(dims)))


def _strided(data, shape):
    """(tensor, array): a random layout of the same values (contiguous, transposed or stepped)."""
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    t = torch.from_numpy(a.copy())
    layout = data.draw(st.sampled_from(["contiguous", "transposed", "stepped"]))
    if layout == "transposed" and len(shape) > 1:
        return t.transpose(0, -1), a.swapaxes(0, -1)
    if layout == "stepped" and shape[0] > 1:
        return t[::2], a[::2]
    return t, a


@given(shape=st.lists(st.integers(0, 4), min_size=1, max_size=3), data=st.data())
@settings(max_examples=60, deadline=None)
def test_repeat_tile_property(shape, data):
    t, a = _strided(data, shape)
    reps = data.draw(st.lists(st.integers(0, 3), min_size=a.ndim, max_size=a.ndim + 2))
    np.testing.assert_array_equal(t.repeat(*reps).numpy(), np.tile(a, reps))
    few = data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=a.ndim + 1))
    np.testing.assert_array_equal(t.tile(few).numpy(), np.tile(a, few))


@given(shape=st.lists(st.integers(0, 5), min_size=1, max_size=3), k=st.integers(-6, 6), data=st.data())
@settings(max_examples=60, deadline=None)
def test_triangles_and_diag_property(shape, k, data):
    t, a = _strided(data, shape)
    if a.ndim >= 2:
        np.testing.assert_array_equal(t.tril(k).numpy(), np.tril(a, k))
        np.testing.assert_array_equal(t.triu(k).numpy(), np.triu(a, k))
    else:
        with pytest.raises(RuntimeError, match="input tensor must have at least 2 dimensions"):
            t.tril(k)
    if a.ndim <= 2:
        np.testing.assert_array_equal(t.diag(k).numpy(), np.diag(a, k))
    else:
        with pytest.raises(RuntimeError, match="diag\\(\\): Supports 1D or 2D tensors"):
            t.diag(k)
