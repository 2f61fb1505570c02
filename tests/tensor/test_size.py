"""torch.Size: what .shape and .size() return (a tuple subclass), checked against upstream's behaviour."""

from __future__ import annotations

import pickle

import pytest

import torch


@pytest.mark.parametrize("shape", [(), (0,), (5,), (2, 3), (4, 1, 3, 2)])
def test_shape_and_size_are_sizes(shape):
    t = torch.zeros(shape)
    for s in (t.shape, t.size()):
        assert type(s) is torch.Size and isinstance(s, tuple)
        assert s == shape and tuple(s) == shape and len(s) == len(shape)
        assert hash(s) == hash(shape)
        assert all(type(d) is int for d in s)
        assert s.numel() == t.numel()
        assert repr(s) == f"torch.Size({list(shape)})"


def test_views_report_their_own_sizes():
    t = torch.zeros(2, 3, 4)
    assert t.transpose(0, 2).shape == (4, 3, 2)
    assert t[:, 1].shape == (2, 4) and t[None].shape == (1, 2, 3, 4)
    assert t.size(1) == 3 and t.size(-1) == 4


def test_slicing_and_arithmetic():
    s = torch.zeros(2, 3, 4).shape
    assert type(s[1:]) is torch.Size and s[1:] == (3, 4)
    assert type(s[0]) is int and s[-1] == 4
    assert s + (5,) == (2, 3, 4, 5)
    assert list(s) == [2, 3, 4]
    assert pickle.loads(pickle.dumps(s)) == s


def test_large_dims():
    t = torch.empty(0, 2**40)
    assert t.shape == (0, 2**40) and t.shape[1] == 1099511627776
