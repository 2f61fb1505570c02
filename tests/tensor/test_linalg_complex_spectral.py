"""Complex matrices in torch.linalg's spectral decompositions and what is built on them: eigh/eigvalsh,
eig/eigvals, svd/svdvals, pinv, lstsq, matrix_rank, cond, the 2 and nuclear norms, the Hermitian and
symmetric LDL factorizations, and the old names (torch.svd, cholesky_solve/inverse, ormqr), against
NumPy; their gradients by gradcheck in complex128 for losses that do not depend on the phases the
decompositions leave free, and upstream's error for a loss that does. Also run on upstream 2.13."""

from __future__ import annotations

import numpy as np
import pytest

import torch
from torch.autograd import gradcheck

RNG = np.random.default_rng(11)
DTYPES = [torch.complex64, torch.complex128]


def crandn(*shape, dtype=np.complex128):
    return (RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)).astype(dtype)


def tol(dtype):
    return dict(rtol=2e-4, atol=2e-4) if dtype == torch.complex64 else dict(rtol=1e-9, atol=1e-9)


def npdtype(dtype):
    return np.complex64 if dtype == torch.complex64 else np.complex128


@pytest.mark.parametrize("dtype", DTYPES)
def test_eigh(dtype):
    a = crandn(3, 5, 5, dtype=npdtype(dtype))
    h = a + np.conj(np.swapaxes(a, -1, -2))
    H = torch.from_numpy(h)
    for uplo in ("L", "U"):
        L, V = torch.linalg.eigh(H, UPLO=uplo)
        assert L.dtype == H.real.dtype and V.dtype == dtype
        np.testing.assert_allclose(L.numpy(), np.linalg.eigvalsh(h, uplo), **tol(dtype))
        np.testing.assert_allclose((V @ torch.diag_embed(L).to(dtype) @ V.mH).numpy(), h, **tol(dtype))
        np.testing.assert_allclose((V.mH @ V).numpy(), np.broadcast_to(np.eye(5), (3, 5, 5)), **tol(dtype))
        np.testing.assert_allclose(torch.linalg.eigvalsh(H, uplo).numpy(), np.linalg.eigvalsh(h, uplo), **tol(dtype))
    # only the triangle named is read
    lower_only = torch.from_numpy(np.tril(h))
    np.testing.assert_allclose(torch.linalg.eigvalsh(lower_only).numpy(), np.linalg.eigvalsh(h), **tol(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_eig(dtype):
    a = crandn(2, 4, 4, dtype=npdtype(dtype))
    A = torch.from_numpy(a)
    L, V = torch.linalg.eig(A)
    assert L.dtype == dtype and V.dtype == dtype
    np.testing.assert_allclose((A @ V).numpy(), (V * L.unsqueeze(-2)).numpy(), **tol(dtype))
    np.testing.assert_allclose(torch.linalg.norm(V, dim=-2).numpy(), np.ones((2, 4)), **tol(dtype))
    ref = np.linalg.eigvals(a)
    np.testing.assert_allclose(np.sort_complex(torch.linalg.eigvals(A).numpy()), np.sort_complex(ref), **tol(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 6), (6, 4), (2, 5, 3), (3, 3)])
def test_svd(dtype, shape):
    a = crandn(*shape, dtype=npdtype(dtype))
    A = torch.from_numpy(a)
    want_s = np.linalg.svd(a, compute_uv=False)
    for full in (True, False):
        U, S, Vh = torch.linalg.svd(A, full_matrices=full)
        k = S.shape[-1]
        assert S.dtype == A.real.dtype and U.dtype == dtype and Vh.dtype == dtype
        m, n = shape[-2:]
        assert U.shape[-2:] == ((m, m) if full else (m, k)) and Vh.shape[-2:] == ((n, n) if full else (k, n))
        np.testing.assert_allclose(S.numpy(), want_s, **tol(dtype))
        rebuilt = (U[..., :k] * S.to(dtype).unsqueeze(-2)) @ Vh[..., :k, :]
        np.testing.assert_allclose(rebuilt.numpy(), a, **tol(dtype))
        np.testing.assert_allclose(
            (U.mH @ U).numpy(), np.broadcast_to(np.eye(U.shape[-1]), U.mH.shape[:-1] + (U.shape[-1],)), **tol(dtype)
        )
    np.testing.assert_allclose(torch.linalg.svdvals(A).numpy(), want_s, **tol(dtype))
    old = torch.svd(A)
    np.testing.assert_allclose((old.U * old.S.to(dtype).unsqueeze(-2) @ old.V.mH).numpy(), a, **tol(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_built_on_svd_and_eigh(dtype):
    a = crandn(2, 5, 3, dtype=npdtype(dtype))
    b = crandn(2, 5, 2, dtype=npdtype(dtype))
    s = crandn(4, 4, dtype=npdtype(dtype))
    h = s + s.conj().T
    A, B, S, H = (torch.from_numpy(x) for x in (a, b, s, h))
    t = tol(dtype)
    np.testing.assert_allclose(torch.linalg.pinv(A).numpy(), np.linalg.pinv(a), **t)
    np.testing.assert_allclose(torch.pinverse(A).numpy(), np.linalg.pinv(a), **t)
    np.testing.assert_allclose(torch.linalg.pinv(H, hermitian=True).numpy(), np.linalg.pinv(h, hermitian=True), **t)
    want = np.stack([np.linalg.lstsq(a[i], b[i], rcond=None)[0] for i in range(2)])
    for driver in ("gels", "gelsy", "gelsd", "gelss"):
        got = torch.linalg.lstsq(A, B, driver=driver)
        np.testing.assert_allclose(
            got.solution.numpy(),
            want,
            rtol=1e-3 if dtype == torch.complex64 else 1e-9,
            atol=1e-3 if dtype == torch.complex64 else 1e-9,
        )
        if driver != "gelsy":  # residuals are real, |A x - b|^2 summed over the rows
            assert got.residuals.dtype == A.real.dtype
            res = np.stack([np.linalg.lstsq(a[i], b[i], rcond=None)[1] for i in range(2)])
            np.testing.assert_allclose(got.residuals.numpy(), res, rtol=1e-3 if dtype == torch.complex64 else 1e-9)
    assert torch.linalg.matrix_rank(A).tolist() == [3, 3]
    low = A[0] @ torch.from_numpy(crandn(3, 4, dtype=npdtype(dtype)))[:, :4]
    low = low[:, :2] @ low[:2, :]  # rank 2
    assert int(torch.linalg.matrix_rank(low)) == 2
    assert int(torch.linalg.matrix_rank(H, hermitian=True)) == np.linalg.matrix_rank(h, hermitian=True)
    for p in ("fro", "nuc", 2, -2, 1, -1, float("inf"), -float("inf")):
        np.testing.assert_allclose(
            torch.linalg.cond(S, p).numpy(), np.linalg.cond(s, p), rtol=1e-3 if dtype == torch.complex64 else 1e-9
        )
        np.testing.assert_allclose(torch.linalg.matrix_norm(A, p).numpy(), np.linalg.norm(a, p, axis=(-2, -1)), **t)
        np.testing.assert_allclose(torch.linalg.norm(S, p).numpy(), np.linalg.norm(s, p), **t)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("hermitian", [True, False])
def test_ldl(dtype, hermitian):
    s = crandn(2, 4, 4, dtype=npdtype(dtype))
    a = s + (np.conj(np.swapaxes(s, -1, -2)) if hermitian else np.swapaxes(s, -1, -2))
    b = crandn(2, 4, 3, dtype=npdtype(dtype))
    A, B = torch.from_numpy(a), torch.from_numpy(b)
    LD, pivots = torch.linalg.ldl_factor(A, hermitian=hermitian)
    X = torch.linalg.ldl_solve(LD, pivots, B, hermitian=hermitian)
    np.testing.assert_allclose(
        X.numpy(),
        np.linalg.solve(a, b),
        rtol=1e-3 if dtype == torch.complex64 else 1e-9,
        atol=1e-3 if dtype == torch.complex64 else 1e-9,
    )


@pytest.mark.parametrize("dtype", DTYPES)
def test_old_names(dtype):
    a = crandn(4, 3, dtype=npdtype(dtype))
    c = crandn(4, 2, dtype=npdtype(dtype))
    A, C = torch.from_numpy(a), torch.from_numpy(c)
    H = A.mH @ A + torch.eye(3, dtype=dtype)
    for upper in (False, True):
        L = torch.linalg.cholesky(H, upper=upper)
        np.testing.assert_allclose(
            torch.cholesky_inverse(L, upper=upper).numpy(), np.linalg.inv(H.numpy()), **tol(dtype)
        )
        rhs = C[:3]
        np.testing.assert_allclose(
            torch.cholesky_solve(rhs, L, upper=upper).numpy(), np.linalg.solve(H.numpy(), rhs.numpy()), **tol(dtype)
        )
    qr_a, tau = torch.geqrf(A)
    Q = torch.linalg.qr(A, mode="complete").Q
    np.testing.assert_allclose(torch.ormqr(qr_a, tau, C, transpose=True).numpy(), (Q.mH @ C).numpy(), **tol(dtype))
    np.testing.assert_allclose(torch.ormqr(qr_a, tau, C).numpy(), (Q @ C).numpy(), **tol(dtype))


def leaf(*shape):
    return torch.from_numpy(crandn(*shape)).requires_grad_()


def herm(x):
    return x + x.mH


B = torch.from_numpy(crandn(4, 2))

# losses that do not depend on the phases of eigen- and singular vectors (each is free up to e^{i phi})
GRADS = {
    "eigh_values": (lambda x: torch.linalg.eigh(herm(x)).eigenvalues, (4, 4)),
    "eigh_vectors_abs": (lambda x: torch.linalg.eigh(herm(x)).eigenvectors.abs(), (4, 4)),
    "eigh_projector": (lambda x: (lambda V: V[:, :2] @ V[:, :2].mH)(torch.linalg.eigh(herm(x)).eigenvectors), (4, 4)),
    "eigh_upper": (lambda x: torch.linalg.eigh(herm(x), UPLO="U").eigenvectors.abs(), (3, 3)),
    "eigvalsh": (lambda x: torch.linalg.eigvalsh(herm(x)), (4, 4)),
    "eig_values": (lambda x: torch.linalg.eig(x).eigenvalues, (3, 3)),
    "eig_vectors_abs": (lambda x: torch.linalg.eig(x).eigenvectors.abs(), (3, 3)),
    "eigvals": (torch.linalg.eigvals, (3, 3)),
    "svd_values": (lambda x: torch.linalg.svd(x).S, (4, 3)),
    "svd_rebuilt_tall": (
        lambda x: (lambda r: r.U * r.S.unsqueeze(-2) @ r.Vh)(torch.linalg.svd(x, full_matrices=False)),
        (5, 3),
    ),
    "svd_rebuilt_wide": (
        lambda x: (lambda r: r.U * r.S.unsqueeze(-2) @ r.Vh)(torch.linalg.svd(x, full_matrices=False)),
        (3, 5),
    ),
    "svd_UVh_tall": (lambda x: (lambda r: r.U @ r.Vh)(torch.linalg.svd(x, full_matrices=False)), (5, 3)),
    "svd_UVh_wide": (lambda x: (lambda r: r.U @ r.Vh)(torch.linalg.svd(x, full_matrices=False)), (3, 5)),
    "svd_abs": (lambda x: [t.abs() for t in torch.linalg.svd(x, full_matrices=False)], (4, 3)),
    "svdvals": (torch.linalg.svdvals, (3, 4)),
    "torch_svd": (lambda x: (lambda r: r.U @ r.V.mH)(torch.svd(x)), (4, 3)),
    "pinv": (torch.linalg.pinv, (4, 3)),
    "pinv_hermitian": (lambda x: torch.linalg.pinv(herm(x), hermitian=True), (3, 3)),
    "lstsq": (lambda x: torch.linalg.lstsq(x, B, driver="gelsd").solution, (4, 3)),
    "matrix_norm_2": (lambda x: torch.linalg.matrix_norm(x, 2), (3, 4)),
    "matrix_norm_nuc": (lambda x: torch.linalg.matrix_norm(x, "nuc"), (4, 3)),
    "cond": (torch.linalg.cond, (3, 3)),
}


@pytest.mark.parametrize("name", sorted(GRADS))
def test_complex_gradients(name):
    f, shape = GRADS[name]
    assert gradcheck(f, (leaf(*shape),))


@pytest.mark.parametrize(
    "name, f",
    [
        ("eigh", lambda x: torch.linalg.eigh(herm(x)).eigenvectors.real.sum()),
        ("eig", lambda x: torch.linalg.eig(x).eigenvectors.real.sum()),
        ("svd", lambda x: torch.linalg.svd(x).U.real.sum()),
    ],
)
def test_a_phase_dependent_loss_is_refused(name, f):
    x = leaf(4, 4)
    with pytest.raises(RuntimeError, match=r"specified up to multiplication by e\^\{i phi\}"):
        f(x).backward()
