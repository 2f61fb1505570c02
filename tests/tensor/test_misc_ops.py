"""Float classification, closeness, logic, lerp, sorting, norms, finfo/iinfo and DLPack, against
NumPy and PyTorch's semantics.

Runs against upstream PyTorch too (nox -s tests-reference).
"""

from __future__ import annotations

import gc
import math

import numpy as np
import pytest

import torch

SPECIAL = [1.0, float("nan"), float("inf"), -float("inf"), 0.0, -2.5]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_classification(dtype):
    x = torch.tensor(SPECIAL, dtype=dtype)
    a = np.array(SPECIAL)
    np.testing.assert_array_equal(x.isnan().numpy(), np.isnan(a))
    np.testing.assert_array_equal(torch.isinf(x).numpy(), np.isinf(a))
    np.testing.assert_array_equal(x.isfinite().numpy(), np.isfinite(a))
    big = np.finfo(np.float32 if dtype == torch.float32 else np.float64).max
    np.testing.assert_array_equal(
        x.nan_to_num().numpy(), np.nan_to_num(a.astype(x.numpy().dtype), posinf=big, neginf=-big)
    )
    np.testing.assert_array_equal(torch.nan_to_num(x, nan=7.0, posinf=1.0, neginf=-1.0).numpy(), [1, 7, 1, -1, 0, -2.5])
    assert not torch.arange(3).isnan().any()
    assert torch.arange(3).isfinite().all()


def test_isclose_allclose_equal():
    a = torch.tensor([1.0, 2.0, float("inf"), float("nan"), 1.0])
    b = torch.tensor([1.000001, 2.1, float("inf"), float("nan"), float("inf")])
    np.testing.assert_array_equal(torch.isclose(a, b).numpy(), np.isclose(a.numpy(), b.numpy()))
    np.testing.assert_array_equal(
        a.isclose(b, equal_nan=True).numpy(), np.isclose(a.numpy(), b.numpy(), equal_nan=True)
    )
    assert torch.allclose(torch.ones(3), torch.ones(3) + 1e-9)
    assert not torch.allclose(torch.ones(3), torch.ones(3) * 1.1)
    assert torch.equal(torch.arange(3), torch.arange(3))
    assert not torch.equal(torch.arange(3), torch.arange(4))
    assert torch.ones(2).equal(torch.ones(2))
    assert torch.equal(torch.tensor([1]), torch.tensor([1.0]))  # values compared across dtypes
    assert not torch.equal(torch.tensor([float("nan")]), torch.tensor([float("nan")]))
    assert not torch.ones(2).equal(torch.ones(1, 2))  # shapes must match exactly
    assert torch.ones(2, 3).t().equal(torch.ones(3, 2))
    assert type(torch.equal(torch.ones(1), torch.ones(1))) is bool
    assert type(torch.ones(2).allclose(torch.ones(2))) is bool
    assert torch.allclose(torch.ones(2), torch.ones(1))  # broadcast
    assert torch.allclose(torch.arange(3), torch.arange(3))
    with pytest.raises(RuntimeError, match="Float did not match Double"):
        torch.allclose(torch.ones(2), torch.ones(2, dtype=torch.float64))
    with pytest.raises(RuntimeError, match="Long did not match Float"):
        torch.isclose(torch.ones(2, dtype=torch.int64), torch.ones(2))
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(2\) must match the size of tensor b \(3\)"):
        torch.allclose(torch.ones(2), torch.ones(3))


def test_logic_and_lerp():
    assert (~torch.tensor([True, False])).tolist() == [False, True]
    assert (~torch.tensor([1, -2])).tolist() == [-2, 1]
    assert torch.logical_not(torch.tensor([0.0, 2.0, float("nan")])).tolist() == [True, False, False]
    s, e = torch.zeros(3), torch.tensor([1.0, 2.0, 4.0])
    np.testing.assert_allclose(torch.lerp(s, e, 0.25).numpy(), [0.25, 0.5, 1.0])
    np.testing.assert_allclose(s.lerp(e, torch.tensor([0.0, 0.5, 1.0])).numpy(), [0.0, 1.0, 4.0])


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32, torch.float64])
def test_lerp_ends_exactly_and_rounds_16_bit_floats_once(dtype):
    rng = np.random.default_rng(1)
    a = torch.from_numpy(rng.standard_normal(1000) * 100).to(dtype)
    b = torch.from_numpy(rng.standard_normal(1000)).to(dtype)
    assert torch.equal(torch.lerp(a, b, 1.0), b) and torch.equal(
        torch.lerp(a, b, 0.0), a
    )  # large weights step from end
    assert torch.equal(torch.lerp(a, b, torch.ones(1000, dtype=dtype)), b)
    h = torch.tensor([0.3], dtype=torch.float16)
    # computed in float32 and rounded once: -0.6 to the nearest half, not -0.6006 (two roundings)
    assert torch.lerp(h, h * 0, 3.0).item() == float(np.float16(-0.6))


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_sort_argsort_topk(dim, descending):
    a = np.random.default_rng(0).integers(0, 5, (4, 6)).astype(np.float64)  # ties: stability matters
    t = torch.from_numpy(a)
    values, indices = torch.sort(t, dim=dim, descending=descending, stable=True)
    order = np.argsort(-a if descending else a, axis=dim, kind="stable")
    np.testing.assert_array_equal(indices.numpy(), order)
    np.testing.assert_array_equal(values.numpy(), np.take_along_axis(a, order, axis=dim))
    np.testing.assert_array_equal(t.argsort(dim=dim, descending=descending).numpy().shape, a.shape)
    np.testing.assert_array_equal(torch.argsort(t, stable=True, dim=dim, descending=descending).numpy(), order)
    np.testing.assert_array_equal(t.argsort(stable=True, dim=dim, descending=descending).numpy(), order)
    v, i = t.topk(2, dim=dim)
    np.testing.assert_array_equal(v.numpy(), np.take_along_axis(a, i.numpy(), axis=dim))
    np.testing.assert_array_equal(v.numpy(), np.flip(np.sort(a, axis=dim), axis=dim).take([0, 1], axis=dim))


def test_sort_puts_nan_last():
    v, i = torch.sort(torch.tensor([3.0, float("nan"), 1.0, 2.0]))
    assert v.tolist()[:3] == [1.0, 2.0, 3.0] and math.isnan(v.tolist()[3])
    assert i.tolist() == [2, 3, 0, 1]
    with pytest.raises((IndexError, RuntimeError)):
        torch.topk(torch.ones(3), 4)


SORT_DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32, torch.uint8]


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("dtype", [*SORT_DTYPES, torch.bool])
def test_sort_is_stable_along_every_dim(dtype, descending):
    # a few distinct values: long runs of ties, whose order only a stable sort keeps
    a = np.random.default_rng(2).integers(0, 2 if dtype == torch.bool else 4, (3, 5, 40))
    t = torch.from_numpy(a).to(dtype)
    for dim in range(3):
        for x, ref in ((t, a), (t.transpose(0, 2), a.swapaxes(0, 2)), (t[:, ::2], a[:, ::2])):
            values, indices = torch.sort(x, dim=dim, descending=descending, stable=True)
            order = np.argsort(-ref if descending else ref, axis=dim, kind="stable")
            np.testing.assert_array_equal(indices.numpy(), order)
            np.testing.assert_array_equal(values.to(torch.int64).numpy(), np.take_along_axis(ref, order, axis=dim))
            assert torch.equal(x.gather(dim, x.argsort(dim=dim, descending=descending)), values)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16])
def test_sort_nan_is_largest_and_signed_zeros_keep_their_order(dtype):
    nan = float("nan")
    x = torch.tensor([nan, -0.0, 0.0, 1.0, -nan, -0.0, 0.0, -float("inf")], dtype=dtype)
    values, indices = torch.sort(x, stable=True)
    assert indices.tolist() == [7, 1, 2, 5, 6, 3, 0, 4]
    assert torch.equal(torch.signbit(values), torch.signbit(x[indices]))
    values, indices = torch.sort(x, descending=True, stable=True)
    assert indices.tolist() == [0, 4, 3, 1, 2, 5, 6, 7]
    assert values[:2].isnan().all() and torch.equal(torch.signbit(values[2:]), torch.signbit(x[indices[2:]]))
    assert torch.topk(x, 3).indices.tolist() == [0, 4, 3]
    assert torch.topk(x, 1, largest=False).indices.tolist() == [7]


def test_sort_many_lines_and_one_long_line():
    rng = np.random.default_rng(3)
    rows = rng.integers(0, 50, (20_000, 7))
    values, indices = torch.from_numpy(rows).sort(dim=1, stable=True)
    np.testing.assert_array_equal(indices.numpy(), np.argsort(rows, axis=1, kind="stable"))
    np.testing.assert_array_equal(values.numpy(), np.sort(rows, axis=1))
    line = rng.standard_normal(300_000).astype(np.float32)
    values, indices = torch.from_numpy(line).sort(descending=True, stable=True)
    np.testing.assert_array_equal(indices.numpy(), np.argsort(-line, kind="stable"))
    np.testing.assert_array_equal(values.numpy(), -np.sort(-line))


def test_sort_empty_scalar_and_complex():
    values, indices = torch.sort(torch.ones(0, 3), dim=0)
    assert values.shape == indices.shape == (0, 3) and indices.dtype == torch.int64
    values, indices = torch.sort(torch.tensor(3.0))
    assert values.item() == 3.0 and indices.item() == 0 and indices.shape == ()
    z = torch.tensor([1 + 2j, -1j])
    with pytest.raises(RuntimeError, match="Sort does not support complex"):
        torch.sort(z)
    with pytest.raises(RuntimeError, match="Sort does not support complex"):
        torch.argsort(z)
    with pytest.raises(RuntimeError, match="topk does not support complex"):
        torch.topk(z, 1)
    with pytest.raises(RuntimeError, match="topk does not support bool"):
        torch.topk(torch.tensor([True, False]), 1)


def test_norm_and_logsumexp():
    a = np.random.default_rng(1).standard_normal((3, 4))
    t = torch.from_numpy(a)
    np.testing.assert_allclose(torch.norm(t).item(), np.linalg.norm(a), rtol=1e-12)
    np.testing.assert_allclose(t.norm(p=1, dim=1).numpy(), np.abs(a).sum(1), rtol=1e-12)
    np.testing.assert_allclose(t.norm(p=float("inf"), dim=0).numpy(), np.abs(a).max(0), rtol=1e-12)
    np.testing.assert_allclose(
        t.norm(p=3, dim=1, keepdim=True).numpy(), (np.abs(a) ** 3).sum(1, keepdims=True) ** (1 / 3), rtol=1e-12
    )
    np.testing.assert_allclose(torch.logsumexp(t, 1).numpy(), np.log(np.exp(a).sum(1)), rtol=1e-12)
    big = torch.tensor([1000.0, 1000.0], dtype=torch.float64)
    np.testing.assert_allclose(torch.logsumexp(big, 0).item(), 1000 + math.log(2), rtol=1e-12)
    np.testing.assert_allclose(t.t().logsumexp((0, 1)).item(), np.log(np.exp(a).sum()), rtol=1e-12)
    np.testing.assert_allclose(
        t[:, ::2].logsumexp(-1, keepdim=True).numpy(), np.log(np.exp(a[:, ::2]).sum(-1, keepdims=True)), rtol=1e-12
    )
    inf = float("inf")
    assert torch.logsumexp(torch.tensor([inf, 1.0]), 0).item() == inf
    assert torch.logsumexp(torch.tensor([-inf, -inf]), 0).item() == -inf
    assert torch.logsumexp(torch.ones(0), 0).item() == -inf
    assert torch.logsumexp(torch.ones(0, 3), 1).shape == (0,)
    assert torch.logsumexp(torch.tensor(3.0), 0).item() == 3.0
    ints = torch.logsumexp(torch.tensor([1, 2]), 0)
    assert ints.dtype == torch.float32 and abs(ints.item() - math.log(math.e + math.e**2)) < 1e-6


def test_finfo_iinfo():
    f = torch.finfo(torch.float32)
    assert f.bits == 32 and f.eps == np.finfo(np.float32).eps and f.max == float(np.finfo(np.float32).max)
    assert torch.finfo(torch.float64).tiny == np.finfo(np.float64).tiny
    assert torch.finfo().bits == 32
    i = torch.iinfo(torch.int16)
    assert (i.bits, i.min, i.max) == (16, -32768, 32767)
    with pytest.raises(TypeError):
        torch.iinfo(torch.float32)


def test_dlpack_shares_memory():
    a = np.arange(4.0)
    t = torch.from_dlpack(a)
    t[0] = 9.0
    assert a[0] == 9.0
    back = np.from_dlpack(torch.ones(3))
    np.testing.assert_array_equal(back, [1.0, 1.0, 1.0])


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.bool, torch.int8, torch.float64])
def test_dlpack_round_trip_every_dtype(dtype):
    src = torch.arange(6).reshape(2, 3).t().to(dtype)  # transposed: strides travel too
    for via in (src, src.__dlpack__(), src.__dlpack__(max_version=(1, 0))):
        t = torch.from_dlpack(via)
        assert t is not src and t.dtype == dtype and t.shape == src.shape and t.stride() == src.stride()
        assert t.data_ptr() == src.data_ptr()
        assert t.tolist() == src.tolist()
    t = torch.from_dlpack(src)
    t[0, 0] = 1
    assert src[0, 0].item() == 1  # the same memory
    del src
    gc.collect()
    assert t.tolist()[1] == torch.arange(6).reshape(2, 3).t().to(dtype).tolist()[1]  # still alive


def test_dlpack_errors():
    capsule = torch.ones(2).__dlpack__()
    torch.from_dlpack(capsule)
    with pytest.raises(RuntimeError, match="consumed only once"):
        torch.from_dlpack(capsule)
    with pytest.raises(BufferError, match="Can't export tensors that require gradient, use tensor.detach()"):
        torch.ones(2, requires_grad=True).__dlpack__()
    assert tuple(torch.ones(2).__dlpack_device__()) == (1, 0)
    with pytest.raises(RuntimeError, match="invalid capsule"):
        torch.from_dlpack(object())  # neither __dlpack__ nor a capsule


def test_norm_with_p_none_is_the_2_norm():
    t = torch.tensor([[3.0, 4.0], [0.0, 12.0]])
    assert t.norm(p=None).item() == 13.0
    assert torch.norm(t, None, dim=1).tolist() == [5.0, 12.0]


@pytest.mark.parametrize("decimals", [-2, -1, 0, 1, 3])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_round_decimals_matches_numpy(decimals, dtype):
    x = np.random.default_rng(decimals + 5).normal(scale=100, size=200).astype(str(dtype).split(".")[1])
    x[:4] = [0.125, -2.5, 25.0, 0.5]  # halves round to even
    t = torch.from_numpy(x.copy())
    want = np.round(x, decimals)
    np.testing.assert_array_equal(torch.round(t, decimals=decimals).numpy(), want)
    np.testing.assert_array_equal(t.round(decimals=decimals).numpy(), want)


def test_round_decimals_errors_and_gradient():
    with pytest.raises(NotImplementedError, match="not implemented"):
        torch.tensor([1, 2]).round(decimals=1)
    x = torch.rand(3, dtype=torch.float64, requires_grad=True)
    x.round(decimals=2).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("dim", [None, (0,), (1,), (0, 1), (-1, 0), 1])
@pytest.mark.parametrize("keepdim", [False, True])
def test_all_any_over_dims(dim, keepdim):
    a = np.random.default_rng(7).integers(0, 2, size=(3, 4)).astype(bool)
    a[0] = True
    t = torch.from_numpy(a.copy())
    axis = None if dim is None else dim
    for op in ("all", "any"):
        got = getattr(torch, op)(t, dim=dim, keepdim=keepdim) if dim is not None else getattr(t, op)(dim=None)
        want = getattr(np, op)(a, axis=axis, keepdims=keepdim and dim is not None)
        assert got.dtype == torch.bool
        np.testing.assert_array_equal(got.numpy(), want)
