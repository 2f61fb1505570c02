"""Gradients that a differential fuzz of upstream's OpInfo samples (float64, requires_grad) found different from
upstream's: None against zeros, results that did not require grad, reductions of 0-dim inputs, norms at zero,
the formulas upstream uses on a whole matrix where the forward reads one triangle (cholesky_solve,
cholesky_inverse, pinv with hermitian=True), empty batches of the factorizations. Each expectation is upstream's
exact gradient, or checked by gradcheck in float64.

Runs against upstream PyTorch too (TORCH_REFERENCE=1).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import torch
from torch.autograd import gradcheck

D = torch.float64


def _t(values, requires_grad=True) -> torch.Tensor:
    return torch.tensor(values, dtype=D, requires_grad=requires_grad)


def _rand(*shape, seed=0) -> torch.Tensor:
    return torch.from_numpy(np.random.default_rng(seed).standard_normal(shape)).requires_grad_()


def _weights(t: torch.Tensor) -> torch.Tensor:
    """The fuzz's fixed weighting of an output: -1 .. 2 over its elements."""
    return torch.linspace(-1.0, 2.0, t.numel(), dtype=t.dtype).reshape(t.shape)


def _grads(out: torch.Tensor, inputs, **kwargs):
    return torch.autograd.grad((out * _weights(out)).sum(), inputs, **kwargs)


# ---- reductions of a 0-dim input over dim 0 --------------------------------------------------


@pytest.mark.parametrize("dim", [0, -1, [0], (-1,)])
@pytest.mark.parametrize("keepdim", [False, True])
def test_mean_of_0dim_over_its_dim(dim, keepdim):
    x = _t(-4.8)
    (g,) = torch.autograd.grad(torch.mean(x, dim=dim, keepdim=keepdim), x)
    assert g.shape == () and g.item() == 1.0


@pytest.mark.parametrize("fn", ["var", "std"])
def test_var_std_of_0dim_over_its_dim(fn):
    x = _t(1.5)
    (g,) = torch.autograd.grad(getattr(torch, fn)(x, 0, correction=0), x)
    assert g.item() == 0.0
    mean = torch.var_mean(x, 0, correction=0)[1] if fn == "var" else torch.std_mean(x, 0, correction=0)[1]
    assert torch.autograd.grad(mean, x)[0].item() == 1.0


def test_std_of_a_constant_has_gradient_zero():
    """std = 0: upstream masks grad / (2 std) to 0 there (no NaN from 0 / 0)."""
    for x in (torch.ones(3, dtype=D), torch.ones(2, 3, dtype=D)):
        x.requires_grad_()
        for out in (x.std(), x.std(0), x.std(-1, keepdim=True), torch.std_mean(x, 0)[0], x.std(correction=0)):
            (g,) = torch.autograd.grad(out.sum(), x)
            assert torch.equal(g, torch.zeros_like(x))


def test_var_without_degrees_of_freedom_gives_inf_gradient():
    """N - correction <= 0: upstream's gradient is inf over all of self (NaN where self is its mean), 2 / (N -
    correction) times self - mean over a dim; not an error."""
    x = _t([1.0, 3.0, 2.0])
    with pytest.warns(UserWarning):
        out = x.var(correction=3)
    (g,) = torch.autograd.grad(out, x)
    assert g[:2].tolist() == [math.inf, math.inf] and g[2].isnan()
    with pytest.warns(UserWarning):
        out = x.var(0, correction=3)
    (g,) = torch.autograd.grad(out, x)
    assert g[:2].tolist() == [-math.inf, math.inf] and g[2].isnan()
    with pytest.warns(UserWarning):
        out = x.var(0, correction=4)
    assert torch.autograd.grad(out, x)[0].tolist() == [2.0, -2.0, 0.0]


# ---- norms -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: torch.linalg.vector_norm(x, 0),
        lambda x: torch.linalg.vector_norm(x, 0, dim=1, keepdim=True),
        lambda x: torch.norm(x, 0),
        lambda x: torch.linalg.norm(x.reshape(-1), 0),
    ],
)
def test_zero_norm_counts_and_has_no_gradient(fn):
    """The 0-"norm" (count of non-zeros) requires grad, yet upstream's formula gives the input none."""
    x = _t([[0.0, 1.5, -2.0], [3.0, 0.0, 0.0]])
    out = fn(x)
    assert out.requires_grad
    assert _grads(out, x, allow_unused=True) == (None,)
    e = torch.empty(0, dtype=D, requires_grad=True)
    assert _grads(torch.linalg.norm(e, 0), e, allow_unused=True) == (None,)


@pytest.mark.parametrize("ord", [-2.0, -1.0, -0.5, 0.5])
def test_norm_below_one_at_zero_has_gradient_zero(ord):
    """ord < 1 at the zero vector (and at the zero entries of others): upstream's 0, not NaN."""
    z = torch.zeros(5, dtype=D, requires_grad=True)
    (g,) = _grads(torch.linalg.norm(z, ord), z)
    assert torch.equal(g, torch.zeros(5, dtype=D))
    x = _t([0.0, 1.5, -2.0, 0.0, 3.0])
    (g,) = _grads(torch.linalg.vector_norm(x, ord), x)
    assert not g.isnan().any() and g[0] == 0 and g[3] == 0
    assert gradcheck(lambda t: torch.linalg.vector_norm(t, ord), (_t([0.7, -1.5, 2.0, 0.3]),))


def test_p0_distances_have_gradient_zeros():
    x1, x2 = _t([[-4.8]]), _t([[-7.5], [-0.6], [-1.5]])
    g1, g2 = _grads(torch.cdist(x1, x2, 0.0), [x1, x2])
    assert torch.equal(g1, torch.zeros(1, 1, dtype=D)) and torch.equal(g2, torch.zeros(3, 1, dtype=D))
    (g,) = _grads(torch.nn.functional.pdist(x2, 0.0), x2)
    assert torch.equal(g, torch.zeros(3, 1, dtype=D))


@pytest.mark.parametrize("p", [0.0, 1.0, 2.0])
def test_pdist_of_one_row_is_differentiable(p):
    x = _t([[-4.8, 1.0]])
    out = torch.nn.functional.pdist(x, p)
    assert out.shape == (0,)
    (g,) = torch.autograd.grad(out.sum(), x)
    assert torch.equal(g, torch.zeros(1, 2, dtype=D))


# ---- ops that are locally constant in an input -------------------------------------------------


def test_nextafter_passes_the_gradient_to_input_only():
    x, y = _t([1.0, -2.0]), _t([[3.0], [-3.0]])
    gx, gy = _grads(torch.nextafter(x, y), [x, y])
    assert gx.tolist() == [0.0, 2.0] and torch.equal(gy, torch.zeros(2, 1, dtype=D))
    e1, e2 = torch.empty(0, 1, 3, dtype=D, requires_grad=True), torch.empty(0, 10, 3, dtype=D, requires_grad=True)
    assert [g.shape for g in _grads(torch.nextafter(e1, e2), [e1, e2])] == [(0, 1, 3), (0, 10, 3)]


def test_copysign_gives_sign_source_zeros():
    x, y = _t([1.0, -2.0]), _t([[-1.0], [0.0]])
    gx, gy = _grads(torch.copysign(x, y), [x, y])
    assert gx.tolist() == [2.0, -2.0] and torch.equal(gy, torch.zeros(2, 1, dtype=D))
    e1, e2 = torch.empty(0, 1, 3, dtype=D, requires_grad=True), torch.empty(0, 10, 3, dtype=D, requires_grad=True)
    assert [g.shape for g in _grads(torch.copysign(e1, e2), [e1, e2])] == [(0, 1, 3), (0, 10, 3)]


def test_fill_gives_input_zeros_and_value_the_sum():
    x, v = _t([1.0, 2.0]), torch.tensor(3.0, requires_grad=True)
    (g,) = _grads(torch.fill(x, 2.0), x)
    assert torch.equal(g, torch.zeros(2, dtype=D))
    gx, gv = torch.autograd.grad((torch.fill(x, v) * _t([1.0, 2.0], False)).sum(), [x, v])
    assert torch.equal(gx, torch.zeros(2, dtype=D)) and gv.dtype == torch.float32 and gv.item() == 3.0
    e = torch.empty(1, 0, 3, dtype=D, requires_grad=True)
    assert _grads(torch.fill(e, True), e)[0].shape == (1, 0, 3)


@pytest.mark.parametrize("r", [2, 3])
def test_combinations_of_too_few_elements_are_differentiable(r):
    """No combination: an empty [0, r] result that is still a function of the input (zeros), as upstream's."""
    x = _t([2.0, 5.0])
    out = torch.combinations(x[:1], r)
    assert out.shape == (0, r) and torch.autograd.grad(out.sum(), x)[0].tolist() == [0.0, 0.0]
    out = torch.combinations(x[:0], r, with_replacement=True)
    assert out.shape == (0, r) and torch.autograd.grad(out.sum(), x)[0].tolist() == [0.0, 0.0]


@pytest.mark.parametrize("fn", [torch.linalg.matrix_power, torch.matrix_power])
def test_matrix_power_zero_gives_zeros(fn):
    A = _t([[1.0, 2.0], [3.0, 5.0]])
    (g,) = torch.autograd.grad(fn(A, 0).sum(), A)
    assert torch.equal(g, torch.zeros(2, 2, dtype=D))
    E = torch.empty(0, 2, 2, dtype=D, requires_grad=True)
    assert torch.autograd.grad(fn(E, 0).sum(), E)[0].shape == (0, 2, 2)


def test_hardsigmoid_slope_is_upstreams_float_sixth():
    x = _t([0.0, 1.0, 2.9999, 3.0, -3.0, -2.5])
    (g,) = torch.autograd.grad(torch.nn.functional.hardsigmoid(x).sum(), x)
    sixth = float(np.float32(1.0) / np.float32(6.0))
    assert g.tolist() == [sixth, sixth, sixth, 0.0, 0.0, sixth]


# ---- quantile ----------------------------------------------------------------------------------


@pytest.mark.parametrize("fn", [torch.quantile, torch.nanquantile])
def test_quantile_is_differentiable_in_q_when_linear(fn):
    x = _t([[1.0, 4.0, 2.0, 8.0], [3.0, 0.0, -1.0, 5.0]])
    q = _t([0.25, 0.6, 0.9])
    gx, gq = _grads(fn(x, q, dim=1), [x, q])
    # d/dq of the value between the sorted neighbours a <= b: (b - a) * (n - 1)
    # sorted rows [1, 2, 4, 8], [-1, 0, 3, 5]; d/dq of the value between neighbours a <= b is (b - a) * (n - 1)
    assert gq.tolist() == pytest.approx([3 * (-1.0 * 1 - 0.4 * 1), 3 * (0.2 * 2 + 0.8 * 3), 3 * (1.4 * 4 + 2.0 * 2)])
    assert gradcheck(lambda t, u: fn(t, u, dim=1), (x, q))
    for interpolation in ("lower", "higher", "midpoint", "nearest"):
        assert _grads(fn(x, q, dim=1, interpolation=interpolation), [x, q], allow_unused=True)[1] is None
    s, q2 = _t(-4.8), _t([0.23, 0.08])
    gs, gq2 = torch.autograd.grad(fn(s, q2).sum(), [s, q2])
    assert gs.item() == 2.0 and gq2.tolist() == [0.0, 0.0]


def test_quantile_of_a_row_with_nan_sends_its_gradient_to_the_nan():
    x = _t([[1.0, float("nan"), 2.0], [3.0, 0.0, -1.0]])
    q = _t([0.5])
    gx, gq = torch.autograd.grad(torch.quantile(x, q, dim=1).sum(), [x, q])
    assert gx.tolist() == [[0.0, 1.0, 0.0], [0.0, 1.0, 0.0]] and gq.tolist() == [0.0]


# ---- factorizations ---------------------------------------------------------------------------


def test_householder_product_and_ormqr_of_nothing_give_none():
    A, tau = torch.empty(0, 0, dtype=D, requires_grad=True), torch.empty(0, dtype=D, requires_grad=True)
    assert _grads(torch.linalg.householder_product(A, tau), [A, tau], allow_unused=True) == (None, None)
    A, C = torch.empty(5, 0, dtype=D, requires_grad=True), torch.empty(5, 0, dtype=D, requires_grad=True)
    gA, gtau, gC = _grads(torch.ormqr(A, tau, C), [A, tau, C], allow_unused=True)
    assert gA is None and gtau is None and gC.shape == (5, 0)


def _lower(seed: int) -> torch.Tensor:
    L = torch.from_numpy(np.random.default_rng(seed).standard_normal((4, 4))).tril() + 3 * torch.eye(4, dtype=D)
    return L.requires_grad_()


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_solve_gradient_is_over_the_whole_factor(upper):
    """Upstream's cholesky_solve_backward is the gradient of (L L^H)^-1 B in every entry of L, not only the
    triangle the solve reads: for a triangular L, the gradient of solve(L L^H, B)."""
    L, B = _lower(0), _rand(2, 4, 3, seed=1)
    F = L.mT if upper else L
    gB, gL = _grads(torch.cholesky_solve(B, F, upper), [B, L])
    eB, eL = _grads(torch.linalg.solve(L @ L.mT, B), [B, L])
    assert torch.allclose(gB, eB) and torch.allclose(gL, eL)
    assert gL.triu(1).abs().sum() > 0
    (gL,) = _grads(torch.cholesky_inverse(F, upper), [L])
    (eL,) = _grads(torch.linalg.inv(L @ L.mT), [L])
    assert torch.allclose(gL, eL)


def test_lstsq_singular_values_are_not_differentiable_and_residuals_are():
    A, B = _rand(2, 3), _rand(2, 3, seed=1)
    sol, residuals, rank, S = torch.linalg.lstsq(A, B, driver="gelss")
    assert sol.requires_grad and residuals.requires_grad and not S.requires_grad and not rank.requires_grad
    gA, gB = _grads(sol, [A, B])
    eA, eB = _grads(torch.linalg.pinv(A) @ B, [A, B])
    assert torch.allclose(gA, eA) and torch.allclose(gB, eB)


def test_hermitian_pinv_has_the_general_pinv_gradient():
    """Upstream differentiates pinv(A, hermitian=True) as pinv(A): pinv_backward on the whole of A."""
    X = _rand(4, 4).detach()
    A = (X + X.mT + 0.5 * torch.eye(4, dtype=D)).requires_grad_()
    (g,) = _grads(torch.linalg.pinv(A, hermitian=True), [A])
    (e,) = _grads(torch.linalg.pinv(A), [A])
    assert torch.allclose(g, e)
    assert not torch.allclose(g, g.mT)


@pytest.mark.parametrize("shape", [(0, 3, 3), (0, 5, 5), (2, 0, 0), (0, 3, 2)])
@pytest.mark.parametrize(
    "fn",
    [
        torch.linalg.svd,
        torch.svd,
        torch.linalg.svdvals,
        torch.linalg.pinv,
        torch.pinverse,
    ],
)
def test_svd_of_an_empty_batch_has_an_empty_gradient(fn, shape):
    A = torch.empty(shape, dtype=D, requires_grad=True)
    out = fn(A)
    outs = [o for o in (out if isinstance(out, tuple) else (out,)) if o.requires_grad]
    (g,) = torch.autograd.grad(sum((o * _weights(o)).sum() for o in outs), A)
    assert g.shape == shape


@pytest.mark.parametrize("fn", [torch.linalg.eig, torch.linalg.eigvals])
def test_eig_of_an_empty_matrix_has_an_empty_gradient(fn):
    A = torch.empty(0, 0, dtype=D, requires_grad=True)
    out = fn(A)
    outs = [o.real for o in (out if isinstance(out, tuple) else (out,))]
    (g,) = torch.autograd.grad(sum(o.sum() for o in outs), A)
    assert g.shape == (0, 0) and g.dtype == D
