"""The pointwise op families against NumPy, OpInfo-style: one table of ops with a reference,
sample domain and dtypes drives value, layout, in-place, out= and dtype-promotion checks.

Runs against upstream PyTorch too (nox -s tests-reference).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy_dtypes import NP

import torch

FLOATS = (torch.float32, torch.float64)
INTS = (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8)
TOL = {torch.float32: dict(rtol=2e-5, atol=1e-6), torch.float64: dict(rtol=1e-12, atol=1e-12)}


@dataclass
class UnaryInfo:
    name: str
    ref: Callable
    domain: tuple[float, float] = (-3.0, 3.0)
    floating: bool = True  # integer inputs compute in the default dtype


def _vec(fn):
    return np.vectorize(fn, otypes=[np.float64])


UNARY = [
    UnaryInfo("exp", np.exp),
    UnaryInfo("exp2", np.exp2),
    UnaryInfo("expm1", np.expm1),
    UnaryInfo("log", np.log, (0.1, 5)),
    UnaryInfo("log2", np.log2, (0.1, 5)),
    UnaryInfo("log10", np.log10, (0.1, 5)),
    UnaryInfo("log1p", np.log1p, (-0.5, 5)),
    UnaryInfo("sqrt", np.sqrt, (0.1, 5)),
    UnaryInfo("rsqrt", lambda x: 1 / np.sqrt(x), (0.1, 5)),
    UnaryInfo("reciprocal", lambda x: 1 / x, (0.5, 4)),
    UnaryInfo("sin", np.sin),
    UnaryInfo("cos", np.cos),
    UnaryInfo("tan", np.tan, (-1.2, 1.2)),
    UnaryInfo("asin", np.arcsin, (-0.9, 0.9)),
    UnaryInfo("acos", np.arccos, (-0.9, 0.9)),
    UnaryInfo("atan", np.arctan),
    UnaryInfo("sinh", np.sinh),
    UnaryInfo("cosh", np.cosh),
    UnaryInfo("tanh", np.tanh),
    UnaryInfo("sigmoid", lambda x: 1 / (1 + np.exp(-x))),
    UnaryInfo("erf", _vec(math.erf)),
    UnaryInfo("erfc", _vec(math.erfc)),
    UnaryInfo("neg", np.negative, floating=False),
    UnaryInfo("abs", np.abs, floating=False),
    UnaryInfo("sign", np.sign, floating=False),
    UnaryInfo("floor", np.floor, floating=False),
    UnaryInfo("ceil", np.ceil, floating=False),
    UnaryInfo("round", np.round, floating=False),
    UnaryInfo("trunc", np.trunc, floating=False),
]


def sample(shape, dtype, domain=(-3.0, 3.0), seed=0):
    rng = np.random.default_rng(seed)
    if dtype.is_floating_point:
        arr = rng.uniform(*domain, size=shape)
    else:
        lo, hi = (0, 10) if dtype == torch.uint8 else (max(-10, int(math.floor(domain[0]))), 10)
        arr = rng.integers(max(lo, 1) if domain[0] > 0 else lo, hi, size=shape)
    arr = arr.astype(NP[dtype])
    return torch.from_numpy(arr.copy()), arr


LAYOUTS = {
    "contiguous": (lambda t: t, lambda a: a),
    "transposed": (lambda t: t.transpose(0, 1), lambda a: a.T),
    "stepped": (lambda t: t.as_strided((3, 2), (4, 2)), lambda a: a[:, ::2]),
}


@pytest.mark.parametrize("op", UNARY, ids=lambda o: o.name)
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_unary_values(op, dtype, layout):
    tview, aview = LAYOUTS[layout]
    t, a = sample((3, 4), dtype, op.domain)
    got = getattr(torch, op.name)(tview(t))
    assert got.dtype == dtype
    np.testing.assert_allclose(got.numpy(), op.ref(aview(a)).astype(NP[dtype]), **TOL[dtype])
    np.testing.assert_allclose(getattr(tview(t), op.name)().numpy(), got.numpy())


@pytest.mark.parametrize("op", UNARY, ids=lambda o: o.name)
def test_unary_inplace_and_out(op):
    t, a = sample((2, 5), torch.float64, op.domain, seed=1)
    want = op.ref(a)
    out = torch.empty(0, dtype=torch.float64)
    assert getattr(torch, op.name)(t, out=out) is out
    np.testing.assert_allclose(out.numpy(), want, **TOL[torch.float64])
    ptr = t.data_ptr()
    assert getattr(t, op.name + "_")() is t and t.data_ptr() == ptr
    np.testing.assert_allclose(t.numpy(), want, **TOL[torch.float64])


@pytest.mark.parametrize("op", UNARY, ids=lambda o: o.name)
@pytest.mark.parametrize("dtype", (torch.int64, torch.int32))
def test_unary_integer_inputs(op, dtype):
    t, a = sample((7,), dtype, op.domain, seed=2)
    got = getattr(torch, op.name)(t)
    if op.floating:  # computed in the default dtype
        assert got.dtype == torch.float32
        np.testing.assert_allclose(got.numpy(), op.ref(a.astype(np.float32)), rtol=2e-5, atol=1e-6)
        with pytest.raises(RuntimeError, match="can't be cast to the desired output type"):
            getattr(t, op.name + "_")()
    else:
        assert got.dtype == dtype
        np.testing.assert_array_equal(got.numpy(), op.ref(a).astype(NP[dtype]))


@dataclass
class BinaryInfo:
    name: str
    ref: Callable
    dtypes: tuple = FLOATS + INTS
    rhs_domain: tuple[float, float] = (-3.0, 3.0)
    nonzero_rhs: bool = False
    bool_out: bool = False
    inplace: bool = True  # PyTorch has Tensor.<name>_


BINARY = [
    BinaryInfo("floor_divide", np.floor_divide, nonzero_rhs=True),
    BinaryInfo("remainder", np.remainder, nonzero_rhs=True),
    BinaryInfo("fmod", np.fmod, nonzero_rhs=True),
    BinaryInfo("pow", np.power, dtypes=FLOATS, rhs_domain=(0.0, 3.0)),
    BinaryInfo("atan2", np.arctan2, dtypes=FLOATS),
    BinaryInfo("maximum", np.maximum, inplace=False),
    BinaryInfo("minimum", np.minimum, inplace=False),
    BinaryInfo("bitwise_and", np.bitwise_and, dtypes=INTS),
    BinaryInfo("bitwise_or", np.bitwise_or, dtypes=INTS),
    BinaryInfo("bitwise_xor", np.bitwise_xor, dtypes=INTS),
    *(
        BinaryInfo(
            n,
            getattr(
                np,
                n
                if n not in ("eq", "ne", "lt", "le", "gt", "ge")
                else {
                    "eq": "equal",
                    "ne": "not_equal",
                    "lt": "less",
                    "le": "less_equal",
                    "gt": "greater",
                    "ge": "greater_equal",
                }[n],
            ),
            bool_out=True,
        )
        for n in ("eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor")
    ),
]


def rhs_sample(op, shape, dtype, seed):
    t, a = sample(shape, dtype, op.rhs_domain, seed)
    if op.nonzero_rhs:
        a = np.where(a == 0, NP[dtype](1), a)
        t = torch.from_numpy(a.copy())
    return t, a


@pytest.mark.parametrize(
    "op,dtype", [(op, dt) for op in BINARY for dt in op.dtypes], ids=lambda x: getattr(x, "name", str(x))
)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_binary_values(op, dtype, layout):
    tview, aview = LAYOUTS[layout]
    x, a = sample((3, 4), dtype, seed=3)
    y, b = rhs_sample(op, (3, 4), dtype, seed=4)
    got = getattr(torch, op.name)(tview(x), tview(y))
    want = op.ref(aview(a), aview(b))
    assert got.dtype == (torch.bool if op.bool_out else dtype)
    if dtype.is_floating_point:
        np.testing.assert_allclose(got.numpy(), want, **TOL[dtype])
    else:
        np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("op", BINARY, ids=lambda o: o.name)
@np.errstate(invalid="ignore")  # pow of a negative base: NaN in both
def test_binary_broadcast_inplace_out(op):
    dtype = op.dtypes[0]
    x, a = sample((3, 1, 4), dtype, seed=5)
    y, b = rhs_sample(op, (2, 1), dtype, seed=6)
    want = op.ref(a, b)
    got = getattr(torch, op.name)(x, y)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5)
    out = torch.empty(0, dtype=got.dtype)
    assert getattr(torch, op.name)(x, y, out=out) is out
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-5)
    z, c = sample((3, 2, 4), dtype, seed=7)
    if op.inplace and not op.bool_out:
        assert getattr(z, op.name + "_")(y) is z
        np.testing.assert_allclose(z.numpy(), op.ref(c, b), rtol=1e-5)


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
