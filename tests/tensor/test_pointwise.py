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
