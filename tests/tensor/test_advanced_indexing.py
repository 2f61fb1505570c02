"""Advanced indexing (integer / bool tensors and lists) and the gather/scatter family against
NumPy, with PyTorch's errors; plus einsum.

Runs against upstream PyTorch too (nox -s tests-reference).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import torch

A = np.arange(24.0).reshape(2, 3, 4)


def _keys():
    t = torch.from_numpy(A.copy())
    return [
        ([0, 1],),
        (slice(None), [2, 0]),
        (slice(None), [0, 2], [1, 3]),
        ([1, 0], slice(None), [3, 1]),
        (t > 10,),
        (0, [2, 1]),
        (Ellipsis, [0, 0, 3]),
        (None, [1], slice(1, 3)),
        (slice(None), torch.tensor([[0, 1], [2, 2]])),
        (torch.tensor([-1, 0]),),
        (slice(None), slice(None), torch.tensor([True, False, True, False])),
    ]


def _np_key(k):
    return tuple(x.numpy() if isinstance(x, torch.Tensor) else x for x in k)


@pytest.mark.parametrize("i", range(11))
def test_getitem_and_setitem_like_numpy(i):
    k = _keys()[i]
    t = torch.from_numpy(A.copy())
    key = k if len(k) > 1 else k[0]
    nkey = _np_key(k) if len(k) > 1 else _np_key(k)[0]
    got = t[key]
    np.testing.assert_array_equal(got.numpy(), A[nkey])
    got.fill_(-7)  # advanced indexing returns a copy
    np.testing.assert_array_equal(t.numpy(), A)
    b = A.copy()
    b[nkey] = -1
    t[key] = -1
    np.testing.assert_array_equal(t.numpy(), b)


def test_setitem_with_tensor_values_broadcasts():
    t = torch.zeros(3, 4)
    t[[0, 2]] = torch.tensor([1.0, 2.0, 3.0, 4.0])
    np.testing.assert_array_equal(t.numpy()[[0, 2]], [[1, 2, 3, 4]] * 2)
    t[t > 2] = 0
    assert t.max().item() == 2.0


def test_index_put_accumulates_duplicates():
    t = torch.zeros(4)
    t.index_put_((torch.tensor([0, 0, 3]),), torch.tensor(1.0), accumulate=True)
    assert t.tolist() == [2.0, 0.0, 0.0, 1.0]


def test_index_errors():
    t = torch.zeros(2, 3)
    with pytest.raises(IndexError, match="index 3 is out of bounds for dimension 0 with size 3"):
        t[:, [3]]
    with pytest.raises(IndexError):
        t[torch.tensor([True, False, True])]
    with pytest.raises(IndexError):
        t[torch.tensor([0.5])]


def test_gather_scatter_family():
    src = torch.tensor([[1, 2], [3, 4]])
    idx = torch.tensor([[0, 0], [1, 0]])
    assert torch.gather(src, 1, idx).tolist() == [[1, 1], [4, 3]]
    z = torch.zeros(3, 5).scatter_(0, torch.tensor([[0, 1, 2, 0, 0]]), torch.ones(2, 5))
    assert z.tolist()[0] == [1.0, 0.0, 0.0, 1.0, 1.0]
    assert torch.zeros(5).scatter_add(0, torch.tensor([0, 1, 0, 0]), torch.ones(4)).tolist() == [3, 1, 0, 0, 0]
    assert torch.zeros(2, 2).scatter(1, torch.tensor([[1], [0]]), 7.0).tolist() == [[0, 7], [7, 0]]
    x = torch.ones(3, 2)
    x.index_add_(0, torch.tensor([0, 2, 0]), torch.ones(3, 2), alpha=2)
    assert x.tolist() == [[5, 5], [1, 1], [3, 3]]
    a = torch.from_numpy(A.copy())
    np.testing.assert_array_equal(torch.index_select(a, 2, torch.tensor([3, 0])).numpy(), A[:, :, [3, 0]])
    np.testing.assert_array_equal(a.take(torch.tensor([[0, 23]])).numpy(), [[0, 23]])


def test_masks_and_nonzero():
    m = torch.tensor([[0, 1], [1, 1]])
    assert torch.nonzero(m).tolist() == [[0, 1], [1, 0], [1, 1]]
    x = torch.ones(2, 3)
    assert x.masked_fill(torch.tensor([True, False, True]), 5).tolist() == [[5, 1, 5], [5, 1, 5]]
    a = torch.from_numpy(A.copy())
    np.testing.assert_array_equal(a.masked_select(a > 20).numpy(), A[A > 20])
    with pytest.raises(RuntimeError):
        x.masked_fill(torch.tensor([1, 0, 1]), 5.0)


def test_an_index_into_an_empty_dim_raises_only_if_it_selects_something():
    x = torch.zeros(5, 0)
    assert tuple(x[::2][torch.tensor([False, False, False]), [-1]].shape) == (0,)  # broadcast to [0]
    assert tuple(x[[], [0]].shape) == (0,)
    x[[], [0]] = 1.0
    for key in (([0, 1], [0]), (slice(None), [0])):
        with pytest.raises(IndexError, match="index is out of bounds for dimension with size 0"):
            x[key]
        with pytest.raises(IndexError, match="index is out of bounds for dimension with size 0"):
            x[key] = 1.0
    with pytest.raises(IndexError, match="shape mismatch"):  # the broadcast is checked first
        x[[0, 1, 2], [0, 1]]


def test_masked_fill_writes_through_an_expanded_view():
    # upstream writes the value into each selected element (with a deprecation warning): every element that
    # shares its memory shows it; unselected elements are not written, even where they alias a selected one
    base = torch.zeros(3, 1)
    mask = torch.zeros(3, 4, dtype=torch.bool)
    mask[1, 2] = True
    with pytest.warns(UserWarning, match="masked_fill_ on expanded tensors is deprecated"):
        base.expand(3, 4).masked_fill_(mask, 5.0)
    assert base.tolist() == [[0.0], [5.0], [0.0]]
    row = torch.arange(4.0)
    with pytest.warns(UserWarning):
        row.expand(2, 4).masked_fill_(torch.tensor([[True, False, False, False], [False, False, False, True]]), -1)
    assert row.tolist() == [-1.0, 1.0, 2.0, -1.0]
    with pytest.warns(UserWarning):
        row.expand(2, 4).masked_fill_(torch.zeros(4, dtype=torch.bool), 7)  # selects nothing: writes nothing
    assert row.tolist() == [-1.0, 1.0, 2.0, -1.0]


def test_gather_index_out_of_range():
    with pytest.raises((IndexError, RuntimeError)):
        torch.gather(torch.zeros(2, 2), 1, torch.tensor([[0, 2]]))


@pytest.mark.parametrize(
    "key, shape",
    [
        (([3], 1, slice(-4, 0)), (1, 0)),  # a sliced-away dim empties the result
        (([3], []), (0, 4)),  # the indices broadcast to an empty shape
        (([[3]], slice(None), torch.zeros(0, 1, dtype=torch.long)), (0, 1, 3)),
        ((slice(None), slice(0, 0), [9]), (2, 0, 1)),
        ((slice(0, 0), [9]), (0, 1, 4)),
    ],
)
def test_an_index_out_of_range_selecting_nothing_is_not_checked(key, shape):
    # upstream checks an index's bounds only as it reads an element: a key that selects none returns (or writes)
    # an empty result, whatever its indices
    x = torch.arange(24.0).view(2, 3, 4)
    got = x[key]
    assert tuple(got.shape) == shape and got.dtype == x.dtype
    w = x.clone().requires_grad_()
    w[key].sum().backward()  # still recorded: the gradient is zeros
    assert torch.equal(w.grad, torch.zeros_like(x))
    y = x.clone()
    y[key] = 1.0
    y[key] = torch.ones(shape)
    y.index_put_((torch.tensor([3]), torch.tensor([], dtype=torch.long)), torch.tensor(2.0))
    assert torch.equal(y, x)
    # the same key on a target that it does select from still raises
    with pytest.raises(IndexError, match="out of bounds"):
        torch.arange(24.0).view(2, 3, 4)[[3], 1]


@settings(max_examples=60, deadline=None)
@given(
    shape=st.lists(st.integers(1, 4), min_size=1, max_size=3),
    data=st.data(),
)
def test_integer_index_property(shape, data):
    """Random integer index arrays on random dims: NumPy's result, or IndexError where NumPy refuses."""
    a = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    d = data.draw(st.integers(0, len(shape) - 1))
    idx = data.draw(st.lists(st.integers(-6, 6), min_size=0, max_size=4))
    key = (slice(None),) * d + (idx,)
    try:
        want = a[key]
    except IndexError:
        with pytest.raises(IndexError):
            torch.from_numpy(a)[key]
        return
    np.testing.assert_array_equal(torch.from_numpy(a)[key].numpy(), want)


def np_einsum(eq, *arrays):
    """np.einsum, plus PyTorch's rule that broadcast dims left out of an explicit output are summed."""
    lhs, arrow, out = eq.partition("->")
    if not arrow or "..." in out or "..." not in lhs:
        return np.einsum(eq, *arrays)
    full = np.einsum(f"{lhs}->...{out}", *arrays)
    return full.sum(axis=tuple(range(full.ndim - len(out))))


@pytest.mark.parametrize(
    "eq,shapes",
    [
        ("ij,jk->ik", [(2, 3), (3, 4)]),
        ("bij,bjk->bik", [(5, 2, 3), (5, 3, 4)]),
        ("i,i->", [(3,), (3,)]),
        ("ij->ji", [(2, 3)]),
        ("ij->j", [(2, 3)]),
        ("i,j->ij", [(2,), (3,)]),
        ("ijk,ik->j", [(2, 3, 4), (2, 4)]),
        ("ab,bc,cd->ad", [(2, 3), (3, 4), (4, 5)]),
        # ellipsis: broadcast dims, right-aligned, summed when the output leaves them out
        ("...ij->...ji", [(2, 5, 3, 4)]),
        ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)]),
        ("...ij->ij", [(2, 3, 4)]),
        ("i...->i", [(2, 3, 4)]),
        ("...ij", [(2, 3, 4)]),
        ("ij...,jk->ik...", [(2, 3, 5), (3, 4)]),
        ("b...,b...->b", [(2, 3, 4), (2, 3, 4)]),
        ("...", [(2, 3)]),
        # repeated subscripts: diagonals
        ("ii->i", [(3, 3)]),
        ("ii", [(4, 4)]),
        ("iij->ij", [(3, 3, 2)]),
        ("...ii->...i", [(2, 3, 3)]),
        ("ii,i->i", [(3, 3), (3,)]),
        ("iji->j", [(2, 4, 2)]),
    ],
)
def test_einsum(eq, shapes):
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s) for s in shapes]
    got = torch.einsum(eq, *[torch.from_numpy(x) for x in arrays])
    np.testing.assert_allclose(got.numpy(), np_einsum(eq, *arrays), rtol=1e-10, atol=1e-12)
    # non-contiguous operands (the transpose of a transposed copy) give the same values
    flipped = [torch.from_numpy(np.ascontiguousarray(x.T)).permute(*reversed(range(x.ndim))) for x in arrays]
    np.testing.assert_allclose(torch.einsum(eq, *flipped).numpy(), np_einsum(eq, *arrays), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize(
    "eq,shapes,message",
    [
        ("ii->i", [(2, 3)], "subscript i is repeated for operand 0 but the sizes don't match, 3 != 2"),
        ("ij->ii", [(2, 2)], "output subscript i appears more than once in the output"),
        ("ij->k", [(2, 2)], "output subscript k does not appear in the equation for any input operand"),
        ("i...j", [(2,)], r"number of subscripts in the equation \(2\) is more than the number of dimensions \(1\)"),
        ("i.j", [(2,)], "found '.' for operand 0 that is not part of any ellipsis"),
        ("...i,...i", [(2, 3), (4, 3)], "does not broadcast with previously seen ellipsis with size 2"),
        ("ij", [(2,)], r"does not match the number of dimensions \(1\) for operand 0 and no ellipsis was given"),
    ],
)
def test_einsum_errors(eq, shapes, message):
    with pytest.raises(RuntimeError, match=message):
        torch.einsum(eq, *[torch.ones(s) for s in shapes])
