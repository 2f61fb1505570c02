"""Every differentiable op of the op table through gradcheck (float64 central differences) on
contiguous, non-contiguous and broadcast inputs, and gradgradcheck (create_graph=True) for the
core elementwise, reduction and matmul ops.

Runs against upstream PyTorch too (nox -s tests-reference).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pytest

import torch
from torch.autograd import gradcheck, gradgradcheck


@dataclass
class GradInfo:
    name: str
    fn: Callable
    shapes: tuple  # one shape per tensor input
    domain: tuple[float, float] = (-2.0, 2.0)
    away_from: tuple = ()  # keep inputs this far from these points (kinks, poles)
    gradgrad: bool = False
    kinds: tuple = ("contiguous", "non_contiguous")
    extra: dict = field(default_factory=dict)


def _values(shape, domain, away_from, seed):
    rng = np.random.default_rng(seed)
    lo, hi = domain
    v = rng.uniform(lo, hi, size=shape)
    for p in away_from:  # push samples at least 0.2 away from p
        close = np.abs(v - p) < 0.2
        v = np.where(close, p + np.where(v >= p, 0.2, -0.2) + np.sign(v - p + 1e-9) * 0.1, v)
    return v


def _non_contiguous(v: np.ndarray) -> torch.Tensor:
    """The values of `v` in a non-contiguous tensor (transposed storage, or every other element)."""
    if v.ndim >= 2:
        t = torch.from_numpy(np.ascontiguousarray(np.swapaxes(v, -1, -2))).transpose(-1, -2)
        if not t.is_contiguous():
            return t
    d = next(i for i, n in enumerate(v.shape) if n > 1)
    t = torch.from_numpy(np.ascontiguousarray(np.repeat(v, 2, axis=d)))
    return t[(slice(None),) * d + (slice(None, None, 2),)]


def _input(shape, info: GradInfo, kind: str, seed: int) -> torch.Tensor:
    v = _values(shape, info.domain, info.away_from, seed)
    t = _non_contiguous(v) if kind == "non_contiguous" else torch.from_numpy(np.ascontiguousarray(v))
    assert t.is_contiguous() == (kind == "contiguous")
    np.testing.assert_array_equal(t.numpy(), v)
    return t.requires_grad_()


U = (3, 4)
OPS = [
    GradInfo("exp", torch.exp, (U,), gradgrad=True),
    GradInfo("exp2", torch.exp2, (U,)),
    GradInfo("expm1", torch.expm1, (U,)),
    GradInfo("log", torch.log, (U,), domain=(0.3, 3.0), gradgrad=True),
    GradInfo("log2", torch.log2, (U,), domain=(0.3, 3.0)),
    GradInfo("log10", torch.log10, (U,), domain=(0.3, 3.0)),
    GradInfo("log1p", torch.log1p, (U,), domain=(-0.5, 2.0)),
    GradInfo("sqrt", torch.sqrt, (U,), domain=(0.3, 3.0)),
    GradInfo("rsqrt", torch.rsqrt, (U,), domain=(0.3, 3.0)),
    GradInfo("reciprocal", torch.reciprocal, (U,), domain=(0.5, 3.0)),
    GradInfo("sin", torch.sin, (U,), gradgrad=True),
    GradInfo("cos", torch.cos, (U,)),
    GradInfo("tan", torch.tan, (U,), domain=(-1.0, 1.0)),
    GradInfo("asin", torch.asin, (U,), domain=(-0.8, 0.8)),
    GradInfo("acos", torch.acos, (U,), domain=(-0.8, 0.8)),
    GradInfo("atan", torch.atan, (U,)),
    GradInfo("sinh", torch.sinh, (U,)),
    GradInfo("cosh", torch.cosh, (U,)),
    GradInfo("tanh", torch.tanh, (U,), gradgrad=True),
    GradInfo("sigmoid", torch.sigmoid, (U,), gradgrad=True),
    GradInfo("erf", torch.erf, (U,)),
    GradInfo("erfc", torch.erfc, (U,)),
    GradInfo("abs", torch.abs, (U,), away_from=(0.0,)),
    GradInfo("neg", torch.neg, (U,)),
    GradInfo("relu", torch.relu, (U,), away_from=(0.0,)),
    GradInfo("square_via_pow", lambda x: x**2, (U,), gradgrad=True),
    GradInfo("add_alpha", lambda a, b: torch.add(a, b, alpha=2.5), (U, U), gradgrad=True),
    GradInfo("add_broadcast", torch.add, ((3, 1), (1, 4))),
    GradInfo("sub", lambda a, b: a - b, (U, (4,))),
    GradInfo("mul", torch.mul, (U, U), gradgrad=True),
    GradInfo("mul_broadcast", torch.mul, ((2, 3, 1), (3, 4)), gradgrad=True),
    GradInfo("mul_scalar", lambda a: a * 3.0, (U,)),
    GradInfo("div", torch.div, (U, U), away_from=(0.0,), gradgrad=True),
    GradInfo("rdiv_scalar", lambda a: 2.0 / a, (U,), away_from=(0.0,)),
    GradInfo("pow_tensor", torch.pow, (U, U), domain=(0.5, 2.0), gradgrad=True),
    GradInfo("pow_scalar_base", lambda a: 2.0**a, (U,)),
    GradInfo("atan2", torch.atan2, (U, U), domain=(0.3, 2.0)),
    GradInfo("maximum", torch.maximum, (U, U)),
    GradInfo("minimum", torch.minimum, (U, U)),
    GradInfo("sum", torch.sum, (U,), gradgrad=True),
    GradInfo("sum_dim", lambda a: a.sum(0), (U,), gradgrad=True),
    GradInfo("sum_dims_keepdim", lambda a: a.sum((0, 2), keepdim=True), ((2, 3, 4),)),
    GradInfo("mean", torch.mean, (U,), gradgrad=True),
    GradInfo("mean_dim", lambda a: a.mean(-1), (U,)),
    GradInfo("amax", lambda a: a.amax(1), (U,)),
    GradInfo("max", torch.max, (U,)),
    GradInfo("min", torch.min, (U,)),
    GradInfo("max_dim", lambda a: torch.max(a, 1).values, (U,)),
    GradInfo("min_dim_keepdim", lambda a: torch.min(a, 0, keepdim=True)[0], (U,)),
    GradInfo("mm", torch.mm, ((3, 4), (4, 2)), gradgrad=True),
    GradInfo("bmm", torch.bmm, ((2, 3, 4), (2, 4, 2)), gradgrad=True),
    GradInfo("mv", torch.mv, ((3, 4), (4,))),
    GradInfo("dot", torch.dot, ((4,), (4,)), gradgrad=True),
    GradInfo("outer", torch.outer, ((3,), (4,))),
    GradInfo("addmm", lambda s, a, b: torch.addmm(s, a, b, beta=0.5, alpha=2.0), ((2,), (3, 4), (4, 2))),
    GradInfo("matmul_2d", torch.matmul, ((3, 4), (4, 2)), gradgrad=True),
    GradInfo("matmul_batched_broadcast", torch.matmul, ((2, 1, 3, 4), (3, 4, 2)), gradgrad=True),
    GradInfo("matmul_vec_mat", torch.matmul, ((4,), (2, 4, 3))),
    GradInfo("matmul_mat_vec", torch.matmul, ((2, 3, 4), (4,))),
    GradInfo("view", lambda a: a.view(12) * 2, (U,), kinds=("contiguous",)),
    GradInfo("reshape", lambda a: a.reshape(2, 6), (U,)),
    GradInfo("flatten", lambda a: a.flatten(), ((2, 3, 2),)),
    GradInfo("transpose", lambda a: a.transpose(0, 1) * 2, (U,)),
    GradInfo("t", lambda a: a.t() @ a, (U,)),
    GradInfo("permute", lambda a: a.permute(2, 0, 1), ((2, 3, 4),)),
    GradInfo("expand", lambda a: a.expand(3, 4) * 1.5, ((4,),)),
    GradInfo("unsqueeze_squeeze", lambda a: a.unsqueeze(1).squeeze(1) * 2, (U,)),
    GradInfo("narrow", lambda a: a.narrow(1, 1, 2), (U,)),
    GradInfo("select", lambda a: a.select(0, 1), (U,)),
    GradInfo("getitem", lambda a: a[1:, ::2] * a[0, 1], (U,)),
    GradInfo("getitem_none_ellipsis", lambda a: a[None, ..., 1], (U,)),
    GradInfo("split", lambda a: a.split(2, 1)[1] * 2, (U,)),
    GradInfo("chunk", lambda a: a.chunk(2, 0)[0], (U,)),
    GradInfo("unbind", lambda a: a.unbind(1)[2] * a.unbind(1)[0], (U,)),
    GradInfo("contiguous_clone", lambda a: a.contiguous().clone() * 2, (U,)),
    GradInfo("to_float64", lambda a: a.to(torch.float64) * 2, (U,)),
]


def test_gradcheck_catches_a_wrong_gradient():
    class Wrong(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 3

    x = torch.ones(3, dtype=torch.float64, requires_grad=True)
    assert not gradcheck(Wrong.apply, (x,), raise_exception=False)
    with pytest.raises(RuntimeError, match="Jacobian mismatch"):
        gradcheck(Wrong.apply, (x,))


JOIN_OPS = [
    GradInfo("cat", lambda a, b: torch.cat([a, b * 2], 1), (U, (3, 2))),
    GradInfo("stack", lambda a, b: torch.stack([a, b], 0), (U, U)),
    GradInfo("where", lambda a, b: torch.where(a > 0, a, b), (U, (4,)), away_from=(0.0,)),
    GradInfo("clamp", lambda a: a.clamp(-0.5, 0.7), (U,), away_from=(-0.5, 0.7)),
    GradInfo("cumsum", lambda a: a.cumsum(1), (U,)),
    GradInfo("var", lambda a: a.var(1), (U,)),
    GradInfo("var_all", lambda a: a.var(), (U,)),
    GradInfo("std_keepdim", lambda a: a.std(0, keepdim=True), (U,)),
    GradInfo("std_correction", lambda a: torch.std(a, dim=1, correction=0), (U,)),
]


INDEX_OPS = [
    GradInfo("take", lambda a: a.take(torch.tensor([[0, 5], [5, 11]])), (U,)),
    GradInfo("index_select", lambda a: a.index_select(1, torch.tensor([3, 0, 3])), (U,)),
    GradInfo("gather", lambda a: a.gather(1, torch.tensor([[0, 1], [2, 2], [3, 0]])), (U,)),
    GradInfo("scatter", lambda a, s: a.scatter(1, torch.tensor([[0], [2], [1]]), s), (U, (3, 1))),
    GradInfo("scatter_add", lambda a, s: a.scatter_add(0, torch.tensor([[0, 1, 0, 2]]), s), (U, (1, 4))),
    GradInfo("index_add", lambda a, s: a.index_add(0, torch.tensor([2, 0]), s, alpha=1.5), (U, (2, 4))),
    GradInfo("masked_fill", lambda a: a.masked_fill(torch.tensor([True, False, False, True]), 0.5), (U,)),
    GradInfo("masked_select", lambda a: a.masked_select(torch.tensor([True, False, True, True])), (U,)),
    GradInfo("advanced_getitem", lambda a: a[[0, 0, 2], 1:], (U,)),
    GradInfo("bool_getitem", lambda a: a[a > 0.5] * 2, (U,), away_from=(0.5,)),
    GradInfo("advanced_setitem", lambda a, v: _setitem(a, v), (U, (2,))),
    GradInfo("einsum", lambda a, b: torch.einsum("ij,kj->ik", a, b), (U, (2, 4))),
    GradInfo("flip", lambda a: a.flip(0, 1), (U,), gradgrad=True),
    GradInfo("roll", lambda a: torch.roll(a, (1, -2), (0, 1)), (U,), gradgrad=True),
    GradInfo("roll_flat", lambda a: a.roll(5), (U,)),
    GradInfo("repeat", lambda a: a.repeat(2, 1, 2), (U,), gradgrad=True),
    GradInfo("tile", lambda a: torch.tile(a, (2,)), (U,), gradgrad=True),
    GradInfo("tril", lambda a: torch.tril(a, 1), (U,), gradgrad=True),
    GradInfo("triu", lambda a: a.triu(-1), (U,), gradgrad=True),
    GradInfo("diag_2d", lambda a: torch.diag(a, 1), (U,), gradgrad=True),
    GradInfo("diag_2d_below", lambda a: a.diag(-1), ((5, 3),), gradgrad=True),
    GradInfo("diag_1d", lambda v: torch.diag(v, -1), ((4,),), gradgrad=True),
    GradInfo("einsum_ellipsis", lambda a, b: torch.einsum("...j,kj->...k", a, b), (U, (2, 4))),
    GradInfo("einsum_diagonal", lambda a: torch.einsum("ii->i", a[:, :3]), (U,)),
]


def _setitem(a, v):
    out = a * 1
    out[[0, 2], 1] = v
    return out


MISC_OPS = [
    GradInfo("lerp_scalar", lambda a, b: torch.lerp(a, b, 0.3), (U, U)),
    GradInfo("lerp_tensor", lambda a, b, w: torch.lerp(a, b, w), (U, U, (4,))),
    GradInfo("sort", lambda a: torch.sort(a, dim=1)[0], (U,)),
    GradInfo("topk", lambda a: torch.topk(a, 2, dim=0)[0], (U,)),
    GradInfo("norm", lambda a: torch.norm(a, dim=1), (U,), gradgrad=True),
    GradInfo("logsumexp", lambda a: torch.logsumexp(a, 1), (U,), gradgrad=True),
    GradInfo("logsumexp_all_keepdim", lambda a: a.logsumexp((0, 1), keepdim=True), (U,), gradgrad=True),
    GradInfo("nan_to_num", lambda a: torch.nan_to_num(a), (U,)),
    GradInfo("prod", lambda a: a.prod(), (U,), away_from=(0.0,), gradgrad=True),
    GradInfo("prod_dim", lambda a: a.prod(1), (U,), away_from=(0.0,)),
    GradInfo("prod_with_a_zero", lambda a: (a * torch.tensor([1.0, 0.0, 1.0, 1.0])).prod(1), (U,)),
]


ALL_OPS = OPS + JOIN_OPS + INDEX_OPS + MISC_OPS


@pytest.mark.parametrize("kind", ["contiguous", "non_contiguous"])
@pytest.mark.parametrize("info", ALL_OPS, ids=lambda i: i.name)
def test_gradcheck(info: GradInfo, kind: str):
    if kind not in info.kinds:
        pytest.skip(f"{info.name} needs contiguous input")
    inputs = tuple(_input(s, info, kind, seed) for seed, s in enumerate(info.shapes))
    assert gradcheck(info.fn, inputs)


@pytest.mark.parametrize("info", [i for i in ALL_OPS if i.gradgrad], ids=lambda i: i.name)
def test_gradgradcheck(info: GradInfo):
    inputs = tuple(_input(s, info, "contiguous", seed) for seed, s in enumerate(info.shapes))
    assert gradgradcheck(info.fn, inputs)
