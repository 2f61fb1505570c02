"""NumPy-style stacking/splitting/flipping and the small math ops (square, addcmul, addcdiv, logaddexp,
deg2rad, signbit, isposinf, trace, count_nonzero, aminmax, var_mean, nansum, ...): values against NumPy,
PyTorch's result types, views and errors; gradients by finite differences (these tests run against
upstream too)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import torch
from torch.autograd import gradcheck


def arr(shape, seed=0, dtype=np.float64):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def t(a):
    return torch.from_numpy(np.ascontiguousarray(a))


# ---- stacking ----------------------------------------------------------------------


@pytest.mark.parametrize("n, fn", [(1, np.atleast_1d), (2, np.atleast_2d), (3, np.atleast_3d)])
@pytest.mark.parametrize("shape", [(), (4,), (2, 3), (2, 3, 4)])
def test_atleast_nd_matches_numpy(n, fn, shape):
    a = arr(shape)
    r = getattr(torch, f"atleast_{n}d")(t(a))
    assert isinstance(r, torch.Tensor) and tuple(r.shape) == fn(a).shape
    np.testing.assert_array_equal(r.numpy(), fn(a))
    pair = getattr(torch, f"atleast_{n}d")(t(a), t(a))
    assert isinstance(pair, tuple) and len(pair) == 2 and tuple(pair[1].shape) == fn(a).shape
    listed = getattr(torch, f"atleast_{n}d")([t(a)])
    assert isinstance(listed, tuple) and len(listed) == 1


@pytest.mark.parametrize(
    "name, shapes",
    [
        ("hstack", [(3,), (2,)]),
        ("hstack", [(2, 3), (2, 1)]),
        ("hstack", [(), ()]),
        ("vstack", [(3,), (3,)]),
        ("vstack", [(2, 3), (1, 3)]),
        ("vstack", [(), ()]),
        ("dstack", [(3,), (3,)]),
        ("dstack", [(2, 3), (2, 3)]),
        ("dstack", [(2, 3, 1), (2, 3, 2)]),
        ("column_stack", [(3,), (3,)]),
        ("column_stack", [(3, 2), (3,)]),
        ("column_stack", [(), ()]),
    ],
)
def test_stacks_match_numpy(name, shapes):
    arrays = [arr(s, seed=i) for i, s in enumerate(shapes)]
    r = getattr(torch, name)([t(a) for a in arrays])
    np.testing.assert_array_equal(r.numpy(), getattr(np, name)(arrays))
    assert torch.row_stack((t(arrays[0]), t(arrays[0]))).shape == torch.vstack([t(arrays[0])] * 2).shape


def test_stack_errors_and_promotion():
    with pytest.raises(RuntimeError, match="expects a non-empty TensorList"):
        torch.hstack([])
    with pytest.raises(TypeError):
        torch.vstack(torch.ones(2))
    r = torch.hstack([torch.ones(2, dtype=torch.int64), torch.ones(2)])
    assert r.dtype == torch.float32


@pytest.mark.parametrize(
    "spec", [3, 4, 1, 7, [1, 3], [0, 2, 2, 10], [-2], (4, 1), torch.tensor(2), torch.tensor([1, 4])]
)
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_tensor_split_matches_numpy(spec, dim):
    a = arr((5, 6))
    parts = torch.tensor_split(t(a), spec, dim)
    want_spec = spec.tolist() if isinstance(spec, torch.Tensor) else spec
    want = np.array_split(a, want_spec, axis=dim)
    assert isinstance(parts, tuple) and len(parts) == len(want)
    for p, w in zip(parts, want):
        np.testing.assert_array_equal(p.numpy(), w)
    x = t(a)
    if x.tensor_split(spec, dim)[0].numel():
        x.tensor_split(spec, dim)[0].fill_(100)  # views
        assert (x == 100).any()


def test_tensor_split_errors():
    with pytest.raises(RuntimeError, match="number of sections must be larger than 0, got 0"):
        torch.tensor_split(torch.ones(4), 0)
    with pytest.raises(RuntimeError, match="expected at least a 1-dimensional tensor"):
        torch.tensor_split(torch.tensor(1.0), 2)
    with pytest.raises(RuntimeError, match="to have dtype of long, but got Float"):
        torch.tensor_split(torch.ones(4), torch.tensor([1.0]))
    with pytest.raises(RuntimeError, match="to have dtype of long, but got Int"):
        torch.tensor_split(torch.ones(4), torch.tensor([1], dtype=torch.int32))
    with pytest.raises(IndexError):
        torch.tensor_split(torch.ones(4), 2, 1)


@pytest.mark.parametrize(
    "name, shape, spec",
    [
        ("hsplit", (4,), 2),
        ("hsplit", (3, 4), 2),
        ("hsplit", (3, 4), [1, 3]),
        ("vsplit", (4, 3), 4),
        ("vsplit", (4, 3), [2]),
        ("dsplit", (2, 3, 4), 2),
        ("dsplit", (2, 3, 4), [3]),
    ],
)
def test_hvd_split_match_numpy(name, shape, spec):
    a = arr(shape)
    parts = getattr(torch, name)(t(a), spec)
    want = getattr(np, name)(a, spec)
    assert len(parts) == len(want)
    for p, w in zip(parts, want):
        np.testing.assert_array_equal(p.numpy(), w)


def test_hvd_split_errors():
    with pytest.raises(RuntimeError, match="not divisible by the split_size 3"):
        torch.hsplit(torch.ones(2, 4), 3)
    with pytest.raises(RuntimeError, match="torch.vsplit requires a tensor with at least 2 dimension"):
        torch.vsplit(torch.ones(4), 2)
    with pytest.raises(RuntimeError, match="torch.dsplit requires a tensor with at least 3 dimension"):
        torch.dsplit(torch.ones(4, 4), 2)
    with pytest.raises(RuntimeError, match="torch.hsplit requires a tensor with at least 1 dimension"):
        torch.hsplit(torch.tensor(1.0), 1)


@pytest.mark.parametrize("k", [0, 1, 2, 3, 4, -1, 5])
@pytest.mark.parametrize("dims", [(0, 1), (1, 0), (0, 2), (-1, -2)])
def test_rot90_matches_numpy(k, dims):
    a = arr((2, 3, 4))
    np.testing.assert_array_equal(torch.rot90(t(a), k, dims).numpy(), np.rot90(a, k, dims))
    np.testing.assert_array_equal(t(a).rot90(k, dims).numpy(), np.rot90(a, k, dims))


def test_flips_and_rot90_errors():
    a = arr((3, 4))
    np.testing.assert_array_equal(torch.fliplr(t(a)).numpy(), np.fliplr(a))
    np.testing.assert_array_equal(t(a).flipud().numpy(), np.flipud(a))
    with pytest.raises(RuntimeError, match="Input must be >= 2-d."):
        torch.fliplr(torch.ones(3))
    with pytest.raises(RuntimeError, match="Input must be >= 1-d."):
        torch.flipud(torch.tensor(1.0))
    with pytest.raises(RuntimeError, match="expected total rotation dims == 2, but got dims = 3"):
        torch.rot90(torch.ones(2, 2, 2), 1, [0, 1, 2])
    with pytest.raises(RuntimeError, match="expected total dims >= 2, but got total dims = 1"):
        torch.rot90(torch.ones(2))
    with pytest.raises(RuntimeError, match="expected rotation dims to be different"):
        torch.rot90(torch.ones(2, 2), 1, [1, 1])


def test_stacking_gradients():
    x = torch.rand(3, 4, dtype=torch.float64, requires_grad=True)
    y = torch.rand(3, 2, dtype=torch.float64, requires_grad=True)
    assert gradcheck(lambda x, y: torch.hstack([x, y]), (x, y))
    assert gradcheck(lambda x: torch.rot90(x, 1), (x,))
    assert gradcheck(lambda x: torch.tensor_split(x, 3, 1)[1] * 2, (x,))


# ---- math ----------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.int32, torch.uint8, torch.bool])
def test_square(dtype):
    x = torch.tensor([0, 1, 2, 3], dtype=dtype) if dtype == torch.bool else torch.tensor([-3, 0, 2, 5]).to(dtype)
    want = x.numpy().astype(np.int64) ** 2 if dtype == torch.bool else x.numpy() ** 2
    r = torch.square(x)
    assert r.dtype == (torch.int64 if dtype == torch.bool else dtype)
    np.testing.assert_array_equal(r.numpy(), want)
    assert x.square().dtype == r.dtype


def test_addcmul_addcdiv():
    a, b, c = arr((3, 4), 0), arr((4,), 1), arr((3, 1), 2)
    np.testing.assert_allclose(torch.addcmul(t(a), t(b), t(c), value=0.5).numpy(), a + 0.5 * b * c, rtol=1e-15)
    np.testing.assert_allclose(t(a).addcdiv(t(b), t(c), value=-2).numpy(), a - 2 * (b / c), rtol=1e-15)
    ints = torch.tensor([1, 2, 3])
    assert torch.addcmul(ints, ints, ints, value=2).tolist() == [3, 10, 21]
    assert torch.addcmul(ints, ints, ints).dtype == torch.int64
    assert torch.addcmul(ints, ints, ints, value=0.5).tolist() == [1, 2, 3]  # value cast to int64: 0
    assert torch.addcmul(ints.float(), ints, ints, value=0.5).tolist() == [1.5, 4.0, 7.5]
    assert torch.addcdiv(ints, ints.float(), ints, value=2).dtype == torch.float32
    with pytest.raises(NotImplementedError, match="not implemented for 'Bool'"):
        torch.addcmul(ints.bool(), ints.bool(), ints.bool())
    with pytest.raises(RuntimeError, match="Integer division with addcdiv is no longer supported"):
        torch.addcdiv(ints, ints, ints)
    x = torch.rand(3, dtype=torch.float64, requires_grad=True)
    y = torch.rand(3, dtype=torch.float64, requires_grad=True)
    assert gradcheck(lambda x, y: torch.addcdiv(x, x, y + 1, value=0.3), (x, y))
    assert gradcheck(lambda x, y: torch.addcmul(x, x, y, value=2), (x, y))


def test_logaddexp():
    a, b = arr((5,), 0) * 100, arr((5,), 1) * 100
    np.testing.assert_allclose(torch.logaddexp(t(a), t(b)).numpy(), np.logaddexp(a, b), rtol=1e-12)
    specials = np.array([np.inf, -np.inf, np.inf, -np.inf, np.nan, 1000.0, -1000.0])
    others = np.array([np.inf, -np.inf, -np.inf, 2.0, 1.0, 1000.0, -1000.0])
    np.testing.assert_allclose(torch.logaddexp(t(specials), t(others)).numpy(), np.logaddexp(specials, others))
    assert torch.logaddexp(torch.tensor([1, 2]), torch.tensor([3.0, 4.0])).dtype == torch.float32
    half = torch.logaddexp(torch.tensor([1.0], dtype=torch.float16), torch.tensor([2]))
    assert half.dtype == torch.float16 and half.item() == pytest.approx(np.logaddexp(1, 2), rel=1e-3)
    with pytest.raises(NotImplementedError, match="not implemented for 'Long'"):
        torch.logaddexp(torch.tensor([1, 2]), torch.tensor([3, 4]))
    x = torch.rand(4, dtype=torch.float64, requires_grad=True)
    y = torch.rand(4, dtype=torch.float64, requires_grad=True)
    assert gradcheck(torch.logaddexp, (x, y))


def test_angle_conversions_and_sign_tests():
    a = arr((6,), 3) * 360
    np.testing.assert_allclose(torch.deg2rad(t(a)).numpy(), np.deg2rad(a), rtol=1e-15)
    np.testing.assert_allclose(t(a).rad2deg().numpy(), np.rad2deg(a), rtol=1e-15)
    assert torch.deg2rad(torch.tensor([180])).dtype == torch.float32
    half = torch.deg2rad(torch.tensor([180.0], dtype=torch.float16))  # computed in float32, rounded once
    assert half.dtype == torch.float16 and half.item() == float(np.float16(np.pi))
    for dtype, npd in ((torch.float32, np.float32), (torch.float64, np.float64), (torch.float16, np.float16)):
        v = np.array([-0.0, 0.0, -1.5, 2.0, -np.inf, np.inf, np.nan, -np.nan], dtype=npd)
        x = t(v).to(dtype)
        np.testing.assert_array_equal(torch.signbit(x).numpy(), np.signbit(v))
        np.testing.assert_array_equal(torch.isposinf(x).numpy(), np.isposinf(v))
        np.testing.assert_array_equal(x.isneginf().numpy(), np.isneginf(v))
    assert torch.signbit(torch.tensor([-1, 0, 3])).tolist() == [True, False, False]
    assert torch.signbit(torch.tensor([-0.0], dtype=torch.bfloat16)).tolist() == [True]
    assert torch.signbit(torch.tensor([True])).tolist() == [False]
    assert torch.isposinf(torch.tensor([1, 2])).tolist() == [False, False]
    assert torch.signbit(torch.tensor([[-1.0, 2.0], [3.0, -0.0]]).t()).tolist() == [[True, False], [False, True]]


def test_trace_count_nonzero():
    a = arr((4, 3))
    assert torch.trace(t(a)).item() == pytest.approx(np.trace(a))
    ints = torch.arange(9).reshape(3, 3)
    assert torch.trace(ints).item() == 12 and torch.trace(ints).dtype == torch.int64
    with pytest.raises(RuntimeError, match="trace: expected a matrix, but got tensor with dim 1"):
        torch.trace(torch.ones(3))
    with pytest.raises(NotImplementedError, match="not implemented for 'Bool'"):
        torch.trace(torch.ones(2, 2, dtype=torch.bool))
    z = np.array([[0, 1, 2], [0, 0, 3]])
    assert torch.count_nonzero(t(z)).item() == 3 and torch.count_nonzero(t(z)).dtype == torch.int64
    assert torch.count_nonzero(t(z), dim=0).tolist() == np.count_nonzero(z, axis=0).tolist()
    assert t(z).count_nonzero((0, 1)).item() == 3
    x = torch.rand(3, 3, dtype=torch.float64, requires_grad=True)
    assert gradcheck(torch.trace, (x,))


def test_aminmax():
    a = arr((3, 4))
    r = torch.aminmax(t(a))
    assert type(r).__name__ == "aminmax" and r.min.item() == a.min() and r.max.item() == a.max()
    lo, hi = torch.aminmax(t(a), dim=1, keepdim=True)
    np.testing.assert_array_equal(lo.numpy(), a.min(1, keepdims=True))
    np.testing.assert_array_equal(hi.numpy(), a.max(1, keepdims=True))
    assert t(a).aminmax(dim=0).max.shape == (4,)
    assert torch.aminmax(t(a), keepdim=True).min.shape == (1, 1)
    assert "torch.return_types.aminmax(\nmin=" in repr(r)
    with pytest.raises(RuntimeError, match="cannot compute aminmax over an empty dimension"):
        torch.aminmax(torch.ones(0))
    with pytest.raises(IndexError, match="Expected reduction dim 0 to have non-zero size"):
        torch.aminmax(torch.ones(0, 3), dim=0)
    assert torch.aminmax(torch.ones(0, 3), dim=1).min.shape == (0,)
    with pytest.raises(IndexError, match="aminmax: Expected reduction dim 1 to have non-zero size"):
        torch.aminmax(torch.ones(2, 0), dim=-1)  # the wrapped dim, as PyTorch names it
    with pytest.raises(
        IndexError, match="Dimension out of range \\(expected to be in range of \\[-2, 1\\], but got 5\\)"
    ):
        torch.aminmax(torch.ones(2, 3), dim=5)


@pytest.mark.parametrize(
    "args, kwargs, ddof, axis, keepdims",
    [
        ((), {}, 1, None, False),
        ((False,), {}, 0, None, False),
        ((1,), {}, 1, 1, False),
        ((0, False, True), {}, 0, 0, True),
        ((), {"dim": (0, 1), "correction": 0}, 0, (0, 1), False),
        ((1,), {"keepdim": True, "correction": 2}, 2, 1, True),
    ],
)
def test_var_mean_std_mean(args, kwargs, ddof, axis, keepdims):
    a = arr((4, 5))
    v, m = torch.var_mean(t(a), *args, **kwargs)
    np.testing.assert_allclose(v.numpy(), a.var(axis=axis, ddof=ddof, keepdims=keepdims), rtol=1e-12)
    np.testing.assert_allclose(m.numpy(), a.mean(axis=axis, keepdims=keepdims), rtol=1e-12)
    s, m2 = torch.std_mean(t(a), *args, **kwargs)
    np.testing.assert_allclose(s.numpy(), a.std(axis=axis, ddof=ddof, keepdims=keepdims), rtol=1e-12)
    assert m2.shape == m.shape


def test_nansum_nanmean():
    a = arr((3, 4))
    a[0, 1] = a[2, 2] = np.nan
    a[1, :] = np.nan
    np.testing.assert_allclose(torch.nansum(t(a)).numpy(), np.nansum(a), rtol=1e-12)
    np.testing.assert_allclose(t(a).nansum(1).numpy(), np.nansum(a, 1), rtol=1e-12)
    np.testing.assert_allclose(torch.nansum(t(a), 0, keepdim=True).numpy(), np.nansum(a, 0, keepdims=True))
    with np.errstate(invalid="ignore"), pytest.warns(RuntimeWarning):
        want = np.nanmean(a, 1)
    np.testing.assert_allclose(torch.nanmean(t(a), 1).numpy(), want, rtol=1e-12)
    np.testing.assert_allclose(t(a).nanmean().numpy(), np.nanmean(a), rtol=1e-12)
    assert torch.nansum(torch.tensor([1, 2, 3])).item() == 6
    with pytest.raises(RuntimeError, match="nanmean\\(\\): expected input to have floating point"):
        torch.nanmean(torch.tensor([1, 2]))
    x = torch.tensor([1.0, math.nan, 2.0], dtype=torch.float64, requires_grad=True)
    torch.nanmean(x).backward()
    assert x.grad.tolist() == [0.5, 0.0, 0.5]
