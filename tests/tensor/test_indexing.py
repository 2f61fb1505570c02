"""Basic indexing (ints, slices with steps, None, ...) against NumPy: views, values, assignment, errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import torch

INDICES = [
    1,
    -1,
    (0, 2),
    slice(1, 3),
    slice(None, None, 2),
    (slice(None), 1),
    (Ellipsis, 1),
    (1, Ellipsis),
    (None, 0),
    (slice(None), None, slice(1, None)),
    (Ellipsis, None),
    None,  # bare: a new leading dim
    Ellipsis,
    (slice(-2, None), slice(None, None, 3)),
    (slice(10, 20),),
    (0, slice(None), -1),
    (Ellipsis,),
    (slice(None, None, 2), Ellipsis, slice(1, 4, 2)),
]


def base():
    a = np.arange(3 * 4 * 5, dtype=np.float32).reshape(3, 4, 5)
    return torch.from_numpy(a.copy()), a


@pytest.mark.parametrize("index", INDICES, ids=repr)
def test_getitem_matches_numpy_and_is_a_view(index):
    t, a = base()
    got = t[index]
    want = a[index]
    assert tuple(got.shape) == want.shape
    np.testing.assert_array_equal(got.numpy(), want)
    if got.numel():
        got.fill_(-1)  # a view: writes reach the base
        assert (t.numpy() == -1).sum() == want.size


@pytest.mark.parametrize("index", INDICES, ids=repr)
def test_setitem_matches_numpy(index):
    t, a = base()
    t[index] = 7
    a[index] = 7
    np.testing.assert_array_equal(t.numpy(), a)
    t, a = base()
    value = np.arange(a[index].size, dtype=np.float32).reshape(a[index].shape)
    t[index] = torch.from_numpy(value)
    a[index] = value
    np.testing.assert_array_equal(t.numpy(), a)


def test_setitem_broadcasts_and_converts():
    t = torch.zeros(2, 3)
    t[:, 1:] = torch.tensor([1, 2])
    assert t.tolist() == [[0.0, 1.0, 2.0], [0.0, 1.0, 2.0]]


def test_iteration_and_len():
    t, a = base()
    assert len(t) == 3
    rows = list(t)
    assert len(rows) == 3 and tuple(rows[0].shape) == (4, 5)
    with pytest.raises(TypeError):
        iter(torch.tensor(1.0))


@pytest.mark.parametrize(
    "index,exc,message",
    [
        (3, IndexError, "index 3 is out of bounds for dimension 0 with size 3"),
        ((0, 0, 0, 0), IndexError, "too many indices for tensor of dimension 3"),
        (slice(None, None, -1), ValueError, "step must be greater than zero"),
    ],
)
def test_errors(index, exc, message):
    t, _ = base()
    with pytest.raises(exc, match=message):
        t[index]


def test_zero_dim_index_errors():
    with pytest.raises(IndexError, match="invalid index of a 0-dim tensor"):
        torch.tensor(1.0)[0]


index_item = st.one_of(
    st.integers(-3, 2),
    st.builds(
        slice,
        st.one_of(st.none(), st.integers(-6, 6)),
        st.one_of(st.none(), st.integers(-6, 6)),
        st.one_of(st.none(), st.integers(1, 3)),
    ),
    st.none(),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(index_item, max_size=4))
def test_random_indices_property(items):
    """Any tuple of ints/slices/None: NumPy's result, or an IndexError where NumPy raises one."""
    t, a = base()
    index = tuple(items)
    try:
        want = a[index]
    except IndexError:
        with pytest.raises(IndexError):
            t[index]
        return
    np.testing.assert_array_equal(t[index].numpy(), want)
