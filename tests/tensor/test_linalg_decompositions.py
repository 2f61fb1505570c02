"""torch.linalg against NumPy's LAPACK-backed numpy.linalg: solve, inv, det/slogdet, cholesky, eigh, svd, qr,
lu, lstsq, pinv, matrix_rank, norms, cond, matrix_power/matrix_exp, multi_dot, tensorinv/tensorsolve, and the
older torch.* names; batched, broadcast and transposed (non-contiguous) inputs, float32 and float64; and
PyTorch's errors, LinAlgError where a matrix is singular or not positive-definite.

Runs against upstream PyTorch too (nox -s tests-reference).
"""

from __future__ import annotations

import numpy as np
import pytest

import torch

LA = torch.linalg
TOL = {torch.float32: dict(rtol=2e-4, atol=2e-4), torch.float64: dict(rtol=1e-9, atol=1e-9)}
DTYPES = (torch.float32, torch.float64)
BATCHES = [(), (3,), (2, 1)]


def _rand(*shape, dtype=torch.float64, seed=0) -> torch.Tensor:
    return torch.from_numpy(np.random.default_rng(seed).standard_normal(shape)).to(dtype)


def _spd(n: int, batch=(), dtype=torch.float64, seed=0) -> torch.Tensor:
    x = _rand(*batch, n, n, seed=seed)
    return (x @ x.mT + n * torch.eye(n, dtype=torch.float64)).to(dtype)


def _close(got: torch.Tensor, want, dtype=torch.float64) -> None:
    np.testing.assert_allclose(got.double().numpy(), np.asarray(want, dtype=np.float64), **TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("batch", BATCHES, ids=str)
def test_solve_inv_det_slogdet(dtype, batch):
    A, B = _rand(*batch, 4, 4, dtype=dtype), _rand(*batch, 4, 2, dtype=dtype, seed=1)
    a, b = A.double().numpy(), B.double().numpy()
    _close(LA.solve(A, B), np.linalg.solve(a, b), dtype)
    _close(LA.solve(A, B.mT, left=False), np.linalg.solve(np.swapaxes(a, -1, -2), b).swapaxes(-1, -2), dtype)
    _close(LA.inv(A), np.linalg.inv(a), dtype)
    _close(LA.det(A), np.linalg.det(a), dtype)
    sign, logabs = LA.slogdet(A)
    want_sign, want_log = np.linalg.slogdet(a)
    _close(sign, want_sign, dtype)
    _close(logabs, want_log, dtype)
    _close(torch.det(A), np.linalg.det(a), dtype)
    _close(A.inverse(), np.linalg.inv(a), dtype)


def test_solve_vectors_broadcast_and_strided():
    A = _rand(3, 4, 4)
    v = _rand(4, seed=1)
    _close(LA.solve(A, v), np.linalg.solve(A.numpy(), v.numpy()[:, None])[..., 0])
    batch_v = _rand(3, 4, seed=2)  # A's batch shape with one dim less: a batch of vectors
    _close(LA.solve(A, batch_v), np.linalg.solve(A.numpy(), batch_v.numpy()[..., None])[..., 0])
    B = _rand(2, 1, 4, 3, seed=3)  # batch dims broadcast: [3] with [2, 1]
    _close(LA.solve(A, B), np.linalg.solve(A.numpy(), B.numpy()))
    At = A.mT  # transposed: not contiguous
    assert not At.is_contiguous()
    _close(LA.solve(At, B), np.linalg.solve(At.numpy(), B.numpy()))
    _close(LA.inv(A[:, ::2, ::2]), np.linalg.inv(A.numpy()[:, ::2, ::2]))
    _close(LA.det(A.expand(2, 3, 4, 4)), np.linalg.det(np.broadcast_to(A.numpy(), (2, 3, 4, 4))))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("batch", BATCHES, ids=str)
def test_cholesky_and_its_solves(dtype, batch):
    S = _spd(5, batch, dtype)
    s = S.double().numpy()
    L = LA.cholesky(S)
    _close(L, np.linalg.cholesky(s), dtype)
    _close(LA.cholesky(S, upper=True), np.swapaxes(np.linalg.cholesky(s), -1, -2), dtype)
    assert LA.cholesky_ex(S).info.eq(0).all()
    B = _rand(*batch, 5, 2, dtype=dtype, seed=4)
    _close(torch.cholesky_solve(B, L), np.linalg.solve(s, B.double().numpy()), dtype)
    _close(torch.cholesky_solve(B, L.mT, upper=True), np.linalg.solve(s, B.double().numpy()), dtype)
    if not batch:
        _close(torch.cholesky_inverse(L), np.linalg.inv(s), dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_eigh(dtype):
    S = _rand(3, 5, 5, dtype=dtype)
    S = S + S.mT
    L, V = LA.eigh(S)
    _close(L, np.linalg.eigvalsh(S.double().numpy()), dtype)
    _close(V @ torch.diag_embed(L) @ V.mT, S.double().numpy(), dtype)
    _close(V.mT @ V, np.broadcast_to(np.eye(5), (3, 5, 5)), dtype)
    _close(LA.eigvalsh(S), np.linalg.eigvalsh(S.double().numpy()), dtype)
    upper_only = S.triu()  # UPLO='U' reads the upper triangle alone
    _close(LA.eigvalsh(upper_only, UPLO="U"), np.linalg.eigvalsh(S.double().numpy()), dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(4, 4), (6, 3), (3, 6), (2, 5, 3)], ids=str)
def test_svd(dtype, shape):
    A = _rand(*shape, dtype=dtype)
    a = A.double().numpy()
    U, S, Vh = LA.svd(A, full_matrices=False)
    _close(S, np.linalg.svd(a, compute_uv=False), dtype)
    _close(U @ torch.diag_embed(S) @ Vh, a, dtype)
    _close(LA.svdvals(A), np.linalg.svd(a, compute_uv=False), dtype)
    Uf, _, Vhf = LA.svd(A)
    m, n = shape[-2:]
    assert Uf.shape[-2:] == (m, m) and Vhf.shape[-2:] == (n, n)
    _close(Uf.mT @ Uf, np.broadcast_to(np.eye(m), Uf.shape), dtype)
    U2, S2, V2 = torch.svd(A)
    _close(U2 @ torch.diag_embed(S2) @ V2.mT, a, dtype)


@pytest.mark.parametrize("shape", [(5, 3), (3, 3), (3, 5), (2, 4, 2)], ids=str)
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
def test_qr(shape, mode):
    A = _rand(*shape)
    a = A.numpy()
    Q, R = LA.qr(A, mode=mode)
    want_Q, want_R = np.linalg.qr(a, mode="reduced" if mode == "r" else mode)
    _close(R, want_R)
    if mode != "r":
        _close(Q, want_Q)  # both are LAPACK's geqrf + orgqr: the same signs
        _close(Q @ R, a)
    else:
        assert Q.numel() == 0
    a_, tau = torch.geqrf(A)
    if shape[-2] >= shape[-1]:
        _close(LA.householder_product(a_, tau), np.linalg.qr(a)[0])


@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (3, 5), (2, 4, 4)], ids=str)
def test_lu(shape):
    A = _rand(*shape)
    P, L, U = LA.lu(A)
    _close(P @ L @ U, A.numpy())
    assert torch.equal(L.diagonal(0, -2, -1), torch.ones(L.diagonal(0, -2, -1).shape, dtype=A.dtype))
    _close(L.triu(1), np.zeros(L.shape))
    _close(U.tril(-1), np.zeros(U.shape))
    LU, pivots = LA.lu_factor(A)
    assert pivots.dtype == torch.int32
    P2, L2, U2 = torch.lu_unpack(LU, pivots)
    _close(P2, P.numpy())
    if shape[-1] == shape[-2]:
        B = _rand(*shape[:-1], 2, seed=5)
        _close(LA.lu_solve(LU, pivots, B), np.linalg.solve(A.numpy(), B.numpy()))
        _close(LA.lu_solve(LU, pivots, B, adjoint=True), np.linalg.solve(np.swapaxes(A.numpy(), -1, -2), B.numpy()))
        _close(torch.lu_solve(B, LU, pivots), np.linalg.solve(A.numpy(), B.numpy()))


@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("unit", [True, False])
def test_solve_triangular(upper, left, unit):
    A = _spd(4, (2,))
    T = A.triu() if upper else A.tril()
    dense = T.clone()
    if unit:
        dense = dense - torch.diag_embed(dense.diagonal(0, -2, -1)) + torch.eye(4, dtype=A.dtype)
    B = _rand(2, 4, 3, seed=6) if left else _rand(2, 3, 4, seed=6)
    X = LA.solve_triangular(T, B, upper=upper, left=left, unitriangular=unit)
    want = (
        np.linalg.solve(dense.numpy(), B.numpy())
        if left
        else np.linalg.solve(np.swapaxes(dense.numpy(), -1, -2), np.swapaxes(B.numpy(), -1, -2)).swapaxes(-1, -2)
    )
    _close(X, want)


def test_lstsq_pinv_rank():
    A, B = _rand(6, 3), _rand(6, 2, seed=1)
    want_x, want_res, want_rank, want_s = np.linalg.lstsq(A.numpy(), B.numpy(), rcond=None)
    for driver in ("gels", "gelsy", "gelsd", "gelss"):
        _close(LA.lstsq(A, B, driver=driver).solution, want_x)
    r = LA.lstsq(A, B, driver="gelsd")
    _close(r.residuals, want_res)
    assert int(r.rank) == want_rank
    _close(r.singular_values, want_s)
    wide = _rand(3, 5, seed=2)  # under-determined: the minimum-norm solution
    b = _rand(3, 2, seed=3)
    _close(LA.lstsq(wide, b, driver="gelsd").solution, np.linalg.lstsq(wide.numpy(), b.numpy(), rcond=None)[0])
    _close(LA.pinv(A), np.linalg.pinv(A.numpy()))
    low_rank = _rand(5, 2) @ _rand(2, 5, seed=4)
    _close(LA.pinv(low_rank), np.linalg.pinv(low_rank.numpy()), torch.float32)
    assert int(LA.matrix_rank(low_rank)) == np.linalg.matrix_rank(low_rank.numpy()) == 2
    sym = low_rank @ low_rank.mT
    assert int(LA.matrix_rank(sym, hermitian=True)) == 2
    _close(LA.pinv(sym, hermitian=True), np.linalg.pinv(sym.numpy(), hermitian=True), torch.float32)


@pytest.mark.parametrize("ord", ["fro", "nuc", 2, -2, 1, -1, np.inf, -np.inf])
def test_matrix_norm_and_cond(ord):
    A = _rand(3, 4, 4)
    _close(LA.matrix_norm(A, ord=ord), np.linalg.norm(A.numpy(), ord=ord, axis=(-2, -1)))
    _close(LA.norm(A[0], ord=ord), np.linalg.norm(A.numpy()[0], ord=ord))
    if ord not in ("fro", "nuc"):
        _close(LA.cond(A, ord), np.linalg.cond(A.numpy(), ord))
    _close(
        LA.matrix_norm(A.mT, ord=ord, keepdim=True),
        np.linalg.norm(A.numpy().swapaxes(1, 2), ord=ord, axis=(-2, -1), keepdims=True),
    )


@pytest.mark.parametrize("ord", [2, 1, 0, 3.5, np.inf, -np.inf])
def test_vector_norm(ord):
    x = _rand(3, 5)
    _close(LA.vector_norm(x, ord=ord, dim=-1), np.linalg.norm(x.numpy(), ord=ord, axis=-1))
    _close(LA.vector_norm(x, ord=ord), np.linalg.norm(x.numpy().ravel(), ord=ord))
    _close(LA.norm(x[0], ord=ord), np.linalg.norm(x.numpy()[0], ord=ord))


def test_powers_exponential_and_products():
    A = _rand(2, 4, 4)
    for n in (-3, -1, 0, 2, 5):
        _close(LA.matrix_power(A, n), np.linalg.matrix_power(A.numpy(), n))
    _close(torch.matrix_power(A, -2), np.linalg.matrix_power(A.numpy(), -2))
    S = _rand(4, 4, seed=1)
    S = (S + S.mT) * 2  # exp of a symmetric matrix through its eigendecomposition
    w, v = np.linalg.eigh(S.numpy())
    _close(LA.matrix_exp(S), v @ np.diag(np.exp(w)) @ v.T)
    _close(torch.matrix_exp(torch.zeros(3, 3, dtype=torch.float64)), np.eye(3))
    chain = [_rand(3, seed=2), _rand(3, 6, seed=3), _rand(6, 2, seed=4), _rand(2, 5, seed=5)]
    _close(LA.multi_dot(chain), np.linalg.multi_dot([t.numpy() for t in chain]))
    T = _rand(4, 6, 8, 3, seed=6)
    _close(LA.tensorinv(T, ind=2), np.linalg.tensorinv(T.numpy(), ind=2))
    M, b = _rand(6, 4, 24, seed=7), _rand(6, 4, seed=8)
    _close(LA.tensorsolve(M, b), np.linalg.tensorsolve(M.numpy(), b.numpy()))
    x = _rand(5, seed=9)
    _close(LA.vander(x), np.vander(x.numpy(), increasing=True))
    _close(LA.vecdot(A, A), (A.numpy() ** 2).sum(-1))
    _close(LA.cross(_rand(2, 3), _rand(2, 3, seed=1)), np.cross(_rand(2, 3).numpy(), _rand(2, 3, seed=1).numpy()))


def test_logdet_triangular_solve_ormqr():
    A = _rand(3, 4, 4)
    sign, logabs = np.linalg.slogdet(A.numpy())
    got = torch.logdet(A).numpy()
    np.testing.assert_allclose(got[sign > 0], logabs[sign > 0], rtol=1e-10)
    assert np.isnan(got[sign < 0]).all()
    T = _spd(4).triu()
    B = _rand(4, 2, seed=1)
    X, coefficient = torch.triangular_solve(B, T)
    _close(X, np.linalg.solve(T.numpy(), B.numpy()))
    assert torch.equal(coefficient, T)
    tall = _rand(5, 3)
    a, tau = torch.geqrf(tall)
    Q = np.linalg.qr(tall.numpy(), mode="complete")[0]
    C = _rand(5, 2, seed=2)
    _close(torch.ormqr(a, tau, C), Q @ C.numpy())
    _close(torch.ormqr(a, tau, C, transpose=True), Q.T @ C.numpy())


def test_empty_matrices():
    assert LA.inv(torch.zeros(0, 0)).shape == (0, 0)
    assert LA.det(torch.zeros(2, 0, 0)).tolist() == [1.0, 1.0]
    assert LA.svdvals(torch.zeros(3, 0)).shape == (0,)
    assert LA.cholesky(torch.zeros(2, 0, 0)).shape == (2, 0, 0)


def test_singular_and_not_positive_definite_raise_linalg_error():
    assert issubclass(LA.LinAlgError, RuntimeError)
    with pytest.raises(LA.LinAlgError, match=r"linalg.inv: The diagonal element 2 is zero"):
        LA.inv(torch.tensor([[1.0, 2.0], [2.0, 4.0]]))
    with pytest.raises(LA.LinAlgError, match=r"\(Batch element 1\): The diagonal element 1 is zero"):
        LA.inv(torch.stack([torch.eye(3), torch.zeros(3, 3)]))
    with pytest.raises(LA.LinAlgError, match="The solver failed because the input matrix is singular"):
        LA.solve(torch.zeros(3, 3), torch.ones(3))
    with pytest.raises(LA.LinAlgError, match="the leading minor of order 1 is not positive-definite"):
        LA.cholesky(-torch.eye(3))
    assert LA.cholesky_ex(-torch.eye(3)).info.item() == 1
    with pytest.raises(RuntimeError, match=r"U\[1,1\] is zero"):
        LA.lu_factor(torch.zeros(3, 3))
    assert LA.lu_factor_ex(torch.zeros(2, 3, 3)).info.tolist() == [1, 1]
    assert LA.det(torch.zeros(3, 3)).item() == 0.0
    with pytest.raises(LA.LinAlgError, match="input matrix contained non-finite values"):
        LA.svd(torch.full((3, 3), float("nan")))


ERRORS = [
    (lambda: LA.inv(torch.rand(3, 4)), "linalg.inv: A must be batches of square matrices, but they are 3 by 4"),
    (lambda: LA.inv(torch.rand(3, 3).half()), "linalg.inv: Low precision dtypes not supported. Got Half"),
    (
        lambda: LA.solve(torch.rand(3, 3), torch.rand(4)),
        r"Incompatible shapes of A and B for the equation AX = B \(3x3 and 4x1\)",
    ),
    (lambda: LA.solve(torch.rand(3, 3), torch.rand(3).double()), "Expected A and B to have the same dtype"),
    (lambda: LA.svd(torch.rand(3)), "linalg.svd: The input tensor A must have at least 2 dimensions."),
    (lambda: LA.eigh(torch.eye(3), UPLO="X"), "Expected UPLO argument to be 'L' or 'U', but got X"),
    (lambda: LA.qr(torch.rand(3, 3), mode="bad"), "qr received unrecognized mode 'bad'"),
    (lambda: LA.lstsq(torch.rand(3, 3), torch.rand(4, 2)), r"input.size\(-2\) should match other.size\(-2\)"),
    (lambda: LA.lstsq(torch.rand(3, 3), torch.rand(3, 2), driver="x"), "parameter `driver` should be one of"),
    (lambda: LA.matrix_norm(torch.rand(3, 3), ord=3), "linalg.matrix_norm: Order 3 not supported."),
    (
        lambda: LA.vector_norm(torch.ones(3, dtype=torch.long)),
        "Expected a floating point or complex tensor as input. Got Long",
    ),
    (lambda: LA.multi_dot([torch.rand(3)]), r"multi_dot\(\): expected at least 2 tensors but got 1"),
    (
        lambda: LA.householder_product(torch.rand(3, 4), torch.rand(2)),
        r"input.shape\[-2\] must be greater than or equal to input.shape\[-1\]",
    ),
    (
        lambda: torch.cholesky_solve(torch.rand(3, 2), torch.rand(4, 4)),
        "Incompatible matrix sizes for cholesky_solve",
    ),
    (
        lambda: torch.lu_unpack(torch.rand(3, 3), torch.ones(3, dtype=torch.long)),
        "LU_pivots is expected to be a contiguous tensor of torch.int32",
    ),
    (
        lambda: LA.solve_triangular(torch.rand(3, 3), torch.rand(4, 2), upper=True),
        r"equation AX = B \(3x3 and 4x2\)",
    ),
]


@pytest.mark.parametrize("call, message", ERRORS)
def test_errors(call, message):
    with pytest.raises(RuntimeError, match=message):
        call()


def test_edge_cases_found_in_review():
    """Each of these raised or gave a wrong value before its fix; upstream's results."""
    z = torch.zeros
    P, L, U = LA.lu(z(3, 0, dtype=torch.float64))
    assert P.equal(torch.eye(3, dtype=torch.float64)) and L.shape == (3, 0) and U.shape == (0, 0)
    assert [t.shape for t in LA.lu(z(0, 3))] == [(0, 0), (0, 0), (0, 3)]
    assert [t.shape for t in torch.lu_unpack(*LA.lu_factor(z(2, 0, 0)))] == [(2, 0, 0)] * 3
    assert LA.cond(z(3, 3), p=1).item() == float("inf")  # singular: inf, not an error
    assert LA.cond(z(2, 3, 3), p="fro").tolist() == [float("inf")] * 2
    assert LA.cond(z(0, 0)).item() == 0.0 and LA.matrix_norm(z(0, 3), ord=2).item() == 0.0
    assert LA.matrix_exp(torch.tensor([[float("inf"), 0.0], [0.0, 1.0]])).isnan().all()
    LU, pivots = torch.lu(z(3, 3))  # the older name does not raise for a singular matrix
    assert pivots.dtype == torch.int32


def test_ldl_factor_and_solve_against_numpy():
    rng = np.random.default_rng(5)
    M = rng.standard_normal((3, 6, 6))
    A = torch.from_numpy(M + M.transpose(0, 2, 1))  # symmetric, indefinite: 2x2 pivots appear
    LD, pivots, info = torch.linalg.ldl_factor_ex(A)
    assert LD.shape == (3, 6, 6) and pivots.shape == (3, 6) and pivots.dtype == torch.int32
    assert LD.stride()[-2:] == (1, 6)  # column-major, as LAPACK leaves it
    assert info.tolist() == [0, 0, 0]
    assert torch.equal(LD, LD.tril())
    B = torch.from_numpy(rng.standard_normal((3, 6, 2)))
    X = torch.linalg.ldl_solve(LD, pivots, B)
    np.testing.assert_allclose(X.numpy(), np.linalg.solve(A.numpy(), B.numpy()), rtol=1e-9, atol=1e-10)
    LD2, piv2 = torch.linalg.ldl_factor(A[0])
    torch.testing.assert_close(LD2, LD[0])
    assert torch.equal(piv2, pivots[0])
    # the factors reproduce A: a diagonally dominant A takes no interchanges (pivots 1..n), so A = L D L^T
    S = torch.from_numpy(M[0] @ M[0].T + 6 * np.eye(6))
    LD, pivots = torch.linalg.ldl_factor(S)
    assert pivots.tolist() == [1, 2, 3, 4, 5, 6]
    L = LD.tril(-1) + torch.eye(6, dtype=S.dtype)
    np.testing.assert_allclose((L @ torch.diag(LD.diagonal()) @ L.T).numpy(), S.numpy(), rtol=1e-10, atol=1e-10)


def test_ldl_errors():
    info = torch.linalg.ldl_factor_ex(torch.zeros(2, 2)).info
    assert info.item() > 0
    with pytest.raises(RuntimeError):
        torch.linalg.ldl_factor(torch.zeros(2, 2))
    with pytest.raises(RuntimeError, match="square matrices"):
        torch.linalg.ldl_factor(torch.randn(3, 4))
    with pytest.raises(RuntimeError, match="floating point"):
        torch.linalg.ldl_factor(torch.ones(3, 3, dtype=torch.int32))
    LD, pivots = torch.linalg.ldl_factor(torch.eye(3))
    with pytest.raises(RuntimeError, match="Incompatible matrix sizes"):
        torch.linalg.ldl_solve(LD, pivots, torch.ones(4, 1))


@pytest.mark.parametrize("bad", [[100000000, 1, 2], [0, 1, 2]])
def test_solves_refuse_pivots_out_of_range(bad):
    """LAPACK indexes rows by the pivots: a wrong one must raise, never read or write out of bounds."""
    A, B = torch.eye(3, dtype=torch.float64), torch.ones(3, 1, dtype=torch.float64)
    pivots = torch.tensor(bad, dtype=torch.int32)
    with pytest.raises(RuntimeError, match="Pivots given to lu_solve"):
        torch.linalg.lu_solve(A, pivots, B)
    with pytest.raises(RuntimeError, match="Pivots given to ldl_solve"):
        torch.linalg.ldl_solve(A, pivots, B)
