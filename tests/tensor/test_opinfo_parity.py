"""Behaviours where this library answered differently from upstream PyTorch on upstream's own OpInfo sample
inputs (the differential fuzz, `python -m tools.fuzz --opinfo`). Each test states upstream's behaviour, so it
also passes against upstream 2.13 (`nox -s tests-reference`)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import torch

# ---- clamp_min / clamp_max ---------------------------------------------------------------------------------


def test_clamp_min_and_clamp_max_functions_methods_and_in_place_forms():
    x = torch.tensor([1, 5])
    assert torch.clamp_min(torch.tensor(-8), torch.tensor(6)).item() == 6
    assert torch.clamp_max(torch.tensor(-8), torch.tensor(6)).item() == -8
    assert torch.clamp_min(x, 3).tolist() == [3, 5]
    assert torch.clamp_max(x, max=3).tolist() == [1, 3]
    assert x.clamp_min(torch.tensor([3, 4])).tolist() == [3, 5]
    result = torch.clamp_min(x, 3.5)  # a float bound promotes
    assert result.dtype == torch.float32 and result.tolist() == [3.5, 5.0]
    out = torch.empty(2)
    assert torch.clamp_min(x, torch.tensor([3, 4]), out=out) is out and out.tolist() == [3.0, 5.0]
    y = torch.tensor([1.0, 5.0])
    assert y.clamp_max_(torch.tensor(3.5)) is y and y.tolist() == [1.0, 3.5]
    z = torch.tensor([1, 5])
    assert torch.clamp_min_(z, 2) is z and z.tolist() == [2, 5]
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        torch.tensor([1, 5]).clamp_min_(torch.tensor(3.5))
    with pytest.raises(TypeError, match="clamp_min"):
        torch.clamp_min(x, None)


# ---- dtype conversions take memory_format= -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "dtype"),
    [("float", torch.float32), ("half", torch.float16), ("bfloat16", torch.bfloat16), ("bool", torch.bool),
     ("byte", torch.uint8), ("char", torch.int8), ("short", torch.int16), ("int", torch.int32),
     ("long", torch.int64), ("double", torch.float64), ("cfloat", torch.complex64),
     ("cdouble", torch.complex128)],
)  # fmt: skip
def test_dtype_conversion_methods_take_memory_format(method, dtype):
    result = getattr(torch.tensor(-8), method)(memory_format=torch.legacy_contiguous_format)
    assert result.dtype == dtype and result.shape == ()
    x = torch.ones(2, 3, 4, 5).contiguous(memory_format=torch.channels_last)
    assert getattr(x, method)().stride() == x.stride()  # preserve_format by default
    assert getattr(x, method)(memory_format=torch.contiguous_format).is_contiguous()


# ---- scatter / scatter_reduce of 0-dim tensors, gather and scatter with an empty index ----------------------


@pytest.mark.parametrize(("reduce", "expected"), [("sum", -2), ("prod", -48), ("mean", -1), ("amax", 6), ("amin", -8)])
def test_scatter_reduce_of_0_dim_tensors(reduce, expected):
    out = torch.scatter_reduce(torch.tensor(-8), 0, torch.tensor(0), torch.tensor(6), reduce)
    assert out.shape == () and out.item() == expected


def test_scatter_of_0_dim_tensors_and_a_0_dim_index_into_a_vector():
    assert torch.scatter(torch.tensor(-3), 0, torch.tensor(0), 2.5, reduce="add").item() == -1
    assert torch.scatter(torch.tensor(1.0), 0, torch.tensor(0), 2.5, reduce="multiply").item() == 2.5
    one_dim = torch.scatter_reduce(torch.tensor([1.0, 2.0]), 0, torch.tensor(1), torch.tensor(5.0), "sum")
    assert one_dim.tolist() == [1.0, 7.0]
    with pytest.raises(RuntimeError, match="index 1 is out of bounds for dimension 0 with size 1"):
        torch.scatter_reduce(torch.tensor(1.0), 0, torch.tensor([1]), torch.tensor([5.0]), "sum")


def test_an_empty_index_of_any_dtype_gathers_and_scatters_nothing():
    x = torch.tensor([-8, 6, 9, 0, 0])
    empty = torch.empty([0], dtype=torch.uint8)
    gathered = torch.gather(x, 0, empty)
    assert gathered.dtype == torch.int64 and gathered.shape == (0,)
    assert torch.gather(x, 0, torch.empty([0, 2], dtype=torch.uint8)).shape == (0, 2)  # its dims unchecked
    assert torch.gather(torch.ones(2, 3), 1, torch.empty([3, 0], dtype=torch.long)).shape == (3, 0)
    assert torch.scatter(x, 0, empty, x[:0]).tolist() == x.tolist()
    assert torch.scatter_reduce(x, 0, empty, x[:0], "sum").tolist() == x.tolist()
    with pytest.raises(RuntimeError, match=r"^gather\(\): Expected dtype int32/int64 for index$"):
        torch.gather(x, 0, torch.tensor([1], dtype=torch.uint8))
    with pytest.raises(RuntimeError, match=r"^scatter\(\): Expected dtype int32/int64 for index$"):
        torch.scatter(x, 0, torch.tensor([1], dtype=torch.uint8), x[:1])


# ---- gradient, tensordot, linalg.vander, quantile, sum_to_size -----------------------------------------------


def test_gradient_spacing_none_is_a_step_of_one():
    (result,) = torch.gradient(torch.tensor([-8, 6, 9, 0, 0]), spacing=None)
    assert result.dtype == torch.float32 and result.tolist() == [14.0, 8.5, -3.0, -4.5, 0.0]


def test_tensordot_broadcasts_a_contracted_dim_of_size_1():
    a = torch.tensor([-1]).reshape(1, 1, 1)
    b = torch.tensor([-1, -1, 1, 1]).reshape(2, 1, 2)
    result = torch.tensordot(a, b, dims=([0, 1], [2, 0]))  # size 1 against 2, twice: b is summed there
    assert result.dtype == torch.int64 and result.tolist() == [[0]]
    a, b = np.arange(6.0).reshape(1, 2, 3), np.arange(8.0).reshape(4, 2)
    c = torch.tensordot(torch.from_numpy(a), torch.from_numpy(b), dims=([0, 1], [0, 1]))
    assert c.tolist() == (b.sum(0) @ a[0]).tolist()  # a's dim 0 of size 1 against b's of 4
    with pytest.raises(RuntimeError, match="contracted dimensions need to match"):
        torch.tensordot(torch.ones(3, 2), torch.ones(4, 2), dims=([0, 1], [0, 1]))


def test_linalg_vander_of_a_0_dim_input_and_its_dtypes():
    result = torch.linalg.vander(torch.tensor(-8), N=2)
    assert result.dtype == torch.int64 and result.tolist() == [[1, -8]]
    assert torch.linalg.vander(torch.tensor(3.0), N=4).tolist() == [[1.0, 3.0, 9.0, 27.0]]
    for dtype in (torch.bool, torch.float16, torch.bfloat16):
        with pytest.raises(RuntimeError, match="linalg.vander supports floating point, complex, and integer"):
            torch.linalg.vander(torch.ones(2, dtype=dtype))


@pytest.mark.parametrize("fn", [torch.quantile, torch.nanquantile])
def test_quantile_keepdim_of_a_0_dim_input_keeps_no_dim(fn):
    x = torch.tensor(-4.3228044509887695)
    assert fn(x, 0.5, dim=0, keepdim=True).shape == ()
    assert fn(x, torch.tensor([0.5, 0.2]), dim=0, keepdim=True).shape == (2,)
    assert fn(torch.tensor([[3.0, 1.0]]), torch.tensor([0.5, 0.2]), dim=1, keepdim=True).shape == (2, 1, 1)


def test_sum_to_size_of_no_dims_is_a_full_sum():
    result = torch.tensor(True).sum_to_size(())
    assert result.dtype == torch.int64 and result.item() == 1
    assert torch.tensor(1, dtype=torch.int8).sum_to_size(()).dtype == torch.int64
    assert torch.tensor([1, 2], dtype=torch.int8).sum_to_size(2).dtype == torch.int8  # nothing summed


# ---- addr / addmv / addbmm / baddbmm: scalars converted to the result's dtype ---------------------------------


def test_integer_addmv_addbmm_baddbmm_truncate_float_beta_and_alpha():
    v, m = torch.tensor([1, 2]), torch.tensor([[1, 2], [3, 4]])
    i, b = torch.tensor([[3, 4], [5, 6]]), torch.tensor([[[1, 2], [3, 4]]])
    mv = torch.addmv(v, m, v, beta=1.6, alpha=-2.5)  # beta 1, alpha -2
    assert mv.dtype == torch.int64 and mv.tolist() == [-9, -20]
    for fn in (torch.baddbmm, torch.addbmm):
        result = fn(i, b, b, beta=1.6, alpha=-2.5)
        assert result.dtype == torch.int64 and result.reshape(2, 2).tolist() == [[-11, -16], [-25, -38]]
    assert torch.Tensor.addmv_(v.clone(), m, v, beta=1.5, alpha=2).tolist() == [11, 24]
    with pytest.raises(RuntimeError, match="value cannot be converted to type int8_t without overflow"):
        torch.addmv(v.to(torch.int8), m.to(torch.int8), v.to(torch.int8), alpha=300)
    with pytest.raises(RuntimeError, match="value cannot be converted to type float without overflow"):
        torch.addmv(v.float(), m.float(), v.float(), beta=1 + 1j)


def test_addr_computes_in_the_promoted_dtype_with_upstreams_scalar_checks():
    t = torch.tensor
    result = torch.addr(t(True), t([True, False, True, False, False]), t([False, True, True]), beta=3, alpha=2)
    assert result.dtype == torch.bool and result.all()
    assert torch.addr(t([[True]]), t([True]), t([True]), beta=0, alpha=0).tolist() == [[False]]
    promoted = torch.addr(t(2), t([1, 2], dtype=torch.int8), t([1, 2], dtype=torch.int8), alpha=2)
    assert promoted.dtype == torch.int64 and promoted.tolist() == [[4, 6], [6, 10]]
    with pytest.raises(RuntimeError, match="For integral input tensors, argument beta must not be a floating"):
        torch.addr(t([[3, 4]]), t([1]), t([1, 2]), beta=0.6)
    with pytest.raises(RuntimeError, match="Boolean alpha only supported for Boolean results."):
        torch.addr(t([[3, 4]]), t([1]), t([1, 2]), alpha=True)
    # the alpha is rounded to float16 first (0.7 is 0.7002 there)
    half = torch.addr(torch.zeros(1, 1, dtype=torch.half), t([0.1], dtype=torch.half), t([0.3], dtype=torch.half),
                      alpha=0.7)  # fmt: skip
    assert half.item() == 0.0210113525390625


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32, torch.float64, torch.complex64])
def test_addr_alpha_0_still_multiplies_but_beta_0_ignores_input(dtype):
    nan = torch.tensor([math.nan], dtype=dtype)
    assert torch.addr(torch.zeros(1, 1, dtype=dtype), nan, nan, beta=0.0, alpha=0.0).isnan().all()
    assert torch.addr(torch.zeros(1, 1, dtype=dtype), nan, nan, beta=1.0, alpha=0.0).isnan().all()
    one = torch.ones(1, dtype=dtype)
    assert torch.addr(torch.full((1, 1), math.nan, dtype=dtype), one, one, beta=0.0).tolist() == [[1.0]]


# ---- cov ----------------------------------------------------------------------------------------------------


def test_cov_promotes_with_its_weights_step_by_step():
    x = torch.tensor([-8.4765625, -1.765625], dtype=torch.half)
    aweights = torch.tensor([0.25984418392181396, 0.3666413426399231])
    result = torch.cov(x, correction=0, aweights=aweights)
    assert result.dtype == torch.float32 and result.item() == pytest.approx(10.931977, rel=1e-6)
    # the normalization is computed in the weights' float32, as upstream's
    d = torch.tensor([-4.826984902407649, -7.582430495695129], dtype=torch.double)
    assert torch.cov(d, aweights=aweights).item() == pytest.approx(3.7962403405395033, rel=1e-12, abs=0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"fweights": torch.tensor([1, -1, 2])}, "fweights cannot be negative"),
        ({"aweights": torch.tensor([0.0, 0.0, 0.0])}, "weights sum to zero, can't be normalized"),
        ({"fweights": torch.tensor([[1, 1, 1]])}, "expected fweights to have one or fewer dimensions"),
        ({"fweights": torch.tensor([1, 1])}, "expected fweights to have the same numel as there are observations"),
        ({"fweights": torch.tensor([1.0, 1.0, 1.0])}, "expected fweights to have integral dtype"),
        ({"aweights": torch.tensor([1, 1, 1])}, "expected aweights to have floating point dtype"),
    ],
)
def test_cov_checks_its_weights(kwargs, message):
    with pytest.raises(RuntimeError, match=message):
        torch.cov(torch.tensor([[1.0, 2, 4], [3, 1, 0]]), **kwargs)


def test_cov_refuses_bool():
    with pytest.raises(RuntimeError, match="cov\\(\\): bool dtype is not supported for input"):
        torch.cov(torch.tensor([True, False]))


# ---- linalg.norm of empty matrices ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape", "ord", "keepdim", "expected_shape"),
    [((0, 0), 1, True, (1, 1)), ((0, 0), math.inf, False, ()), ((3, 0), 1, False, ()), ((0, 0), 2, False, ()),
     ((2, 0, 3), math.inf, False, (2,)), ((0, 3), -1, False, ())],
)  # fmt: skip
def test_matrix_norm_of_an_empty_matrix_is_0(shape, ord, keepdim, expected_shape):
    result = torch.linalg.norm(torch.empty(shape, dtype=torch.half if ord == 1 else torch.float), ord,
                               dim=(-2, -1), keepdim=keepdim)  # fmt: skip
    assert result.shape == expected_shape and (result == 0).all()


@pytest.mark.parametrize(("shape", "ord", "dim"), [((0, 0), -1, "0"), ((3, 0), -1, "0"), ((2, 0, 0), -2, "-1")])
def test_the_smallest_norm_of_none_is_amins_error(shape, ord, dim):
    with pytest.raises(IndexError, match=f"amin\\(\\): Expected reduction dim {dim} to have non-zero size"):
        torch.linalg.matrix_norm(torch.empty(shape), ord)


def test_vector_inf_norm_over_an_empty_dim():
    with pytest.raises(RuntimeError, match="cannot compute the inf norm on the dimension -2because this dimension"):
        torch.linalg.vector_norm(torch.empty(0, 3), math.inf, -2)


# ---- histograms ------------------------------------------------------------------------------------------------


def test_histogram_of_an_empty_input_bins_0_to_1():
    hist, edges = torch.histogram(torch.empty([5, 0, 5]), 1, density=True)
    assert edges.tolist() == [0.0, 1.0] and hist.isnan().all()
    hist, edges = torch.histogramdd(torch.empty([5, 0, 5], dtype=torch.double), (1, 1, 1, 1, 1), density=True)
    assert all(e.tolist() == [0.0, 1.0] for e in edges)
    assert torch.histogram(torch.tensor([2.0, 2.0]), 4).bin_edges.tolist() == [1.5, 1.75, 2.0, 2.25, 2.5]


def test_histc_of_float16_computes_its_bins_in_float16():
    x = torch.tensor([-8.4765625, -1.765625, -4.32421875, -2.400390625, -7.94921875], dtype=torch.half)
    hist = torch.histc(x, min=-10, max=0)
    # -2.400390625 + 10 rounds to 7.6015625 in float16: bin 76, not 75
    assert hist.dtype == torch.half and hist.nonzero().flatten().tolist() == [15, 20, 56, 76, 82]


# ---- linalg.eig, vdot, ldexp ---------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.complex64])
def test_eig_of_an_empty_matrix_has_empty_eigenvectors(dtype):
    values, vectors = torch.linalg.eig(torch.empty([3, 0, 0], dtype=dtype))
    assert values.shape == (3, 0) and vectors.shape == (3, 0, 0)
    assert vectors.dtype == values.dtype == (dtype if dtype.is_complex else dtype.to_complex())


def test_vdot_conjugates_its_first_operand():
    a = np.array([-8.5 - 1.75j, -4.25 - 2.5j, 3.0 + 1.0j], dtype=np.complex64)
    b = np.array([5.0 + 1.0j, 4.5 + 5.5j, -4.0 + 3.0j], dtype=np.complex64)
    result = torch.vdot(torch.from_numpy(a), torch.from_numpy(b))
    assert result.dtype == torch.complex64 and result.item() == complex(np.vdot(a, b))


def test_ldexp_with_a_complex_operand_is_input_times_2_to_the_other():
    x, e = complex(-8.478373527526855, -1.765825867652893), complex(-4.3228044509887695, -2.400455951690674)
    result = torch.ldexp(torch.tensor(x, dtype=torch.cfloat), torch.tensor(e, dtype=torch.cfloat))
    assert result.dtype == torch.complex64 and result.item() == pytest.approx(x * 2**e, rel=1e-6)
    promoted = torch.ldexp(torch.tensor([1.5 + 1j]), torch.tensor([3.0], dtype=torch.double))
    assert promoted.dtype == torch.complex128 and promoted.item() == pytest.approx(12 + 8j, rel=1e-15)
    real_input = torch.ldexp(torch.tensor([1.5]), torch.tensor([1 + 1j]))
    assert real_input.dtype == torch.complex64 and real_input.item() == pytest.approx(1.5 * 2 ** (1 + 1j), rel=1e-6)


@pytest.mark.parametrize("dtype", [torch.int8, torch.uint8, torch.int32, torch.int64, torch.float32])
def test_addbmm_keeps_the_operands_dtype(dtype):
    b1 = torch.arange(24).reshape(2, 3, 4).to(dtype)
    b2 = torch.arange(40).reshape(2, 4, 5).to(dtype)
    r = torch.addbmm(torch.ones((), dtype=dtype), b1, b2)
    assert r.dtype == dtype
    want = (b1.double() @ b2.double()).sum(0) + 1
    if dtype.is_floating_point:
        assert torch.equal(r.double(), want)
    else:  # integer sums wrap in the dtype
        assert torch.equal(r, want.long().to(dtype))


@pytest.mark.parametrize("dtype", [torch.float64, torch.complex128])
def test_lerp_with_a_number_weight_keeps_double_precision(dtype):
    # 1 - weight was a float32 (complex64) number: results of weight >= 0.5 were off by ~1e-7
    a = np.linspace(-3.3, 7.1, 999)
    b = np.sin(a * 1.37)
    w = 0.7 if dtype == torch.float64 else complex(0.7, 0.01)
    if dtype == torch.complex128:
        a, b = a * (1 + 0.3j), b * (0.2 - 1j)
    want = b - (b - a) * (1 - w)
    got = torch.lerp(torch.tensor(a, dtype=dtype), torch.tensor(b, dtype=dtype), w).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-15)
