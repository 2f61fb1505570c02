"""Gradients of torch.linalg by float64 finite differences (gradcheck, and gradgradcheck for the solves):
the factorizations' formulas (LU, Cholesky, QR, eigh, SVD, the triangular and LU solves) and everything made
of them. Eigenvectors and singular vectors enter through functions that do not depend on their signs.

Runs against upstream PyTorch too (nox -s tests-reference).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import torch
from torch.autograd import gradcheck, gradgradcheck

LA = torch.linalg


def _rand(*shape, seed=0, requires_grad=True) -> torch.Tensor:
    t = torch.from_numpy(np.random.default_rng(seed).standard_normal(shape))
    return t.requires_grad_(requires_grad)


def _well_conditioned(*shape, seed=0) -> torch.Tensor:
    n = shape[-1]
    t = torch.from_numpy(np.random.default_rng(seed).standard_normal(shape)) + 3 * torch.eye(n, dtype=torch.float64)
    return t.requires_grad_()


def _spd(X: torch.Tensor) -> torch.Tensor:
    return X @ X.mT + X.shape[-1] * torch.eye(X.shape[-1], dtype=X.dtype)


def _sym(X: torch.Tensor) -> torch.Tensor:
    return X + X.mT


def test_solve_and_inv():
    A, B = _well_conditioned(2, 3, 3), _rand(2, 3, 2, seed=1)
    assert gradcheck(LA.solve, (A, B))
    assert gradcheck(lambda a, b: LA.solve(a, b, left=False), (A, B.mT.detach().requires_grad_()))
    assert gradcheck(lambda a, v: LA.solve(a, v), (A, _rand(3, seed=2)))
    assert gradcheck(LA.inv, (A,))
    assert gradgradcheck(LA.solve, (A, B))
    assert gradgradcheck(LA.inv, (A,))


def test_det_slogdet_logdet():
    A = _well_conditioned(2, 4, 4)
    assert gradcheck(LA.det, (A,))
    assert gradcheck(lambda a: LA.slogdet(a).logabsdet, (A,))
    assert gradcheck(lambda a: torch.logdet(_spd(a)), (A,))
    assert gradgradcheck(LA.det, (A,))


def test_lu_factor_and_lu_solve():
    A = _well_conditioned(2, 4, 4)
    assert gradcheck(lambda a: LA.lu_factor(a).LU, (A,))
    assert gradcheck(lambda a: LA.lu(a).U, (A,))
    LU, pivots = LA.lu_factor(A.detach())
    LU.requires_grad_()
    B = _rand(2, 4, 3, seed=1)
    for left in (True, False):
        for adjoint in (True, False):
            rhs = B if left else B.mT.detach().requires_grad_()

            def f(lu, b, left=left, adjoint=adjoint):
                return LA.lu_solve(lu, pivots, b, left=left, adjoint=adjoint)

            assert gradcheck(f, (LU, rhs))


@pytest.mark.parametrize("shape", [(3, 5), (5, 3), (2, 4, 6), (2, 6, 4), (1, 3), (3, 1)])
@pytest.mark.parametrize("dtype", [torch.float64, torch.complex128])
def test_lu_of_non_square_matrices(shape, dtype):
    A = torch.from_numpy(np.random.default_rng(3).standard_normal(shape)).to(dtype).requires_grad_()
    if dtype.is_complex:
        A = (A.detach() + 1j * torch.from_numpy(np.random.default_rng(4).standard_normal(shape))).requires_grad_()
    assert gradcheck(lambda a: LA.lu_factor(a).LU, (A,))
    assert gradcheck(lambda a: LA.lu(a)[1:], (A,))
    assert gradgradcheck(lambda a: LA.lu_factor(a).LU, (A,))


@pytest.mark.parametrize("shape, k", [((4, 3), 2), ((3, 3), 3), ((2, 5, 3), 3), ((5, 2), 1), ((3, 2), 0)])
@pytest.mark.parametrize("dtype", [torch.float64, torch.complex128])
def test_householder_product(shape, k, dtype):
    rng = np.random.default_rng(5)

    def draw(*s):
        x = torch.from_numpy(rng.standard_normal(s)).to(dtype)
        return (x + 1j * torch.from_numpy(rng.standard_normal(s)) if dtype.is_complex else x).requires_grad_()

    A, tau = draw(*shape), draw(*shape[:-2], k)
    assert gradcheck(LA.householder_product, (A, tau))
    assert gradgradcheck(LA.householder_product, (A, tau))
    assert gradcheck(lambda a: LA.householder_product(a, tau.detach()), (A,))  # one input wanting a gradient


def test_cholesky():
    X = _rand(2, 4, 4)
    assert gradcheck(lambda x: LA.cholesky(_spd(x)), (X,))
    assert gradcheck(lambda x: LA.cholesky(_spd(x), upper=True), (X,))
    assert gradgradcheck(lambda x: LA.cholesky(_spd(x)), (X,))
    assert gradcheck(lambda x: torch.cholesky_solve(x[..., :2], LA.cholesky(_spd(x))), (X,))


@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("unit", [True, False])
def test_solve_triangular(upper, left, unit):
    A = _well_conditioned(2, 3, 3)
    B = _rand(2, 3, 2, seed=1) if left else _rand(2, 2, 3, seed=1)

    def f(a, b):
        t = a.triu() if upper else a.tril()
        return LA.solve_triangular(t, b, upper=upper, left=left, unitriangular=unit)

    assert gradcheck(f, (A, B))


@pytest.mark.parametrize("shape", [(5, 3), (3, 3), (3, 5), (2, 4, 3)], ids=str)
def test_qr(shape):
    A = _rand(*shape)
    assert gradcheck(lambda a: LA.qr(a), (A,))
    assert gradcheck(lambda a: LA.qr(a).R, (A,))
    assert gradcheck(lambda a: LA.qr(a).Q, (A,))


def test_eigh():
    X = _rand(2, 4, 4)
    assert gradcheck(lambda x: LA.eigvalsh(_sym(x)), (X,))
    assert gradcheck(lambda x: LA.eigh(_sym(x)).eigenvectors ** 2, (X,))  # each column up to its sign
    assert gradcheck(lambda x: LA.eigh(_sym(x), UPLO="U").eigenvalues, (X,))


@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (3, 5), (2, 4, 3)], ids=str)
def test_svd(shape):
    A = _rand(*shape)
    assert gradcheck(LA.svdvals, (A,))

    def vectors(a):  # invariant to the sign of each pair of singular vectors
        U, S, Vh = LA.svd(a, full_matrices=False)
        return U @ Vh, U**2, Vh**2, S

    assert gradcheck(vectors, (A,))
    assert gradcheck(lambda a: LA.matrix_norm(a, "nuc"), (A,))
    assert gradcheck(lambda a: LA.matrix_norm(a, 2), (A,))
    assert gradcheck(LA.pinv, (A,))


def test_composites():
    A = _well_conditioned(3, 3)
    assert gradcheck(lambda a: LA.matrix_power(a, -2), (A,))
    assert gradcheck(LA.matrix_exp, (_rand(3, 3),))
    assert gradcheck(lambda a: LA.cond(a), (A,))
    assert gradcheck(lambda a, b: LA.lstsq(a, b, driver="gelsd").solution, (_rand(5, 3), _rand(5, 2, seed=1)))
    assert gradcheck(lambda a, b: LA.lstsq(a, b, driver="gels").solution, (_rand(5, 3), _rand(5, 2, seed=1)))
    assert gradcheck(lambda x: LA.vector_norm(x, 3.0), (_rand(4),))
    assert gradcheck(lambda x: LA.multi_dot([x, x.mT, x]), (_rand(3, 3),))


def test_gradients_at_edges_found_in_review():
    """The norms' gradient at zero is 0 (not NaN); empty matrices have empty gradients; upstream's results."""
    x = torch.zeros(3, dtype=torch.float64, requires_grad=True)
    for ord in (2, 3.0):
        (g,) = torch.autograd.grad(LA.vector_norm(x, ord), x)
        assert g.tolist() == [0.0, 0.0, 0.0]
    X = torch.zeros(2, 2, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.grad(LA.matrix_norm(X), X)[0].eq(0).all()
    E = torch.zeros(2, 0, 0, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.grad(LA.det(E).sum(), E)[0].shape == (2, 0, 0)
    LA.inv(E).sum().backward()
    assert E.grad.shape == (2, 0, 0)


def _repeated_singular_values():
    c, s = math.cos(0.3), math.sin(0.3)
    rotation = torch.tensor([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]], dtype=torch.float64)
    return {
        "eye": torch.eye(3, dtype=torch.float64),
        "rotation": rotation,
        "tall": torch.eye(4, 3, dtype=torch.float64),
        "wide": torch.eye(3, 4, dtype=torch.float64),
    }


@pytest.mark.parametrize("name", ["eye", "rotation", "tall", "wide"])
def test_pinv_and_lstsq_gradients_at_repeated_singular_values(name):
    """Every singular value equal (the identity, a rotation): pinv's and lstsq's gradients are finite and
    right (through the SVD's gradient they were NaN: it divides by differences of singular values)."""
    A = _repeated_singular_values()[name].requires_grad_()
    B = torch.tensor([[1.0, 2.0], [-0.5, 0.3], [0.7, -1.2], [0.2, 0.4]], dtype=torch.float64)[: A.shape[0]]
    (g,) = torch.autograd.grad(torch.linalg.pinv(A).sum(), A)
    assert torch.isfinite(g).all()
    assert gradcheck(torch.linalg.pinv, (A,))
    assert gradgradcheck(torch.linalg.pinv, (A,))
    if A.shape[0] < A.shape[1]:  # (upstream's gelsy of a wide identity pivots its tied columns either way, so its
        return  # gradient check fails at random there: the wide case is pinv's only)
    for driver in ("gelsy", "gelsd"):
        assert gradcheck(lambda a, d=driver: torch.linalg.lstsq(a, B, driver=d).solution, (A,))
