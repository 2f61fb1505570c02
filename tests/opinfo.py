"""The op table: one entry per op (OpInfo-style, after PyTorch's torch/testing/_internal/opinfo/core.py).

An entry says how to call the op, its NumPy reference (if there is one), the dtypes it supports, the
shapes and value domain of its tensor arguments, and what else it supports (method, in-place and out=
forms, gradients). `OpInfo.sample_inputs(device, dtype)` makes its calls: the same shapes in every
layout (contiguous, transposed, stepped, expanded, and broadcast for binary elementwise ops).

Generic tests take (op, dtype) pairs from `ops(...)` and a `device` from tests/conftest.py (cpu always,
cuda where a GPU is present), as PyTorch's `@ops` and `instantiate_device_type_tests` do:
tests/tensor/test_ops.py checks values (against NumPy, or where there is no reference against the same
op on a CPU copy of the inputs) and the method/in-place/out= forms; tests/autograd/
test_ops_grad.py runs gradcheck and gradgradcheck in float64. Adding an op is adding an entry here.

The suites run against upstream PyTorch too (nox -s tests-reference): entries use PyTorch's API only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np
import pytest

import torch
import torch.nn.functional as F

F64, F32, F16, BF16 = torch.float64, torch.float32, torch.float16, torch.bfloat16
I64, I32, I16, I8, U8 = torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8

FLOATS = (F32, F64)
HALVES = (F16, BF16)
FLOATING = FLOATS + HALVES
INTS = (I64, I32, I16, I8, U8)
COMMON = (F32, F64, I64, I32)  # what most ops are tested in
COMMON_AND_HALVES = FLOATING + (I64, I32)
ALL = FLOATING + INTS

TOL = {F32: (2e-5, 1e-6), F64: (1e-12, 1e-12)}
"""(rtol, atol) of a result against its NumPy reference. 16-bit results are checked against the
float32 reference rounded to their type, within one ulp (`ulp_tol`): both libraries compute in float32."""

DEVICE_TOL = {F32: (1e-5, 1e-5), F64: (1e-12, 1e-12), F16: (1e-2, 1e-2), BF16: (2e-2, 2e-2)}
"""(rtol, atol) of a result against the same op on a CPU copy of its inputs (another device, or another
layout: sums may add in another order)."""

EPS = {F16: 2.0**-10, BF16: 2.0**-7}

LAYOUTS = ("contiguous", "transposed", "stepped", "expanded")
"""How sample tensors lie in memory: transposed (the last two dims swapped; a 1-d tensor is stepped
instead), stepped (every other element of a larger tensor), expanded (stride 0 in the first dim of
size > 1). Each layout holds a tensor of the same shape."""


def dtype_name(dtype: torch.dtype) -> str:
    """'float32' for torch.float32."""
    return str(dtype).removeprefix("torch.")


def bf16_round(x: np.ndarray) -> np.ndarray:
    """float32 -> bfloat16 -> float32 with round-to-nearest-even (NaN stays NaN): NumPy has no bfloat16."""
    bits = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
    out = rounded.astype(np.uint32).view(np.float32)
    return np.where(np.isnan(x), np.float32(np.nan), out)


def round_to(dtype: torch.dtype, x: np.ndarray) -> np.ndarray:
    """float32 values rounded to the 16-bit `dtype`, returned as float32."""
    x = np.asarray(x, dtype=np.float32)
    with np.errstate(over="ignore"):
        return x.astype(np.float16).astype(np.float32) if dtype == F16 else bf16_round(x)


def ulp_tol(dtype: torch.dtype, ulps: int = 1) -> dict:
    """assert_allclose's tolerance for a 16-bit result within `ulps` ulps of its rounded reference."""
    return dict(rtol=ulps * EPS[dtype], atol=1e-6)


def to_numpy(t: torch.Tensor) -> np.ndarray:
    """The values of `t` as a NumPy array (16-bit floats as float32, NumPy having no bfloat16)."""
    t = t.detach().cpu()
    return t.float().numpy() if t.dtype in HALVES else t.numpy()


def _values(shape, dtype, low, high, seed, away_from=(), exclude_zero=False) -> np.ndarray:
    """Random values of `shape` for `dtype`: floats uniform in [low, high), kept 0.2 or more away from
    the points `away_from`; integers in [low, 10) (low at least -10, 0 for uint8, 1 for a positive domain)."""
    rng = np.random.default_rng(seed)
    if dtype.is_floating_point:
        v = rng.uniform(low, high, size=shape)
        for p in away_from:
            close = np.abs(v - p) < 0.2
            v = np.where(close, p + np.where(v >= p, 0.2, -0.2) + np.sign(v - p + 1e-9) * 0.1, v)
    else:
        lo = 0 if dtype == U8 else max(-10, math.floor(low))
        v = rng.integers(max(lo, 1) if low > 0 else lo, 10, size=shape)
    if exclude_zero:
        v = np.where(v == 0, 1, v)
    return v


def make_tensor(shape, dtype, device, layout="contiguous", *, low=-3.0, high=3.0, seed=0, **values_kw) -> torch.Tensor:
    """A tensor of `shape`, `dtype` on `device` in `layout` (see LAYOUTS), its values from `_values`."""
    dims = len(shape)
    if layout == "transposed" and dims < 2:
        layout = "stepped"
    if layout == "transposed":
        v = _values(shape, dtype, low, high, seed, **values_kw)
        t = torch.from_numpy(np.ascontiguousarray(np.swapaxes(v, -1, -2))).to(device=device, dtype=dtype)
        t = t.transpose(-1, -2)
        if not t.is_contiguous():
            return t
        layout = "stepped"  # a swap of size-1 dims is still contiguous
    if layout == "stepped" and dims:
        v = _values(shape, dtype, low, high, seed, **values_kw)
        every_other = (slice(None, None, 2),) * dims
        big = np.zeros([2 * n for n in shape], dtype=v.dtype)
        big[every_other] = v
        return torch.from_numpy(big).to(device=device, dtype=dtype)[every_other]
    expand_dim = next((d for d, n in enumerate(shape) if n > 1), None)
    if layout == "expanded" and expand_dim is not None:
        one = tuple(1 if d == expand_dim else n for d, n in enumerate(shape))
        v = _values(one, dtype, low, high, seed, **values_kw)
        return torch.from_numpy(v).to(device=device, dtype=dtype).expand(shape)
    return torch.from_numpy(_values(shape, dtype, low, high, seed, **values_kw)).to(device=device, dtype=dtype)


@dataclass
class SampleInput:
    """One call of an op: its tensor arguments, keyword arguments, and the layout of the tensors."""

    args: tuple
    kwargs: dict = field(default_factory=dict)
    layout: str = "contiguous"


@dataclass
class OpInfo:
    """One op of the table. `op` is called as op(*sample.args, **sample.kwargs); by default it is
    torch.<name>. `ref` takes the NumPy twins of the same arguments (16-bit floats as float32)."""

    name: str
    op: Callable | None = None
    ref: Callable | None = None
    dtypes: tuple = FLOATS
    shapes: tuple = ((3, 4),)  # one shape per tensor argument
    kwargs: dict = field(default_factory=dict)  # passed to every call
    domain: tuple = (-3.0, 3.0)  # of the float arguments; integers see `_values`
    rhs_domain: tuple | None = None  # of the arguments after the first, if not `domain`
    nonzero_rhs: bool = False  # no zeros in the arguments after the first (integer division)
    away_from: tuple = ()  # float values keep 0.2 away from these points (kinks, poles)
    layouts: tuple = LAYOUTS
    broadcast_shapes: tuple | None = None  # more calls on these shapes, which broadcast
    promotes_int_to_float: bool = False  # integer inputs compute in the default float dtype (exp, div)
    bool_out: bool = False  # the result is a bool tensor (comparisons)
    supports_method: bool = False  # Tensor.<name>
    supports_inplace: bool = False  # Tensor.<name>_
    supports_out: bool = False  # torch.<name>(..., out=)
    supports_grad: bool = False  # gradcheck in float64
    supports_gradgrad: bool = False  # gradgradcheck in float64

    def __post_init__(self):
        if self.op is None:
            self.op = getattr(torch, self.name)

    def __call__(self, sample: SampleInput):
        """The op applied to a sample."""
        return self.op(*sample.args, **sample.kwargs)

    def result_dtype(self, dtype: torch.dtype) -> torch.dtype:
        """The dtype of the result for inputs of `dtype` (ops with a NumPy reference)."""
        if self.bool_out:
            return torch.bool
        if self.promotes_int_to_float and not dtype.is_floating_point:
            return torch.get_default_dtype()
        return dtype

    def sample_inputs(self, device, dtype, requires_grad=False) -> Iterator[SampleInput]:
        """The op's calls on tensors of `dtype` on `device`: `shapes` in each of `layouts` (but expanded
        ones for gradients: gradcheck perturbs one element at a time, which an expanded tensor shares),
        then `broadcast_shapes` contiguous ('broadcast') and stepped ('broadcast_stepped')."""
        calls = [(self.shapes, lay, lay) for lay in self.layouts if not (requires_grad and lay == "expanded")]
        if self.broadcast_shapes:
            calls += [(self.broadcast_shapes, "broadcast", "contiguous")]
            calls += [(self.broadcast_shapes, "broadcast_stepped", "stepped")]
        for shapes, name, layout in calls:
            args = tuple(
                make_tensor(
                    shape,
                    dtype,
                    device,
                    layout,
                    low=(self.rhs_domain or self.domain)[0] if i else self.domain[0],
                    high=(self.rhs_domain or self.domain)[1] if i else self.domain[1],
                    seed=i,
                    away_from=self.away_from,
                    exclude_zero=self.nonzero_rhs and i > 0,
                ).requires_grad_(requires_grad)
                for i, shape in enumerate(shapes)
            )
            yield SampleInput(args, dict(self.kwargs), name)


def ops(op_list, dtypes=None):
    """Parametrizes a test over (op, dtype): each op of `op_list` with each of its dtypes (those in
    `dtypes` only, if given). Test ids read 'name-dtype'."""
    params = [
        pytest.param(op, dtype, id=f"{op.name}-{dtype_name(dtype)}")
        for op in op_list
        for dtype in op.dtypes
        if dtypes is None or dtype in dtypes
    ]
    return pytest.mark.parametrize("op, dtype", params)


# Helpers for the entries below: ops whose extra arguments are tensors on the device of their input.


def idx(t: torch.Tensor, values) -> torch.Tensor:
    """An index (or mask) tensor of `values` on `t`'s device."""
    return torch.tensor(values, device=t.device)


def inplace(method: str, *args):
    """An op running the in-place `method` on a copy of its input (checking it returns that copy)."""

    def run(a, *rest):
        out = a.clone()
        ret = getattr(out, method)(*[r(a, *rest) if callable(r) else r for r in args])
        assert ret is out
        return out

    return run


def setitem(index, value):
    """An op: `out = a.clone(); out[index(a)] = value(a)`, returning out."""

    def run(a):
        out = a.clone()
        out[index(a)] = value(a)
        return out

    return run


def _setitem_advanced(a, v):
    """`a` (through a product, which autograd records) with v written at rows 0 and 2 of column 1."""
    out = a * 1
    out[[0, 2], 1] = v
    return out


def _aten(name: str) -> Callable:
    """torch.<name>, or torch.ops.aten.<name> where torch has no such function (upstream's backward ops)."""

    def call(*args, **kwargs):
        return (getattr(torch, name, None) or getattr(torch.ops.aten, name))(*args, **kwargs)

    return call


def _vec(fn):
    return np.vectorize(fn, otypes=[np.float64])


GRAD = dict(supports_grad=True)
GRADGRAD = dict(supports_grad=True, supports_gradgrad=True)
U = (3, 4)
S1 = ((5, 7),)  # the shapes of the ops below that index a 5x7 input
S2 = ((5, 7), (5, 7))
NO_EXPANDED = ("contiguous", "transposed", "stepped")


def unary_ufunc(name, ref, *, float_math=True, dtypes=COMMON_AND_HALVES, **kwargs) -> OpInfo:
    """An elementwise op of one tensor with method, in-place and out= forms; `float_math`: integer
    inputs compute in the default float dtype (exp, sin, ...), else keep their dtype (neg, floor, ...)."""
    return OpInfo(
        name,
        ref=ref,
        dtypes=dtypes,
        promotes_int_to_float=float_math,
        supports_method=True,
        supports_inplace=True,
        supports_out=True,
        **kwargs,
    )


def binary_ufunc(name, ref, *, dtypes=ALL, has_inplace=True, **kwargs) -> OpInfo:
    """An elementwise op of two tensors with method, in-place (unless `has_inplace` is False: PyTorch has
    no Tensor.<name>_) and out= forms; sampled in every layout and on broadcasting shapes."""
    return OpInfo(
        name,
        ref=ref,
        dtypes=dtypes,
        shapes=(U, U),
        broadcast_shapes=((3, 1, 4), (2, 1)),
        supports_method=True,
        supports_inplace=has_inplace,
        supports_out=True,
        **kwargs,
    )


def comparison(name, ref) -> OpInfo:
    """A comparison or logical op: bool results, no in-place form tested (PyTorch's writes self's dtype)."""
    return binary_ufunc(name, ref, has_inplace=False, bool_out=True)


op_db: list[OpInfo] = [
    # --- elementwise, one tensor ------------------------------------------------------------------
    unary_ufunc("exp", np.exp, **GRADGRAD),
    unary_ufunc("exp2", np.exp2, **GRAD),
    unary_ufunc("expm1", np.expm1, **GRAD),
    unary_ufunc("log", np.log, domain=(0.1, 5), **GRADGRAD),
    unary_ufunc("log2", np.log2, domain=(0.1, 5), **GRAD),
    unary_ufunc("log10", np.log10, domain=(0.1, 5), **GRAD),
    unary_ufunc("log1p", np.log1p, domain=(-0.5, 5), **GRAD),
    unary_ufunc("sqrt", np.sqrt, domain=(0.1, 5), **GRAD),
    unary_ufunc("rsqrt", lambda x: 1 / np.sqrt(x), domain=(0.1, 5), **GRAD),
    unary_ufunc("reciprocal", lambda x: 1 / x, domain=(0.5, 4), **GRAD),
    unary_ufunc("sin", np.sin, **GRADGRAD),
    unary_ufunc("cos", np.cos, **GRAD),
    unary_ufunc("tan", np.tan, domain=(-1.2, 1.2), **GRAD),
    unary_ufunc("asin", np.arcsin, domain=(-0.9, 0.9), **GRAD),
    unary_ufunc("acos", np.arccos, domain=(-0.9, 0.9), **GRAD),
    unary_ufunc("atan", np.arctan, **GRAD),
    unary_ufunc("asinh", np.arcsinh, **GRAD),
    unary_ufunc("acosh", np.arccosh, domain=(1.2, 4), **GRAD),
    unary_ufunc("atanh", np.arctanh, domain=(-0.9, 0.9), **GRAD),
    unary_ufunc("sinc", np.sinc, **GRADGRAD),
    # PyTorch has no torch.lgamma_/digamma_/erfinv_ function, only the methods: in-place is tested in test_special
    OpInfo(
        "lgamma",
        ref=_vec(math.lgamma),
        dtypes=FLOATS,
        domain=(0.1, 6),
        promotes_int_to_float=True,
        supports_method=True,
        supports_out=True,
        **GRADGRAD,
    ),
    OpInfo(
        "erfinv", ref=None, dtypes=FLOATS, domain=(-0.95, 0.95), supports_method=True, supports_out=True, **GRADGRAD
    ),
    OpInfo(
        "digamma",
        ref=None,
        dtypes=FLOATS,
        domain=(0.1, 6),
        away_from=(0.0,),
        supports_method=True,
        supports_out=True,
        **GRAD,
    ),
    unary_ufunc("sinh", np.sinh, **GRAD),
    unary_ufunc("cosh", np.cosh, **GRAD),
    unary_ufunc("tanh", np.tanh, **GRADGRAD),
    unary_ufunc("sigmoid", lambda x: 1 / (1 + np.exp(-x)), **GRADGRAD),
    unary_ufunc("erf", _vec(math.erf), **GRAD),
    unary_ufunc("erfc", _vec(math.erfc), **GRAD),
    unary_ufunc("neg", np.negative, float_math=False, **GRAD),
    unary_ufunc("abs", np.abs, float_math=False, away_from=(0.0,), **GRAD),
    unary_ufunc("sign", np.sign, float_math=False),
    unary_ufunc("floor", np.floor, float_math=False),
    unary_ufunc("ceil", np.ceil, float_math=False),
    unary_ufunc("round", np.round, float_math=False),
    unary_ufunc("trunc", np.trunc, float_math=False),
    # our build has no Tensor.bitwise_not_ and no out= for torch.bitwise_not yet (upstream has both)
    OpInfo("bitwise_not", ref=np.invert, dtypes=INTS, supports_method=True),
    OpInfo("round_decimals", lambda a: a.round(decimals=1), dtypes=FLOATING, shapes=S1),
    OpInfo("frac", lambda a: a.frac(), dtypes=FLOATING, shapes=S1),
    OpInfo("relu", torch.relu, dtypes=FLOATING, away_from=(0.0,), **GRAD),
    OpInfo("softmax", torch.softmax, kwargs=dict(dim=1), dtypes=FLOATING, shapes=S1),
    OpInfo("log_softmax", torch.log_softmax, kwargs=dict(dim=0), dtypes=FLOATING, shapes=S1),
    OpInfo("nan_to_num", torch.nan_to_num, **GRAD),
    OpInfo("nan_to_num_posinf", lambda a: (a / (a > 0)).nan_to_num(posinf=7.0), dtypes=FLOATING, shapes=S1),
    OpInfo(
        "isnan_isinf",
        lambda a: torch.stack([(a / 0).isinf(), (a * 0 / 0).isnan(), (a / 0).isfinite()]),
        dtypes=FLOATING,
        shapes=S1,
    ),
    OpInfo("signbit", torch.signbit, dtypes=COMMON, shapes=S1),
    OpInfo("square", lambda a: a**2, dtypes=COMMON, **GRADGRAD),
    OpInfo("pow_scalar", lambda a: (a.abs() + 0.5) ** 1.5, dtypes=FLOATING, shapes=S1),
    OpInfo("pow_scalar_base", lambda a: 2.0**a, dtypes=FLOATING, **GRAD),
    OpInfo("mul_scalar", lambda a: a * 3.0, **GRAD),
    OpInfo("mul_weak_float", lambda a: a * 2.5, dtypes=COMMON, shapes=S1),
    OpInfo("add_scalar", lambda a: a + 2, dtypes=COMMON, shapes=S1),
    OpInfo("div_scalar", lambda a: a / 3, dtypes=COMMON, shapes=S1),
    OpInfo("rdiv_scalar", lambda a: 2.0 / a, away_from=(0.0,), **GRAD),
    OpInfo("clamp", torch.clamp, kwargs=dict(min=-0.5, max=0.7), dtypes=FLOATING, away_from=(-0.5, 0.7), **GRAD),
    OpInfo("clamp_min", torch.clamp, kwargs=dict(min=1), dtypes=COMMON, shapes=S1),
    OpInfo("to_float64", lambda a: a.to(F64) * 2, dtypes=COMMON, **GRAD),
    OpInfo("to_int32", lambda a: a.to(I32), dtypes=COMMON, shapes=S1),
    OpInfo("to_float16", lambda a: a.half(), dtypes=COMMON, shapes=S1),
    OpInfo("to_bool", lambda a: a.bool(), dtypes=COMMON, shapes=S1),
    OpInfo("view_dtype_bytes", lambda a: a.contiguous().view(U8), dtypes=COMMON, shapes=S1),
    # --- elementwise, two tensors -----------------------------------------------------------------
    binary_ufunc("add", np.add, **GRADGRAD),
    binary_ufunc("sub", np.subtract, **GRAD),
    binary_ufunc("mul", np.multiply, **GRADGRAD),
    binary_ufunc("div", np.true_divide, promotes_int_to_float=True, nonzero_rhs=True, away_from=(0.0,), **GRADGRAD),
    binary_ufunc("floor_divide", np.floor_divide, nonzero_rhs=True),
    binary_ufunc("remainder", np.remainder, nonzero_rhs=True),
    binary_ufunc("fmod", np.fmod, nonzero_rhs=True),
    binary_ufunc("pow", np.power, dtypes=FLOATING, domain=(0.5, 3), rhs_domain=(-2, 3), **GRADGRAD),
    binary_ufunc("atan2", np.arctan2, dtypes=FLOATING, away_from=(0.0,), **GRAD),
    binary_ufunc("maximum", np.maximum, has_inplace=False, **GRAD),
    binary_ufunc("minimum", np.minimum, has_inplace=False, **GRAD),
    binary_ufunc("bitwise_and", np.bitwise_and, dtypes=INTS),
    binary_ufunc("bitwise_or", np.bitwise_or, dtypes=INTS),
    binary_ufunc("bitwise_xor", np.bitwise_xor, dtypes=INTS),
    comparison("eq", np.equal),
    comparison("ne", np.not_equal),
    comparison("lt", np.less),
    comparison("le", np.less_equal),
    comparison("gt", np.greater),
    comparison("ge", np.greater_equal),
    comparison("logical_and", np.logical_and),
    comparison("logical_or", np.logical_or),
    comparison("logical_xor", np.logical_xor),
    OpInfo("logical_not", lambda a: a.logical_not(), dtypes=COMMON, shapes=S1),
    OpInfo("shifts", lambda a: torch.stack([a << 2, a >> 1]), dtypes=(I64, I32, U8), shapes=S1),
    OpInfo("add_alpha", torch.add, kwargs=dict(alpha=2.5), shapes=(U, U), **GRADGRAD),
    OpInfo("sub_alpha", torch.sub, kwargs=dict(alpha=2), dtypes=COMMON, shapes=S2),
    OpInfo("div_floor", lambda a, b: torch.div(a, b.abs() + 1, rounding_mode="floor"), dtypes=COMMON, shapes=S2),
    OpInfo("div_trunc", lambda a, b: torch.div(a, b.abs() + 1, rounding_mode="trunc"), dtypes=COMMON, shapes=S2),
    OpInfo(
        "where",
        lambda a, b: torch.where(a > 0, a, b),
        dtypes=COMMON,
        shapes=(U, (4,)),
        away_from=(0.0,),
        **GRAD,
    ),
    OpInfo("where_scalar", lambda a: torch.where(a > 0, a, 0), dtypes=COMMON, shapes=S1),
    OpInfo("clamp_tensors", lambda a, b: a.clamp(min=b, max=b + 2), dtypes=COMMON, shapes=S2),
    OpInfo("clamp_out", lambda a, b: torch.clamp(a, -1, 1, out=torch.empty_like(b)), shapes=S2),
    OpInfo("lerp_scalar", torch.lerp, kwargs=dict(weight=0.3), dtypes=FLOATING, shapes=(U, U), **GRAD),
    OpInfo("lerp_tensor", lambda a, b, w: torch.lerp(a, b, w), shapes=(U, U, (4,)), **GRAD),
    OpInfo(
        "addcmul_addcdiv",
        lambda a, b: torch.addcdiv(torch.addcmul(a, a, b, value=2), a, b.abs() + 1, value=0.5),
        shapes=S2,
    ),
    OpInfo("logaddexp", lambda a, b: torch.logaddexp(a, b * 10), shapes=S2),
    # --- products, structure, gathers (torch/_refs/products.py, structure.py, indexing.py) -----------
    OpInfo("kron", ref=np.kron, shapes=((2, 3), (3, 2)), supports_method=True, **GRAD),
    OpInfo("tensordot", ref=lambda a, b: np.tensordot(a, b, 2), shapes=((2, 3, 4), (3, 4)), **GRAD),
    OpInfo(
        "tensordot_lists",
        lambda a, b: torch.tensordot(a, b, ([0, 2], [1, 0])),
        ref=lambda a, b: np.tensordot(a, b, ([0, 2], [1, 0])),
        shapes=((2, 3, 4), (4, 2)),
        **GRAD,
    ),
    OpInfo("inner", ref=np.inner, shapes=((3, 4), (5, 4)), supports_method=True, **GRAD),
    OpInfo(
        "addmv",
        lambda i, m, v: torch.addmv(i, m, v, beta=0.5, alpha=2),
        ref=lambda i, m, v: 0.5 * i + 2 * (m @ v),
        shapes=((3,), (3, 4), (4,)),
        **GRAD,
    ),
    OpInfo(
        "addr",
        lambda i, a, b: torch.addr(i, a, b, alpha=3),
        ref=lambda i, a, b: i + 3 * np.outer(a, b),
        shapes=((3, 4), (3,), (4,)),
        **GRAD,
    ),
    OpInfo(
        "baddbmm",
        lambda i, a, b: torch.baddbmm(i, a, b, beta=2),
        ref=lambda i, a, b: 2 * i + a @ b,
        shapes=((2, 3, 5), (2, 3, 4), (2, 4, 5)),
        **GRAD,
    ),
    OpInfo("addbmm", ref=lambda i, a, b: i + (a @ b).sum(0), shapes=((3, 5), (2, 3, 4), (2, 4, 5)), **GRAD),
    OpInfo(
        "trapezoid",
        lambda y: torch.trapezoid(y, dim=0),
        ref=lambda y: (y[1:] + y[:-1]).sum(0) / 2,
        shapes=((4, 3),),
        **GRAD,
    ),
    OpInfo(
        "block_diag",
        ref=lambda a, b: np.block([[a, np.zeros((2, 2))], [np.zeros((3, 3)), b]]),
        shapes=((2, 3), (3, 2)),
        **GRAD,
    ),
    OpInfo(
        "diag_embed",
        lambda a: torch.diag_embed(a, 1),
        ref=lambda a: np.stack([np.diag(r, 1) for r in a]),
        shapes=((2, 3),),
        **GRAD,
    ),
    OpInfo(
        "take_along_dim",
        lambda a: torch.take_along_dim(a, torch.tensor([[2], [0], [3]], device=a.device), 1),
        ref=lambda a: np.take_along_axis(a, np.array([[2], [0], [3]]), 1),
        dtypes=COMMON,
        **GRAD,
    ),
    OpInfo(
        "repeat_interleave",
        lambda a: a.repeat_interleave(2, dim=1),
        ref=lambda a: np.repeat(a, 2, axis=1),
        dtypes=COMMON,
        **GRAD,
    ),
    OpInfo(
        "repeat_interleave_counts",
        lambda a: a.repeat_interleave(torch.tensor([0, 3, 1], device=a.device), dim=0),
        ref=lambda a: np.repeat(a, [0, 3, 1], axis=0),
        dtypes=COMMON,
        **GRAD,
    ),
    # --- statistics, cross, powers, windows, scatters (statistics.py, products.py, views.py, indexing.py) ----
    OpInfo(
        "quantile",
        lambda a: torch.quantile(a, torch.tensor([0.1, 0.5, 0.8], dtype=a.dtype), dim=1),
        ref=lambda a: np.quantile(a, [0.1, 0.5, 0.8], axis=1),
        dtypes=FLOATS,
        **GRAD,
    ),
    OpInfo("cov", ref=np.cov, dtypes=FLOATS, supports_method=True, **GRAD),
    OpInfo("corrcoef", ref=np.corrcoef, dtypes=FLOATS, supports_method=True, **GRAD),
    OpInfo(
        "cross",
        lambda a, b: torch.cross(a, b, dim=1),
        ref=lambda a, b: np.cross(a, b, axis=1),
        shapes=((4, 3), (4, 3)),
        **GRAD,
    ),
    OpInfo(
        "matrix_power",
        lambda a: torch.matrix_power(a, 3),
        ref=lambda a: np.linalg.matrix_power(a, 3),
        shapes=((4, 4),),
        domain=(-1, 1),
        **GRAD,
    ),
    OpInfo(
        "unfold",
        lambda a: a.unfold(1, 3, 2),
        ref=lambda a: np.lib.stride_tricks.sliding_window_view(a, 3, axis=1)[:, ::2],
        dtypes=COMMON,
        **GRAD,
    ),
    OpInfo(
        "slice_scatter",
        lambda a, b: torch.slice_scatter(a, b, 1, 0, 4, 2),
        ref=lambda a, b: np.concatenate([b[:, :1], a[:, 1:2], b[:, 1:], a[:, 3:]], 1),
        shapes=((3, 4), (3, 2)),
        **GRAD,
    ),
    OpInfo(
        "diagonal_scatter",
        lambda a, b: torch.diagonal_scatter(a, b[0, :3]),
        ref=lambda a, b: a * (1 - np.eye(3, 4)) + np.diag(b[0, :3], 0)[:, :3] @ np.eye(3, 4),
        shapes=((3, 4), (3, 4)),
        **GRAD,
    ),
    OpInfo(
        "scatter_reduce_sum",
        lambda a, b: a.scatter_reduce(1, torch.tensor([[0, 2, 0, 1]] * 3, device=a.device), b, "sum"),
        ref=lambda a, b: a + np.stack([b[:, 0] + b[:, 2], b[:, 3], b[:, 1], 0 * b[:, 0]], 1),
        shapes=((3, 4), (3, 4)),
        dtypes=COMMON,
        **GRAD,
    ),
    OpInfo(
        "scatter_reduce_prod",
        lambda a, b: a.scatter_reduce(
            0, torch.tensor([[0, 2, 0, 1], [0, 0, 1, 1]], device=a.device), b[:2], "prod", include_self=False
        ),
        ref=lambda a, b: np.stack(
            [
                np.array([b[0, 0] * b[1, 0], b[1, 1], b[0, 2], a[0, 3]]),
                np.array([a[1, 0], a[1, 1], b[1, 2], b[0, 3] * b[1, 3]]),
                np.array([a[2, 0], b[0, 1], a[2, 2], a[2, 3]]),
            ]
        ),
        shapes=((3, 4), (3, 4)),
        **GRAD,
    ),
    OpInfo(
        "scatter_reduce_amax",
        lambda a, b: a.scatter_reduce(1, torch.tensor([[1, 1, 3, 3]] * 3, device=a.device), b, "amax"),
        ref=lambda a, b: np.stack(
            [
                a[:, 0],
                np.maximum(a[:, 1], np.maximum(b[:, 0], b[:, 1])),
                a[:, 2],
                np.maximum(a[:, 3], np.maximum(b[:, 2], b[:, 3])),
            ],
            1,
        ),
        shapes=((3, 4), (3, 4)),
        dtypes=COMMON,
        **GRAD,
    ),
    # --- two tensors, C99/NumPy functions (torch/_refs/binary_math.py) -------------------------------
    OpInfo(
        "copysign",
        ref=np.copysign,
        dtypes=COMMON,
        shapes=(U, U),
        broadcast_shapes=((3, 1, 4), (2, 1)),
        promotes_int_to_float=True,
        away_from=(0.0,),
        supports_method=True,
        supports_inplace=True,
        **GRAD,
    ),
    OpInfo(
        "hypot",
        ref=np.hypot,
        dtypes=FLOATING,
        shapes=(U, U),
        broadcast_shapes=((3, 1, 4), (2, 1)),
        supports_method=True,
        supports_inplace=True,
        **GRAD,
    ),
    OpInfo(
        "fmax",
        ref=np.fmax,
        dtypes=ALL,
        shapes=(U, U),
        broadcast_shapes=((3, 1, 4), (2, 1)),
        supports_method=True,
        **GRAD,
    ),
    OpInfo(
        "fmin",
        ref=np.fmin,
        dtypes=ALL,
        shapes=(U, U),
        broadcast_shapes=((3, 1, 4), (2, 1)),
        supports_method=True,
        **GRAD,
    ),
    OpInfo(
        "xlogy",
        ref=lambda x, y: np.where(x == 0, 0.0, x * np.log(y)),
        dtypes=COMMON,
        shapes=(U, U),
        broadcast_shapes=((3, 1, 4), (2, 1)),
        rhs_domain=(0.2, 3),
        promotes_int_to_float=True,
        supports_method=True,
        supports_inplace=True,
        **GRAD,
    ),
    OpInfo(
        "heaviside",
        ref=np.heaviside,
        dtypes=COMMON,
        shapes=(U, U),
        broadcast_shapes=((3, 1, 4), (2, 1)),
        supports_method=True,
        supports_inplace=True,
    ),
    OpInfo(
        "ldexp",
        ref=lambda x, e: x * np.exp2(e),
        dtypes=FLOATS,
        shapes=(U, U),
        supports_method=True,
        supports_inplace=True,
        **GRAD,
    ),
    OpInfo(
        "float_power",
        ref=np.float_power,
        dtypes=(torch.float64,),
        shapes=(U, U),
        domain=(0.5, 3),
        supports_method=True,
        **GRAD,
    ),
    OpInfo(
        "logaddexp2",
        ref=np.logaddexp2,
        dtypes=FLOATS,
        shapes=(U, U),
        broadcast_shapes=((3, 1, 4), (2, 1)),
        supports_method=True,
        **GRAD,
    ),
    OpInfo(
        "true_divide",
        ref=np.true_divide,
        dtypes=FLOATING,
        shapes=(U, U),
        nonzero_rhs=True,
        rhs_domain=(0.5, 3),
        supports_method=True,
        supports_inplace=True,
        supports_out=True,
        **GRAD,
    ),
    OpInfo(
        "logit",
        ref=lambda p: np.log(p / (1 - p)),
        dtypes=FLOATS,  # 16-bit: upstream rounds between its steps; NumPy cannot say how
        domain=(0.05, 0.95),
        supports_method=True,
        supports_inplace=True,
        **GRAD,
    ),
    OpInfo(
        "logit_eps",
        lambda a: torch.logit(a, eps=0.2),
        ref=lambda p: np.log(np.clip(p, 0.2, 0.8) / (1 - np.clip(p, 0.2, 0.8))),
        dtypes=FLOATS,
        domain=(0.05, 0.95),
        away_from=(0.2, 0.8),
        **GRAD,
    ),
    OpInfo("isclose", lambda a, b: torch.isclose(a, a + b * 1e-3, rtol=1e-3), shapes=S2),
    # --- reductions ------------------------------------------------------------------------------
    OpInfo("sum", torch.sum, dtypes=COMMON, **GRADGRAD),
    OpInfo("sum_dim", torch.sum, kwargs=dict(dim=0), dtypes=COMMON, **GRADGRAD),
    OpInfo(
        "sum_dims_keepdim",
        torch.sum,
        kwargs=dict(dim=(0, 2), keepdim=True),
        dtypes=COMMON,
        shapes=((2, 3, 4),),
        **GRAD,
    ),
    OpInfo("sum_dtype", torch.sum, kwargs=dict(dim=1, dtype=F64), dtypes=COMMON, shapes=S1),
    OpInfo(
        "nan_reductions", lambda a, b: torch.stack([torch.nansum(a.log(), 1), torch.nanmean(b.log(), 0)[:5]]), shapes=S2
    ),
    OpInfo("mean", torch.mean, **GRADGRAD),
    OpInfo("mean_dim", torch.mean, kwargs=dict(dim=-1), **GRAD),
    OpInfo("prod", lambda a: a.prod(), away_from=(0.0,), **GRADGRAD),
    OpInfo("prod_dim", torch.prod, kwargs=dict(dim=1), dtypes=COMMON, away_from=(0.0,), **GRADGRAD),
    OpInfo("prod_with_a_zero", lambda a: (a * idx(a, [1.0, 0.0, 1.0, 1.0])).prod(1), **GRADGRAD),
    # two zeros in each product: the first derivative is 0 but the second is not (it lost it once)
    OpInfo("prod_with_two_zeros", lambda a: (a * idx(a, [0.0, 1.0, 0.0, 1.0])).prod(1), **GRADGRAD),
    OpInfo("prod_all_with_a_zero", lambda a: (a * idx(a, [1.0, 0.0, 1.0, 1.0])).prod(), **GRADGRAD),
    OpInfo("amax", torch.amax, kwargs=dict(dim=1), dtypes=COMMON, **GRAD),
    OpInfo("amin", lambda a: a.amin((0, 1)), dtypes=COMMON, shapes=S1),
    OpInfo("max", torch.max, dtypes=COMMON, **GRAD),
    OpInfo("min", torch.min, **GRAD),
    OpInfo("max_dim", torch.max, kwargs=dict(dim=1), dtypes=COMMON, **GRAD),
    OpInfo("min_dim_keepdim", torch.min, kwargs=dict(dim=0, keepdim=True), dtypes=COMMON, **GRAD),
    OpInfo("argmax", lambda a: a.argmax(), dtypes=COMMON, shapes=S1),
    OpInfo("argmax_dim", torch.argmax, kwargs=dict(dim=1), dtypes=COMMON, shapes=S1),
    OpInfo("argmin_dim", torch.argmin, kwargs=dict(dim=0), dtypes=COMMON, shapes=S1),
    OpInfo(
        "aminmax_count",
        lambda a: torch.stack([*torch.aminmax(a, dim=0), torch.count_nonzero(a, 0).to(a.dtype)]),
        dtypes=COMMON,
        shapes=S1,
    ),
    OpInfo(
        "all_any",
        lambda a: torch.stack([(a > -4).all(), (a > 2).any(), (a > 0).all(1).any()]),
        dtypes=COMMON,
        shapes=S1,
    ),
    OpInfo("var", lambda a: a.var(1), **GRAD),
    OpInfo("var_all", lambda a: a.var(), **GRAD),
    OpInfo("std_keepdim", lambda a: a.std(0, keepdim=True), **GRAD),
    OpInfo("std_correction", torch.std, kwargs=dict(dim=1, correction=0), **GRAD),
    OpInfo(
        "var_std",
        lambda a, b: torch.stack([a.var(1), a.std(1, correction=0), b.var(1, unbiased=False)]),
        shapes=S2,
    ),
    OpInfo("norm", torch.norm, kwargs=dict(dim=1), **GRADGRAD),
    OpInfo("norms", lambda a, b: torch.stack([a.norm(), b.norm(p=1), a.norm(dim=1).sum()]), shapes=S2),
    OpInfo("logsumexp", torch.logsumexp, kwargs=dict(dim=1), **GRADGRAD),
    OpInfo("logsumexp_all_keepdim", lambda a: a.logsumexp((0, 1), keepdim=True), **GRADGRAD),
    OpInfo("logsumexp_two", lambda a, b: a.logsumexp(1) + b.logsumexp(0).sum(), shapes=S2),
    OpInfo(
        "median_kth",
        lambda a: torch.stack([torch.median(a, 1).values, torch.kthvalue(a, 2, 1).values]),
        dtypes=COMMON,
        shapes=S1,
    ),
    OpInfo("median_indices", lambda a: torch.median(a * 0, 0), dtypes=COMMON, shapes=S1),
    # --- scans, sorting, sets ---------------------------------------------------------------------
    OpInfo("cumsum", torch.cumsum, kwargs=dict(dim=1), dtypes=COMMON, **GRAD),
    OpInfo("cumprod", lambda a: (a.sign() + 2).cumprod(0), dtypes=COMMON, shapes=S1),
    OpInfo("cumprod_grad", torch.cumprod, kwargs=dict(dim=1), dtypes=FLOATING, domain=(0.5, 1.5), **GRADGRAD),
    OpInfo("cumprod_with_zeros", lambda a: (a * idx(a, [1.0, 0.0, 1.0, 0.0])).cumprod(1), **GRADGRAD),
    OpInfo(
        "cummax", lambda a: torch.cummax(a, 1).values, ref=lambda a: np.maximum.accumulate(a, 1), dtypes=COMMON, **GRAD
    ),
    OpInfo("cummin_indices", lambda a: torch.cummin(a, 0).indices, dtypes=COMMON, shapes=S1),
    OpInfo(
        "logcumsumexp",
        lambda a: torch.logcumsumexp(a, 1),
        ref=lambda a: np.logaddexp.accumulate(a, 1),
        dtypes=FLOATS,
        **GRAD,
    ),
    OpInfo(
        "searchsorted", lambda a: torch.searchsorted(a.sort(1).values, a[:, :3].contiguous()), dtypes=COMMON, shapes=S1
    ),
    OpInfo("sort", torch.sort, kwargs=dict(dim=1), dtypes=COMMON, **GRAD),
    OpInfo("sort_descending", lambda a: a.sort(0, descending=True)[0], dtypes=COMMON, shapes=S1),
    OpInfo("argsort_values", lambda a: a.gather(1, a.argsort(1)), dtypes=COMMON, shapes=S1),
    OpInfo("topk", lambda a: torch.topk(a, 2, dim=0)[0], dtypes=COMMON, **GRAD),
    OpInfo("topk_smallest_values", lambda a: a.topk(2, 0, largest=False)[0], dtypes=COMMON, shapes=S1),
    OpInfo(
        "unique",
        lambda a: torch.unique(a, return_inverse=True, return_counts=True),
        dtypes=COMMON,
        shapes=S1,
    ),
    OpInfo(
        "unique_dim",
        lambda a: torch.unique(a.remainder(2), dim=0, return_counts=True),
        dtypes=COMMON,
        shapes=S1,
    ),
    OpInfo("diff", lambda a: torch.diff(a, 2, 0, append=a[:1]), dtypes=COMMON, shapes=S1),
    # --- linear algebra ---------------------------------------------------------------------------
    OpInfo("mm", torch.mm, dtypes=COMMON, shapes=((3, 4), (4, 2)), **GRADGRAD),
    OpInfo("bmm", torch.bmm, dtypes=COMMON, shapes=((2, 3, 4), (2, 4, 2)), **GRADGRAD),
    OpInfo("mv", torch.mv, dtypes=COMMON, shapes=((3, 4), (4,)), **GRAD),
    OpInfo("dot", torch.dot, dtypes=COMMON, shapes=((4,), (4,)), **GRADGRAD),
    OpInfo("outer", torch.outer, dtypes=COMMON, shapes=((3,), (4,)), **GRAD),
    OpInfo(
        "addmm",
        lambda s, a, b: torch.addmm(s, a, b, beta=0.5, alpha=2.0),
        shapes=((2,), (3, 4), (4, 2)),
        **GRAD,
    ),
    OpInfo("matmul_2d", torch.matmul, dtypes=COMMON, shapes=((3, 4), (4, 2)), **GRADGRAD),
    OpInfo(
        "matmul_batched_broadcast",
        torch.matmul,
        dtypes=COMMON,
        shapes=((2, 1, 3, 4), (3, 4, 2)),
        **GRADGRAD,
    ),
    OpInfo("matmul_vec_mat", torch.matmul, shapes=((4,), (2, 4, 3)), **GRAD),
    OpInfo("matmul_mat_vec", torch.matmul, shapes=((2, 3, 4), (4,)), **GRAD),
    OpInfo("einsum", lambda a, b: torch.einsum("ij,kj->ik", a, b), dtypes=COMMON, shapes=(U, (2, 4)), **GRAD),
    OpInfo("einsum_ellipsis", lambda a, b: torch.einsum("...j,kj->...k", a, b), shapes=(U, (2, 4)), **GRAD),
    OpInfo("einsum_diagonal", lambda a: torch.einsum("ii->i", a[:, :3]), **GRAD),
    # --- views and shapes -------------------------------------------------------------------------
    OpInfo("view", lambda a: a.view(12) * 2, layouts=("contiguous",), **GRAD),
    OpInfo("reshape", lambda a: a.reshape(2, 6), dtypes=COMMON, **GRAD),
    OpInfo("flatten", lambda a: a.flatten(), shapes=((2, 3, 2),), **GRAD),
    OpInfo("transpose", lambda a: a.transpose(0, 1) * 2, **GRAD),
    OpInfo("t", lambda a: a.t() @ a, **GRAD),
    OpInfo("t_contiguous", lambda a: a.t().contiguous(), dtypes=COMMON, shapes=S1),
    OpInfo("permute", lambda a: a.permute(2, 0, 1), shapes=((2, 3, 4),), **GRAD),
    OpInfo("expand", lambda a: a.expand(3, 4) * 1.5, shapes=((4,),), **GRAD),
    OpInfo("unsqueeze_squeeze", lambda a: a.unsqueeze(1).squeeze(1) * 2, **GRAD),
    OpInfo(
        "inplace_views",
        lambda a: a.clone().t_().unsqueeze_(0).transpose_(0, 2).squeeze_(2),
        dtypes=COMMON,
        shapes=S1,
    ),
    OpInfo("resize", lambda a: a.clone().resize_(3, 4), dtypes=COMMON, shapes=S1),
    OpInfo("narrow", lambda a: a.narrow(1, 1, 2), **GRAD),
    OpInfo("select", lambda a: a.select(0, 1), dtypes=COMMON, **GRAD),
    OpInfo("split", lambda a: a.split(2, 1)[1] * 2, **GRAD),
    OpInfo("split_sizes", lambda a: torch.stack(a.split([3, 4], 1)[1].unbind(0)), dtypes=COMMON, shapes=S1),
    OpInfo("chunk", lambda a: a.chunk(2, 0)[0], **GRAD),
    OpInfo("unbind", lambda a: a.unbind(1)[2] * a.unbind(1)[0], **GRAD),
    OpInfo("contiguous", lambda a: a.contiguous(), dtypes=COMMON, shapes=S1),
    OpInfo("clone", lambda a: a.clone(), dtypes=COMMON, shapes=S1),
    OpInfo("contiguous_clone", lambda a: a.contiguous().clone() * 2, **GRAD),
    OpInfo("flip", lambda a: a.flip(0, 1), dtypes=COMMON, **GRADGRAD),
    OpInfo("roll", torch.roll, kwargs=dict(shifts=(1, -2), dims=(0, 1)), dtypes=COMMON, **GRADGRAD),
    OpInfo("roll_flat", lambda a: a.roll(5), **GRAD),
    OpInfo("rot90_split", lambda a: torch.rot90(a, 1).tensor_split(3, 1)[1], dtypes=COMMON, shapes=S1),
    OpInfo("repeat", lambda a: a.repeat(2, 1, 2), dtypes=COMMON, **GRADGRAD),
    OpInfo("tile", torch.tile, kwargs=dict(dims=(2,)), dtypes=COMMON, **GRADGRAD),
    OpInfo("tril", torch.tril, kwargs=dict(diagonal=1), dtypes=COMMON, **GRADGRAD),
    OpInfo("triu", lambda a: a.triu(-1), dtypes=COMMON, **GRADGRAD),
    OpInfo("diag_2d", torch.diag, kwargs=dict(diagonal=1), dtypes=COMMON, **GRADGRAD),
    OpInfo("diag_2d_below", lambda a: a.diag(-1), shapes=((5, 3),), **GRADGRAD),
    OpInfo("diag_1d", torch.diag, kwargs=dict(diagonal=-1), dtypes=COMMON, shapes=((4,),), **GRADGRAD),
    # --- joining ----------------------------------------------------------------------------------
    OpInfo("cat", lambda a, b: torch.cat([a, b * 2], 1), dtypes=COMMON, shapes=(U, (3, 2)), **GRAD),
    OpInfo("stack", lambda a, b: torch.stack([a, b], 0), dtypes=COMMON, shapes=(U, U), **GRAD),
    OpInfo(
        "stacks",
        lambda a: torch.cat([torch.vstack([a, a]).reshape(-1), torch.hstack([a, a]).reshape(-1)]),
        dtypes=COMMON,
        shapes=S1,
    ),
    # --- indexing ---------------------------------------------------------------------------------
    OpInfo("getitem", lambda a: a[1:, ::2] * a[0, 1], dtypes=COMMON, **GRAD),
    OpInfo("getitem_none_ellipsis", lambda a: a[None, ..., 1], **GRAD),
    OpInfo("take", lambda a: a.take(idx(a, [[0, 5], [5, 11]])), **GRAD),
    OpInfo("index_select", lambda a: a.index_select(1, idx(a, [3, 0, 3])), dtypes=COMMON, **GRAD),
    OpInfo("gather", lambda a: a.gather(1, idx(a, [[0, 1], [2, 2], [3, 0]])), dtypes=COMMON, **GRAD),
    OpInfo(
        "scatter",
        lambda a, s: a.scatter(1, idx(a, [[0], [2], [1]]), s),
        dtypes=COMMON,
        shapes=(U, (3, 1)),
        **GRAD,
    ),
    OpInfo(
        "scatter_add",
        lambda a, s: a.scatter_add(0, idx(a, [[0, 1, 0, 2]]), s),
        dtypes=COMMON,
        shapes=(U, (1, 4)),
        **GRAD,
    ),
    OpInfo("index_add", lambda a, s: a.index_add(0, idx(a, [2, 0]), s, alpha=1.5), shapes=(U, (2, 4)), **GRAD),
    OpInfo(
        "index_add_repeated",
        lambda a: a.clone().index_add_(0, idx(a, [4, 4, 1]), a[:3]),
        dtypes=COMMON,
        shapes=S1,
    ),
    OpInfo(
        "index_put_accumulate",
        lambda a: a.clone().index_put_((idx(a, [0, 0, 2]),), a[:3], accumulate=True),
        dtypes=COMMON,
        shapes=S1,
    ),
    OpInfo("masked_fill", lambda a: a.masked_fill(idx(a, [True, False, False, True]), 0.5), dtypes=COMMON, **GRAD),
    OpInfo("masked_select", lambda a: a.masked_select(idx(a, [True, False, True, True])), dtypes=COMMON, **GRAD),
    OpInfo("advanced_getitem", lambda a: a[[0, 0, 2], 1:], **GRAD),
    OpInfo("int_index", lambda a: a[idx(a, [4, 0, 4])], dtypes=COMMON, shapes=S1),
    OpInfo("two_int_index", lambda a: a[idx(a, [0, 1, 4]), idx(a, [6, 2, 0])], dtypes=COMMON, shapes=S1),
    OpInfo("bool_getitem", lambda a: a[a > 0.5] * 2, dtypes=COMMON, away_from=(0.5,), **GRAD),
    OpInfo("nonzero", lambda a: (a > 0).nonzero(), dtypes=COMMON, shapes=S1),
    OpInfo("advanced_setitem", _setitem_advanced, shapes=(U, (2,)), **GRAD),
    OpInfo("setitem_mask", setitem(lambda a: a > 0, lambda a: 0), dtypes=COMMON, shapes=S1),
    OpInfo("setitem_column", setitem(lambda a: (slice(None), 1), lambda a: a[:, 2] * 2), dtypes=COMMON, shapes=S1),
    OpInfo("setitem_int_index", setitem(lambda a: idx(a, [1, 3]), lambda a: a[0]), dtypes=COMMON, shapes=S1),
    # --- in place ---------------------------------------------------------------------------------
    OpInfo("inplace_add", inplace("add_", 1), dtypes=COMMON, shapes=S1, layouts=NO_EXPANDED),
    OpInfo("inplace_mul", inplace("mul_", 3), dtypes=COMMON, shapes=S1, layouts=NO_EXPANDED),
    OpInfo("inplace_fill", inplace("fill_", 4), dtypes=COMMON, shapes=S1, layouts=NO_EXPANDED),
    OpInfo("inplace_zero", inplace("zero_"), dtypes=COMMON, shapes=S1, layouts=NO_EXPANDED),
    OpInfo("inplace_clamp", inplace("clamp_", -1, 1), dtypes=COMMON, shapes=S1, layouts=NO_EXPANDED),
    OpInfo("inplace_sub", inplace("sub_", lambda a, b: b), dtypes=COMMON, shapes=S2, layouts=NO_EXPANDED),
    OpInfo("inplace_copy", inplace("copy_", lambda a, b: b[0]), dtypes=COMMON, shapes=S2, layouts=NO_EXPANDED),
    # --- NN kernels -------------------------------------------------------------------------------
    OpInfo(
        "tanh_backward",
        _aten("tanh_backward"),
        ref=lambda g, y: g * (1 - y * y),
        shapes=(U, U),
        broadcast_shapes=((3, 1, 4), (2, 1)),
        rhs_domain=(-1, 1),
    ),
    OpInfo(
        "sigmoid_backward",
        _aten("sigmoid_backward"),
        ref=lambda g, y: g * y * (1 - y),
        shapes=(U, U),
        broadcast_shapes=((3, 1, 4), (2, 1)),
        rhs_domain=(-1, 1),
    ),
    # torch.nn.functional's activations (the THNN/THCUNN kernels and their fused backward)
    *(
        # (upstream has no second derivative of hardsigmoid: ours is in tests/autograd/test_double_backward.py)
        OpInfo(name, fn, ref=ref, dtypes=FLOATING, away_from=kinks, **(GRAD if name == "F.hardsigmoid" else GRADGRAD))
        for name, fn, ref, kinks in (
            ("F.gelu", lambda x: F.gelu(x), lambda x: x * 0.5 * (1 + _np_erf(x / math.sqrt(2))), ()),
            (
                "F.gelu_tanh",
                lambda x: F.gelu(x, approximate="tanh"),
                lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))),
                (),
            ),
            ("F.silu", F.silu, lambda x: x / (1 + np.exp(-x)), ()),
            ("F.elu", lambda x: F.elu(x, 1.5), lambda x: np.where(x > 0, x, 1.5 * np.expm1(x)), (0.0,)),
            (
                "F.selu",
                F.selu,
                lambda x: 1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 * np.expm1(x)),
                (0.0,),
            ),
            ("F.celu", lambda x: F.celu(x, 2.0), lambda x: np.where(x > 0, x, 2.0 * np.expm1(x / 2.0)), (0.0,)),
            ("F.leaky_relu", lambda x: F.leaky_relu(x, 0.2), lambda x: np.where(x > 0, x, 0.2 * x), (0.0,)),
            ("F.hardtanh", lambda x: F.hardtanh(x, -2.0, 1.5), lambda x: np.clip(x, -2.0, 1.5), (-2.0, 1.5)),
            ("F.relu6", lambda x: F.relu6(x * 3), lambda x: np.clip(x * 3, 0, 6), (0.0, 2.0)),
            ("F.hardswish", F.hardswish, lambda x: x * np.clip(x + 3, 0, 6) / 6, (-3.0, 3.0)),
            ("F.hardsigmoid", F.hardsigmoid, lambda x: np.clip(x + 3, 0, 6) / 6, (-3.0, 3.0)),
            (
                "F.softplus",
                lambda x: F.softplus(x, 2.0, 3.0),
                lambda x: np.where(2 * x > 3, x, np.log1p(np.exp(2 * x)) / 2),
                (1.5,),
            ),
            ("F.mish", F.mish, lambda x: x * np.tanh(np.log1p(np.exp(x))), ()),
            ("F.logsigmoid", F.logsigmoid, lambda x: -np.log1p(np.exp(-x)), ()),
        )
    ),
    OpInfo(
        "F.conv2d",
        lambda x, w, b: F.conv2d(x, w, b, stride=(2, 1), padding=1, dilation=(1, 2)),
        ref=lambda x, w, b: _np_conv2d(x, w, b, (2, 1), (1, 1), (1, 2)),
        dtypes=FLOATS,
        shapes=((2, 3, 6, 7), (4, 3, 3, 2), (4,)),
        layouts=("contiguous", "transposed"),
        **GRADGRAD,
    ),
    OpInfo(
        "F.conv2d_grouped",
        lambda x, w: F.conv2d(x, w, groups=2),
        ref=lambda x, w: np.concatenate(
            [_np_conv2d(x[:, 2 * g : 2 * g + 2], w[3 * g : 3 * g + 3], None, (1, 1), (0, 0), (1, 1)) for g in (0, 1)],
            1,
        ),
        dtypes=FLOATS,
        shapes=((2, 4, 5, 5), (6, 2, 2, 3)),
        layouts=("contiguous", "transposed"),
        **GRADGRAD,
    ),
    OpInfo(
        "F.max_pool2d",
        lambda x: F.max_pool2d(x, 2, stride=1, padding=1),
        ref=lambda x: _np_pool2d(x, 2, 1, 1, np.max, -np.inf),
        dtypes=FLOATING,
        shapes=((2, 3, 5, 6),),
        layouts=("contiguous", "transposed", "stepped"),
        **GRADGRAD,
    ),
    OpInfo(
        "F.avg_pool2d",
        lambda x: F.avg_pool2d(x, 3, stride=2, padding=1),
        ref=lambda x: _np_pool2d(x, 3, 2, 1, np.sum, 0.0) / 9,
        dtypes=FLOATING,
        shapes=((2, 3, 7, 6),),
        layouts=("contiguous", "transposed", "stepped"),
        **GRADGRAD,
    ),
    OpInfo(
        "F.batch_norm_training",
        lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True),
        ref=lambda x, w, b: (
            (x - x.mean((0, 2), keepdims=True)) / np.sqrt(x.var((0, 2), keepdims=True) + 1e-5) * w[None, :, None]
            + b[None, :, None]
        ),
        dtypes=FLOATS,
        shapes=((4, 3, 5), (3,), (3,)),
        layouts=("contiguous", "transposed"),
        **GRADGRAD,
    ),
    OpInfo(
        "F.layer_norm",
        lambda x, w, b: F.layer_norm(x, [4], w, b),
        ref=lambda x, w, b: (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5) * w + b,
        dtypes=FLOATS,
        shapes=((3, 4), (4,), (4,)),
        layouts=("contiguous", "transposed"),
        **GRADGRAD,
    ),
]


def _np_erf(x: np.ndarray) -> np.ndarray:
    """erf elementwise (NumPy has none; math.erf per element)."""
    return np.vectorize(math.erf)(x)


def _np_conv2d(x, w, b, stride, padding, dilation):
    """A direct float64 NumPy convolution (cross-correlation) of [N, C, H, W] by [O, C, kh, kw]."""
    x = np.pad(np.asarray(x, np.float64), [(0, 0), (0, 0), (padding[0],) * 2, (padding[1],) * 2])
    n, _, h, wd = x.shape
    o, _, kh, kw = w.shape
    oh = (h - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, o, oh, ow))
    for i in range(kh):
        for j in range(kw):
            patch = x[:, :, i * dilation[0] :, j * dilation[1] :][
                :, :, : oh * stride[0] : stride[0], : ow * stride[1] : stride[1]
            ]
            out += np.einsum("nchw,oc->nohw", patch, w[:, :, i, j])
    return out + (b[None, :, None, None] if b is not None else 0)


def _np_pool2d(x, k, stride, padding, reduce, pad_value):
    """max or sum pooling of [N, C, H, W] over k x k windows (padding filled with pad_value)."""
    x = np.pad(np.asarray(x, np.float64), [(0, 0), (0, 0), (padding,) * 2, (padding,) * 2], constant_values=pad_value)
    oh = (x.shape[2] - k) // stride + 1
    ow = (x.shape[3] - k) // stride + 1
    windows = [x[:, :, i : i + oh * stride : stride, j : j + ow * stride : stride] for i in range(k) for j in range(k)]
    return reduce(np.stack(windows), axis=0)
