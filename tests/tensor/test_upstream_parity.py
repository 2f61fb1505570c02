"""Behaviours where this library answered differently from upstream PyTorch (found by the differential fuzz,
`python -m tools.fuzz`, and listed as "ours:" in tools/fuzz/known.txt until fixed). Each test states upstream's
behaviour, so it also passes against upstream 2.13 (`nox -s tests-reference`)."""

from __future__ import annotations

import warnings

import pytest

import torch

HALF_OVERFLOW = "value cannot be converted to type c10::Half without overflow"


# ---- chunk / arange ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("shape", "dim"), [((0,), 0), ((0, 2), 0), ((2, 0), 1)])
def test_chunk_of_an_empty_dim_gives_every_chunk(shape, dim):
    pieces = torch.empty(shape).chunk(3, dim)
    assert len(pieces) == 3
    assert all(p.shape == torch.Size(shape) for p in pieces)
    assert pieces[0] is not pieces[1]  # distinct views


@pytest.mark.parametrize(
    ("args", "dtype", "expected"),
    [
        ((0.1,), torch.int64, []),  # the end is truncated first for int64
        ((0, 5, 1.5), torch.int64, [0, 1, 2, 3, 4]),  # so is the step
        ((0.5, 5.7, 1.5), torch.int64, [0, 1, 2, 3, 4]),
        ((-2.5, 3), torch.int32, [-2, -1, 0, 1, 2, 3]),  # other integer dtypes count in double
        ((0, 5, 0.5), torch.int32, [0] * 10),  # ... and step by the truncated step
        ((0.5, 3.5, 1.0), torch.int32, [0, 1, 2]),
        ((0, 300, 100), torch.uint8, [0, 100, 200]),
        ((2**60, 2**60 + 3), torch.int64, [2**60, 2**60 + 1, 2**60 + 2]),  # exact past 2^53
    ],
)
def test_arange_with_an_integer_dtype(args, dtype, expected):
    t = torch.arange(*args, dtype=dtype)
    assert t.dtype == dtype
    assert t.tolist() == expected


def test_arange_errors():
    with pytest.raises(ValueError, match="step must be nonzero"):
        torch.arange(0, 5, 0.5, dtype=torch.int64)  # the step truncates to 0
    with pytest.raises(RuntimeError, match="step must be nonzero"):
        torch.arange(0, 5, 0)
    with pytest.raises(RuntimeError, match="upper bound and lower bound inconsistent with step sign"):
        torch.arange(0, 5, -1)
    with pytest.raises(RuntimeError, match="value cannot be converted to type int64_t without overflow"):
        torch.arange(0, 1e300, dtype=torch.int64)
    with pytest.raises(NotImplementedError, match="not implemented for 'Bool'"):
        torch.arange(0, 5, dtype=torch.bool)


def test_linspace_of_one_step_is_its_start():
    assert torch.linspace(7, -2.75, 1, dtype=torch.uint8).tolist() == [7]
    assert torch.linspace(0, 1e6, 1, dtype=torch.float16).tolist() == [0.0]
    assert torch.linspace(-5.5, float("nan"), 1, dtype=torch.bool).tolist() == [True]
    assert torch.linspace(1e30, 1e30, 1, dtype=torch.float16).tolist() == [float("inf")]  # one CPU element: unchecked


# ---- subscripts: numbers in disguise --------------------------------------------------------------------------


def test_a_0dim_integer_tensor_subscript_is_an_int():
    x = torch.arange(24).reshape(2, 3, 4)
    assert x[torch.tensor(0), :, [1]].shape == (3, 1)  # as x[0, :, [1]]: no advanced-dims move
    assert x[:, torch.tensor(0), [1]].shape == (2, 1)
    assert x[torch.tensor(1), ..., torch.tensor(2)].shape == (3,)
    v = x[torch.tensor(1)]  # a view, as x[1]
    v[0, 0] = 100
    assert x[1, 0, 0].item() == 100
    y = torch.zeros(3)
    y[torch.tensor(1)] = 5
    assert y.tolist() == [0.0, 5.0, 0.0]
    with pytest.raises(IndexError, match="tensors used as indices must be long, int, byte or bool tensors"):
        x[torch.tensor(1.5)]


def test_bool_subscripts_add_a_dim():
    x = torch.arange(24).reshape(2, 3, 4)
    assert x[True].shape == (1, 2, 3, 4)
    assert x[False].shape == (0, 2, 3, 4)
    assert x[0, True].shape == (1, 3, 4)
    assert x[[0, 1], True].shape == (2, 3, 4)
    assert x[torch.tensor(True)].shape == (1, 2, 3, 4)
    y = torch.tensor([[-6, 11]], dtype=torch.int32)
    y[True, ::2, ..., None, ...] = 65
    assert y.tolist() == [[65, 65]]


def test_several_ellipses():
    x = torch.arange(24).reshape(2, 3, 4)
    assert x[..., ...].shape == (2, 3, 4)
    assert torch.tensor(3)[..., ...].item() == 3


def test_index_put_reads_0dim_indices_as_tensors():
    x = torch.tensor([[-0.75, -0.25, 0.25], [-2.75, 0.5, -3.75]])
    x.index_put_((torch.tensor(1),), torch.tensor(-2.25), accumulate=True)
    assert x.tolist() == [[-0.75, -0.25, 0.25], [-5.0, -1.75, -6.0]]
    i8 = torch.int8
    y = torch.index_put(
        torch.tensor([[64]], dtype=i8), (torch.tensor(-1),), torch.tensor([2], dtype=i8), accumulate=True
    )
    assert y.tolist() == [[66]]


# ---- numbers written into the 16-bit and 8-bit floats ---------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: torch.full((2,), 65505.0, dtype=torch.float16),
        lambda: torch.zeros(2, dtype=torch.float16).fill_(1e6),
        lambda: torch.zeros(2, dtype=torch.float16).masked_fill(torch.tensor([True, False]), -1e9),
        lambda: torch.tensor([1.0, 2.0], dtype=torch.float16).clamp(max=1e6),
        lambda: torch.zeros(2, dtype=torch.float16).add(torch.ones(2, dtype=torch.float16), alpha=1e6),
        lambda: torch.tensor([2.0], dtype=torch.float16) ** 1e6,
    ],
)
def test_a_number_past_float16_is_refused(call):
    with pytest.raises(RuntimeError, match=HALF_OVERFLOW):
        call()


def test_other_reduced_floats_are_checked():
    with pytest.raises(RuntimeError, match="c10::BFloat16 without overflow"):
        torch.full((2,), 3.4e38, dtype=torch.bfloat16)
    with pytest.raises(RuntimeError, match="c10::Float8_e4m3fn without overflow"):
        torch.full((2,), 449.0, dtype=torch.float8_e4m3fn)
    assert torch.full((2,), 448.0, dtype=torch.float8_e4m3fn).float().tolist() == [448.0, 448.0]
    assert torch.full((2,), float("inf"), dtype=torch.float16).tolist() == [float("inf")] * 2
    with pytest.raises(RuntimeError, match="value cannot be converted to type int8_t without overflow"):
        torch.tensor([2], dtype=torch.int8) ** 1000


def test_setitem_rounds_a_number_into_a_reduced_float():
    for dtype, value, expected in [
        (torch.float16, 1e6, float("inf")),
        (torch.float16, 65505.0, 65504.0),
        (torch.bfloat16, 1e39, float("inf")),
        (torch.float8_e4m3fn, 1000.0, 448.0),
    ]:
        x = torch.zeros(2, dtype=dtype)
        x[0] = value
        assert x.float().tolist() == [expected, 0.0]
    x = torch.zeros(2, dtype=torch.uint8)
    with pytest.raises(RuntimeError, match="uint8_t without overflow"):
        x[0] = 300


def test_add_reads_alpha_at_the_dtype_on_the_cpu():
    a = torch.zeros(2, dtype=torch.float16)
    assert a.add(torch.ones(2, dtype=torch.float16), alpha=1e-8).tolist() == [0.0, 0.0]  # 1e-8 is 0 in float16


def test_index_add_reads_alpha_at_the_dtype():
    x = torch.zeros(3, dtype=torch.int64).index_add(0, torch.tensor([0, 1]), torch.tensor([3, 4]), alpha=1.7)
    assert x.tolist() == [3, 4, 0]
    y = torch.full((4, 2), 8).index_add_(-1, torch.zeros(0, dtype=torch.int64), torch.zeros(4, 0, dtype=torch.int64),
                                         alpha=3.4e38)  # fmt: skip
    assert y.tolist() == [[8, 8]] * 4  # nothing added: alpha is not read


# ---- 0-dim tensors and the matrix views -----------------------------------------------------------------------


def test_matrix_views_of_0dim_and_1d_tensors():
    s = torch.tensor(5.0)
    with pytest.warns(UserWarning, match="Tensor.mT is deprecated on 0-D tensors"):
        assert s.mT.item() == 5.0
    with pytest.warns(UserWarning, match="Tensor.mH is deprecated on 0-D tensors"):
        assert s.mH.item() == 5.0
    with pytest.warns(UserWarning, match="Tensor.H is deprecated on 0-D tensors"):
        assert s.H.item() == 5.0
    with pytest.raises(RuntimeError, match="tensor.mT is only supported on matrices or batches of matrices. Got 1-D"):
        _ = torch.ones(3).mT
    with pytest.raises(RuntimeError, match="tensor.mH is only supported on matrices or batches of matrices. Got 1-D"):
        _ = torch.ones(3).mH
    assert torch.tensor(7).movedim(0, -1).item() == 7
    assert torch.tensor(7).flatten(-1, 0).tolist() == [7]
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.tensor(7).flatten(0, 1)
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.tensor(7).movedim(1, 0)


def test_var_and_std_over_dim_0_of_a_0dim_tensor():
    s = torch.tensor(-3.0, dtype=torch.float64)
    with pytest.warns(UserWarning, match="degrees of freedom is <= 0"):
        assert torch.isnan(s.var(0))
    with pytest.warns(UserWarning, match="degrees of freedom is <= 0"):
        assert torch.isnan(s.std(-1))
    assert s.var(0, correction=0).item() == 0.0


def test_bfloat16_std_near_its_largest_value():
    x = torch.tensor([-1.25, -0.25, -3.3895313892515355e38], dtype=torch.bfloat16)
    assert x.std().item() == pytest.approx(1.9539652e38, rel=1e-2)  # the variance is past float32's range


def test_float16_std_takes_the_root_before_rounding():
    x = torch.tensor([300.0, -300.0], dtype=torch.float16)  # the variance (180000) is past float16's range
    for std in (x.std(), x.std(0), x.std(unbiased=True)):
        assert std.item() == pytest.approx(424.25, abs=0.25)


# ---- promotion, conversion, fill values, shifts ---------------------------------------------------------------


def test_clamp_promotes_its_three_operands_at_once():
    out = torch.clip(
        torch.tensor([True, False]),
        min=torch.tensor(0.0, dtype=torch.float64),
        max=torch.tensor([0.5, 2.0], dtype=torch.float16),
    )
    assert out.dtype == torch.float16  # a 0-dim float64 bound does not outrank the dimensioned float16 one
    assert out.tolist() == [0.5, 0.0]


def test_tensor_from_python_numbers():
    assert torch.tensor([10**20], dtype=torch.bool).tolist() == [True]
    assert torch.tensor(1.5, dtype=torch.int64).item() == 1
    assert torch.tensor(-1, dtype=torch.uint8).item() == 255  # an int wraps into an unsigned dtype
    with pytest.raises(RuntimeError, match="without overflow"):
        torch.tensor(-1.0, dtype=torch.uint8)  # a float does not


def test_masked_fill_with_a_0dim_tensor_value():
    mask = torch.tensor([True, False, True])
    assert torch.zeros(3).masked_fill(mask, torch.tensor(2, dtype=torch.int64)).tolist() == [2.0, 0.0, 2.0]
    assert torch.tensor(3, dtype=torch.int8).masked_fill(torch.tensor(True), torch.tensor(-4.7)).item() == -4
    x = torch.zeros(3)
    x.masked_fill_(mask, torch.tensor(float("-inf")))
    assert x.tolist() == [float("-inf"), 0.0, float("-inf")]
    v = torch.tensor(2.0, requires_grad=True)
    r = torch.zeros(3).masked_fill(mask, v)
    r.sum().backward()
    assert r.tolist() == [2.0, 0.0, 2.0]
    assert v.grad.item() == 2.0
    with pytest.raises(RuntimeError, match="only supports a 0-dimensional value tensor, but got tensor with 1 dim"):
        torch.zeros(3).masked_fill(mask, torch.tensor([1.0]))
    with pytest.raises(RuntimeError, match="int8_t without overflow"):
        torch.tensor(3, dtype=torch.int8).masked_fill(torch.tensor(True), torch.tensor(300))


def test_shifts_take_out_and_refuse_floats():
    out = torch.empty(0, dtype=torch.int64)
    r = torch.bitwise_left_shift(torch.tensor([1, 2]), 1, out=out)
    assert r is out
    assert out.tolist() == [2, 4]
    out = torch.empty(0, dtype=torch.int64)
    torch.bitwise_right_shift(torch.tensor([[[-8]]]), -8, out=out)
    assert out.tolist() == [[[-1]]]
    with pytest.raises(NotImplementedError, match="not implemented for 'Float'"):
        torch.tensor([1]) << 1.5


# ---- operators hand unknown operands to their reflected methods ----------------------------------------------


@pytest.mark.parametrize(
    ("op", "reflected"),
    [
        ("__add__", "__radd__"),
        ("__sub__", "__rsub__"),
        ("__mul__", "__rmul__"),
        ("__truediv__", "__rtruediv__"),
        ("__floordiv__", "__rfloordiv__"),
        ("__mod__", "__rmod__"),
        ("__pow__", "__rpow__"),
        ("__matmul__", "__rmatmul__"),
        ("__and__", "__rand__"),
        ("__or__", "__ror__"),
        ("__xor__", "__rxor__"),
    ],
)
def test_an_unknown_operand_gets_its_reflected_method(op, reflected):
    import operator

    class Operand:
        pass

    setattr(Operand, reflected, lambda self, other: (reflected, other))
    t = torch.ones(2, dtype=torch.int64)
    name, other = getattr(operator, op)(t, Operand())
    assert name == reflected and other is t
    # in place: Python falls back to the reflected method too
    u = torch.ones(2, dtype=torch.int64)
    name, other = getattr(operator, "__i" + op[2:])(u, Operand())
    assert name == reflected


def test_operand_errors_stay_errors():
    t = torch.ones(2)
    with pytest.raises(TypeError):
        t + None
    with pytest.raises(TypeError):
        t + [1, 2]
    with pytest.raises(RuntimeError):  # a tensor operand's own error is not hidden
        t + torch.ones(3)


# ---- exception classes --------------------------------------------------------------------------------------


def test_exception_classes_are_upstreams():
    x = torch.zeros(3, 4)
    with pytest.raises(RuntimeError, match=r"index_select\(\): Expected dtype int32 or int64 for index"):
        x.index_select(0, torch.tensor([1], dtype=torch.uint8))
    with pytest.raises(RuntimeError, match="Expected dtype int32/int64 for index"):
        x.gather(0, torch.tensor([[1]], dtype=torch.int16))
    with pytest.raises(RuntimeError, match="split expects at least a 1-dimensional tensor"):
        torch.tensor(5).split([1], dim=0)
    with pytest.raises(IndexError, match="Dimension specified as 0 but tensor has no dimensions"):
        torch.tensor(4).unbind(0)
    with pytest.raises(ValueError, match="expected a non-empty list of Tensors"):
        torch.cat(())
    with pytest.raises(IndexError, match="Expected source and index to have the same number of elements"):
        torch.zeros(2).put_(torch.tensor([0, 1, 1]), torch.ones(2))
    with pytest.raises(RuntimeError, match="selected index k out of range"):
        torch.topk(torch.ones(4), 5)
    with pytest.raises(IndexError, match="Expected reduction dim to be specified for input.numel"):
        torch.argmax(torch.zeros(2, 0))
    with pytest.raises(
        IndexError, match=r"shape mismatch: indexing tensors could not be broadcast together with shapes \[2\], \[3\]"
    ):
        x[[0, 1], [0, 1, 2]]
    with pytest.raises(NotImplementedError, match="\"bitwise_not_cpu\" not implemented for 'Float'"):
        torch.tensor([1.0]).bitwise_not()
    with pytest.raises(
        TypeError, match=r"~ \(operator.invert\) is only implemented on integer and Boolean-type tensors"
    ):
        ~torch.tensor([1.0])


def test_setitem_drops_the_values_extra_leading_unit_dims():
    x = torch.zeros(2)
    x[0:2] = torch.ones(1, 2)
    assert x.tolist() == [1.0, 1.0]
    y = torch.zeros(2, 3)
    y[0] = torch.arange(3.0).reshape(1, 1, 3)
    assert y.tolist() == [[0.0, 1.0, 2.0], [0.0, 0.0, 0.0]]
    y[[0, 1]] = torch.ones(1, 2, 3)
    assert y.tolist() == [[1.0] * 3] * 2
    z = torch.zeros(3)
    z[torch.tensor([True, False, True])] = torch.ones(1, 2)
    assert z.tolist() == [1.0, 0.0, 1.0]
    s = torch.zeros(())
    s[...] = torch.ones(1, 1)
    assert s.item() == 1.0
    with pytest.raises(RuntimeError):
        y[0] = torch.ones(2, 3)  # a leading dim that is not 1 stays an error
    w = torch.zeros(2, 3, requires_grad=True).clone()
    v = torch.ones(1, 3, requires_grad=True)
    w[1] = v * 2
    w.sum().backward()
    assert v.grad.tolist() == [[2.0, 2.0, 2.0]]


def test_softmax_of_an_integer_tensor():
    for fn in (torch.softmax, torch.log_softmax):
        empty = fn(torch.empty(2, 0, dtype=torch.int32), 1)
        assert empty.dtype == torch.int32 and empty.shape == (2, 0)  # returned as it is
        with pytest.raises(NotImplementedError, match="not implemented for 'Long'"):
            fn(torch.ones(2, dtype=torch.int64), 0)
        assert fn(torch.ones(2, dtype=torch.int64), 0, dtype=torch.float64).dtype == torch.float64


def test_slice_inverse_is_the_sources_geometry_over_the_slices_storage():
    x = torch.arange(10.0)
    s = x[2:8:2]
    for r in (torch.slice_inverse(s, x, 0, 2, 8, 2), s.slice_inverse(x, 0, 2, 8, 2)):
        assert r.shape == (10,) and r.stride() == (1,) and r.storage_offset() == 0
        assert r.data_ptr() == x.data_ptr()
    with pytest.raises(RuntimeError, match="out of bounds for storage"):
        torch.slice_inverse(torch.ones(3, 2), torch.zeros(3, 4), 1, 1, 3)


def test_review_cases():
    x = torch.zeros(4, dtype=torch.float16)
    x[[0, 1]] = 1e6  # an advanced assignment rounds a number into float16, as a basic one does
    assert x.tolist() == [float("inf"), float("inf"), 0.0, 0.0]
    y = torch.zeros(4, dtype=torch.float16)
    y[torch.tensor([True, True, False, False])] = 1e6
    assert y.tolist() == [float("inf"), float("inf"), 0.0, 0.0]
    with pytest.raises(RuntimeError, match="without overflow"):
        torch.zeros(2, dtype=torch.float16)[0] = 1 + 2j  # the imaginary part is not dropped
    with pytest.raises(RuntimeError, match="c10::Float8_e4m3fn without overflow"):
        torch.full((2,), float("inf"), dtype=torch.float8_e4m3fn)  # a type without an infinity
    with pytest.raises(IndexError, match="too many indices for tensor of dimension 2"):
        torch.zeros(2, 3)[..., ..., [0]]


# ---- Python ints past int64 ---------------------------------------------------------------------------------

U63, U64 = 2**63, 2**64 - 1  # a Python int in [2^63, 2^64) is a uint64 Scalar (c10's HAS_u)


@pytest.mark.parametrize(
    ("dtype", "value", "expected"),
    [
        (torch.int64, U63, [-(2**63)] * 2),  # the wrapped number is cast, so it wraps
        (torch.int64, U64, [-1] * 2),
        (torch.int32, U64, [-1] * 2),
        (torch.int8, U63, [0] * 2),
        (torch.uint8, U64, [255] * 2),
        (torch.float64, U64, [float(U64)] * 2),
        (torch.float32, U63, [float(U63)] * 2),
    ],
)
def test_an_int_past_int64_is_a_uint64_number(dtype, value, expected):
    x = torch.zeros(2, dtype=dtype)
    r = x + value
    assert r.dtype == dtype and r.tolist() == expected
    assert torch.result_type(x, value) == dtype


def test_an_int_past_int64_fills_a_uint64_or_floating_tensor_and_is_refused_elsewhere():
    assert torch.full((2,), U64, dtype=torch.uint64).tolist() == [U64] * 2
    assert torch.zeros(1, dtype=torch.uint64).fill_(U63).item() == U63
    assert torch.full((1,), U64, dtype=torch.float64).item() == float(U64)
    assert torch.full((1,), U64, dtype=torch.bool).item() is True
    assert torch.full_like(torch.zeros(2, dtype=torch.uint64), U63).tolist() == [U63] * 2
    for dtype in (torch.int64, torch.int32, torch.uint8):  # checked, as c10's Scalar::to
        with pytest.raises(RuntimeError, match="without overflow"):
            torch.full((2,), U64, dtype=dtype)
    with pytest.raises(RuntimeError, match="int64_t without overflow"):
        torch.full((2,), U63)  # an int fill value means int64
    with pytest.raises(RuntimeError, match="int64_t without overflow"):
        torch.zeros(2, dtype=torch.int64).masked_fill(torch.ones(2, dtype=torch.bool), U63)
    with pytest.raises(RuntimeError, match="Promotion for uint16, uint32, uint64 types is not supported"):
        torch.zeros(2, dtype=torch.bool) + U63


def test_an_int_past_uint64_is_an_overflow_error():
    x = torch.zeros(3)
    for call in (
        lambda: x + 2**64,
        lambda: x * 2**64,
        lambda: x.add(1, alpha=2**64),
        lambda: x.fill_(2**64),
        lambda: torch.full((2,), 2**70),
        lambda: x.pow(2**64),
    ):
        with pytest.raises(OverflowError, match="int too big to convert"):
            call()
    with pytest.raises(OverflowError, match="can't convert negative int to unsigned"):
        x.clamp(max=-(2**63) - 1)  # below int64: Python's message for its uint64 try
    with pytest.raises(ValueError, match="Overflow when unpacking long long"):
        x[0] = 2**63  # setitem unpacks an int as int64, whatever the dtype
    with pytest.raises(ValueError, match="Overflow when unpacking long long"):
        torch.zeros(2, dtype=torch.uint64)[0] = 2**64


def test_tensor_from_mixed_numbers_raises_for_the_first_that_does_not_fit():
    # upstream converts the numbers in order: a float that does not fit before an int past int64 is its
    # RuntimeError, the int first its ValueError
    with pytest.raises(RuntimeError, match="value cannot be converted to type int64 without overflow"):
        torch.tensor([-float("inf"), 2**64], dtype=torch.int64)
    with pytest.raises(RuntimeError, match="value cannot be converted to type int64 without overflow"):
        torch.tensor([float("nan"), 2**64], dtype=torch.int64)
    with pytest.raises(ValueError, match="Overflow when unpacking long long"):
        torch.tensor([2**64, -float("inf")], dtype=torch.int64)
    with pytest.raises(ValueError, match="Overflow when unpacking long long"):
        torch.tensor([1.5, 2**64], dtype=torch.int64)
    # ints only: an int8 overflow before an int past int64 is the RuntimeError (fuzz seed 505), after it the
    # ValueError; ints past int64 alone are the ValueError whatever the dtype
    with pytest.raises(RuntimeError, match="value cannot be converted to type int8 without overflow"):
        torch.tensor([2**31, 0, 10**20, True], dtype=torch.int8)
    with pytest.raises(ValueError, match="Overflow when unpacking long long"):
        torch.tensor([[10**20, 2**31]], dtype=torch.int8)
    with pytest.raises(ValueError, match="Overflow when unpacking long long"):
        torch.tensor([1, 2**64], dtype=torch.int32)
    assert torch.tensor([[1, 2], [3, 4]], dtype=torch.int8).tolist() == [[1, 2], [3, 4]]


@pytest.mark.parametrize(
    ("dtype", "value", "expected"),
    [
        (torch.int64, 2.0**63, -(2**63)),  # c10 compares with max rounded to double: 2^63 passes and wraps
        (torch.int64, -(2.0**63), -(2**63)),
        (torch.int64, -3.5, -3),
        (torch.uint64, 1e19, 10**19),  # a float past int64 into uint64 is exact (not through int64)
        (torch.uint64, 2.0**63, 2**63),
        (torch.uint64, 2.0**64, 0),
    ],
)
def test_a_float_fills_a_64_bit_integer_tensor_as_c10_converts(dtype, value, expected):
    assert torch.zeros(1, dtype=dtype).fill_(value).item() == expected


def test_a_float_tensor_past_int64_casts_exactly_to_uint64():
    assert torch.tensor([1e19]).to(torch.uint64).item() == 9999999980506447872  # float32's 1e19
    assert torch.tensor([1e19], dtype=torch.float64).to(torch.uint64).item() == 10**19
    assert torch.tensor([-1.0]).to(torch.uint64).item() == U64  # a negative one wraps through int64


# ---- writes, indices and dtypes -----------------------------------------------------------------------------


def test_fill_and_zero_write_into_an_expanded_tensor():
    base = torch.zeros(3)
    base.expand(2, 3).fill_(1)
    assert base.tolist() == [1.0, 1.0, 1.0]
    base.expand(2, 3).zero_()
    assert base.tolist() == [0.0, 0.0, 0.0]
    col = torch.zeros(2, 1)
    col.expand(2, 4)[:, 1:3].fill_(5)
    assert col.tolist() == [[5.0], [5.0]]
    with pytest.raises(RuntimeError, match="single memory location"):
        torch.zeros(3).expand(2, 3).add_(1)  # an op that reads and writes still refuses
    with pytest.raises(RuntimeError, match="single memory location"):
        torch.zeros(3).expand(2, 3)[:, 0] = 1  # and so does setitem (upstream writes a number with copy_)
    e = torch.zeros(1, 1, 1).expand(4, 1, 3)
    e[None, 6:-3, -1] = -9  # ... unless the view is empty


@pytest.mark.parametrize("dtype", [torch.int8, torch.int16])
def test_index_tensors_are_long_int_byte_or_bool(dtype):
    x = torch.arange(4.0)
    idx = torch.tensor([0, 2], dtype=dtype)
    with pytest.raises(IndexError, match="tensors used as indices must be long, int, byte or bool tensors"):
        x[idx]
    with pytest.raises(IndexError, match="tensors used as indices must be long, int, byte or bool tensors"):
        x[idx] = 1.0
    assert x[idx.to(torch.int32)].tolist() == [0.0, 2.0]


def test_index_add_and_scatter_want_self_s_dtype():
    x = torch.zeros(3)
    src = torch.ones(1, dtype=torch.float64)
    with pytest.raises(RuntimeError, match=r"index_add_\(\): self \(Float\) and source \(Double\) must have the same"):
        x.index_add(0, torch.tensor([0]), src)
    with pytest.raises(RuntimeError, match=r"index_add_\(\): self \(Float\) and source \(Double\)"):
        x.index_add(0, torch.tensor([7]), src)  # before the index range
    for call in (
        lambda: x.scatter(0, torch.tensor([0]), src),
        lambda: x.scatter_add(0, torch.tensor([0]), src),  # upstream names scatter for the family
        lambda: x.scatter_(0, torch.tensor([5]), src),  # before the index range
    ):
        with pytest.raises(RuntimeError, match=r"scatter\(\): Expected self.dtype to be equal to src.dtype"):
            call()
    assert x.scatter(0, torch.tensor([1]), 2.5).tolist() == [0.0, 2.5, 0.0]  # a number is converted


def test_advanced_assignment_wants_the_destinations_dtype_unless_one_value_through_one_mask():
    x = torch.zeros(3)
    for key, value in (
        ([0, 1], torch.tensor([1, 2])),
        (torch.tensor([0, 1]), torch.tensor(5)),
        ((torch.tensor([0, 1]), None), torch.tensor([5], dtype=torch.float64)),
        (torch.tensor([True, False, True]), torch.tensor([5, 6])),  # two values: not a masked fill
    ):
        with pytest.raises(RuntimeError, match="Index put requires the source and destination dtypes match"):
            x[key] = value
    with pytest.raises(RuntimeError, match="Index put requires the source and destination dtypes match"):
        x.index_put_((torch.tensor([0]),), torch.tensor([5], dtype=torch.float64))
    x[torch.tensor([True, False, True])] = torch.tensor(5)  # upstream's masked_fill_ converts
    assert x.tolist() == [5.0, 0.0, 5.0]
    x.index_put_((torch.tensor([False, True, False]),), torch.tensor([7], dtype=torch.int64))
    assert x.tolist() == [5.0, 7.0, 5.0]
    x[torch.tensor([0, 1])] = 5  # a number is converted
    x[[True, False, True]] = torch.tensor([[2]], dtype=torch.int32)  # a list of bools is a mask too
    assert x.tolist() == [2.0, 5.0, 2.0]
    x[torch.tensor(1)] = torch.tensor(3, dtype=torch.int64)  # a 0-dim index is a number: a basic assignment
    assert x.tolist() == [2.0, 3.0, 2.0]
    with pytest.raises(RuntimeError, match="Index put requires the source and destination dtypes match"):
        x[torch.tensor([True, False, True]), True] = torch.tensor(1, dtype=torch.int64)  # a bool is a 2nd index
    y = torch.zeros(2, 3)
    y[0, torch.tensor(1, dtype=torch.uint8)] = 2.0  # a 0-dim uint8 index is no mask (no masked_fill_ error)
    assert y.sum().item() == 6.0
    with pytest.raises(RuntimeError, match="masked_fill_ only supports boolean masks"):
        x[torch.tensor([1, 1, 0], dtype=torch.uint8)] = 5
    with pytest.raises(IndexError, match="The shape of the mask"):
        x[torch.tensor([1, 1], dtype=torch.uint8)] = 5


@pytest.mark.parametrize("name", ["maximum", "minimum", "atan2", "fmax", "fmin", "hypot", "logaddexp", "nextafter"])
def test_ops_without_a_scalar_overload_refuse_a_number(name):
    x = torch.ones(3)
    with pytest.raises(TypeError):
        getattr(torch, name)(x, 2)
    with pytest.raises(TypeError):
        getattr(x, name)(2.0)
    getattr(torch, name)(x, torch.tensor(2.0))  # a 0-dim tensor is fine


def test_checks_that_hold_for_empty_operands_too():
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(0\) must match the size of tensor b \(2\)"):
        torch.zeros(1, 0).copy_(torch.ones(2))  # src must broadcast even into nothing
    x = torch.zeros(1, 3)
    with pytest.raises(RuntimeError, match="The expanded size of the tensor"):
        x[:, 5:] = torch.ones(2)  # setitem's value too
    assert torch.zeros(3).as_strided((3, 0), (0, 6)).mul_(2).shape == (3, 0)  # an empty write never overlaps
    e = torch.zeros(0, dtype=torch.int64)
    with pytest.raises(RuntimeError, match="c10::BFloat16 without overflow"):
        torch.zeros(2, dtype=torch.bfloat16).index_add_(0, e, torch.zeros(0, dtype=torch.bfloat16), alpha=3.4e38)
    wide = torch.zeros(2, 0, dtype=torch.bfloat16)  # upstream's kernel for more dims reads alpha only to add
    wide.index_add_(0, torch.tensor([0]), torch.zeros(1, 0, dtype=torch.bfloat16), alpha=3.4e38)
    with pytest.raises(RuntimeError, match=r"scatter\(\): Expected self.dtype to be equal to src.dtype"):
        torch.zeros(3).scatter(0, e, torch.zeros(0, dtype=torch.float64), reduce="add")


def test_one_value_through_a_mask_converts_checked():
    x = torch.zeros(3, dtype=torch.uint8)
    mask = torch.tensor([False, False, True])
    with pytest.raises(RuntimeError, match="uint8_t without overflow"):
        x[mask] = torch.tensor(300)  # masked_fill_(mask, value.item()), checked
    with pytest.raises(RuntimeError, match="uint8_t without overflow"):
        x[mask] = 300
    with pytest.raises(RuntimeError, match="c10::Half without overflow"):
        torch.zeros(3, dtype=torch.float16)[mask] = torch.tensor(1e6)
    h = torch.zeros(3, dtype=torch.float16)
    h[mask] = 1e6  # a number is made a float16 tensor first, as setitem does: inf
    assert h[2].item() == float("inf")


# ---- shifts, where's numbers, any/all of uint8, bool operands -------------------------------------------------


@pytest.mark.parametrize(
    ("dtype", "values", "count", "right", "left"),
    [
        (torch.uint8, [1, 128, 255], 257, [0, 64, 127], [2, 0, 254]),  # the count wraps into uint8: 1
        (torch.uint8, [1, 128, 255], 2**40, [1, 128, 255], [1, 128, 255]),  # 0
        (torch.int8, [1, -128, 127], 2**32 + 2, [0, -32, 31], [4, 0, -4]),  # 2
        (torch.int8, [1, -128, 127], 200, [0, -1, 0], [0, 0, 0]),  # -56: a negative count
        (torch.int32, [1, -5, 2**30], 2**40, [1, -5, 2**30], [1, -5, 2**30]),  # 0
        (torch.int64, [1, -5, 2**62], 64, [0, -1, 0], [0, 0, 0]),  # the width: 0 or the sign fill
    ],
)
def test_a_shift_count_is_converted_into_the_dtype_first(dtype, values, count, right, left):
    x = torch.tensor(values, dtype=dtype)
    assert (x >> count).tolist() == right and (x << count).tolist() == left
    assert (x >> torch.tensor(count)).tolist() == right  # a 0-dim int64 tensor: the same rule


def test_a_shifted_python_int_wraps_into_the_tensors_dtype():
    counts = torch.tensor([1, 2], dtype=torch.int32)
    assert torch.bitwise_right_shift(2**40, counts).tolist() == [0, 0]  # 2**40 is 0 as an int32
    assert (300 << torch.tensor([1, 2], dtype=torch.uint8)).tolist() == [88, 176]  # 300 is 44 as a uint8


@pytest.mark.parametrize(
    ("dtype", "value", "message"),
    [
        (torch.uint8, 300, "type uint8_t "),
        (torch.uint8, -256, "type uint8_t "),
        (torch.int8, 200, "type int8_t "),
        (torch.int32, 2**40, "type int "),
        (torch.float32, 1e300, "type float "),
    ],
)
def test_where_converts_a_number_checked(dtype, value, message):
    mask = torch.tensor([True, False])
    x = torch.zeros(2, dtype=dtype)
    for call in (
        lambda: torch.where(mask, x, value),
        lambda: torch.where(mask, value, x),
        lambda: x.where(mask, value),
    ):
        with pytest.raises(RuntimeError, match=f"value cannot be converted to {message}"):
            call()


def test_where_takes_numbers_that_fit_and_16_bit_floats_take_any():
    mask = torch.tensor([True, False])
    assert torch.where(mask, torch.zeros(2, dtype=torch.uint8), -1).tolist() == [0, 255]
    assert torch.where(mask, torch.zeros(2, dtype=torch.float16), 1e300).tolist() == [0.0, float("inf")]
    assert torch.where(mask, torch.zeros(2, dtype=torch.uint8), 1.5).dtype == torch.float32  # promotes


def test_any_and_all_of_uint8_are_uint8():
    u = torch.tensor([[0, 3], [1, 2]], dtype=torch.uint8)
    assert u.all().dtype == u.any(0).dtype == torch.all(u, dim=(0, 1)).dtype == torch.uint8
    assert u.all(1).tolist() == [0, 1] and u.any().item() == 1
    assert u.int().all().dtype == torch.bool and u.bool().any().dtype == torch.bool


@pytest.mark.parametrize(
    "call",
    [
        lambda b, f: b - f,
        lambda b, f: f - b,
        lambda b, f: f - True,
        lambda b, f: True - f.to(torch.uint8),
        lambda b, f: torch.rsub(f, True),
        lambda b, f: f.clone().sub_(b),
    ],
)
def test_subtracting_a_bool_is_refused(call):
    with pytest.raises(RuntimeError, match="with a bool tensor is not supported"):
        call(torch.tensor([True, False]), torch.tensor([1.0, 2.0]))


@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_argmax_and_argmin_refuse_bool(name):
    b = torch.tensor([True, False])
    for call in (lambda: getattr(b, name)(), lambda: getattr(torch, name)(b, dim=0), lambda: getattr(b[:0], name)()):
        with pytest.raises(RuntimeError, match=f"{name}\\(\\): does not support bool input"):
            call()


# ---- index_copy / index_fill / index_select / index_add: values, messages, check order ---------------------


def test_index_copy_copies_slices_it_does_not_add_differences():
    inf, nan = float("inf"), float("nan")
    got = torch.tensor([inf, nan, 0.0]).index_copy(0, torch.tensor([0, 1]), torch.tensor([1.0, 2.0]))
    assert got.tolist() == [1.0, 2.0, 0.0]  # not inf - inf or nan + ...
    half = torch.tensor([60000.0, 0.0], dtype=torch.float16)
    assert half.index_copy(0, torch.tensor([0]), torch.tensor([-60000.0], dtype=torch.float16)).tolist() == [-60000, 0]
    b = torch.zeros(2, dtype=torch.bool).index_copy(0, torch.tensor([1]), torch.tensor([True]))
    assert b.tolist() == [False, True]
    assert torch.zeros(3).index_copy(0, torch.tensor([1, 1]), torch.tensor([5.0, 7.0])).tolist() == [0, 7, 0]
    m = torch.zeros(2, 3).index_copy(1, torch.tensor([2, 0]), torch.arange(4.0).reshape(2, 2))
    assert m.tolist() == [[1, 0, 0], [3, 0, 2]]
    assert torch.tensor(0.0).index_copy(0, torch.tensor([0]), torch.tensor([4.0])).item() == 4.0


def test_index_copy_gradients():
    x, s = torch.zeros(3, requires_grad=True), torch.ones(1, requires_grad=True)
    x.index_copy(0, torch.tensor([1]), s * 2).sum().backward()
    assert x.grad.tolist() == [1.0, 0.0, 1.0] and s.grad.tolist() == [2.0]


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: torch.zeros(3).index_copy(0, torch.tensor([-1]), torch.ones(1)), IndexError,
         r"index_copy_\(\): index -1 is out of bounds for dimension 0 with size 3"),
        (lambda: torch.zeros(3).index_copy(0, torch.tensor([0, 9, -9]), torch.ones(3)), IndexError, "index 9 is"),
        (lambda: torch.zeros(3).index_copy(0, torch.tensor([[0]]), torch.ones(1)), IndexError,
         r"Index should have dimension 1 or 0 \(got 2\)"),
        (lambda: torch.zeros(3).index_copy(0, torch.tensor([0, 1]), torch.ones(1)), IndexError,
         r"Number of indices \(2\) should be equal to source.size\(dim\) \(1\)"),
        (lambda: torch.zeros(3, 2).index_copy(0, torch.tensor([0]), torch.ones(2)), IndexError,
         "their dimensionality must match"),
        (lambda: torch.zeros(3, 2).index_copy(0, torch.tensor([0]), torch.ones(1, 3)), RuntimeError,
         "Destination slice shape: 2 at dimension 0 and source slice shape: 3 at dimension 0"),
        (lambda: torch.zeros(3).index_copy(0, torch.tensor([0], dtype=torch.int32), torch.ones(1).double()),
         RuntimeError, "Expected a long tensor for index, but got Int"),
        (lambda: torch.zeros(3).index_copy(0, torch.tensor([0]), torch.ones(1).double()), RuntimeError,
         r"\(self\) Float and \(source\) Double"),
        (lambda: torch.zeros(2, 3).index_fill(1, torch.tensor([0, -4, 5]), 1.0), IndexError,
         "index -4 is out of bounds for dimension 1 with size 3"),
        (lambda: torch.zeros(2, 3).index_fill(1, torch.tensor([0], dtype=torch.int32), 1.0), IndexError,
         r"index_fill_\(\): Expected dtype int64 for index"),
        (lambda: torch.zeros(2, 3).index_fill(1, torch.tensor([[0]]), 1.0), RuntimeError, "Index has to be a vector"),
        (lambda: torch.zeros(2, 3).index_fill(1, torch.tensor([0]), torch.tensor([1.0])), RuntimeError,
         "index_fill_ only supports a 0-dimensional value tensor"),
        # upstream's CPU index_select names the index along dim 1 of a matrix or more, and index_add along
        # the first or last dim of one; elsewhere "index out of range in self"
        (lambda: torch.zeros(3, 4).index_select(1, torch.tensor([0, 7, -1])), RuntimeError,
         "INDICES element is out of DATA bounds, id=7 axis_dim=4"),
        (lambda: torch.zeros(3, 4).index_select(0, torch.tensor([7])), IndexError, "index out of range in self"),
        (lambda: torch.zeros(2, 2, 2).index_select(2, torch.tensor([7])), IndexError, "index out of range in self"),
        (lambda: torch.zeros(2, 0, 2).index_select(1, torch.tensor([0])), RuntimeError,
         "self indexing axis dim should be positive"),
        (lambda: torch.zeros(2, 2, 2).index_add(0, torch.tensor([0, 9, -9]), torch.ones(3, 2, 2)), RuntimeError,
         "index 9 is out of bounds for dimension 0 with size 2"),
        (lambda: torch.zeros(2, 2, 2).index_add(2, torch.tensor([-1]), torch.ones(2, 2, 1)), RuntimeError,
         "index -1 is out of bounds for dimension 2 with size 2"),
        (lambda: torch.zeros(2, 2, 2).index_add(1, torch.tensor([9]), torch.ones(2, 1, 2)), IndexError,
         "index out of range in self"),
        # the dim is checked before the dtypes
        (lambda: torch.tensor([True]).scatter_add_(1, torch.tensor([0]), torch.tensor([1.0])), IndexError,
         "Dimension out of range"),
        (lambda: torch.zeros(2, 2).index_select(-3, torch.tensor([0.0])), IndexError, "Dimension out of range"),
        (lambda: torch.zeros(2, 2).gather(2, torch.tensor([[0]], dtype=torch.uint8)), IndexError,
         "Dimension out of range"),
    ],
)  # fmt: skip
def test_index_ops_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize(
    ("index", "alpha", "error"),
    [
        (torch.tensor([9]), 1, RuntimeError),  # int64, unit alpha: the error names the dim
        (torch.tensor([0, -1]), 1.0, RuntimeError),
        (torch.tensor([9], dtype=torch.int32), 1, IndexError),  # an int32 index: "index out of range in self"
        (torch.tensor([9]), 2, IndexError),
        (torch.tensor([-1]), True, IndexError),  # True is no unit alpha (c10's Scalar.equal)
    ],
)
def test_index_add_error_follows_upstreams_kernel_paths(index, alpha, error):
    source = torch.ones(index.numel(), 2)
    with pytest.raises(error, match="out of"):
        torch.zeros(2, 2).index_add(0, index, source, alpha=alpha)


def test_index_add_of_an_empty_matrix_checks_no_index():
    x = torch.zeros(4, 0)
    assert x.index_add_(0, torch.tensor([-2]), torch.ones(1, 0)).shape == (4, 0)


def test_index_select_of_a_0_dim_tensor_takes_one_index():
    with pytest.raises(RuntimeError, match=r"Index to scalar can have only 1 value, got 3 value\(s\)"):
        torch.tensor(3.0).index_select(0, torch.tensor([0, 0, -1]))
    assert torch.tensor(3.0).index_select(0, torch.tensor([0])).item() == 3.0


@pytest.mark.parametrize(
    "call",
    [
        lambda x: x.permute(),
        lambda x: x.reshape(),
        lambda x: x.expand(),
        lambda x: x.repeat(),
        lambda x: x.flip(),
        lambda x: torch.permute(x),
        lambda x: torch.zeros(),
    ],
)
def test_a_size_or_dims_argument_left_out_is_a_type_error(call):
    for x in (torch.ones(2), torch.tensor(1.0)):  # a 0-dim tensor too (an empty list is another matter)
        with pytest.raises(TypeError, match="missing 1 required positional argument"):
            call(x)
    assert torch.tensor(1.0).permute([]).shape == ()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # upstream: Tensor.T of a 0-dim tensor is deprecated
        assert torch.tensor(1.0).T.shape == ()


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda x: x.__setitem__(5, 1e30), "value cannot be converted to type uint8_t"),  # before the index
        (lambda x: x.__setitem__(([0], 0), -(2**63)), "value cannot be converted to type uint8_t"),
        (lambda x: x.__setitem__((0, 0, 0), 300), "value cannot be converted to type uint8_t"),
    ],
)
def test_setitem_converts_a_number_before_reading_the_key(call, message):
    with pytest.raises(RuntimeError, match=message):
        call(torch.zeros(3, dtype=torch.uint8))


def _ones_int8(*shape):
    return torch.ones(shape, dtype=torch.int8)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: torch.tensor([[True, False]]).topk(0, dim=7), IndexError, "Dimension out of range"),
        (lambda: torch.tensor(1.0).index_select(0, torch.tensor([[0, 0]])), IndexError, "supposed to be a vector"),
        (lambda: torch.ones(3).index_select(0, torch.tensor([[0.0]])), IndexError, "supposed to be a vector"),
        # alpha is read (checked) before the indices
        (lambda: torch.zeros(3, 3, dtype=torch.int8).index_add(0, torch.tensor([0, 9]), _ones_int8(2, 3), alpha=1000),
         RuntimeError, "int8_t without overflow"),
    ],
)  # fmt: skip
def test_check_order(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ((0, 5), "index 5 is out of bounds for dimension 1 with size 3"),
        ((None, 0, 5), "index 5 is out of bounds for dimension 2 with size 3"),  # the key's position
        ((..., 9), "index 9 is out of bounds for dimension 1 with size 4"),
        ((None, None, 3), "index 3 is out of bounds for dimension 2 with size 2"),
    ],
)
def test_an_int_index_error_names_its_position_in_the_key(key, message):
    x = torch.zeros(2, 3, 4)
    for call in (lambda: x[key], lambda: x.__setitem__(key, 1.0)):
        with pytest.raises(IndexError, match=message):
            call()


# ---- 16-bit floats: norms and RMS norm computed in float32 ---------------------------------------------------


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (lambda x: torch.linalg.vector_norm(x), [500.0]),  # 300**2 + 400**2 overflows float16
        (lambda x: torch.linalg.vector_norm(x, 3), [449.75]),
        (lambda x: torch.norm(x), [500.0]),
        (lambda x: torch.dist(x, torch.zeros_like(x)), [500.0]),
        (lambda x: torch.nn.functional.normalize(x, dim=-1), [0.6, 0.8]),
        (lambda x: torch.nn.functional.cosine_similarity(x, x, dim=-1), [1.0]),
        (lambda x: torch.nn.functional.pairwise_distance(x[None], torch.zeros(1, 2, dtype=x.dtype)), [500.0]),
        (lambda x: torch.renorm(torch.stack([x, x / 100]), 2, 0, 1000.0)[0], [300.0, 400.0]),
        (lambda x: torch.nn.functional.embedding(torch.tensor([0]), x[None].clone(), max_norm=1.0), [0.6, 0.8]),
    ],
)
def test_float16_norms_accumulate_in_float32(call, expected):
    got = call(torch.tensor([300.0, 400.0], dtype=torch.float16))
    assert got.dtype == torch.float16
    assert got.float().flatten().tolist() == pytest.approx(expected, rel=2e-3)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_rms_norm_of_16_bit_floats_is_computed_in_float32(dtype):
    small = torch.nn.functional.rms_norm(torch.tensor([0.01, 0.01], dtype=dtype), [2])  # eps: float32's
    big = torch.nn.functional.rms_norm(torch.tensor([300.0, 300.0], dtype=dtype), [2])
    assert small.dtype == big.dtype == dtype
    assert small.float().tolist() == pytest.approx([1.0, 1.0], rel=1e-2)
    assert big.float().tolist() == pytest.approx([1.0, 1.0], rel=1e-2)


def test_nuclear_norm_through_torch_norm():
    assert torch.norm(torch.tensor([[3.0, 0.0], [0.0, 4.0]]), "nuc").item() == pytest.approx(7.0)


# ---- values at the edges (infinities, NaN, 16-bit floats, big integers) --------------------------------------

_INF, _NAN = float("inf"), float("nan")


def _same(got, expected):
    got = got.tolist() if isinstance(got, torch.Tensor) else got
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert (g != g and e != e) or g == pytest.approx(e, rel=1e-6), (got, expected)


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (lambda: torch.hypot(torch.tensor([_INF, _NAN, 3.0]), torch.tensor([_NAN, _INF, 4.0])), [_INF, _INF, 5.0]),
        (lambda: torch.xlogy(torch.tensor([0.0, 0.0, 0.0]), torch.tensor([_INF, _NAN, 0.0])), [0.0, _NAN, 0.0]),
        (lambda: torch.ldexp(torch.tensor([2.0**100]), torch.tensor([-200])), [2.0**-100]),
        (lambda: torch.frexp(torch.tensor([1.7e308], dtype=torch.float64)).exponent, [1024]),
        (lambda: torch.nn.functional.hardshrink(torch.tensor([_NAN, 0.2])), [_NAN, 0.0]),
        (lambda: torch.nn.functional.softshrink(torch.tensor([_NAN, 0.2])), [_NAN, 0.0]),
        (lambda: torch.searchsorted(torch.tensor([1.0, 2.0, _NAN]), torch.tensor([_NAN, 3.0, 1.0])), [3, 3, 0]),
        (lambda: torch.bucketize(torch.tensor([_NAN, 1.0]), torch.tensor([1.0, 2.0]), right=True), [2, 1]),
        (lambda: [torch.mode(torch.tensor([_NAN, _NAN, 1.0])).values.item()], [_NAN]),
        (
            lambda: torch.addmv(torch.tensor([1.0]), torch.tensor([[_INF, 1.0]]), torch.tensor([1.0, 1.0]), alpha=0),
            [1.0],
        ),  # fmt: skip
        (
            lambda: torch.addcmul(
                torch.zeros(1, dtype=torch.float16),
                torch.tensor([60000.0], dtype=torch.float16),
                torch.tensor([0.001], dtype=torch.float16),
                value=2,
            ).float(),
            [120.0625],
        ),  # fmt: skip
        (
            lambda: (
                torch.baddbmm(
                    torch.zeros(1, 1, 1, dtype=torch.float16),
                    torch.full((1, 1, 2), 300.0, dtype=torch.float16),
                    torch.full((1, 2, 1), 200.0, dtype=torch.float16),
                    alpha=0.5,
                )
                .flatten()
                .float()
            ),
            [60000.0],
        ),  # fmt: skip
        (
            lambda: torch.nn.functional.multilabel_soft_margin_loss(torch.tensor([[-_INF]]), torch.tensor([[1.0]]))[
                None
            ],
            [_INF],
        ),  # fmt: skip
        (
            lambda: torch.nn.functional.multi_margin_loss(torch.tensor([[1.0, _NAN, 3.0]]), torch.tensor([1]))[None],
            [0.0],
        ),  # fmt: skip
        (lambda: torch.take_along_dim(torch.tensor([[1, 2], [3, 4]]), torch.tensor([[-1], [0]]), 1).flatten(), [2, 3]),
        (
            lambda: torch.addcdiv(
                torch.zeros(1, dtype=torch.float16),
                torch.tensor([60000.0], dtype=torch.float16),
                torch.tensor([4.0], dtype=torch.float16),
                value=2,
            ).float(),
            [30000.0],
        ),  # fmt: skip
        (
            lambda: (
                torch.addr(
                    torch.zeros(1, 1, dtype=torch.float16),
                    torch.tensor([300.0], dtype=torch.float16),
                    torch.tensor([300.0], dtype=torch.float16),
                    alpha=0.5,
                )
                .flatten()
                .float()
            ),
            [44992.0],
        ),  # fmt: skip
        # log2(2 * 2**60000) in float16: no round trip through natural logs (that gave 60032)
        (
            lambda: torch.logaddexp2(
                torch.tensor([60000.0], dtype=torch.float16), torch.tensor([60000.0], dtype=torch.float16)
            ).float(),
            [60000.0],
        ),  # fmt: skip
    ],
)
def test_values_at_the_edges(call, expected):
    _same(call(), expected)


def test_cov_of_one_variable_is_0_dim():
    assert torch.cov(torch.tensor([[1.0, 2.0, 4.0]])).shape == ()
    assert torch.corrcoef(torch.tensor([[1.0, 2.0, 4.0]])).shape == ()


def test_repeat_interleave_checks_output_size():
    with pytest.raises(RuntimeError, match="allocated size does not match required size"):
        torch.repeat_interleave(torch.tensor([1, 2]), torch.tensor([1, 1]), output_size=3)
    with pytest.raises(RuntimeError, match="Invalid output_size, expected 4 but got 3"):
        torch.repeat_interleave(torch.tensor([1, 2]), 2, output_size=3)


def test_random_of_int64_past_2_53_is_exact():
    x = torch.empty(4000, dtype=torch.int64)
    assert set(x.random_(2**53 + 1, 2**53 + 3).tolist()) == {2**53 + 1, 2**53 + 2}
    assert set(x.random_(2**60, 2**60 + 5).tolist()) == set(range(2**60, 2**60 + 5))
    full = x.random_()
    assert full.min() >= 0 and (full % 2 == 1).any() and full.max() > 2**62  # every bit random


def test_integer_average_pooling_is_int64_only_and_truncates():
    x = torch.tensor([[[1, 2, 4, -7, 5]]])
    got = torch.nn.functional.avg_pool1d(x, 2)
    assert got.dtype == torch.int64 and got.tolist() == [[[1, -1]]]  # 3 // 2, -3 truncated to -1
    assert torch.nn.functional.avg_pool1d(x, 2, padding=1).tolist() == [[[0, 3, -1]]]
    assert torch.nn.functional.avg_pool1d(torch.tensor([[[2**53 + 1, 2**53 + 1]]]), 2).item() == 2**53 + 1
    with pytest.raises(NotImplementedError, match="avg_pool2d\" not implemented for 'Int'"):
        torch.nn.functional.avg_pool2d(x.int()[None], (1, 2))


def test_result_dtypes_as_upstream():
    assert torch.bincount(torch.tensor([0, 1]), weights=torch.ones(2, dtype=torch.float16)).dtype == torch.float64
    assert torch.bincount(torch.tensor([0, 1]), weights=torch.ones(2)).dtype == torch.float32
    ones16 = torch.ones(1, dtype=torch.float16)
    assert torch.normal(torch.zeros(1, dtype=torch.float16), torch.ones(1)).dtype == torch.float16  # mean's
    assert torch.normal(torch.zeros(1), ones16).dtype == torch.float32
    loss = torch.nn.functional.margin_ranking_loss(torch.tensor([1]), torch.tensor([2]), torch.tensor([1]))
    assert loss.dtype == torch.float32 and loss.item() == 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch.range is deprecated
        assert torch.range(2**53, 2**53 + 2, dtype=torch.int64).tolist() == [2**53, 2**53 + 1, 2**53 + 2]


def test_histc_places_values_in_the_inputs_float_type():
    got = torch.histc(torch.tensor([0.1, 0.2, 0.3, 0.7]), bins=10, min=0, max=1)
    assert got.tolist() == [0, 1, 1, 1, 0, 0, 0, 1, 0, 0]  # float32 0.7 * 10 rounds to 7


def test_complex_logaddexp_of_equal_infinities():
    inf = float("inf")
    got = torch.logaddexp(torch.tensor([-inf + 0j, inf + 0j]), torch.tensor([-inf + 0j, inf + 0j]))
    assert got.tolist() == [complex(-inf, 0), complex(inf, 0)]
    assert torch.logcumsumexp(torch.tensor([-inf + 0j, -inf + 0j, 0j]), 0).tolist() == [complex(-inf, 0)] * 2 + [0j]


def test_einsum_without_a_sum_is_a_product_so_bool_works():
    a, b = torch.tensor([True, False]), torch.tensor([True, True])
    assert torch.einsum("i,j->ij", a, b).tolist() == [[True, True], [False, False]]
    with pytest.raises(NotImplementedError):
        torch.einsum("ij,jk->ik", a[None], b[:, None])  # a bool contraction: no bool matrix product


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_nextafter_of_16_bit_floats(dtype):
    one = torch.tensor([1.0], dtype=dtype)
    up = torch.nextafter(one, torch.tensor([2.0], dtype=dtype))
    assert up.item() == 1.0 + torch.finfo(dtype).eps


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8])
def test_integer_convolutions(dtype):
    g = torch.Generator().manual_seed(3)
    x = torch.randint(0, 5, (2, 4, 6, 5), generator=g)
    w = torch.randint(0, 3, (6, 2, 2, 3), generator=g)
    want = torch.nn.functional.conv2d(x.double(), w.double(), stride=(2, 1), padding=1, groups=2)
    got = torch.nn.functional.conv2d(x.to(dtype), w.to(dtype), stride=(2, 1), padding=1, groups=2)
    assert got.dtype == dtype
    assert torch.equal(got, want.to(torch.int64).to(dtype))  # values and wrapping as the dtype's
    if dtype == torch.int64:  # upstream's dilated integer kernel is int64's only
        want = torch.nn.functional.conv2d(x.double(), w.double(), padding=1, dilation=(1, 2), groups=2)
        assert torch.equal(torch.nn.functional.conv2d(x, w, padding=1, dilation=(1, 2), groups=2).double(), want)
    else:
        with pytest.raises(NotImplementedError, match="slow_conv_dilated"):
            torch.nn.functional.conv2d(x.to(dtype), w.to(dtype), dilation=2, groups=2)
    big = torch.nn.functional.conv1d(torch.tensor([[[2**40, 2**40]]]), torch.tensor([[[2**30, 2**30]]]))
    assert big.item() == 0  # 2 * 2**70 wraps to 0 in int64, as upstream's
    with pytest.raises(RuntimeError, match="expected scalar type"):
        torch.nn.functional.conv1d(torch.ones(1, 1, 3, dtype=dtype), torch.ones(1, 1, 2))


def test_int64_transposed_convolution():
    g = torch.Generator().manual_seed(4)
    x = torch.randint(-5, 5, (2, 4, 5, 4), generator=g)
    w = torch.randint(-3, 3, (4, 3, 3, 2), generator=g)
    args = dict(stride=(2, 3), padding=(1, 0), output_padding=(1, 2), groups=2, dilation=(1, 2))
    want = torch.nn.functional.conv_transpose2d(x.double(), w.double(), **args)
    got = torch.nn.functional.conv_transpose2d(x, w, **args)
    assert got.dtype == torch.int64 and torch.equal(got.double(), want)
    with pytest.raises(NotImplementedError, match="not implemented for 'Int'"):
        torch.nn.functional.conv_transpose2d(x.int(), w.int())


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: torch.linalg.vector_norm(torch.tensor([3, 4]), dtype=torch.float64), RuntimeError,
         "Expected a floating point or complex tensor as input. Got Long"),  # checked before the cast
        (lambda: torch.linalg.vecdot(torch.tensor([3, 4]), torch.tensor([1, 2])), RuntimeError, "Got Long"),
        (lambda: torch.isin(torch.tensor([True, False]), torch.tensor([True])), RuntimeError,
         "Unsupported input type encountered for isin\\(\\): Bool"),
        (lambda: torch.nn.functional.hardshrink(torch.tensor([1, -2])), NotImplementedError, "hardshrink_cpu"),
        (lambda: torch.nn.functional.softshrink(torch.tensor([1, -2])), NotImplementedError, "softshrink_check"),
        (lambda: torch.nn.functional.rrelu(torch.tensor([1, -2])), NotImplementedError, "leaky_relu_cpu"),
        (lambda: torch.special.gammainc(torch.tensor([1.0]), 2), TypeError, "must be Tensor, not int"),
        (lambda: torch.special.gammaincc(2, torch.tensor([1.0])), TypeError, "must be Tensor, not int"),
        (lambda: torch.linalg.vander(torch.tensor([1.0, 2.0]), N=1), RuntimeError, "N must be greater than 1"),
        (lambda: torch.cov(torch.tensor([[1.0, 2.0, 4.0]]), aweights=torch.tensor([1, 2, 3])), RuntimeError,
         "expected aweights to have floating point dtype"),
        (lambda: torch.cov(torch.tensor([[1.0, 2.0, 4.0]]), fweights=torch.tensor([1.0, 2.0, 3.0])), RuntimeError,
         "expected fweights to have integral dtype"),
        (lambda: torch.tensor(1.0).unflatten(-2, (1, 1)), IndexError, "Dimension out of range"),
        (lambda: torch.zeros(0).scatter_(-2, torch.zeros(0, dtype=torch.long), 1e300), IndexError,
         "Dimension out of range"),  # the dim before the value
        (lambda: torch.scatter(torch.tensor([[-3.5]], dtype=torch.bfloat16), 1, torch.tensor([[0]], dtype=torch.int32),
                               1e300, reduce="multiply"), RuntimeError, "c10::BFloat16 without overflow"),
    ],
)  # fmt: skip
def test_refusals_as_upstream(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_lu_keeps_a_negative_zero_below_the_diagonal():
    L = torch.linalg.lu(torch.tensor([[1.0, 2.0], [-0.0, 3.0]])).L
    assert torch.signbit(L[1, 0]) and L.diagonal().tolist() == [1.0, 1.0]


# ---- xlogy's derivatives / unravel_index ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["xlogy", "xlog1py"])
def test_xlogy_derivatives_at_the_edges_are_upstream_formulas(name):
    fn = torch.xlogy if name == "xlogy" else torch.special.xlog1py
    pole = 0.0 if name == "xlogy" else -1.0
    x = torch.tensor([0.0, 0.0, 0.0, 2.0], dtype=torch.float64, requires_grad=True)
    y = torch.tensor([pole, float("inf"), pole - 1, 3.0], dtype=torch.float64, requires_grad=True)
    out = fn(x, y)
    assert out[:3].tolist() == [0.0, 0.0, 0.0]
    gx, gy = torch.autograd.grad(out.sum(), (x, y), create_graph=True)
    # x's: log(y), 0 only where x is 0 and y <= pole (so inf at y = inf); y's: x / (y - pole), NaN at 0 / 0
    assert gx[:3].tolist() == [0.0, float("inf"), 0.0]
    assert torch.isnan(gy[0]) and gy[1:3].tolist() == [0.0, -0.0]
    # the mixed second derivative, through x's derivative, is 1 / (y - pole)
    (gyx,) = torch.autograd.grad(gx[3], y)
    assert gyx[3].item() == pytest.approx(1 / (3.0 - pole))


def test_xlogy_gradients_check_numerically():
    x = torch.rand(3, 1, dtype=torch.float64, requires_grad=True)
    y = (torch.rand(4, dtype=torch.float64) + 0.5).requires_grad_()
    for fn in (torch.xlogy, torch.special.xlog1py):
        assert torch.autograd.gradcheck(fn, (x, y))
        assert torch.autograd.gradgradcheck(fn, (x, y))
    assert torch.autograd.gradcheck(lambda b: torch.xlogy(2, b), (y,))


@pytest.mark.parametrize(
    ("indices", "shape", "expected"),
    [
        ([5, 7, 0, 22], (2, 3, 4), [[0, 0, 0, 1], [1, 1, 0, 2], [1, 3, 0, 2]]),
        ([-1, 24, -5], (2, 3, 4), [[1, 0, 1], [2, 0, 1], [3, 0, 3]]),  # taken modulo each dim
        ([2**63 - 1], (2**62, 2), [[2**62 - 1], [1]]),  # a size past int64's range
        ([0], (2**40, 2**40), [[0], [0]]),
        ([5], 7, [[5]]),
    ],
)
def test_unravel_index_wraps_as_upstream(indices, shape, expected):
    got = torch.unravel_index(torch.tensor(indices), shape)
    assert [g.tolist() for g in got] == expected and all(g.dtype == torch.int64 for g in got)


@pytest.mark.parametrize(
    ("shape", "error", "message"),
    [
        ((2, -2), ValueError, "'shape' cannot have negative values"),
        ((0,), RuntimeError, "ZeroDivisionError"),
        (2.0, TypeError, "expected 'shape' to be int or sequence of ints"),
        ((2, 2.0), TypeError, "expected 'shape' sequence to only contain ints"),
    ],
)
def test_unravel_index_refusals(shape, error, message):
    with pytest.raises(error, match=message):
        torch.unravel_index(torch.tensor([1]), shape)
    with pytest.raises(TypeError, match="expected 'indices' to be integer dtype"):
        torch.unravel_index(torch.tensor([1.0]), (2,))


# ---- factories' dtypes / printing ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "op"),
    [
        (lambda: torch.arange(9, 9, 0.5, dtype=torch.bool), "arange"),  # refused even when empty
        (lambda: torch.arange(3, dtype=torch.complex64), "arange"),
        (lambda: torch.linspace(0, 1, 3, dtype=torch.bool), "linspace"),
        (lambda: torch.logspace(0, 1, 3, dtype=torch.bool), "logspace"),
        (lambda: torch.range(0, 0, dtype=torch.bool), "range"),
        (lambda: torch.range(0, 3, dtype=torch.complex64), "range"),
    ],
)
def test_factories_refuse_the_dtypes_upstream_has_no_kernel_for(call, op):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch.range is deprecated
        with pytest.raises(NotImplementedError, match=f'"{op}_cpu" not implemented for'):
            call()


def test_complex_linspace_and_logspace():
    got = torch.linspace(1 + 2j, -3 + 0.5j, 5)  # complex ends: a complex result by default
    assert got.dtype == torch.complex64
    assert got.real.tolist() == [1.0, 0.0, -1.0, -2.0, -3.0] and got.imag.tolist() == [2.0, 1.625, 1.25, 0.875, 0.5]
    got = torch.linspace(0, 10, 4, dtype=torch.complex128)
    assert got.imag.tolist() == [0.0] * 4 and got.real[1].item() == pytest.approx(10 / 3)
    assert torch.linspace(1j, 1, 1, dtype=torch.complex64).tolist() == [1j]
    assert torch.logspace(0, 1j, 3, base=2.0, dtype=torch.complex128)[2].item() == pytest.approx(2**1j)
    assert torch.linspace(0, 1, 1, dtype=torch.bool).tolist() == [False]  # one step: start alone, any dtype


def test_a_long_repr_puts_its_suffix_on_a_new_line():
    t = torch.tensor([1 + 2j, -1 / 3 + 1.5j, -5 / 3 + 1j, -3 + 0.5j], dtype=torch.complex128)
    assert repr(t) == (
        "tensor([ 1.0000+2.0000j, -0.3333+1.5000j, -1.6667+1.0000j, -3.0000+0.5000j],\n       dtype=torch.complex128)"
    )
    assert repr(torch.arange(3, dtype=torch.int16)) == "tensor([0, 1, 2], dtype=torch.int16)"


# ---- scatter / index_reduce / indexing: which error comes first ---------------------------------------------------


def test_scatter_with_a_reduction_takes_int32_indices_and_checks_in_upstreams_order():
    x = torch.tensor([2.75, 2.0])
    i32 = torch.tensor([0], dtype=torch.int32)
    assert x.clone().scatter_reduce_(0, i32, torch.tensor([4.0]), "sum").tolist() == [6.75, 2.0]
    assert x.clone().scatter_(0, i32, torch.tensor([4.0]), reduce="add").tolist() == [6.75, 2.0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert x.clone().scatter_(0, i32, 2.0, reduce="add").tolist() == [4.75, 2.0]
    src32 = torch.tensor([4], dtype=torch.int32)
    with pytest.raises(IndexError, match="Dimension out of range"):  # the dim before the dtypes
        x.clone().scatter_reduce_(-2, i32, src32, "bad")
    with pytest.raises(RuntimeError, match="Expected dtype int32/int64 for index"):  # the index before the name
        x.clone().scatter_reduce_(0, torch.tensor([0], dtype=torch.int16), src32, "bad")
    with pytest.raises(RuntimeError, match="Expected self.dtype to be equal to src.dtype"):
        x.clone().scatter_(0, torch.tensor([0]), src32, reduce="bad")
    with pytest.raises(
        RuntimeError, match=r"Expected index \[3\] to be no larger than self \[2\] apart from dimension"
    ):
        x.clone().scatter_(0, torch.tensor([0, 0, 0]), torch.tensor([1.0]), reduce="add")


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda x: x.index_reduce_(5, torch.tensor([1]), torch.ones(1, 3), "prod"), IndexError, "out of range"),
        (lambda x: x.index_reduce_(0, torch.tensor([[1]]), torch.ones(1, 3), "prod"), IndexError,
         "Index is supposed to be a vector"),
        (lambda x: x.index_reduce_(0, torch.tensor([1.0]), torch.ones(1, 3), "prod"), RuntimeError,
         "Expected dtype int32/int64 for index but got: Float"),
        (lambda x: x.index_reduce_(0, torch.tensor([1]), torch.ones(1, 3, dtype=torch.float64), "prod"),
         RuntimeError, r"self \(Float\) and source \(Double\) must have the same scalar type"),
        (lambda x: x.index_reduce_(0, torch.tensor([1, 0]), torch.ones(1, 3), "prod"), RuntimeError,
         r"should be equal to source.size\(dim\): \(1\), for dim: 0"),
        (lambda x: x.index_reduce_(0, torch.tensor([1]), torch.ones(1, 4), "prod"), RuntimeError,
         "source tensor shape must match self tensor shape"),
        (lambda x: x.index_reduce_(0, torch.tensor([-1]), torch.ones(1, 3), "prod"), IndexError,
         "index out of range in self"),
        (lambda x: x.index_add_(0, torch.tensor([1]), torch.ones(2, 3)), RuntimeError,
         r"should be equal to source.size\(dim\): \(2\), for dim: 0"),
    ],
)  # fmt: skip
def test_index_reduce_checks_as_upstream(call, error, message):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # index_reduce is in beta upstream
        with pytest.raises(error, match=message):
            call(torch.arange(6.0).reshape(2, 3))


def test_index_reduce_values():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x = torch.arange(6.0).reshape(2, 3)
        got = x.index_reduce(0, torch.tensor([1, 1, 0]), torch.arange(9.0).reshape(3, 3), "mean")
        assert got.tolist() == [[3.0, 4.0, 5.0], [2.0, 3.0, 4.0]]
        got = x.index_reduce(
            1, torch.tensor([0, 2], dtype=torch.int32), torch.full((2, 2), 3.0), "amax", include_self=False
        )
        assert got.tolist() == [[3.0, 1.0, 3.0], [3.0, 4.0, 3.0]]
        assert torch.tensor(5.0).index_reduce_(0, torch.tensor([0]), torch.tensor(2.0), "prod").item() == 10.0


@pytest.mark.parametrize(
    ("key", "error", "message"),
    [
        ((torch.tensor([-1, 0], dtype=torch.int8), slice(None, 3, 0)), ValueError, "slice step cannot be zero"),
        ((torch.tensor([0], dtype=torch.int8), slice(None, 3, -1)), ValueError, "step must be greater than zero"),
        ((torch.tensor([0], dtype=torch.int8), 5), IndexError, "index 5 is out of bounds for dimension 1 with size 3"),
        ((torch.tensor([0], dtype=torch.int8), 1), IndexError, "tensors used as indices must be long, int, byte"),
        ((torch.tensor([True]), slice(None, None, -1)), ValueError, "step must be greater than zero"),
        ((torch.tensor([True]), torch.tensor([0], dtype=torch.int8)), IndexError, "tensors used as indices must be"),
    ],
)  # fmt: skip
def test_an_index_reads_its_slices_and_numbers_before_its_tensors_dtype(key, error, message):
    x = torch.zeros(1, 3, 1, 1)
    with pytest.raises(error, match=message):
        x[key]
    with pytest.raises(error, match=message):
        x[key] = 1.0


def test_an_index_into_a_dim_of_size_0_is_refused_before_the_values_dtype():
    z = torch.zeros((2, 0), dtype=torch.int16)
    with pytest.raises(IndexError, match="index is out of bounds for dimension with size 0"):
        z.index_put_((torch.tensor([1]), torch.tensor([0])), torch.tensor(4, dtype=torch.uint8))
    with pytest.raises(IndexError, match="index is out of bounds for dimension with size 0"):
        z[:, torch.tensor([0])]
    with pytest.raises(RuntimeError, match="Index put requires the source and destination dtypes match"):
        z.index_put_((torch.tensor([5]),), torch.tensor(4, dtype=torch.uint8))
    assert z.index_put_((torch.tensor([], dtype=torch.long),), torch.tensor(4, dtype=torch.int16)).shape == (2, 0)


def test_index_put_checks_index_shapes_before_the_values_dtype_and_index_add_its_indices_before_alpha():
    x = torch.zeros(3, 2, 2, dtype=torch.bfloat16)
    with pytest.raises(IndexError, match="shape mismatch: indexing tensors could not be broadcast together"):
        x.index_put_((torch.tensor([0, 1]), torch.tensor([0, 1, 0])), torch.zeros(1))  # a float32 value
    with pytest.raises(RuntimeError, match="Index put requires the source and destination dtypes match"):
        x.index_put_((torch.tensor([5]),), torch.zeros(1))  # the dtype before the bounds
    y = torch.zeros(1, 4, dtype=torch.int8)
    with pytest.raises(IndexError, match="index out of range in self"):
        y.index_add_(0, torch.tensor([-1]), torch.ones(1, 4, dtype=torch.int8), alpha=256)
    with pytest.raises(RuntimeError, match="without overflow"):
        y.index_add_(0, torch.tensor([0]), torch.ones(1, 4, dtype=torch.int8), alpha=256)


@pytest.mark.parametrize(
    ("call", "kernel"),
    [
        (lambda: torch.rand(2, dtype=torch.int64), "check_uniform_bounds"),
        (lambda: torch.empty(2, dtype=torch.int64).uniform_(), "check_uniform_bounds"),
        (lambda: torch.randn(2, dtype=torch.int64), "normal_kernel_cpu"),
        (lambda: torch.empty(2, dtype=torch.int32).normal_(), "normal_kernel_cpu"),
    ],
)
def test_continuous_sampling_of_an_integer_dtype_is_not_implemented(call, kernel):
    with pytest.raises(NotImplementedError, match=f"\"{kernel}\" not implemented for '(Long|Int)'"):
        call()
