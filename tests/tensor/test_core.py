"""The tensor core against NumPy: creation, dtypes, views, broadcasting arithmetic, sum.

Also runs against upstream PyTorch (nox -s tests-reference), so it encodes PyTorch's semantics.
"""

from __future__ import annotations

import numpy as np
import pytest
from numpy_dtypes import NP

import torch

DTYPES = {t: n for t, n in NP.items() if t != torch.bool}  # the numeric dtypes


def make(shape, dtype=torch.float32, seed=0):
    """A tensor with small distinct values (exact in every dtype) and its NumPy twin."""
    rng = np.random.default_rng(seed)
    arr = rng.integers(0, 10, size=shape).astype(DTYPES[dtype])
    return torch.from_numpy(arr.copy()), arr


# Layouts: (name, tensor -> view, ndarray -> view); all views of a (3, 4) input shaped (4, 3) or (3, 4)
LAYOUTS = [
    ("contiguous", lambda t: t, lambda a: a),
    ("transposed", lambda t: t.transpose(0, 1), lambda a: a.T),
    ("stepped", lambda t: t.as_strided((3, 2), (4, 2)), lambda a: a[:, ::2]),
    ("narrowed", lambda t: t.narrow(1, 1, 2), lambda a: a[:, 1:3]),
    ("expanded", lambda t: t.narrow(0, 0, 1).expand(3, 4), lambda a: np.broadcast_to(a[:1], (3, 4))),
]


class TestCreation:
    def test_factories_shape_dtype(self):
        assert torch.zeros(2, 3).shape == (2, 3)
        assert torch.zeros((2, 3)).dtype == torch.float32
        assert torch.ones([4], dtype=torch.int64).tolist() == [1, 1, 1, 1]
        assert torch.empty(0, 5).numel() == 0
        np.testing.assert_array_equal(torch.full((2, 2), 7).numpy(), np.full((2, 2), 7))

    @pytest.mark.parametrize("value,dtype", [(3, torch.int64), (2.5, torch.float32), (True, torch.bool)])
    def test_full_infers_dtype(self, value, dtype):
        assert torch.full((2,), value).dtype == dtype

    def test_tensor_infers_dtype(self):
        assert torch.tensor([1, 2]).dtype == torch.int64
        assert torch.tensor([1.0, 2]).dtype == torch.float32
        assert torch.tensor([[True, False]]).dtype == torch.bool
        assert torch.tensor(np.array([1, 2], dtype=np.int16)).dtype == torch.int16

    def test_negative_size_raises(self):
        with pytest.raises(RuntimeError, match="negative"):
            torch.zeros(2, -1)

    def test_numpy_interop_shares_memory(self):
        arr = np.arange(6, dtype=np.float64).reshape(2, 3)
        t = torch.from_numpy(arr)
        arr[0, 0] = 42
        assert t.numpy()[0, 0] == 42
        t.fill_(1)
        assert arr.sum() == 6
        # a non-contiguous ndarray keeps its strides
        tt = torch.from_numpy(arr.T)
        assert tt.stride() == (1, 3)
        np.testing.assert_array_equal(tt.numpy(), arr.T)


class TestDtypes:
    def test_dtype_objects(self):
        assert torch.float32 is torch.float
        assert torch.int64 is torch.long
        assert repr(torch.float64) == "torch.float64"
        assert torch.float32.is_floating_point and not torch.int32.is_floating_point
        assert torch.int16.itemsize == 2

    @pytest.mark.parametrize(
        "a,b,want",
        [
            (torch.uint8, torch.int8, torch.int16),
            (torch.int32, torch.int64, torch.int64),
            (torch.int64, torch.float32, torch.float32),
            (torch.float32, torch.float64, torch.float64),
            (torch.bool, torch.uint8, torch.uint8),
            (torch.bool, torch.bool, torch.bool),
        ],
    )
    def test_promote_types(self, a, b, want):
        assert torch.promote_types(a, b) == want
        assert torch.promote_types(b, a) == want
        x, y = torch.ones(2, dtype=a), torch.ones(2, dtype=b)
        assert (x * y).dtype == want


class TestViews:
    def test_views_share_storage(self):
        t, _ = make((3, 4))
        for v in (t.view(4, 3), t.transpose(0, 1), t.narrow(0, 1, 2), t.unsqueeze(0), t.permute(1, 0)):
            assert v.data_ptr() >= t.data_ptr()
        v = t.view(12)
        v.fill_(5)
        assert t.sum().item() == 60

    def test_view_metadata(self):
        t, _ = make((3, 4))
        tr = t.transpose(0, 1)
        assert tr.shape == (4, 3) and tr.stride() == (1, 4) and not tr.is_contiguous()
        n = t.narrow(1, 1, 2)
        assert n.storage_offset() == 1 and n.stride() == (4, 1)
        assert t.unsqueeze(-1).shape == (3, 4, 1)
        assert t.view(-1, 6).shape == (2, 6)
        e = t.narrow(0, 0, 1).expand(5, 4)
        assert e.stride() == (0, 1)

    def test_view_errors(self):
        t, _ = make((3, 4))
        with pytest.raises(RuntimeError, match="view size is not compatible"):
            t.transpose(0, 1).view(12)
        with pytest.raises(RuntimeError, match="invalid for input of size 12"):
            t.view(5, 3)
        with pytest.raises(IndexError, match="Dimension out of range"):
            t.transpose(0, 2)
        with pytest.raises(RuntimeError, match="must match the existing size"):
            t.expand(3, 5)

    def test_contiguous_copies_only_when_needed(self):
        t, a = make((3, 4))
        assert t.contiguous().data_ptr() == t.data_ptr()
        c = t.transpose(0, 1).contiguous()
        assert c.is_contiguous() and c.data_ptr() != t.data_ptr()
        np.testing.assert_array_equal(c.numpy(), a.T)


class TestArithmetic:
    @pytest.mark.parametrize("dtype", list(DTYPES))
    @pytest.mark.parametrize("layout", LAYOUTS, ids=[x[0] for x in LAYOUTS])
    def test_add_mul_layouts(self, dtype, layout):
        _, tview, aview = layout
        t, a = make((3, 4), dtype, seed=1)
        u, b = make((3, 4), dtype, seed=2)
        x, y = tview(t), tview(u)
        np.testing.assert_array_equal((x + y).numpy(), aview(a) + aview(b))
        np.testing.assert_array_equal((x * y).numpy(), aview(a) * aview(b))
        np.testing.assert_array_equal(torch.add(x, y, alpha=2).numpy(), aview(a) + 2 * aview(b))

    @pytest.mark.parametrize("sa,sb", [((3, 1), (1, 4)), ((4,), (3, 4)), ((2, 1, 4), (3, 1)), ((), (2, 3))])
    def test_broadcasting(self, sa, sb):
        t, a = make(sa, seed=3)
        u, b = make(sb, seed=4)
        np.testing.assert_allclose((t + u).numpy(), a + b)
        np.testing.assert_allclose((t - u).numpy(), a - b)
        assert (t + u).shape == np.broadcast_shapes(sa, sb)

    def test_broadcast_error(self):
        with pytest.raises(RuntimeError, match=r"size of tensor a \(3\) must match the size of tensor b \(4\)"):
            torch.ones(2, 3) + torch.ones(2, 4)

    def test_type_promotion(self):
        i = torch.ones(3, dtype=torch.int32)
        f = torch.ones(3, dtype=torch.float64)
        assert (i + f).dtype == torch.float64
        assert (i + torch.ones(3, dtype=torch.int64)).dtype == torch.int64
        assert (i + 1).dtype == torch.int32

    def test_inplace_keeps_storage_and_checks_cast(self):
        t, a = make((3, 4))
        ptr = t.data_ptr()
        t += torch.ones(4)
        assert t.data_ptr() == ptr
        np.testing.assert_array_equal(t.numpy(), a + 1)
        ints = torch.zeros(3, dtype=torch.int64)
        with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
            ints.add_(torch.ones(3))
        with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
            torch.ones(4).add_(torch.ones(3, 4))

    def test_inplace_overlap_errors(self):
        with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
            torch.zeros(1, 4).expand(3, 4).add_(torch.ones(3, 4))
        t = torch.from_numpy(np.arange(6.0))
        with pytest.raises(RuntimeError, match="unsupported operation"):
            t.narrow(0, 0, 4).add_(t.narrow(0, 1, 4))

    def test_out_is_resized(self):
        out = torch.empty(0)
        r = torch.add(torch.ones(2, 3), torch.ones(3), out=out)
        assert r is out and out.shape == (2, 3) and out.sum().item() == 12

    @pytest.mark.parametrize("name", ["add", "sub", "mul"])
    def test_out_forms(self, name):
        a, b = torch.from_numpy(np.arange(6.0).reshape(2, 3)), torch.from_numpy(np.array([1.5, -2.0, 4.0]))
        out = torch.empty(0, dtype=torch.float64)
        r = getattr(torch, name)(a.t(), b[:2], out=out)
        want = {"add": np.add, "sub": np.subtract, "mul": np.multiply}[name](a.numpy().T, b.numpy()[:2])
        assert r is out
        np.testing.assert_array_equal(out.numpy(), want)
        ints = torch.empty(0, dtype=torch.int64)
        with pytest.raises(RuntimeError, match="result type Double can't be cast to the desired output type Long"):
            getattr(torch, name)(a, b, out=ints)

    def test_sub_out_alpha_and_bool(self):
        out = torch.empty(3)
        torch.sub(torch.ones(3), torch.full((3,), 2.0), alpha=0.5, out=out)
        assert out.tolist() == [0.0, 0.0, 0.0]
        with pytest.raises(RuntimeError, match="Subtraction, the `-` operator, with two bool tensors"):
            torch.sub(
                torch.ones(2, dtype=torch.bool), torch.ones(2, dtype=torch.bool), out=torch.empty(2, dtype=torch.bool)
            )

    def test_sub_bool_error(self):
        with pytest.raises(RuntimeError, match="Subtraction, the `-` operator, with two bool tensors"):
            torch.ones(2, dtype=torch.bool) - torch.ones(2, dtype=torch.bool)


class TestCopy:
    def test_copy_broadcasts_and_converts(self):
        dst = torch.zeros(3, 4, dtype=torch.int64)
        src = torch.from_numpy(np.array([1.9, 2.2, 3.5, -4.7]))
        dst.copy_(src)
        np.testing.assert_array_equal(
            dst.numpy(), np.broadcast_to(np.array([1.9, 2.2, 3.5, -4.7]).astype(np.int64), (3, 4))
        )

    @pytest.mark.parametrize("dtype", list(DTYPES))
    def test_to_dtype(self, dtype):
        t, a = make((2, 3), torch.float64)
        np.testing.assert_array_equal(t.to(dtype).numpy(), a.astype(DTYPES[dtype]))
        assert t.to(torch.float64) is t


class TestSum:
    @pytest.mark.parametrize("layout", LAYOUTS, ids=[x[0] for x in LAYOUTS])
    @pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.int32, torch.uint8])
    def test_sum_full_and_dims(self, layout, dtype):
        _, tview, aview = layout
        t, a = make((3, 4), dtype)
        x, ref = tview(t), aview(a)
        want_dtype = dtype if dtype.is_floating_point else torch.int64
        assert x.sum().dtype == want_dtype
        np.testing.assert_allclose(x.sum().item(), ref.sum())
        for dim in (0, 1, -1, (0, 1)):
            np.testing.assert_allclose(x.sum(dim).numpy(), ref.sum(axis=dim))
            np.testing.assert_allclose(x.sum(dim, keepdim=True).numpy(), ref.sum(axis=dim, keepdims=True))

    def test_sum_3d_and_dtype_arg(self):
        t, a = make((2, 3, 4), torch.int32)
        np.testing.assert_array_equal(t.sum((0, 2)).numpy(), a.sum(axis=(0, 2)))
        assert t.sum(dtype=torch.float64).dtype == torch.float64
        assert t.permute(2, 0, 1).sum(1).shape == (4, 3)

    def test_sum_large_is_accurate(self):
        a = np.full(1 << 20, 0.1, dtype=np.float32)
        assert abs(torch.from_numpy(a).sum().item() - 0.1 * (1 << 20)) < 1e-2 * 0.1 * (1 << 20)

    def test_sum_errors(self):
        with pytest.raises(IndexError, match="Dimension out of range"):
            torch.ones(2, 3).sum(2)
        with pytest.raises(RuntimeError, match="appears multiple times"):
            torch.ones(2, 3).sum((0, 0))


def test_result_follows_the_layout_of_dense_inputs():
    t = torch.from_numpy(np.arange(12.0).reshape(3, 4))
    r = t.transpose(0, 1) + t.transpose(0, 1)
    assert r.shape == (4, 3) and r.stride() == (1, 4)  # computed as one dense loop, like PyTorch
    np.testing.assert_array_equal(r.numpy(), 2 * np.arange(12.0).reshape(3, 4).T)
    assert (t.narrow(1, 0, 2) * 2).is_contiguous()  # a view with gaps gives a contiguous result


def test_num_threads_roundtrip():
    n = torch.get_num_threads()
    assert n >= 1
    torch.set_num_threads(1)
    try:
        a = torch.from_numpy(np.arange(100_000.0))
        assert (a + a).sum().item() == 2 * np.arange(100_000.0).sum()
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(n)


def test_new_tensors_are_aligned():
    """New CPU tensors start on a 16-byte boundary (every dtype's and vector load's alignment), from 4 KiB on a
    64-byte one (full cache lines), as upstream's allocator gives at least."""
    for n in (1, 3, 8, 100, 1023):
        for dtype in (torch.float32, torch.float64, torch.complex128, torch.uint8):
            assert torch.empty(n, dtype=dtype).data_ptr() % 16 == 0
    for nbytes in (4096, 4100, 1 << 20):
        assert torch.empty(nbytes, dtype=torch.uint8).data_ptr() % 64 == 0
