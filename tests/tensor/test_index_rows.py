"""Indexing with one index tensor (x[idx], x[:, idx], x[mask], the assignments and index_put_/index_add_ with
accumulate, index_select) against NumPy: every dim, negative and repeated indices, contiguous and other layouts
(the row-copy kernels take a contiguous tensor, the general path the rest), and their gradients. Runs against
upstream PyTorch too."""

from __future__ import annotations

import numpy as np
import pytest

import torch

RNG = np.random.default_rng(0)
SHAPES_DIMS = [((6,), 0), ((5, 7), 0), ((5, 7), 1), ((3, 4, 5), 0), ((3, 4, 5), 1), ((3, 4, 5), 2)]


def make(shape, dtype, layout):
    a = RNG.standard_normal(shape) * 4
    t = torch.from_numpy(a).to(dtype)
    if layout == "transposed" and t.dim() > 1:
        t = t.transpose(0, -1).contiguous().transpose(0, -1)  # the same values, column-major memory
    return t


@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.float16], ids=str)
@pytest.mark.parametrize(("shape", "dim"), SHAPES_DIMS)
def test_getitem_and_index_select_with_one_index(shape, dim, dtype, layout):
    """x[..., idx, ...] with a 1-D and a 2-D index (negative and repeated entries) and index_select give NumPy's
    take along the dim."""
    x = make(shape, dtype, layout)
    n = shape[dim]
    for idx in ([n - 1, 0, -1, 1, 0], [[0, -n], [n - 1, 1]]):
        i = torch.tensor(idx)
        want = np.take(x.numpy(), np.array(idx), axis=dim)
        got = x[(slice(None),) * dim + (i,)]
        np.testing.assert_array_equal(got.numpy(), want)
    pos = torch.tensor([n - 1, 0, 0, 1 % n])
    np.testing.assert_array_equal(x.index_select(dim, pos).numpy(), np.take(x.numpy(), pos.numpy(), axis=dim))


@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
def test_mask_selects_rows(layout):
    """x[mask] for a 1-D mask over dim 0, and x[:, mask] over dim 1, as NumPy."""
    x = make((6, 5), torch.float32, layout)
    m0, m1 = torch.tensor([True, False, True, True, False, False]), torch.tensor([False, True, True, False, True])
    np.testing.assert_array_equal(x[m0].numpy(), x.numpy()[m0.numpy()])
    np.testing.assert_array_equal(x[:, m1].numpy(), x.numpy()[:, m1.numpy()])
    assert x[torch.zeros(6, dtype=torch.bool)].shape == (0, 5)


@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
@pytest.mark.parametrize(("shape", "dim"), SHAPES_DIMS)
def test_assignment_and_accumulation_through_one_index(shape, dim, layout):
    """x[..., idx, ...] = v (distinct indices, a number or a broadcast tensor) is NumPy's assignment; index_put_
    with accumulate adds repeated indices as np.add.at does; index_add_ too, with alpha."""
    x = make(shape, torch.float64, layout)
    n = shape[dim]
    key = (slice(None),) * dim
    distinct = torch.tensor([n - 1, 0] if n > 1 else [0])
    a, want = x.clone(), x.numpy().copy()
    a[key + (distinct,)] = 2.5
    want[key + (distinct.numpy(),)] = 2.5
    np.testing.assert_array_equal(a.numpy(), want)
    vshape = list(shape)
    vshape[dim] = len(distinct)
    v = torch.from_numpy(RNG.standard_normal(vshape))
    a[key + (distinct,)] = v
    want[key + (distinct.numpy(),)] = v.numpy()
    np.testing.assert_array_equal(a.numpy(), want)
    repeated = torch.tensor([0, n - 1, 0, -1])
    vshape[dim] = 4
    v = torch.from_numpy(RNG.standard_normal(vshape))
    if dim == 0:  # index_put_ takes index tensors only: the one-index form indexes dim 0
        b, want = x.clone(), x.numpy().copy()
        b.index_put_((repeated,), v, accumulate=True)
        np.add.at(want, repeated.numpy(), v.numpy())
        np.testing.assert_allclose(b.numpy(), want, rtol=1e-12, atol=1e-12)
    c, want = x.clone(), x.numpy().copy()
    c.index_add_(dim, repeated % n, v, alpha=2)
    np.add.at(np.moveaxis(want, dim, 0), (repeated % n).numpy(), 2 * np.moveaxis(v.numpy(), dim, 0))
    np.testing.assert_allclose(c.numpy(), want, rtol=1e-12, atol=1e-12)


def test_gradients_through_one_index():
    """gradcheck of x[idx] (repeated indices: the gradient sums), of a one-index assignment of a tensor that
    requires grad, and of index_put_ with accumulate."""
    x = torch.from_numpy(RNG.standard_normal((5, 3))).requires_grad_()
    i = torch.tensor([4, 0, 4, -1])
    assert torch.autograd.gradcheck(lambda t: t[i] * 1.0, (x,))
    assert torch.autograd.gradcheck(lambda t: t[:, torch.tensor([2, 0, 2])], (x,))
    v = torch.from_numpy(RNG.standard_normal((2, 3))).requires_grad_()

    def assign(t, w):
        out = t * 1.0
        out[torch.tensor([3, 1])] = w
        return out

    assert torch.autograd.gradcheck(assign, (x, v))

    def accumulate(t, w):
        return (t * 1.0).index_put_((torch.tensor([1, 1]),), w, accumulate=True)

    assert torch.autograd.gradcheck(accumulate, (x, v))


def test_out_of_range_indices_keep_upstreams_errors():
    """An index past the dim: getitem's and setitem's IndexError naming it, index_select's and index_add_'s."""
    x = torch.zeros(4, 3)
    with pytest.raises(IndexError, match="index 4 is out of bounds for dimension 0 with size 4"):
        x[torch.tensor([0, 4])]
    with pytest.raises(IndexError, match="index -5 is out of bounds for dimension 0 with size 4"):
        x[torch.tensor([-5])] = 1.0
    with pytest.raises(IndexError, match="index out of range in self"):
        x.index_select(0, torch.tensor([4]))
