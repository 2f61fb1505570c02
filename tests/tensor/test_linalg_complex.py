"""Complex matrices in torch.linalg's factorizations and solves (LU, det/slogdet, Cholesky, QR, the
triangular and LU solves, inv/solve) against NumPy, and their gradients by central differences in
complex128 (gradcheck checks the real Jacobian: real and imaginary parts of inputs and outputs, PyTorch's
conjugate convention). Also that gradcheck itself catches a complex gradient without its conjugate.
Also run on upstream 2.13."""

from __future__ import annotations

import numpy as np
import pytest

import torch
from torch.autograd import gradcheck, gradgradcheck

RNG = np.random.default_rng(7)


def crandn(*shape, dtype=np.complex128):
    return (RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)).astype(dtype)


@pytest.mark.parametrize("dtype", [torch.complex64, torch.complex128])
def test_values_match_numpy(dtype):
    tol = dict(rtol=1e-4, atol=1e-4) if dtype == torch.complex64 else dict(rtol=1e-10, atol=1e-10)
    npd = np.complex64 if dtype == torch.complex64 else np.complex128
    a = crandn(2, 4, 4, dtype=npd)
    b = crandn(2, 4, 3, dtype=npd)
    A, B = torch.from_numpy(a), torch.from_numpy(b)
    np.testing.assert_allclose(torch.linalg.det(A).numpy(), np.linalg.det(a), **tol)
    np.testing.assert_allclose(torch.logdet(A).numpy(), np.log(np.linalg.det(a)), **tol)
    w, v = np.linalg.eig(a)
    expm = v @ (np.exp(w)[..., None] * np.linalg.inv(v))
    np.testing.assert_allclose(
        torch.linalg.matrix_exp(A).numpy(), expm, rtol=1e-4 if dtype == torch.complex64 else 1e-9
    )
    sign, logabs = torch.linalg.slogdet(A)
    want_sign, want_log = np.linalg.slogdet(a)
    np.testing.assert_allclose(sign.numpy(), want_sign, **tol)
    np.testing.assert_allclose(logabs.numpy(), want_log, **tol)
    assert logabs.dtype == (torch.float32 if dtype == torch.complex64 else torch.float64)
    np.testing.assert_allclose(torch.linalg.solve(A, B).numpy(), np.linalg.solve(a, b), **tol)
    np.testing.assert_allclose(torch.linalg.inv(A).numpy(), np.linalg.inv(a), **tol)
    P, L, U = torch.linalg.lu(A)
    np.testing.assert_allclose((P @ L @ U).numpy(), a, **tol)
    LU, piv = torch.linalg.lu_factor(A)
    for left, adjoint in [(True, False), (True, True), (False, False), (False, True)]:
        rhs = B if left else B.mT
        X = torch.linalg.lu_solve(LU, piv, rhs, left=left, adjoint=adjoint)
        op = A.mH if adjoint else A
        np.testing.assert_allclose((op @ X if left else X @ op).numpy(), rhs.numpy(), **tol)
    H = A @ A.mH + 4 * torch.eye(4, dtype=dtype)
    np.testing.assert_allclose(torch.linalg.cholesky(H).numpy(), np.linalg.cholesky(H.numpy()), **tol)
    U_ = torch.linalg.cholesky(H, upper=True)
    np.testing.assert_allclose((U_.mH @ U_).numpy(), H.numpy(), **tol)
    for m, n in [(4, 4), (5, 3), (3, 5)]:
        M = torch.from_numpy(crandn(m, n, dtype=npd))
        Q, R = torch.linalg.qr(M)
        np.testing.assert_allclose((Q @ R).numpy(), M.numpy(), **tol)
        np.testing.assert_allclose((Q.mH @ Q).numpy(), np.eye(min(m, n)), **tol)
        assert torch.equal(R, R.triu())
    T = H.tril()
    X = torch.linalg.solve_triangular(T, B, upper=False)
    np.testing.assert_allclose((T @ X).numpy(), b, **tol)
    Xr = torch.linalg.solve_triangular(T.mH, B.mT, upper=True, left=False)
    np.testing.assert_allclose((Xr @ T.mH).numpy(), B.mT.numpy(), **tol)


def leaf(*shape):
    return torch.from_numpy(crandn(*shape)).requires_grad_()


B = torch.from_numpy(crandn(3, 2))

GRADS = {
    "det": (torch.linalg.det, (3, 3)),
    "slogdet": (lambda x: torch.linalg.slogdet(x), (3, 3)),
    "lu_factor": (lambda x: torch.linalg.lu_factor(x).LU, (3, 3)),
    "lu": (lambda x: torch.linalg.lu(x)[1:], (3, 3)),
    "lu_solve": (lambda x: torch.linalg.lu_solve(*torch.linalg.lu_factor(x), B, adjoint=True), (3, 3)),
    "lu_solve_right": (lambda x: torch.linalg.lu_solve(*torch.linalg.lu_factor(x), B.mT, left=False), (3, 3)),
    "cholesky": (lambda x: torch.linalg.cholesky(x @ x.mH + torch.eye(3)), (3, 3)),
    "qr_square": (torch.linalg.qr, (3, 3)),
    "qr_tall": (torch.linalg.qr, (4, 3)),
    "qr_wide": (torch.linalg.qr, (2, 4)),
    "solve_triangular": (lambda x: torch.linalg.solve_triangular(x.triu() + 3 * torch.eye(3), B, upper=True), (3, 3)),
    "solve": (lambda x: torch.linalg.solve(x, B), (3, 3)),
    "inv": (torch.linalg.inv, (3, 3)),
    "prod": (lambda x: x.prod(1), (3, 3)),
    "cumprod": (lambda x: x.cumprod(1), (3, 3)),
    "outer": (lambda x: torch.outer(x[0], x[1]), (2, 3)),
    "acosh": (torch.acosh, (3, 3)),
    "norm": (lambda x: x.norm(), (3, 3)),
    "mv": (lambda x: x.mv(x[0]), (3, 3)),
    "addmv": (lambda x: torch.addmv(x[0], x, x[1], beta=0.5 + 1j, alpha=2 - 1j), (3, 3)),
    "addmm": (lambda x: torch.addmm(x, x, x.mT, beta=1j, alpha=0.5j), (3, 3)),
    "linear": (lambda x: torch.nn.functional.linear(x, x[:2], x[2, :2]), (3, 3)),
    "addcdiv": (lambda x: torch.addcdiv(x, x, x + 3, value=1j), (3, 3)),
    "trace_of_a_slice": (lambda x: x[:, :3].trace(), (3, 4)),
    "logdet": (torch.logdet, (3, 3)),
    "matrix_exp": (torch.linalg.matrix_exp, (3, 3)),
}


@pytest.mark.parametrize("name", sorted(GRADS))
def test_complex_gradients(name):
    f, shape = GRADS[name]
    assert gradcheck(f, (leaf(*shape),))


@pytest.mark.parametrize("name", ["det", "cholesky", "qr_square", "lu_solve"])
def test_complex_second_derivatives(name):
    f, shape = GRADS[name]
    assert gradgradcheck(lambda x: f(x)[0] if isinstance(f(x), tuple) else f(x), (leaf(*shape),))


class _NoConj(torch.autograd.Function):
    """z * w with the gradient of a holomorphic function but without the conjugate PyTorch takes."""

    @staticmethod
    def forward(ctx, z, w):
        ctx.save_for_backward(z, w)
        return z * w

    @staticmethod
    def backward(ctx, grad):
        z, w = ctx.saved_tensors
        return grad * w, grad * z  # should be grad * w.conj(), grad * z.conj()


def test_gradcheck_sees_a_missing_conjugate():
    z, w = leaf(3), leaf(3)
    assert gradcheck(lambda z, w: z * w, (z, w))
    assert not gradcheck(_NoConj.apply, (z, w), raise_exception=False)


def test_diagonal_of_a_view_with_gaps_backward():
    """as_strided's backward for any view without internal overlap (it refused a slice with gaps)."""
    x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    x[:, :3].diagonal().sum().backward()
    assert torch.equal(x.grad, torch.eye(3, 4, dtype=torch.float64))
    assert gradcheck(lambda x: x.t()[1:, ::2].diagonal(), (x,))
