"""split with a list of sizes, movedim/moveaxis, swapaxes/swapdims, diagonal, broadcast_to /
broadcast_tensors and the *_as methods: views with PyTorch's shapes, strides and errors, values against
NumPy (these tests run against upstream too)."""

from __future__ import annotations

import numpy as np
import pytest

import torch


def base(shape=(3, 4, 5)):
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    return torch.from_numpy(a.copy()), a


@pytest.mark.parametrize("sizes, dim", [([1, 3], 1), ([3], 0), ([0, 2, 1, 2], 2), ((2, 2), -2)])
def test_split_with_sizes(sizes, dim):
    t, a = base()
    parts = torch.split(t, sizes, dim)
    assert isinstance(parts, tuple) and [p.shape[dim] for p in parts] == list(sizes)
    for p, w in zip(parts, np.split(a, np.cumsum(sizes)[:-1], axis=dim)):
        np.testing.assert_array_equal(p.numpy(), w)
    assert [p.shape for p in t.split(sizes, dim)] == [p.shape for p in parts]
    if parts[0].numel():
        parts[0].fill_(-1)
        assert (t.narrow(dim, 0, sizes[0]) == -1).all()  # views


def test_split_with_sizes_errors_and_int_form():
    t, _ = base()
    with pytest.raises(RuntimeError, match="split_with_sizes expects split_sizes to sum exactly to 4"):
        torch.split(t, [1, 2], 1)
    assert [p.shape[0] for p in torch.split(t, 2)] == [2, 1]


@pytest.mark.parametrize("src, dst", [(0, 2), (-1, 0), ((0, 1), (2, 0)), ([2, 0], [0, 1]), ((), ()), (1, 1)])
def test_movedim_matches_numpy(src, dst):
    t, a = base()
    want = np.moveaxis(a, src, dst)
    for got in (torch.movedim(t, src, dst), torch.moveaxis(t, src, dst), t.movedim(src, dst), t.moveaxis(src, dst)):
        assert got.shape == want.shape
        np.testing.assert_array_equal(got.numpy(), want)
        assert got.data_ptr() == t.data_ptr()


def test_movedim_errors():
    t, _ = base()
    with pytest.raises(IndexError):
        t.movedim(3, 0)
    with pytest.raises(RuntimeError):
        t.movedim((0, 1), (1,))


def test_swapaxes_and_swapdims():
    t, a = base()
    for got in (torch.swapaxes(t, 0, 2), torch.swapdims(t, 0, 2), t.swapaxes(0, 2), t.swapdims(-1, 0)):
        np.testing.assert_array_equal(got.numpy(), np.swapaxes(a, 0, 2))


@pytest.mark.parametrize("offset", [-5, -2, -1, 0, 1, 3, 7])
@pytest.mark.parametrize("dims", [(0, 1), (1, 0), (1, 2), (-1, 0), (0, 2)])
def test_diagonal_matches_numpy(offset, dims):
    t, a = base()
    want = np.diagonal(a, offset, *dims)
    for got in (torch.diagonal(t, offset, *dims), t.diagonal(offset, *dims)):
        assert got.shape == want.shape
        np.testing.assert_array_equal(got.numpy(), want)


def test_diagonal_is_a_view_with_gradients():
    t = torch.zeros(3, 3)
    t.diagonal().fill_(1)
    assert torch.equal(t, torch.eye(3))
    x = torch.rand(3, 4, dtype=torch.float64, requires_grad=True)
    x.diagonal(1).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.eye(3, 4, 1))
    with pytest.raises(RuntimeError, match="diagonal dimensions cannot be identical"):
        t.diagonal(0, 1, 1)


def test_broadcast_to_and_broadcast_tensors():
    a = torch.arange(3.0)
    b = torch.ones(2, 1)
    assert torch.broadcast_to(a, (2, 3)).stride() == (0, 1)
    x, y = torch.broadcast_tensors(a, b)
    assert x.shape == y.shape == (2, 3) and x.data_ptr() == a.data_ptr()
    with pytest.raises(RuntimeError):
        torch.broadcast_tensors(torch.ones(3), torch.ones(2))


def test_as_methods():
    t, _ = base()
    other = torch.empty(4, 15)
    assert t.view_as(other).shape == (4, 15) and t.reshape_as(other).shape == (4, 15)
    assert torch.ones(1, 5).expand_as(torch.empty(3, 5)).stride() == (0, 1)
    assert t.type_as(torch.ones(1, dtype=torch.int32)).dtype == torch.int32


@pytest.mark.parametrize("dims", [(0, 2), (1,), (), [0, -2], (0, 1, 2, 3)])
def test_squeeze_a_tuple_of_dims(dims):
    t = torch.zeros(1, 3, 1, 2)
    want = [n for d, n in enumerate(t.shape) if not (d in [x % 4 for x in dims] and n == 1)]
    for got in (t.squeeze(dims), torch.squeeze(t, dims)):
        assert list(got.shape) == want and got.data_ptr() == t.data_ptr()


def test_squeeze_dims_errors_and_gradient():
    t = torch.zeros(1, 3, 1, 2)
    with pytest.raises(RuntimeError, match="appears multiple times"):
        t.squeeze((0, 0))
    with pytest.raises(IndexError):
        t.squeeze((4,))
    assert torch.zeros(()).squeeze((0,)).shape == ()
    x = torch.rand(1, 3, dtype=torch.float64, requires_grad=True)
    x.squeeze((0,)).sum().backward()
    assert x.grad.shape == (1, 3)
