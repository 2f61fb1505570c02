"""Factories against NumPy: arange/linspace/logspace/eye and the *_like forms (dtype inference,
values, errors). Runs against upstream PyTorch too."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

import torch


@pytest.mark.parametrize(
    "args,dtype",
    [
        ((5,), torch.int64),
        ((2, 9, 3), torch.int64),
        ((5, 0, -2), torch.int64),
        ((0, 1, 0.25), torch.float32),
        ((1.0, 2.0), torch.float32),
        ((-3, 3.5, 0.5), torch.float32),
    ],
)
def test_arange(args, dtype):
    t = torch.arange(*args)
    assert t.dtype == dtype
    np.testing.assert_allclose(t.numpy(), np.arange(*args).astype(t.numpy().dtype), rtol=1e-6)
    assert torch.arange(*args, dtype=torch.float64).dtype == torch.float64


@pytest.mark.parametrize("start,end,steps", [(0, 1, 5), (-2, 3, 7), (1, 1, 3), (0, 1, 1), (0, 1, 0), (10, -10, 11)])
def test_linspace_logspace(start, end, steps):
    t = torch.linspace(start, end, steps)
    assert t.dtype == torch.float32 and t.shape == (steps,)
    np.testing.assert_allclose(t.numpy(), np.linspace(start, end, steps), rtol=1e-6, atol=1e-6)
    if steps > 1:
        assert t[0].item() == start and t[-1].item() == end  # exact endpoints
    lg = torch.logspace(start, end, steps, base=2.0, dtype=torch.float64)
    np.testing.assert_allclose(lg.numpy(), np.logspace(start, end, steps, base=2.0), rtol=1e-12)


LINSPACE_CASES = [
    (-300, 300, 2001),
    (0, 1, 7),
    (-1, 1, 101),
    (0, 10, 1000),
    (3, -7, 333),
    (-5.5, 17.25, 77),
    (2.5, 2.5, 1),
]


def _rounder(dtype):
    """One rounding to `dtype` of an exact value (a Fraction)."""
    np_type = {torch.float64: np.float64, torch.float32: np.float32, torch.float16: np.float16}[dtype]
    return lambda x: np_type(float(x)) if dtype != torch.float16 else np.float16(np.float32(float(x)))


@pytest.mark.parametrize("start,end,steps", LINSPACE_CASES)
@pytest.mark.parametrize("dtype", [torch.float64, torch.float32, torch.float16])
def test_linspace_is_pytorchs_bit_for_bit(dtype, start, end, steps):
    # PyTorch's formula: start/end cast to the dtype, step = (end - start) / (steps - 1) in it, and
    # element i counted from the nearer end (float/double: one rounding of start + i * step, an fma;
    # float16: every operation rounded to float16, as c10::Half's operators do)
    r = _rounder(dtype)
    s, e = r(F(start)), r(F(end))
    got = torch.linspace(start, end, steps, dtype=dtype).double().tolist()
    if steps == 1:
        assert got == [float(s)]
        return
    x = lambda v: F(float(v))  # noqa: E731  (an exact value of a rounded one)
    if dtype == torch.float16:
        d = r(x(r(x(e) - x(s))) / x(r(F(steps - 1))))
        near = lambda base, k, sign: r(x(base) + sign * x(r(x(d) * x(r(F(k))))))  # noqa: E731
    else:
        d = r((x(e) - x(s)) / (steps - 1))
        near = lambda base, k, sign: r(x(base) + sign * x(d) * k)  # noqa: E731
    assert got == [float(near(s, i, 1) if i < steps // 2 else near(e, steps - 1 - i, -1)) for i in range(steps)]


def test_linspace_of_integers_truncates_the_ends_first():
    # start and end are cast to the dtype before the step is taken (as PyTorch does)
    assert torch.linspace(0.5, 9.7, 5, dtype=torch.int64).tolist() == [0, 2, 4, 6, 9]
    assert torch.linspace(-5.5, 17.25, 9, dtype=torch.int32).tolist() == [-5, -2, 0, 3, 6, 8, 11, 14, 17]


@pytest.mark.parametrize("n,m", [(3, None), (2, 4), (4, 2), (0, None)])
def test_eye(n, m):
    args = (n,) if m is None else (n, m)
    np.testing.assert_array_equal(torch.eye(*args).numpy(), np.eye(n, m))
    assert torch.eye(*args, dtype=torch.int32).dtype == torch.int32


def test_like_factories_keep_shape_and_dtype():
    x = torch.ones(2, 3, dtype=torch.int32).transpose(0, 1)
    for fn in (torch.zeros_like, torch.ones_like, torch.empty_like):
        y = fn(x)
        assert y.shape == (3, 2) and y.dtype == torch.int32
    assert torch.full_like(x, 7).tolist() == [[7, 7]] * 3
    assert torch.zeros_like(x, dtype=torch.float64).dtype == torch.float64


@pytest.mark.parametrize(
    "make,message",
    [
        (lambda: torch.arange(0, 5, 0), "step must be nonzero"),
        (lambda: torch.arange(5, 0, 1), "upper bound and lower bound inconsistent with step sign"),
        (lambda: torch.linspace(0, 1, -1), "number of steps must be non-negative"),
        (lambda: torch.eye(-1), "n must be greater or equal to 0, got -1"),
    ],
)
def test_errors(make, message):
    with pytest.raises(RuntimeError, match=message):
        make()


@pytest.mark.parametrize(
    "make",
    [
        lambda: torch.empty(2**31, 2**31),  # 2**62 elements: the bytes overflow int64
        lambda: torch.zeros(2**40, 2**30),
        lambda: torch.ones(2).repeat(2**62, 4),
        lambda: torch.ones(2).tile(2**33, 2**33),
        lambda: torch.arange(6.0).as_strided((2**62, 4), (1, 1)),
    ],
)
def test_sizes_whose_storage_overflows_raise(make):
    with pytest.raises(RuntimeError, match="Storage size calculation overflowed with sizes="):
        make()


def test_views_whose_numel_overflows_raise():
    with pytest.raises(RuntimeError, match="numel: integer multiplication overflow"):
        torch.ones(2).expand(2**62, 2)


@pytest.mark.parametrize(
    "data,dtype",
    [
        ([np.float64(1.5)], torch.float64),  # NumPy scalars keep their dtype...
        ([np.int32(3)], torch.int32),
        ([np.float16(1), 2.5], torch.float32),  # ...and promote with the Python ones
        ([np.int32(1), 2], torch.int64),
        ([np.int8(1), np.uint8(2)], torch.int16),
        ([True, 2], torch.int64),
        ([True, False], torch.bool),
        ([1, 2.5], torch.float32),
        ([torch.tensor(1, dtype=torch.int16), 2], torch.int64),
        ([np.ones(2, np.float16), [1.0, 2.0]], torch.float32),
        ([[], []], torch.float32),
        (np.float64(1.5), torch.float64),
        (range(3), torch.int64),
    ],
)
def test_tensor_infers_dtypes_as_pytorch(data, dtype):
    t = torch.tensor(data)
    assert t.dtype == dtype
    np.testing.assert_array_equal(t.numpy(), np.asarray(data, dtype=np.float64).astype(t.numpy().dtype))


def test_tensor_rejects_what_pytorch_rejects():
    with pytest.raises(ValueError, match=r"expected sequence of length 2 at dim 1 \(got 3\)"):
        torch.tensor([[1, 2], [3, 4, 5]])
    with pytest.raises(ValueError, match=r"expected sequence of length 1 at dim 2 \(got 2\)"):
        torch.tensor([[[1], [2]], [[3], [4, 5]]])
    with pytest.raises(ValueError, match="Overflow when unpacking long long"):
        torch.tensor(2**64)
    with pytest.raises(ValueError, match="too many dimensions 'str'"):
        torch.tensor(["a"])
    with pytest.raises(TypeError, match="invalid data type 'str'"):
        torch.tensor("a")
    assert torch.tensor([2**63 - 1, -(2**63)]).tolist() == [2**63 - 1, -(2**63)]  # the int64 range is fine


@pytest.mark.parametrize(
    "data, dtype, want",
    [
        ([219.9, 0.1], torch.float64, [219.9, 0.1]),  # straight to float64, not through float32
        (0.1, torch.float64, 0.1),
        ([1e40], torch.float64, [1e40]),
        ([2**63], torch.float64, [9.223372036854776e18]),
        ([[1, 2.5], [3, True]], torch.float64, [[1.0, 2.5], [3.0, 1.0]]),
        ([0.1], torch.float16, [float(np.float16(0.1))]),
        ([1e300], torch.float32, [float("inf")]),
        ([70000.0], torch.float16, [float("inf")]),
        ([1.7, -1.7], torch.int64, [1, -1]),
        ([-1], torch.uint8, [255]),
        ([0.5, 0.0], torch.bool, [True, False]),
        ([2**53 + 1], torch.float64, [9007199254740992.0]),
    ],
)
def test_tensor_converts_python_numbers_straight_to_the_dtype(data, dtype, want):
    t = torch.tensor(data, dtype=dtype)
    assert t.dtype == dtype and t.tolist() == want
    assert torch.as_tensor(data, dtype=dtype).tolist() == want


@pytest.mark.parametrize(
    "data, dtype, name",
    [([300], torch.uint8, "uint8"), ([1e10], torch.int32, "int32"), ([float("nan")], torch.int64, "int64")],
)
def test_tensor_refuses_numbers_out_of_the_dtypes_range(data, dtype, name):
    with pytest.raises(RuntimeError, match=f"value cannot be converted to type {name} without overflow"):
        torch.tensor(data, dtype=dtype)


@pytest.mark.parametrize(
    "dtype,value,name",
    [
        (torch.uint8, 256, "uint8_t"),
        (torch.uint8, -256, "uint8_t"),
        (torch.uint8, -1.0, "uint8_t"),
        (torch.int8, 128, "int8_t"),
        (torch.int16, -70000, "int16_t"),
        (torch.int32, 2**31, "int"),
        (torch.int64, 1e300, "int64_t"),
        (torch.int32, float("nan"), "int"),
        (torch.int64, float("inf"), "int64_t"),
        (torch.float32, 1e300, "float"),
    ],
)
def test_a_number_that_does_not_fit_the_dtype_is_refused(dtype, value, name):
    # never a silently wrapped (or undefined) value: PyTorch's checked Scalar conversion
    with pytest.raises(RuntimeError, match=f"value cannot be converted to type {name} without overflow"):
        torch.full((2,), value, dtype=dtype)
    with pytest.raises(RuntimeError, match="without overflow"):
        torch.zeros(3, dtype=dtype).fill_(value)
    with pytest.raises(RuntimeError, match="without overflow"):
        torch.linspace(0, value, 3, dtype=dtype)


def test_numbers_that_fit_or_wrap_as_in_pytorch():
    assert torch.full((2,), -1, dtype=torch.uint8).tolist() == [255, 255]  # ints wrap into unsigned down to -max
    assert torch.full((1,), -255, dtype=torch.uint8).tolist() == [1]
    assert torch.full((1,), 127, dtype=torch.int8).tolist() == [127]
    assert torch.full((1,), float("inf"), dtype=torch.float32).tolist() == [float("inf")]
    assert torch.full((1,), 1e5, dtype=torch.float16).tolist() == [float("inf")]  # 16-bit floats round
    assert torch.full((1,), 300, dtype=torch.bool).tolist() == [True]


def test_logspace_casts_its_ends_to_the_dtype_first():
    # upstream's kernel truncates the ends for an integer result, then steps in double
    assert torch.logspace(0, 1.2, 2, dtype=torch.int64).tolist() == [1, 10]
    assert torch.logspace(0.9, 2.9, 3, base=2, dtype=torch.int32).tolist() == [1, 2, 4]
    assert torch.logspace(-1.5, 1.5, 3, dtype=torch.int64).tolist() == [0, 1, 10]
    # a float result reads the ends at its own precision
    ends = torch.logspace(0.1, 0.7, 2, dtype=torch.float32)
    assert torch.equal(ends, torch.tensor([10 ** float(torch.tensor(0.1)), 10 ** float(torch.tensor(0.7))]))


def test_a_zero_dim_tensor_is_a_number_argument():
    # upstream's argument parser takes a 0-dim tensor (that does not require grad) for a Scalar
    assert torch.linspace(torch.tensor(0.0), torch.tensor(1), 3).tolist() == [0.0, 0.5, 1.0]
    assert torch.logspace(torch.tensor(0), 2, 3, dtype=torch.int64).tolist() == [1, 10, 100]
    assert torch.full((2,), torch.tensor(3)).tolist() == [3, 3]
    assert torch.arange(torch.tensor(3)).tolist() == [0, 1, 2]
    with pytest.raises(TypeError):  # a tensor of one element but one dim is not a number
        torch.full((2,), torch.tensor([3]))
    with pytest.raises(TypeError):  # nor one that requires grad
        torch.full((2,), torch.tensor(3.0, requires_grad=True))
