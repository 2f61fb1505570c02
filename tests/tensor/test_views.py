"""Shape ops against NumPy: reshape/view (views whenever strides allow), flatten, unflatten, squeeze,
t/T/mT, split/chunk/unbind. Runs against upstream PyTorch too."""

from __future__ import annotations

import numpy as np
import pytest

import torch


def base(shape=(2, 3, 4)):
    a = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    return torch.from_numpy(a.copy()), a


def shares(x, y):
    x.fill_(-7)
    return bool((y.numpy() == -7).any())


@pytest.mark.parametrize("shape", [(6, 4), (24,), (4, -1), (2, 3, 2, 2), (-1,)])
def test_reshape_and_view_of_contiguous(shape):
    t, a = base()
    np.testing.assert_array_equal(t.reshape(shape).numpy(), a.reshape(shape))
    np.testing.assert_array_equal(t.view(*shape).numpy(), a.reshape(shape))
    assert shares(t.reshape(shape), t)


def test_view_of_non_contiguous_when_strides_allow():
    t, a = base()
    tr = t.transpose(0, 1)  # (3, 2, 4): the last dim is still contiguous
    v = tr.view(3, 2, 2, 2)
    np.testing.assert_array_equal(v.numpy(), a.transpose(1, 0, 2).reshape(3, 2, 2, 2))
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        tr.view(6, 4)
    r = tr.reshape(6, 4)  # must copy
    np.testing.assert_array_equal(r.numpy(), a.transpose(1, 0, 2).reshape(6, 4))
    assert not shares(r, t)


def test_flatten_unflatten_squeeze():
    t, a = base()
    assert t.flatten().shape == (24,) and t.flatten(1).shape == (2, 12) and t.flatten(0, 1).shape == (6, 4)
    assert t.unflatten(2, (2, 2)).shape == (2, 3, 2, 2) and t.unflatten(1, (-1, 1)).shape == (2, 3, 1, 4)
    u = t.unsqueeze(0).unsqueeze(-1)
    assert u.squeeze().shape == (2, 3, 4) and u.squeeze(0).shape == (2, 3, 4, 1) and u.squeeze(1).shape == u.shape
    assert torch.tensor(5.0).flatten().shape == (1,)


def test_transposes():
    t, a = base()
    m, am = base((3, 4))
    np.testing.assert_array_equal(m.t().numpy(), am.T)
    np.testing.assert_array_equal(t.T.numpy(), a.T)
    np.testing.assert_array_equal(t.mT.numpy(), np.swapaxes(a, -2, -1))
    with pytest.raises(RuntimeError, match="t\\(\\) expects a tensor with <= 2 dimensions"):
        t.t()


def test_split_chunk_unbind():
    t, a = base((7, 2))
    parts = t.split(3)
    assert isinstance(parts, tuple) and [p.shape[0] for p in parts] == [3, 3, 1]
    np.testing.assert_array_equal(np.concatenate([p.numpy() for p in parts]), a)
    assert [p.shape[0] for p in torch.chunk(t, 3)] == [3, 3, 1]
    assert [p.shape[1] for p in t.chunk(2, dim=1)] == [1, 1]
    rows = t.unbind()
    assert len(rows) == 7 and rows[2].tolist() == a[2].tolist()
    assert shares(parts[1], t)


def test_errors():
    t, _ = base()
    with pytest.raises(RuntimeError, match="only one dimension can be inferred"):
        t.reshape(-1, -1)
    with pytest.raises(RuntimeError, match="is invalid for input of size 24"):
        t.reshape(5, 5)
    with pytest.raises(RuntimeError, match="is invalid for input of size 24"):
        t.reshape(0, -1)  # a zero among the known sizes of a non-empty tensor
    empty = torch.zeros(0, 4)
    for shape in ((0, -1), (-1, 0), (2, 0, -1)):  # -1 could be anything: upstream's own message
        with pytest.raises(RuntimeError, match=r"cannot reshape tensor of 0 elements into shape .* ambiguous"):
            empty.reshape(shape)
        with pytest.raises(RuntimeError, match=r"cannot reshape tensor of 0 elements into shape .* ambiguous"):
            empty.view(shape)
    assert empty.reshape(-1, 2).shape == (0, 2) and empty.view(4, -1).shape == (4, 0)
    with pytest.raises(RuntimeError, match="chunk expects `chunks` to be greater than 0"):
        t.chunk(0)
