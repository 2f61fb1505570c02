"""The decompositions of torch.linalg: Cholesky, LU, QR, symmetric eigendecomposition and SVD, on the LAPACK
kernels of TH (aten/src/TH/ops/LinearAlgebra.cpp), with PyTorch's signatures, named results and errors."""

from __future__ import annotations

import torch
from torch import _C
from torch._C import Tensor
from torch.autograd._linalg_formulas import _check_phase_invariant
from torch.autograd.function import Function
from torch.return_types import make


def _result(name: str, fields: tuple, *values):
    """torch.return_types.<name>(*values), as PyTorch returns it."""
    return make(name, fields)(*values)


def _batch_prefix(info: Tensor, A: Tensor) -> tuple[int, str]:
    """The first failing batch's info value and PyTorch's "(Batch element k): " prefix (empty unbatched)."""
    flat = info.reshape(-1).cpu()
    bad = (flat != 0).nonzero()
    index = int(bad[0, 0]) if bad.numel() else 0
    return int(flat[index]) if flat.numel() else 0, (f"(Batch element {index}): " if A.dim() > 2 else "")


def cholesky_ex(input: Tensor, *, upper: bool = False, check_errors: bool = False):
    """The Cholesky factor L of a symmetric positive-definite A (A = L L^T; U^T U with upper=True) and
    `info` (> 0: the leading minor of that order is not positive-definite), without raising unless
    check_errors."""
    L, info = _C._linalg_cholesky_ex(input, upper=upper, check_errors=check_errors)
    return _result("linalg_cholesky_ex", ("L", "info"), L, info)


def cholesky(input: Tensor, *, upper: bool = False) -> Tensor:
    """The Cholesky factor of a symmetric positive-definite A; LinAlgError where it is not."""
    return _C._linalg_cholesky_ex(input, upper=upper, check_errors=True)[0]


def lu_factor_ex(A: Tensor, *, pivot: bool = True, check_errors: bool = False):
    """LU with partial pivoting, packed as LAPACK's getrf: (LU, pivots, info)."""
    LU, pivots, info = _C._linalg_lu_factor_ex(A, pivot=pivot, check_errors=check_errors)
    return _result("linalg_lu_factor_ex", ("LU", "pivots", "info"), LU, pivots, info)


def lu_factor(A: Tensor, *, pivot: bool = True):
    """LU with partial pivoting, packed (LU, pivots); a RuntimeError where U is singular."""
    LU, pivots, info = _C._linalg_lu_factor_ex(A, pivot=pivot)
    if info.numel() and bool((info != 0).any()):
        code, prefix = _batch_prefix(info, A)
        raise RuntimeError(
            f"torch.linalg.lu_factor: {prefix}U[{code},{code}] is zero and using it on lu_solve would result in a "
            "division by zero. If you still want to perform the factorization, consider calling linalg.lu(A, "
            "pivot) or linalg.lu_factor_ex(A, pivot)"
        )
    return _result("linalg_lu_factor", ("LU", "pivots"), LU, pivots)


def ldl_factor_ex(input: Tensor, *, hermitian: bool = False, check_errors: bool = False):
    """The Bunch-Kaufman LDL^T factorization of a symmetric A, packed as LAPACK's sytrf (the lower triangle
    holds L and D; pivots are 1-based, negative for 2x2 blocks): (LD, pivots, info), info > 0 where D is
    singular."""
    LD, pivots, info = _C._linalg_ldl_factor_ex(input, hermitian=hermitian, check_errors=check_errors)
    return _result("linalg_ldl_factor_ex", ("LD", "pivots", "info"), LD, pivots, info)


def ldl_factor(input: Tensor, *, hermitian: bool = False):
    """(LD, pivots) of ldl_factor_ex; a LinAlgError where D is singular (upstream 2.13 fails an internal
    assert there)."""
    LD, pivots, _ = _C._linalg_ldl_factor_ex(input, hermitian=hermitian, check_errors=True)
    return _result("linalg_ldl_factor", ("LD", "pivots"), LD, pivots)


def ldl_solve(LD: Tensor, pivots: Tensor, B: Tensor, *, hermitian: bool = False) -> Tensor:
    """The solution X of A X = B from A's ldl_factor."""
    return _C._linalg_ldl_solve(LD, pivots, B, hermitian=hermitian)


def lu_permutation(pivots: Tensor, m: int) -> Tensor:
    """The row order of LAPACK's pivots (1-based swaps applied in turn) for m rows: perm with
    (P^T A)[i] = A[perm[i]]. The swaps are sequential, so they run in Python on the host."""
    batch = tuple(pivots.shape[:-1])
    count, k = torch.Size(batch).numel(), pivots.shape[-1]
    swaps = (pivots.reshape(count, k).long() - 1).tolist() if k else [[]] * count
    rows = []
    for one in swaps:
        row = list(range(m))
        for i, j in enumerate(one):
            row[i], row[j] = row[j], row[i]
        rows.append(row)
    return (
        torch.tensor(rows, dtype=torch.int64).reshape(*batch, m).to(pivots.device)
        if count
        else (torch.zeros(*batch, m, dtype=torch.int64, device=pivots.device))
    )


def lu_unpack(LU_data: Tensor, LU_pivots: Tensor, unpack_data: bool = True, unpack_pivots: bool = True):
    """(P, L, U) from a packed LU and its pivots: A = P L U, L unit lower [*, m, k], U upper [*, k, n]."""
    if LU_pivots.dtype != torch.int32 or not LU_pivots.is_contiguous():
        raise RuntimeError("torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 dtype.")
    m, n = LU_data.shape[-2], LU_data.shape[-1]
    k = min(m, n)
    if unpack_data:
        # the unit diagonal set, not added (adding 0 to a -0.0 below it would make it 0.0)
        unit = torch.eye(m, k, dtype=torch.bool, device=LU_data.device)
        L = LU_data[..., :, :k].tril(-1).masked_fill(unit, 1)
        U = LU_data[..., :k, :].triu()
    else:
        L = U = torch.empty(0, dtype=LU_data.dtype, device=LU_data.device)
    if unpack_pivots:
        eye = torch.eye(m, dtype=LU_data.dtype, device=LU_data.device)
        P = eye[lu_permutation(LU_pivots, m)].mT
    else:
        P = torch.empty(0, dtype=LU_data.dtype, device=LU_data.device)
    return _result("lu_unpack", ("P", "L", "U"), P, L, U)


def lu(A: Tensor, *, pivot: bool = True):
    """The LU decomposition A = P L U: P a permutation [*, m, m], L unit lower [*, m, k], U upper [*, k, n]."""
    LU, pivots, _ = _C._linalg_lu_factor_ex(A, pivot=pivot)
    P, L, U = lu_unpack(LU, pivots)
    return _result("linalg_lu", ("P", "L", "U"), P, L, U)


def lu_solve(LU: Tensor, pivots: Tensor, B: Tensor, *, left: bool = True, adjoint: bool = False) -> Tensor:
    """The solution X of A X = B (X A = B unless left; A^T with adjoint) from A's lu_factor."""
    return _C._linalg_lu_solve(LU, pivots, B, left=left, adjoint=adjoint)


def qr(A: Tensor, mode: str = "reduced"):
    """The QR decomposition A = Q R: mode 'reduced' (Q [*, m, k], R [*, k, n]), 'complete' (Q [*, m, m])
    or 'r' (R only, Q empty)."""
    Q, R = _C._linalg_qr(A, mode)
    return _result("linalg_qr", ("Q", "R"), Q, R)


def householder_product(input: Tensor, tau: Tensor) -> Tensor:
    """The first n columns of the product of the Householder reflectors stored in A and tau (LAPACK's orgqr)."""
    return _C._linalg_householder_product(input, tau)


def eigh(input: Tensor, UPLO: str = "L"):
    """The eigenvalues (ascending) and eigenvectors of a symmetric A, reading its lower (or upper) triangle."""
    L, V = _C._linalg_eigh(input, UPLO, True)
    return _result("linalg_eigh", ("eigenvalues", "eigenvectors"), L, V)


def _eig_assemble(wr: Tensor, wi: Tensor, vr: Tensor | None) -> tuple:
    """LAPACK geev's packed result as complex tensors: the eigenvalues wr + i wi, and the eigenvectors (None
    for vr None), where a conjugate pair's vectors are columns j +- i j+1 of vr (j the one with wi > 0)."""
    L = torch.complex(wr, wi)
    if vr is None:
        return L, None
    if vr.numel() == 0:  # empty matrices: their (empty) eigenvectors
        return L, torch.complex(vr, vr)
    zero = torch.zeros_like(vr[..., :1])
    nxt = torch.cat([vr[..., 1:], zero], -1)  # column j + 1, at j
    prv = torch.cat([zero, vr[..., :-1]], -1)  # column j - 1, at j
    first, second = (wi > 0).unsqueeze(-2), (wi < 0).unsqueeze(-2)
    re = torch.where(second, prv, vr)
    im = torch.where(first, nxt, torch.where(second, -vr, torch.zeros_like(vr)))
    return L, torch.complex(re, im)


def _eig_values_vectors(A: Tensor, compute_v: bool) -> tuple:
    """(eigenvalues, eigenvectors or None) of a square A as complex tensors: geev's packed real result
    assembled, or a complex A's as they come."""
    wr, wi, vr = _C._linalg_eig_parts(A, compute_v)
    if A.is_complex():
        return wr, (vr if compute_v else None)
    return _eig_assemble(wr, wi, vr if compute_v else None)


class _Eig(Function):
    """linalg.eig, with PyTorch's gradient (linalg_eig_backward)."""

    @staticmethod
    def forward(ctx, A: Tensor):
        L, V = _eig_values_vectors(A, True)
        ctx.save_for_backward(L, V)
        ctx.real_input = not A.is_complex()
        return L, V

    @staticmethod
    def backward(ctx, gL, gV):
        L, V = ctx.saved_tensors
        Vh = V.mH
        if gV is None:
            gA = torch.linalg.solve(Vh, gL.unsqueeze(-1) * Vh)
        else:
            VhgV = Vh @ gV
            diag = VhgV.diagonal(0, -2, -1)
            _check_phase_invariant(diag.imag, "linalg_eig_backward", "eigenvectors")
            gA = VhgV - Vh @ (V * diag.real.unsqueeze(-2))
            E = L.conj().unsqueeze(-2) - L.conj().unsqueeze(-1)
            E = E + torch.eye(L.shape[-1], dtype=E.dtype, device=E.device)  # its diagonal was 0: now 1
            gA = gA / E
            if gL is not None:
                gA = gA + torch.diag_embed(gL)
            gA = torch.linalg.solve(Vh, gA @ Vh)
        return gA.real if ctx.real_input else gA  # a real A: the real part of the complex gradient


def eig(input: Tensor):
    """The eigenvalues and (right, unit-norm) eigenvectors of a square A (LAPACK's geev), complex tensors of
    A's precision; differentiable as PyTorch's (the loss must not depend on the eigenvectors' phases)."""
    L, V = _Eig.apply(input)
    return _result("linalg_eig", ("eigenvalues", "eigenvectors"), L, V)


def eigvals(input: Tensor) -> Tensor:
    """The eigenvalues of a square A (complex, in LAPACK's order; eigenvectors only for a gradient)."""
    if input.requires_grad and torch.is_grad_enabled():
        return _Eig.apply(input)[0]
    return _eig_values_vectors(input, False)[0]


def eigvalsh(input: Tensor, UPLO: str = "L") -> Tensor:
    """The eigenvalues (ascending) of a symmetric A (its eigenvectors computed only where a gradient needs
    them)."""
    return _C._linalg_eigh(input, UPLO, input.requires_grad and torch.is_grad_enabled())[0]


def svd(A: Tensor, full_matrices: bool = True, *, driver: str | None = None):
    """The singular value decomposition A = U diag(S) Vh, singular values descending."""
    _check_driver(A, driver)
    U, S, Vh = _C._linalg_svd(A, full_matrices, True)
    return _result("linalg_svd", ("U", "S", "Vh"), U, S, Vh)


def svdvals(A: Tensor, *, driver: str | None = None) -> Tensor:
    """The singular values of A, descending (U and V computed only where a gradient needs them)."""
    _check_driver(A, driver)
    return _C._linalg_svd(A, False, A.requires_grad and torch.is_grad_enabled())[1]


def _check_driver(A: Tensor, driver) -> None:
    if driver is not None and not A.is_cuda:
        raise RuntimeError(
            "torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with cuSOLVER backend."
        )
