"""view(dtype), the in-place view ops (t_, transpose_, squeeze_, unsqueeze_, swapdims_, as_strided_),
resize_: PyTorch's shapes, strides, storage sharing and errors; values against NumPy (`ndarray.view`
for the reinterpretation). These tests run against upstream too."""

from __future__ import annotations

import numpy as np
import pytest
from numpy_dtypes import NP

import torch

# the dtypes NumPy can reinterpret too (bfloat16 has no NumPy dtype)
NP_DTYPES = {**NP, torch.float16: np.float16}
VIEWABLE = list(NP_DTYPES)


def base(shape=(3, 4)):
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) * 1.5 - 2
    return torch.from_numpy(a.copy()), a


@pytest.mark.parametrize("dtype", VIEWABLE, ids=str)
@pytest.mark.parametrize("src", [torch.float32, torch.int16, torch.uint8, torch.float64], ids=str)
def test_view_dtype_reinterprets_bytes_like_numpy(src, dtype):
    a = (np.arange(48) * 37 % 251).astype(NP_DTYPES[src]).reshape(2, -1)
    t = torch.from_numpy(a.copy())
    if a.shape[-1] * a.itemsize % np.dtype(NP_DTYPES[dtype]).itemsize:
        pytest.skip("byte count not divisible")
    want = a.view(NP_DTYPES[dtype])
    if dtype == torch.bool:
        want = want != 0
    v = t.view(dtype)
    assert v.dtype == dtype and tuple(v.shape) == want.shape
    np.testing.assert_array_equal(v.numpy() if dtype != torch.bool else v.numpy() != 0, want)
    assert v.data_ptr() == t.data_ptr()


def test_view_dtype_strides_offset_and_sharing():
    t = torch.arange(12.0).reshape(3, 4)
    v = t.view(torch.int32)
    assert v.stride() == (4, 1) and v.shape == (3, 4)
    assert t[:, :2].view(torch.float64).stride() == (2, 1)  # strides of the other dims rescale
    assert torch.arange(8.0)[2:].view(torch.float64).storage_offset() == 1
    h = t.view(torch.float16)
    assert h.shape == (3, 8) and h.stride() == (8, 1)
    assert t.t().view(torch.int32).stride() == (1, 4)  # same element size: any layout
    assert torch.ones(0, 4).view(torch.float64).shape == (0, 2)
    t.view(torch.int32)[0].fill_(0)  # a view: writes reach t
    assert (t[0] == 0).all()
    assert torch.tensor(1.0).view(torch.int32).item() == 1065353216
    assert t.view(dtype=torch.int32).dtype == torch.int32
    assert t.view(2, 6).shape == (2, 6) and t.view((6, 2)).shape == (6, 2) and t.view(-1).shape == (12,)


@pytest.mark.parametrize(
    "make, dtype, message",
    [
        (
            lambda: torch.arange(6.0).reshape(2, 3),
            torch.int64,
            r"self.size\(-1\) must be divisible by 2 to view Float as Lon",
        ),
        (
            lambda: torch.arange(6.0).reshape(2, 3).t(),
            torch.float16,
            r"self.stride\(-1\) must be 1 to view Float as H",
        ),
        (lambda: torch.tensor(1.0), torch.float16, r"self.dim\(\) cannot be 0 to view Float as Half"),
        (lambda: torch.arange(8.0)[1:7], torch.float64, r"self.storage_offset\(\) must be divisible by 2"),
        (lambda: torch.arange(12.0).reshape(4, 3)[:, :2], torch.float64, r"self.stride\(0\) must be divisible by 2"),
    ],
)
def test_view_dtype_errors(make, dtype, message):
    with pytest.raises(RuntimeError, match=message):
        make().view(dtype)


def test_view_dtype_is_not_differentiable():
    x = torch.ones(3, requires_grad=True)
    assert not x.view(torch.float32).requires_grad
    assert not x.view(torch.int32).requires_grad


@pytest.mark.parametrize(
    "name, args",
    [
        ("t", ()),
        ("transpose", (0, 2)),
        ("transpose", (-1, 1)),
        ("squeeze", ()),
        ("squeeze", (1,)),
        ("squeeze", (0,)),
        ("unsqueeze", (1,)),
        ("unsqueeze", (-1,)),
        ("swapdims", (0, 1)),
        ("swapaxes", (2, 0)),
    ],
)
def test_inplace_view_ops_match_their_views(name, args):
    shape = (3, 4) if name == "t" else (3, 1, 4)
    t = torch.arange(float(np.prod(shape))).reshape(shape)[..., ::2]  # non-contiguous
    want = getattr(t, name)(*args)
    data, sizes, strides, offset = t.data_ptr(), want.shape, want.stride(), want.storage_offset()
    out = getattr(t, name + "_")(*args)
    assert out is t
    assert t.shape == sizes and t.stride() == strides and t.storage_offset() == offset and t.data_ptr() == data
    np.testing.assert_array_equal(t.numpy(), want.numpy())


def test_inplace_view_op_errors():
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place operation"):
        torch.ones(2, 3, requires_grad=True).t_()
    with pytest.raises(IndexError):
        torch.ones(2, 3).transpose_(0, 5)
    with pytest.raises(RuntimeError, match=r"t_?\(\) expects a tensor with <= 2 dimensions"):
        torch.ones(2, 3, 4).t_()


def test_inplace_view_ops_on_non_leaves_keep_gradients():
    x = torch.rand(2, 3, dtype=torch.float64, requires_grad=True)
    w = torch.rand(3, 2, dtype=torch.float64)
    y = x * 2
    y.unsqueeze_(0).squeeze_(0).t_()
    (y * w).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * w.t().numpy())


def test_as_strided_inplace():
    t = torch.arange(12.0)
    out = t.as_strided_((3, 2), (2, 3), 1)
    assert out is t and t.shape == (3, 2) and t.stride() == (2, 3) and t.storage_offset() == 1
    np.testing.assert_array_equal(t.numpy(), np.arange(12.0)[1:][np.arange(3)[:, None] * 2 + np.arange(2) * 3])
    with pytest.raises(RuntimeError, match="out of bounds for storage"):
        torch.arange(4.0).as_strided_((3, 3), (1, 1))


def test_resize_keeps_prefix_and_makes_contiguous():
    t = torch.arange(6.0)
    assert t.resize_(2, 2) is t and t.shape == (2, 2) and t.stride() == (2, 1)
    np.testing.assert_array_equal(t.numpy(), [[0, 1], [2, 3]])
    t = torch.arange(3, dtype=torch.int64)
    t.resize_((2, 4))  # grows: the first values are kept
    assert t.shape == (2, 4) and t.reshape(-1)[:3].tolist() == [0, 1, 2]
    t = torch.ones(2, 3).t()
    t.resize_(3, 2)  # the same sizes: nothing changes
    assert t.stride() == (1, 3)
    t.resize_(2, 3)
    assert t.is_contiguous()
    assert torch.ones(2, 3).resize_as_(torch.ones(4)).shape == (4,)
    assert torch.ones(5).resize_(0).numel() == 0


def test_resize_errors():
    with pytest.raises(RuntimeError, match="cannot resize variables that require grad"):
        torch.ones(2, requires_grad=True).resize_(3)
    with pytest.raises(RuntimeError, match="negative dimension -1|overflow"):
        torch.ones(2).resize_(-1)
