"""flip, roll, repeat, tile, tril/triu and diag against NumPy, on contiguous, transposed and stepped
inputs and several dtypes, with PyTorch's errors. Runs against upstream PyTorch too."""

from __future__ import annotations

import numpy as np
import pytest
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
