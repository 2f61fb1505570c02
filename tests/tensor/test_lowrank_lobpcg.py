"""torch.svd_lowrank, torch.pca_lowrank and torch.lobpcg against NumPy/SciPy: the singular values of low-rank
matrices, PCA of centered data, the extreme eigenpairs of symmetric positive-definite (generalized) problems
with both LOBPCG methods, a preconditioner and batches; their gradients by gradcheck in float64 for losses
that do not depend on the signs the decompositions leave free; upstream's errors. Every random draw is
seeded. Also run on upstream 2.13."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg

import torch
from torch.autograd import gradcheck, gradgradcheck


@pytest.fixture(autouse=True)
def _seed():
    torch.manual_seed(0)


def rng(seed):
    return np.random.default_rng(seed)


def low_rank(r, *shape, seed=0):
    """A float64 (*batch, m, n) matrix of rank r."""
    g = rng(seed)
    *batch, m, n = shape
    return g.standard_normal((*batch, m, r)) @ g.standard_normal((*batch, r, n))


def spd(m, seed=0, batch=()):
    """A symmetric positive-definite float64 (*batch, m, m) matrix with the eigenvalues 1, 2, ..., m in a
    random basis (well separated: LOBPCG converges in a few dozen iterations)."""
    q = np.linalg.qr(rng(seed).standard_normal((*batch, m, m)))[0]
    return (q * np.arange(1.0, m + 1)[:, None].T) @ np.swapaxes(q, -1, -2)


def eye_like(x):
    return np.broadcast_to(np.eye(x.shape[-1]), x.shape)


# svd_lowrank


@pytest.mark.parametrize("shape", [(20, 12), (12, 20), (3, 15, 10)])
def test_svd_lowrank_recovers_a_low_rank_matrix(shape):
    a = low_rank(4, *shape)
    U, S, V = torch.svd_lowrank(torch.from_numpy(a), q=6)
    m, n = shape[-2:]
    assert U.shape == (*shape[:-2], m, 6) and S.shape == (*shape[:-2], 6) and V.shape == (*shape[:-2], n, 6)
    want = np.linalg.svd(a, compute_uv=False)[..., :6]
    np.testing.assert_allclose(S.numpy(), want, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose((U @ torch.diag_embed(S) @ V.mT).numpy(), a, atol=1e-10)
    np.testing.assert_allclose((U.mT @ U).numpy(), eye_like(U.mT @ U), atol=1e-12)
    np.testing.assert_allclose((V.mT @ V).numpy(), eye_like(V.mT @ V), atol=1e-12)


def test_svd_lowrank_defaults_and_dtypes():
    a = low_rank(3, 30, 9)
    U, S, V = torch.svd_lowrank(torch.from_numpy(a).float())  # q=6, niter=2
    assert U.shape == (30, 6) and S.shape == (6,) and V.shape == (9, 6) and S.dtype == torch.float32
    np.testing.assert_allclose(S[:3].numpy(), np.linalg.svd(a, compute_uv=False)[:3], rtol=1e-4)
    np.testing.assert_allclose(S[3:].numpy(), np.zeros(3), atol=1e-4)
    c = low_rank(2, 10, 8, seed=1) + 1j * low_rank(2, 10, 8, seed=2)
    U, S, V = torch.svd_lowrank(torch.from_numpy(c), q=5, niter=3)
    assert U.dtype == V.dtype == torch.complex128 and S.dtype == torch.float64
    np.testing.assert_allclose(S.numpy(), np.linalg.svd(c, compute_uv=False)[:5], atol=1e-10)
    np.testing.assert_allclose((U @ torch.diag_embed(S).to(U.dtype) @ V.mH).numpy(), c, atol=1e-10)


def test_svd_lowrank_with_mean():
    a = low_rank(3, 16, 10) + 5.0
    mean = np.full((1, 10), 5.0)
    U, S, V = torch.svd_lowrank(torch.from_numpy(a), q=5, M=torch.from_numpy(mean))
    np.testing.assert_allclose(S.numpy(), np.linalg.svd(a - mean, compute_uv=False)[:5], atol=1e-10)
    np.testing.assert_allclose((U @ torch.diag_embed(S) @ V.mT).numpy(), a - mean, atol=1e-10)


def test_svd_lowrank_is_repeatable_under_a_seed():
    A = torch.from_numpy(rng(3).standard_normal((12, 9)))
    torch.manual_seed(7)
    first = torch.svd_lowrank(A, q=4, niter=0)
    torch.manual_seed(7)
    second = torch.svd_lowrank(A, q=4, niter=0)
    for x, y in zip(first, second):
        assert torch.equal(x, y)


# pca_lowrank


@pytest.mark.parametrize("shape", [(40, 8), (2, 25, 12)])
def test_pca_lowrank_against_centered_svd(shape):
    a = low_rank(3, *shape) + rng(1).standard_normal(shape[-1])  # rank 3 after centering
    U, S, V = torch.pca_lowrank(torch.from_numpy(a), q=5)
    centered = a - a.mean(axis=-2, keepdims=True)
    _, s, vh = np.linalg.svd(centered)
    np.testing.assert_allclose(S.numpy(), s[..., :5], atol=1e-10)
    # the principal directions span the same space
    proj = V[..., :3] @ V[..., :3].mT
    want = np.swapaxes(vh[..., :3, :], -1, -2) @ vh[..., :3, :]
    np.testing.assert_allclose(proj.numpy(), want, atol=1e-10)
    np.testing.assert_allclose((U @ torch.diag_embed(S) @ V.mT).numpy(), centered, atol=1e-10)
    # S**2 / (m - 1): the leading eigenvalues of the covariance
    m = shape[-2]
    np.testing.assert_allclose(
        (S[..., :3] ** 2 / (m - 1)).numpy(),
        np.linalg.eigvalsh(np.swapaxes(centered, -1, -2) @ centered / (m - 1))[..., ::-1][..., :3],
        rtol=1e-10,
    )


def test_pca_lowrank_without_centering_and_default_q():
    a = low_rank(2, 9, 4)
    U, S, V = torch.pca_lowrank(torch.from_numpy(a), center=False)
    assert U.shape == (9, 4) and S.shape == (4,) and V.shape == (4, 4)  # q = min(6, m, n)
    np.testing.assert_allclose(S.numpy(), np.linalg.svd(a, compute_uv=False), atol=1e-10)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(q=6), r"q\(=6\) must be non-negative integer and not greater than min\(m, n\)=5"),
        (dict(q=-1), r"q\(=-1\) must be non-negative integer and not greater than min\(m, n\)=5"),
        (dict(niter=-1), r"niter\(=-1\) must be non-negative integer"),
    ],
)
def test_pca_lowrank_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        torch.pca_lowrank(torch.randn(7, 5), **kwargs)


# lobpcg


def assert_eigenpairs(A, B, E, X, want, rtol=1e-9):
    """E matches want to rtol; X is B-orthonormal (to 1e-6) and solves A X = B X diag(E) to 1e-6 |A|."""
    np.testing.assert_allclose(E.numpy(), want, rtol=rtol)
    BX = X if B is None else B @ X
    residual = (A @ X - BX * E.unsqueeze(-2)).numpy()
    np.testing.assert_allclose(residual, np.zeros(X.shape), atol=1e-6 * np.linalg.norm(A.numpy(), 2, (-2, -1)).max())
    np.testing.assert_allclose((X.mT @ BX).numpy(), eye_like(X.mT @ X), atol=1e-6)


@pytest.mark.parametrize("method", ["ortho", "basic"])
@pytest.mark.parametrize("largest", [True, False])
def test_lobpcg_standard(method, largest):
    a = spd(40)
    A = torch.from_numpy(a)
    E, X = torch.lobpcg(A, k=3, largest=largest, method=method)
    assert E.shape == (3,) and X.shape == (40, 3) and E.dtype == torch.float64
    w = np.linalg.eigh(a)[0]
    assert_eigenpairs(A, None, E, X, w[::-1][:3] if largest else w[:3])


@pytest.mark.parametrize("method", ["ortho", "basic"])
@pytest.mark.parametrize("largest", [True, False])
def test_lobpcg_generalized(method, largest):
    a, b = spd(36, seed=1), spd(36, seed=2)
    A, B = torch.from_numpy(a), torch.from_numpy(b)
    X0 = torch.from_numpy(rng(3).standard_normal((36, 4)))
    E, X = torch.lobpcg(A, k=2, B=B, X=X0, largest=largest, method=method)
    assert X.shape == (36, 2)
    w = scipy.linalg.eigh(a, b, eigvals_only=True)
    assert_eigenpairs(A, B, E, X, w[::-1][:2] if largest else w[:2])


# k=1 for "basic": upstream's basic method can return a converged pair twice when preconditioned
@pytest.mark.parametrize("method, k", [("ortho", 2), ("basic", 1)])
def test_lobpcg_preconditioned(method, k):
    # the smallest eigenpairs of a badly scaled matrix, with the Jacobi preconditioner diag(A)^-1
    scale = np.diag(np.linspace(1.0, 30.0, 45))
    a = scale @ spd(45, seed=4) @ scale
    A = torch.from_numpy(a)
    iK = torch.from_numpy(np.diag(1 / np.diag(a)))
    E, X = torch.lobpcg(A, k=k, n=3, iK=iK, largest=False, method=method, niter=-1)
    assert E.shape == (k,) and X.shape == (45, k)
    assert_eigenpairs(A, None, E, X, np.linalg.eigvalsh(a)[:k])


def test_lobpcg_batched():
    a, b = spd(30, seed=5, batch=(2, 3)), spd(30, seed=6, batch=(2, 3))
    A, B = torch.from_numpy(a), torch.from_numpy(b)
    E, X = torch.lobpcg(A, k=2)
    assert E.shape == (2, 3, 2) and X.shape == (2, 3, 30, 2)
    assert_eigenpairs(A, None, E, X, np.linalg.eigvalsh(a)[..., ::-1][..., :2])
    X0 = torch.from_numpy(rng(7).standard_normal((2, 3, 30, 3)))
    E, X = torch.lobpcg(A, B=B, X=X0, largest=False)  # k from X
    assert E.shape == (2, 3, 3) and X.shape == (2, 3, 30, 3)
    want = np.stack([[scipy.linalg.eigh(a[i, j], b[i, j], eigvals_only=True)[:3] for j in range(3)] for i in range(2)])
    assert_eigenpairs(A, B, E, X, want)
    iK = torch.from_numpy(np.linalg.inv(spd(30, seed=5)))  # one preconditioner for the batch
    E, X = torch.lobpcg(A, k=1, iK=iK, largest=False, method="basic")
    assert_eigenpairs(A, None, E, X, np.linalg.eigvalsh(a)[..., :1])


def test_lobpcg_defaults_float32_and_tracker():
    a = spd(20, seed=8)
    E, X = torch.lobpcg(torch.from_numpy(a).float())  # k = 1, largest
    assert E.shape == (1,) and X.shape == (20, 1) and E.dtype == X.dtype == torch.float32
    np.testing.assert_allclose(E.numpy(), np.linalg.eigvalsh(a)[-1:], rtol=1e-4)
    steps = []

    def tracker(worker):
        steps.append((worker.ivars["istep"], worker.tvars["rerr"].shape))
        if worker.ivars["istep"] == 3:
            worker.bvars["force_stop"] = True

    torch.lobpcg(torch.from_numpy(a), k=2, tracker=tracker, tol=1e-300)
    assert steps == [(1, (2,)), (2, (2,)), (3, (2,))]
    steps.clear()
    torch.lobpcg(torch.from_numpy(a), k=2, niter=5, tracker=tracker, tol=1e-300)
    assert len(steps) == 3
    torch.lobpcg(torch.from_numpy(a), k=2, niter=2, tracker=lambda w: steps.append(w.ivars["istep"]), tol=1e-300)
    assert steps[-2:] == [1, 2]


def test_lobpcg_errors():
    A = torch.from_numpy(spd(9))
    with pytest.raises(AssertionError, match=r"A must be square, got shape torch.Size\(\[9, 8\]\)"):
        torch.lobpcg(torch.randn(9, 8))
    with pytest.raises(AssertionError, match=r"A and B must have same shape"):
        torch.lobpcg(A, B=torch.eye(8, dtype=torch.float64))
    message = (
        r"LOBPCG algorithm is not applicable when the number of A rows \(=9\) is smaller than 3 x the number of "
        r"requested eigenpairs \(=4\)"
    )
    with pytest.raises(ValueError, match=message):
        torch.lobpcg(A, k=4)
    with pytest.raises(ValueError, match=message):
        torch.lobpcg(A, k=1, X=torch.randn(9, 4, dtype=torch.float64))
    with pytest.raises(AssertionError, match=r"X shape mismatch: got torch.Size\(\[8, 2\]\), expected \(9, 2\)"):
        torch.lobpcg(A, X=torch.randn(8, 2, dtype=torch.float64))
    A_ = A.clone().requires_grad_()
    E, _ = torch.lobpcg(A_, k=1, B=torch.eye(9, dtype=torch.float64))
    with pytest.raises(ValueError, match=r"lobpcg.backward does not support backward with B != I yet."):
        E.sum().backward()


# gradients


def test_svd_lowrank_gradcheck():
    def f(A, M=None):
        torch.manual_seed(1)  # the same random start for every evaluation
        U, S, V = torch.svd_lowrank(A, q=4, niter=2, M=M)
        return S, U @ torch.diag_embed(S) @ V.mT, U @ U.mT, V @ V.mT

    for seed, shape in enumerate([(8, 5), (5, 8), (2, 7, 6)]):
        A = torch.from_numpy(rng(seed).standard_normal(shape)).requires_grad_()
        assert gradcheck(f, A)
    A = torch.from_numpy(rng(5).standard_normal((7, 6))).requires_grad_()
    M = torch.from_numpy(rng(6).standard_normal((1, 6))).requires_grad_()
    assert gradcheck(f, (A, M))


def test_pca_lowrank_gradcheck():
    def f(A):
        torch.manual_seed(1)
        U, S, V = torch.pca_lowrank(A, q=3)
        return S, V @ V.mT, U @ torch.diag_embed(S) @ V.mT

    A = torch.from_numpy(rng(9).standard_normal((9, 5))).requires_grad_()
    assert gradcheck(f, A)


def lobpcg_loss(A, k, largest):
    """Eigenvalues and the projector onto their eigenspace: independent of the eigenvectors' signs."""
    X = torch.eye(A.shape[-1], k, dtype=A.dtype).expand(*A.shape[:-2], A.shape[-1], k)
    E, U = torch.lobpcg(A, k=k, X=X, largest=largest, tol=1e-12)
    return E, U @ U.mT


@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("k, shape", [(1, (6, 6)), (2, (2, 6, 6)), (3, (9, 9))])
def test_lobpcg_gradcheck(k, shape, largest):
    a = rng(10).random(shape)
    A = torch.from_numpy(a @ np.swapaxes(a, -1, -2) / 10).requires_grad_()
    assert gradcheck(lambda A: lobpcg_loss(A, k, largest), A)
    if len(shape) == 2:  # the backward is differentiable too
        grads = (torch.from_numpy(rng(11).random(k)), torch.from_numpy(rng(12).random(shape)))
        assert gradgradcheck(lambda A: lobpcg_loss(A, k, largest), A, grads, atol=1e-4)


def test_lobpcg_gradient_matches_eigh():
    a = spd(12, seed=13)
    w = torch.from_numpy(rng(14).random((12, 12)))

    def loss(E, U):
        return E.sum() * 0.3 + ((U @ U.mT) * w).sum()

    for largest in (True, False):
        A = torch.from_numpy(a).requires_grad_()
        E, U = torch.lobpcg(A, k=3, largest=largest, tol=1e-13)
        loss(E, U).backward()
        A_ref = torch.from_numpy(a).requires_grad_()
        E_ref, U_ref = torch.linalg.eigh((A_ref + A_ref.mT) / 2)
        pick = slice(-3, None) if largest else slice(0, 3)
        loss(E_ref[pick], U_ref[:, pick]).backward()
        np.testing.assert_allclose(A.grad.numpy(), A_ref.grad.numpy(), atol=1e-6)
        np.testing.assert_allclose(A.grad.numpy(), A.grad.mT.numpy(), atol=1e-12)  # symmetric
