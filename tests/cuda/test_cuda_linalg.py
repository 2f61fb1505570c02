"""torch.linalg on the GPU (THC/LinearAlgebraKernels.cu: cuSOLVER's getrf/getrs, potrf, geqrf/orgqr, syevd,
gesvdj and cuBLAS's trsm where the build has them, the host LAPACK otherwise), checked by the identities each
factorization satisfies and against NumPy: shapes square, tall and wide, batched and empty, the four
dtypes, every flag of each routine (upper/lower, left/right, adjoint, unit diagonal, full/reduced), and the
errors of singular and indefinite input. test_cuda_ops.py compares the same calls' values with the CPU's.
Skips, with one reason, where no GPU is present.
"""

from __future__ import annotations

import numpy as np
import pytest

import torch

pytestmark = pytest.mark.cuda

DTYPES = [torch.float32, torch.float64, torch.complex64, torch.complex128]
SHAPES = [(4, 4), (33, 33), (40, 20), (20, 40)]


def tol(dtype):
    return 2e-4 if dtype in (torch.float32, torch.complex64) else 1e-10


def rand(*shape, dtype, seed=0):
    """A well-conditioned random batch on the GPU (the identity added to its square part)."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if dtype.is_complex:
        a = a + 1j * rng.standard_normal(shape)
    t = torch.from_numpy(a).to(dtype)
    m, n = shape[-2:]
    t = t + 2 * torch.eye(m, n, dtype=dtype) * max(m, n) ** 0.5
    return t.cuda()


def close(got, want, dtype, scale=1.0):
    assert got.device.type == "cuda"
    g = got.cpu().resolve_conj().numpy()
    w = want.cpu().resolve_conj().numpy() if isinstance(want, torch.Tensor) else want
    np.testing.assert_allclose(g, w, rtol=tol(dtype), atol=tol(dtype) * scale)


def eye_like(n, a):
    return torch.eye(n, dtype=a.dtype, device=a.device).expand(*a.shape[:-2], n, n)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("full", [True, False])
def test_svd_reconstructs_and_is_orthonormal(dtype, shape, full):
    A = rand(3, *shape, dtype=dtype)
    U, S, Vh = torch.linalg.svd(A, full_matrices=full)
    m, n = shape
    k = min(m, n)
    assert U.shape == (3, m, m if full else k) and Vh.shape == (3, n if full else k, n) and S.shape == (3, k)
    assert S.dtype == A.real.dtype and (S[..., :-1] >= S[..., 1:]).all()
    close(U[..., :, :k] @ torch.diag_embed(S).to(dtype) @ Vh[..., :k, :], A, dtype, scale=10)
    close(U.mH @ U, eye_like(U.shape[-1], U), dtype, scale=10)
    close(Vh @ Vh.mH, eye_like(Vh.shape[-2], Vh), dtype, scale=10)
    close(S, np.linalg.svd(A.cpu().numpy(), compute_uv=False), dtype, scale=10)
    close(torch.linalg.svdvals(A), S, dtype, scale=10)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh_vectors_diagonalize(dtype, uplo):
    A = rand(2, 33, 33, dtype=dtype)
    H = A + A.mH
    w, V = torch.linalg.eigh(H, UPLO=uplo)
    close(H @ V, V @ torch.diag_embed(w).to(dtype), dtype, scale=100)
    close(w, np.linalg.eigvalsh(H.cpu().numpy()), dtype, scale=100)
    close(torch.linalg.eigvalsh(H, UPLO=uplo), w, dtype, scale=100)
    # only the triangle UPLO is read: other values in the other one change nothing
    if uplo == "L":
        w2 = torch.linalg.eigvalsh(torch.tril(H) + torch.triu(torch.ones_like(H), 1) * 1e3, UPLO="L")
    else:
        w2 = torch.linalg.eigvalsh(torch.triu(H) + torch.tril(torch.ones_like(H), -1) * 1e3, UPLO="U")
    close(w2, w, dtype, scale=100)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr_and_householder_product(dtype, shape, mode):
    A = rand(3, *shape, dtype=dtype)
    Q, R = torch.linalg.qr(A, mode=mode)
    close(Q @ R, A, dtype, scale=10)
    close(Q.mH @ Q, eye_like(Q.shape[-1], Q), dtype, scale=10)
    assert torch.equal(R, R.triu())
    a, tau = torch.geqrf(A)
    m, n = shape
    if m >= n:
        close(torch.linalg.householder_product(a, tau), torch.linalg.qr(A).Q, dtype, scale=10)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_lu_reconstructs(dtype, shape):
    A = rand(3, *shape, dtype=dtype)
    P, L, U = torch.linalg.lu(A)
    close(P @ L @ U, A, dtype, scale=10)
    LU, piv = torch.linalg.lu_factor(A)
    want = torch.linalg.lu_factor(A.cpu())
    close(LU, want.LU, dtype, scale=10)
    assert torch.equal(piv.cpu(), want.pivots)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("adjoint", [False, True])
def test_lu_solve_every_side_and_adjoint(dtype, left, adjoint):
    A = rand(3, 33, 33, dtype=dtype)
    B = rand(3, 33, 5, dtype=dtype, seed=1) if left else rand(3, 5, 33, dtype=dtype, seed=1)
    X = torch.linalg.lu_solve(*torch.linalg.lu_factor(A), B, left=left, adjoint=adjoint)
    opA = A.mH if adjoint else A
    close(opA @ X if left else X @ opA, B, dtype, scale=100)
    close(torch.linalg.solve(A, B, left=left), torch.linalg.solve(A.cpu(), B.cpu(), left=left), dtype, scale=10)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_both_triangles(dtype, upper):
    A = rand(3, 33, 33, dtype=dtype)
    H = A @ A.mH + eye_like(33, A)
    C = torch.linalg.cholesky(H, upper=upper)
    close(C.mH @ C if upper else C @ C.mH, H, dtype, scale=1000)
    assert torch.equal(C, C.triu() if upper else C.tril())
    B = rand(3, 33, 2, dtype=dtype, seed=1)
    close(H @ torch.cholesky_solve(B, C, upper=upper), B, dtype, scale=1000)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("upper", [False, True])
@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("unit", [False, True])
def test_solve_triangular_every_flag(dtype, upper, left, unit):
    A = rand(2, 20, 20, dtype=dtype)
    T = A.triu() if upper else A.tril()
    B = rand(2, 20, 3, dtype=dtype, seed=2) if left else rand(2, 3, 20, dtype=dtype, seed=2)
    X = torch.linalg.solve_triangular(T, B, upper=upper, left=left, unitriangular=unit)
    Tu = T - torch.diag_embed(T.diagonal(dim1=-2, dim2=-1)) + eye_like(20, T) if unit else T
    close(Tu @ X if left else X @ Tu, B, dtype, scale=100)
    # the adjoint, through a transposed view
    Xh = torch.linalg.solve_triangular(T.mH, B, upper=not upper, left=left, unitriangular=unit)
    close(Tu.mH @ Xh if left else Xh @ Tu.mH, B, dtype, scale=100)


@pytest.mark.parametrize("dtype", DTYPES)
def test_big_solve_and_inverse(dtype):
    A = rand(256, 256, dtype=dtype)
    B = rand(256, 8, dtype=dtype, seed=3)
    close(A @ torch.linalg.solve(A, B), B, dtype, scale=100)
    close(A @ torch.linalg.inv(A), eye_like(256, A), dtype, scale=100)
    close(torch.linalg.det(A), torch.linalg.det(A.cpu()), dtype, scale=1e6)


def test_empty_batches_and_matrices():
    for shape in [(0, 4, 4), (3, 0, 0)]:
        A = torch.zeros(shape, device="cuda")
        assert torch.linalg.inv(A).shape == shape
        assert torch.linalg.svdvals(A).shape == shape[:-1]
        assert torch.linalg.eigvalsh(A).shape == shape[:-1]
        assert torch.linalg.cholesky(A).shape == shape
        assert torch.linalg.qr(A).Q.shape == shape


def test_singular_and_indefinite_input_raise_linalg_errors():
    A = torch.ones(2, 3, 3, device="cuda")
    with pytest.raises(torch.linalg.LinAlgError, match="singular"):
        torch.linalg.solve(A, torch.ones(2, 3, 1, device="cuda"))
    with pytest.raises(torch.linalg.LinAlgError, match="not positive-definite"):
        torch.linalg.cholesky(-torch.eye(3, device="cuda"))
    L, info = torch.linalg.cholesky_ex(torch.diag(torch.tensor([1.0, -1.0, 1.0], device="cuda")))
    assert info.item() == 2 and info.device.type == "cuda"
    LU, piv, info = torch.linalg.lu_factor_ex(torch.zeros(3, 3, device="cuda"))
    assert info.item() == 1


def test_the_factorizations_follow_the_current_stream():
    A = rand(4, 64, 64, dtype=torch.float64)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        X = torch.linalg.solve(A, A)
        S = torch.linalg.svdvals(A)
    torch.cuda.current_stream().wait_stream(s)
    close(X, eye_like(64, A), torch.float64, scale=100)
    close(S, torch.linalg.svdvals(A.cpu()), torch.float64, scale=100)
