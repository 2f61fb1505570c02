"""Pointwise semantics beyond the op table (tests/opinfo.py, checked by test_ops.py): division modes,
Python numbers as weak types, edge cases, and broadcasting of random shapes.

Runs against upstream PyTorch too (nox -s tests-reference).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import torch


class TestDivision:
    def test_true_division_promotes(self):
        i = torch.tensor([1, 2, 7])
        assert (i / 2).dtype == torch.float32
        np.testing.assert_allclose((i / 2).numpy(), [0.5, 1.0, 3.5])

    @pytest.mark.parametrize("mode,ref", [("trunc", lambda a, b: np.trunc(a / b)), ("floor", np.floor_divide)])
    def test_rounding_modes(self, mode, ref):
        a = np.array([-7, -6, 5, 7])
        b = np.array([2, -4, 3, -2])
        got = torch.div(torch.from_numpy(a), torch.from_numpy(b), rounding_mode=mode)
        assert got.dtype == torch.int64
        np.testing.assert_array_equal(got.numpy(), ref(a, b).astype(np.int64))
        gotf = torch.div(torch.from_numpy(a * 1.0), torch.from_numpy(b * 1.0), rounding_mode=mode)
        np.testing.assert_array_equal(gotf.numpy(), ref(a * 1.0, b * 1.0))

    def test_errors(self):
        with pytest.raises(RuntimeError, match="ZeroDivisionError"):
            torch.tensor([1, 2]) // torch.tensor([1, 0])
        with pytest.raises(RuntimeError, match="rounding_mode"):
            torch.div(torch.ones(2), torch.ones(2), rounding_mode="up")


class TestPythonScalars:
    """Python numbers are weak types: they raise the category, never the width."""

    @pytest.mark.parametrize(
        "dtype,value,want",
        [
            (torch.int32, 2.5, torch.float32),
            (torch.float32, 2.0, torch.float32),
            (torch.float64, 2, torch.float64),
            (torch.int32, 5, torch.int32),
            (torch.uint8, 300, torch.uint8),
            (torch.bool, 5, torch.int64),
            (torch.bool, True, torch.bool),
            (torch.int16, True, torch.int16),
        ],
    )
    def test_result_dtype(self, dtype, value, want):
        t = torch.ones(3, dtype=dtype)
        assert (t * value).dtype == want
        assert (value * t).dtype == want

    def test_zero_dim_tensors_are_weak_too(self):
        assert (torch.ones(3, dtype=torch.int8) + torch.tensor(1000)).dtype == torch.int8
        assert (torch.ones(3, dtype=torch.int8) + torch.tensor(1.5)).dtype == torch.float32

    def test_reflected_and_comparisons(self):
        t = torch.tensor([1.0, 2.0, 4.0])
        np.testing.assert_allclose((1 - t).numpy(), [0, -1, -3])
        np.testing.assert_allclose((8 / t).numpy(), [8, 4, 2])
        np.testing.assert_allclose((2**t).numpy(), [2, 4, 16])
        assert (t > 1.5).tolist() == [False, True, True]
        assert (t == 2).dtype == torch.bool
        assert (t == None) is False  # noqa: E711
        assert torch.add(1, t).tolist() == [2.0, 3.0, 5.0]


class TestUnaryEdgeCases:
    def test_bool_negation_is_refused(self):
        with pytest.raises(RuntimeError, match="Negation, the `-` operator, on a bool tensor is not supported"):
            -torch.tensor([True, False])

    def test_round_half_to_even(self):
        assert torch.round(torch.tensor([0.5, 1.5, 2.5, -0.5])).tolist() == [0.0, 2.0, 2.0, -0.0]

    def test_bitwise_on_floats_is_refused(self):
        with pytest.raises(RuntimeError, match="not implemented for 'Float'"):
            torch.ones(2) & torch.ones(2)

    def test_nan_propagates_through_maximum(self):
        got = torch.maximum(torch.tensor([float("nan"), 1.0]), torch.tensor([0.0, float("nan")]))
        assert all(math.isnan(v) for v in got.tolist())


class TestPowerByAPythonNumber:
    """x ** 0.5, x ** -0.5 and x ** -1 are sqrt, rsqrt and reciprocal in PyTorch's kernel (not pow): they
    differ from pow (and NumPy's power) at -0 and -inf, and are exact on complex numbers."""

    EDGES = [-0.0, 0.0, -math.inf, math.inf, 4.0, -4.0, 0.25, math.nan]
    ROOTS = {
        0.5: [-0.0, 0.0, math.nan, math.inf, 2.0, math.nan, 0.5, math.nan],
        -0.5: [-math.inf, math.inf, math.nan, 0.0, 0.5, math.nan, 2.0, math.nan],
        -1: [-math.inf, math.inf, -0.0, 0.0, 0.25, -0.25, 4.0, math.nan],
    }

    @staticmethod
    def same(got: torch.Tensor, want: list[float]) -> bool:
        return all(
            (math.isnan(g) and math.isnan(w)) or (g == w and math.copysign(1, g) == math.copysign(1, w))
            for g, w in zip(got.tolist(), want)
        )

    @pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16])
    @pytest.mark.parametrize("exponent", [0.5, -0.5, -1, -1.0])
    def test_roots_and_reciprocal(self, dtype, exponent):
        x = torch.tensor(self.EDGES, dtype=dtype)
        want = self.ROOTS[exponent]  # -1 and -1.0 (an int and a float Python number) share an entry
        assert self.same(x**exponent, want)
        assert self.same(torch.pow(x, exponent), want)
        assert self.same(x.clone().pow_(exponent), want)
        assert self.same(torch.tensor(self.EDGES, dtype=dtype).repeat_interleave(2)[::2] ** exponent, want)
        out = torch.empty(0, dtype=torch.float64)
        assert torch.pow(x, exponent, out=out) is out and self.same(out, want)

    def test_other_exponents_and_bases_keep_pow(self):
        x = torch.tensor(self.EDGES)
        np.testing.assert_array_equal((x**2).numpy(), np.power(x.numpy(), 2))
        # a 0-dim tensor exponent is not a Python number: pow (sqrt(-0) would be -0, pow(-0, -0.5) is inf)
        assert (x[:2] ** torch.tensor(-0.5)).tolist() == [math.inf, math.inf]
        # CPU float16 keeps pow in PyTorch: pow(-0, 0.5) is +0 and pow(-inf, 0.5) is inf
        h = torch.tensor([-0.0, -math.inf], dtype=torch.float16) ** 0.5
        assert self.same(h, [0.0, math.inf])
        # an integer base promotes to float32 and takes pow
        assert (torch.tensor([4, 0]) ** 0.5).tolist() == [2.0, 0.0]

    def test_an_exponent_float32_cannot_hold_is_read_as_a_double(self):
        # 1e-300 and 2**31 - 1 are 0 and 2**31 in float32: PyTorch's scalar loop computes std::pow(float,
        # double), where (-3.5) ** 1e-300 is NaN (a fraction) and (-2) ** (2**31 - 1) is -inf (odd); so do we,
        # at every position (upstream's vectorized loop, on longer tensors, reads the exponent at float32)
        x = torch.tensor([-3.5, 4.0, -0.5])
        got = (x**1e-300).tolist()
        assert math.isnan(got[0]) and got[1] == 1.0 and math.isnan(got[2])
        assert (x[:2] ** (2**31 - 1)).tolist() == [-math.inf, math.inf]
        assert x[:1].clone().pow_(2**31 - 1).tolist() == [-math.inf]
        assert math.isnan((torch.tensor([-2], dtype=torch.int32) ** 1e-300).item())
        # an exponent float32 holds, or rounds to the same kind, is read at float32
        np.testing.assert_array_equal((x[1:2] ** 0.1).numpy(), np.float32([4.0]) ** np.float32(0.1))

    def test_complex_roots_are_exact(self):
        c = torch.tensor([-4 + 0j, -1 + 0j, 3 + 4j], dtype=torch.complex64)
        assert (c**0.5).tolist() == [2j, 1j, 2 + 1j]
        assert (c**-0.5).tolist()[:2] == [-0.5j, -1j]
        np.testing.assert_allclose((c**-1).numpy(), 1 / c.numpy(), rtol=1e-6)


shapes = st.lists(st.integers(1, 4), min_size=0, max_size=4)


@settings(max_examples=60, deadline=None)
@given(sa=shapes, sb=shapes, op=st.sampled_from(["add", "mul", "sub", "maximum", "lt"]))
def test_broadcasting_property(sa, sb, op):
    """Random shapes: either NumPy's broadcast result, or PyTorch's error when they don't broadcast."""
    a = np.arange(math.prod(sa), dtype=np.float64).reshape(sa)
    b = np.asarray(np.arange(math.prod(sb), dtype=np.float64).reshape(sb) - 2)
    ref = {"add": np.add, "mul": np.multiply, "sub": np.subtract, "maximum": np.maximum, "lt": np.less}[op]
    try:
        want = ref(a, b)
    except ValueError:
        with pytest.raises(RuntimeError, match="must match the size of tensor b"):
            getattr(torch, op)(torch.from_numpy(a), torch.from_numpy(b))
        return
    got = getattr(torch, op)(torch.from_numpy(a), torch.from_numpy(b))
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_float_floor_division_is_pythons(dtype):
    # Python's float // works from the exact remainder: 219.9 // 0.1 is 2198, though 219.9 / 0.1
    # rounds to 2199.0000000000005 (and in float32 to 2199 exactly)
    rng = np.random.default_rng(5)
    a = np.concatenate([rng.standard_normal(2000) * 300, [219.9, -219.9, 5.0, -5.0, 0.0, -0.0, 1e-30, 7.0]])
    for b in (0.1, -0.1, 7.77, 0.3, 3.0, -2.5):
        x = torch.from_numpy(a).to(dtype)
        xs = x.tolist()
        bb = float(torch.tensor(b, dtype=dtype))
        want = [v // bb for v in xs]
        got = (x // b).tolist() if dtype == torch.float64 else (x.double() // bb).tolist()
        assert got == want
        assert torch.div(x, b, rounding_mode="floor").dtype == dtype
    assert (torch.tensor([1.0, -1.0]) // 0.0).tolist() == [math.inf, -math.inf]
    assert str((torch.tensor([-0.0, 0.0]) // 3.0).tolist()) == "[-0.0, 0.0]"


# (upstream's float32 sigmoid is the one that differs between its vectorized and scalar paths; ours agree)
@pytest.mark.parametrize(
    "name,dtype",
    [(n, d) for n in ("exp", "tanh", "sigmoid", "erf") for d in (torch.float32, torch.float16, torch.bfloat16)
     if (n, d) != ("sigmoid", torch.float32)],
)  # fmt: skip
def test_vectorized_unary_values_do_not_depend_on_layout_or_position(name, dtype):
    f = getattr(torch, name)
    x = torch.linspace(-6, 6, 1003, dtype=torch.float64).to(dtype)
    want = f(x)
    strided = torch.empty(2 * x.numel(), dtype=dtype)[::2].copy_(x)
    assert torch.equal(f(strided), want)  # every other element of a larger tensor
    assert torch.equal(f(x.view(17, 59).t().contiguous().t()).reshape(-1), want)  # column-major
    assert torch.equal(torch.cat([f(x[i : i + 5]) for i in range(0, 1003, 5)]), want)  # short rows, any tail
    assert torch.equal(f(x[7]), want[7])  # 0-dim
