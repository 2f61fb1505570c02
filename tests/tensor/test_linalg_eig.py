"""torch.linalg.eig / eigvals of real matrices (LAPACK's geev) against NumPy: A V = V diag(L) with unit
columns, conjugate pairs, batches; their gradients against central differences of phase-invariant real
losses; and complex linalg.solve. Also run on upstream 2.13."""

from __future__ import annotations

import numpy as np
import pytest

import torch

RNG = np.random.default_rng(0)


@pytest.mark.parametrize("dtype, tol", [(torch.float64, 1e-10), (torch.float32, 1e-4)])
def test_eig_reconstructs(dtype, tol):
    a = RNG.standard_normal((3, 5, 5))
    A = torch.tensor(a, dtype=dtype)
    L, V = torch.linalg.eig(A)
    assert L.dtype == dtype.to_complex() and V.shape == (3, 5, 5)
    Ac = A.to(L.dtype)
    np.testing.assert_allclose((Ac @ V).numpy(), (V * L.unsqueeze(-2)).numpy(), atol=tol * 10)
    np.testing.assert_allclose(torch.linalg.vector_norm(V, dim=-2).numpy(), np.ones((3, 5)), atol=tol)
    want = np.linalg.eigvals(a)
    for got, ref in zip(torch.linalg.eigvals(A).numpy(), want):
        np.testing.assert_allclose(np.sort_complex(got), np.sort_complex(ref), rtol=tol * 10, atol=tol * 10)


def test_rotation_has_a_conjugate_pair():
    t = 0.3
    R = torch.tensor([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]], dtype=torch.float64)
    L = torch.linalg.eigvals(R)
    np.testing.assert_allclose(sorted(L.numpy(), key=lambda z: z.imag), [np.exp(-1j * t), np.exp(1j * t)])
    with pytest.raises(RuntimeError):
        torch.linalg.eig(torch.zeros(2, 3))


def _numeric_grad(f, a, eps=1e-6):
    g = np.zeros_like(a)
    for k in range(a.size):
        ap, am = a.copy(), a.copy()
        ap.flat[k] += eps
        am.flat[k] -= eps
        g.flat[k] = (f(torch.tensor(ap)).item() - f(torch.tensor(am)).item()) / (2 * eps)
    return g


@pytest.mark.parametrize(
    "name, f",
    [
        ("eigvals", lambda A: (torch.linalg.eigvals(A) ** 2).real.sum() + torch.linalg.eigvals(A).imag.abs().sum()),
        ("vectors", lambda A: (torch.linalg.eig(A).eigenvectors.abs() ** 3).sum()),
        ("both", lambda A: (torch.linalg.eig(A)[0].abs() * torch.linalg.eig(A)[1].abs()[..., 0, :]).sum()),
    ],
)
def test_eig_gradients(name, f):
    a = RNG.standard_normal((4, 4))
    A = torch.tensor(a, requires_grad=True)
    f(A).backward()
    np.testing.assert_allclose(A.grad.numpy(), _numeric_grad(f, a), rtol=1e-5, atol=1e-6, err_msg=name)


def test_complex_solve_and_gradient():
    a = RNG.standard_normal((2, 3, 3)) + 1j * RNG.standard_normal((2, 3, 3))
    b = RNG.standard_normal((2, 3, 2)) + 1j * RNG.standard_normal((2, 3, 2))
    X = torch.linalg.solve(torch.tensor(a), torch.tensor(b))
    np.testing.assert_allclose(X.numpy(), np.linalg.solve(a, b), rtol=1e-10)
    Xr = torch.linalg.solve(torch.tensor(a), torch.tensor(b[..., 0]).unsqueeze(-2), left=False)
    np.testing.assert_allclose((Xr @ torch.tensor(a)).numpy(), b[..., None, :, 0], rtol=1e-10, atol=1e-12)
    At = torch.tensor(a, requires_grad=True)
    torch.linalg.solve(At, torch.tensor(b)).abs().sum().backward()
    g = np.zeros_like(a)
    eps = 1e-6
    for k in range(a.size):
        for step, unit in ((eps, 1), (1j * eps, 1j)):
            ap, am = a.copy(), a.copy()
            ap.flat[k] += step
            am.flat[k] -= step
            fp = np.abs(np.linalg.solve(ap, b)).sum()
            fm = np.abs(np.linalg.solve(am, b)).sum()
            g.flat[k] += unit * (fp - fm) / (2 * eps)
    np.testing.assert_allclose(At.grad.numpy(), g, rtol=1e-5, atol=1e-6)


def test_complex_inv_and_singular_info():
    a = RNG.standard_normal((2, 4, 4)) + 1j * RNG.standard_normal((2, 4, 4))
    np.testing.assert_allclose(torch.linalg.inv(torch.tensor(a)).numpy(), np.linalg.inv(a), rtol=1e-10)
    singular = torch.tensor([[1 + 1j, 2 + 2j], [1.0 + 0j, 2.0 + 0j]], dtype=torch.complex128)
    assert torch.linalg.solve_ex(singular, torch.ones(2, dtype=torch.complex128)).info.item() != 0
    with pytest.raises(torch.linalg.LinAlgError):
        torch.linalg.inv(singular)
