"""The gradients of the factorizations and solves of ops/LinearAlgebra.cpp (PyTorch's FunctionsManual),
written with torch ops so that they can be differentiated again.

Notation: X^T is `X.mT`, X^H `X.mH` (the same for real matrices); every formula works on batches of
matrices. Every formula takes complex matrices too (X^H in it, PyTorch's conjugate convention for the
gradient); eigh and svd of complex matrices check, as upstream, that the loss does not depend on the phases
of the eigen- or singular vectors, which the decomposition leaves free.
"""

from __future__ import annotations

import torch
from torch._C import Tensor


def _grad(grads, i: int):
    """The gradient of output i of a multi-output op, or None where no gradient reached it."""
    return grads[i] if i < len(grads) else None


def lu_unpack_factors(LU: Tensor, pivots: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    """(P, L, U) of a packed square LU: A = P L U (without recording a graph for P)."""
    with torch.no_grad():
        P = torch.lu_unpack(LU, pivots, unpack_data=False).P
    n = LU.shape[-1]
    return P, LU.tril(-1) + torch.eye(n, dtype=LU.dtype, device=LU.device), LU.triu()


def _lu_chain(gA: Tensor, P: Tensor, L: Tensor, U: Tensor) -> Tensor:
    """The gradient in LU's packed factors of gA, the gradient in A = P L U: dA = P (dL U + L dU)."""
    PtgA = P.mH @ gA
    return (PtgA @ U.mH).tril(-1) + (L.mH @ PtgA).triu()


def lu_factor_ex_backward(grad: Tensor, LU: Tensor, pivots: Tensor) -> Tensor:
    """A = P L U, L unit lower [m, k] and U upper [k, n] packed in LU (k = min(m, n); upstream's
    linalg_lu_backward). Square: gA = P L^-H [tril(L^H gL, -1) + triu(gU U^H)] U^-H. Wide (A = P L [U1 | U2]):
    the square formula on U1 with gL taking -gU U^H's part below the diagonal, and gU2 as it is, then L^-H.
    Tall (A = P [L1; L2] U): the transposed construction."""
    m, n = LU.shape[-2], LU.shape[-1]
    k = min(m, n)
    with torch.no_grad():
        P = torch.lu_unpack(LU, pivots, unpack_data=False).P
    L = LU[..., :, :k].tril(-1) + torch.eye(m, k, dtype=LU.dtype, device=LU.device)
    U = LU[..., :k, :].triu()
    gL, gU = grad[..., :, :k].tril(-1), grad[..., :k, :].triu()
    if m == n:
        phi = (L.mH @ gL).tril(-1) + (gU @ U.mH).triu()
        x = torch._linalg_solve_triangular(U.mH, phi, upper=False, left=False)  # phi U^-H
        return P @ torch._linalg_solve_triangular(L.mH, x, upper=True, unitriangular=True)  # L^-H (...)
    if m < n:  # wide: U = [U1 | U2], U1 square
        U1 = U[..., :, :k]
        phi = (L.mH @ gL - gU @ U.mH).tril(-1)
        x = torch._linalg_solve_triangular(U1.mH, phi, upper=False, left=False)
        x = torch.cat([x + gU[..., :, :k], gU[..., :, k:]], dim=-1)
        return P @ torch._linalg_solve_triangular(L.mH, x, upper=True, unitriangular=True)
    # tall: L = [L1; L2], L1 square unit lower
    L1 = L[..., :k, :]
    phi = (gU @ U.mH - L.mH @ gL).triu()
    x = torch._linalg_solve_triangular(L1.mH, phi, upper=True, unitriangular=True)
    x = torch.cat([x + gL[..., :k, :], gL[..., k:, :]], dim=-2)
    return P @ torch._linalg_solve_triangular(U.mH, x, upper=False, left=False)


def householder_product_backward(grad: Tensor, A: Tensor, tau: Tensor, mask) -> tuple:
    """The gradients of Q = H_0 H_1 ... H_(k-1) I[:, :n], H_i = I - tau_i v_i v_i^H (v_i: column i of A below
    the diagonal, 1 on it, 0 above), in A and tau. Forward as orgqr does it, Q_i = Q_(i+1) - tau_i v_i
    (v_i^H Q_(i+1)) from Q_k = I[:, :n], keeping each Q_(i+1); backward through those steps in reverse, with
    PyTorch's conjugate convention: g tau_i = -v_i^H G w_i^H and gv_i = -conj(tau_i) G w_i^H + Q_(i+1) gw_i^H,
    w_i = v_i^H Q_(i+1), gw_i = -conj(tau_i) v_i^H G, G <- G + v_i gw_i."""
    if A.numel() == 0 or tau.numel() == 0:  # no reflector, or no matrix: upstream gives neither a gradient
        return None, None
    m, n, k = A.shape[-2], A.shape[-1], tau.shape[-1]
    V = A[..., :, :k].tril(-1) + torch.eye(m, k, dtype=A.dtype, device=A.device)
    Q = torch.eye(m, n, dtype=A.dtype, device=A.device).expand(A.shape).clone()
    steps = []  # (v_i, tau_i, Q_(i+1), w_i), i = k-1 down to 0
    for i in range(k - 1, -1, -1):
        v, t = V[..., :, i : i + 1], tau[..., i : i + 1].unsqueeze(-1)
        w = v.mH @ Q
        steps.append((v, t, Q, w))
        Q = Q - t * (v @ w)
    G = grad
    gv_columns, gtau_entries = [None] * k, [None] * k
    for i, (v, t, Q_next, w) in zip(range(k), reversed(steps)):
        gtau_entries[i] = -(v.mH @ G @ w.mH)[..., 0, 0]
        gw = -t.conj() * (v.mH @ G)
        gv_columns[i] = -t.conj() * (G @ w.mH) + Q_next @ gw.mH
        G = G + v @ gw
    gA = gtau = None
    if mask[0]:
        gV = torch.cat(gv_columns, dim=-1)
        gA = torch.cat([gV.tril(-1), torch.zeros_like(A[..., :, k:])], dim=-1)
    if mask[1]:
        gtau = torch.stack(gtau_entries, dim=-1)
    return gA, gtau


def lu_solve_backward(grad: Tensor, LU: Tensor, pivots: Tensor, X: Tensor, left: bool, adjoint: bool, mask):
    """X = op(A)^-1 B (or B op(A)^-1): gB by the transposed solve; gA as for any solve, then into LU's factors."""
    gB = torch._linalg_lu_solve(LU, pivots, grad, left=left, adjoint=not adjoint)
    gLU = None
    if mask[0]:
        if left:
            gA = -(X @ gB.mH) if adjoint else -(gB @ X.mH)
        else:
            gA = -(gB.mH @ X) if adjoint else -(X.mH @ gB)
        P, L, U = lu_unpack_factors(LU, pivots)
        gLU = _lu_chain(gA, P, L, U)
    return gLU, gB


def cholesky_backward(grad: Tensor, L: Tensor, upper: bool) -> Tensor:
    """A = L L^T: gA = L^-T Phi(L^T gL) L^-1, Phi the lower triangle with half its diagonal, symmetrized."""
    if upper:
        L, grad = L.mH, grad.mH
    phi = (L.mH @ grad).tril()
    phi = 0.5 * (phi + phi.tril(-1).mH)
    gA = torch._linalg_solve_triangular(L.mH, phi, upper=True)
    return torch._linalg_solve_triangular(L, gA, upper=False, left=False)


def solve_triangular_backward(grad: Tensor, A: Tensor, X: Tensor, upper: bool, left: bool, unit: bool, mask):
    """X = A^-1 B (or B A^-1), A triangular: gB by the transposed solve, gA = -gB X^T in A's triangle."""
    gB = torch._linalg_solve_triangular(A.mH, grad, upper=not upper, left=left, unitriangular=unit)
    gA = None
    if mask[0]:
        gA = -(gB @ X.mH) if left else -(X.mH @ gB)
        diagonal = 1 if unit else 0
        gA = gA.triu(diagonal) if upper else gA.tril(-diagonal)
    return gA, gB if mask[1] else None


def _qr_square_or_tall(gQ, gR, Q: Tensor, R: Tensor) -> Tensor:
    """A = Q R with A m x n, m >= n: gA = [gQ + Q copyutl(M)] R^-H with M = triu(gR) R^H - Q^H gQ, copyutl(M)
    the symmetric matrix of M's upper triangle (only R's upper triangle depends on A)."""
    M = torch.zeros_like(R)
    if gR is not None:
        M = M + gR.triu() @ R.mH
    if gQ is not None:
        M = M - Q.mH @ gQ
    S = M.triu() + M.triu(1).mH
    if S.is_complex():  # upstream's syminvadj: the diagonal keeps only its real part
        S = S - 1j * torch.diag_embed(S.diagonal(0, -2, -1).imag).to(S.dtype)
    b = Q @ S
    if gQ is not None:
        b = b + gQ
    return torch._linalg_solve_triangular(R.mH, b, upper=False, left=False)  # b R^-T


def qr_backward(grads, Q: Tensor, R: Tensor, mode: str) -> Tensor:
    """The gradient of A = Q R (reduced, or complete with m <= n). A wide A = Q [U | V] is the QR of its first
    m columns (with gQ + Y gV^T, Y the other columns) and Y = Q V."""
    gQ, gR = _grad(grads, 0), _grad(grads, 1)
    if mode == "r":
        raise RuntimeError(
            "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use "
            "linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr."
        )
    m, n = Q.shape[-2], R.shape[-1]
    if mode == "complete" and m > n:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")
    if m >= n:
        return _qr_square_or_tall(gQ, gR, Q, R)
    U, V = R[..., :m], R[..., m:]
    Y = Q @ V
    gU = gR[..., :m] if gR is not None else None
    gV = gR[..., m:] if gR is not None else torch.zeros_like(V)
    gQ_x = Y @ gV.mH if gQ is None else gQ + Y @ gV.mH
    return torch.cat([_qr_square_or_tall(gQ_x, gU, Q, U), Q @ gV], dim=-1)


def _check_phase_invariant(imag_diag: Tensor, fn: str, what: str) -> None:
    """Upstream's check that a loss of complex eigen- or singular vectors does not depend on their phases
    (each is defined up to a factor e^{i phi}): the imaginary diagonal `imag_diag` of V^H gV must vanish."""
    if not torch.allclose(imag_diag, torch.zeros_like(imag_diag), rtol=1e-2, atol=1e-2):
        tail = (
            "depends on this phase term, making it ill-defined."
            if what == "singular vectors"
            else "depends on this quantity, so it is ill-defined."
        )  # upstream's two wordings
        raise RuntimeError(
            f"{fn}: The {what} in the complex case are specified up to multiplication by e^{{i phi}}. The "
            f"specified loss function {tail}"
        )


def eigh_backward(grads, L: Tensor, V: Tensor) -> Tensor:
    """A = V diag(L) V^H: gA = V [diag(gL) + skew(V^H gV) / (L_j - L_i)] V^H, the diagonal of the skew part
    dropped (upstream's linalg_eig_backward, Hermitian)."""
    gL, gV = _grad(grads, 0), _grad(grads, 1)
    if V.numel() == 0 and L.numel() != 0:
        raise RuntimeError("linalg.eigh: the derivative needs the eigenvectors: call _linalg_eigh with compute_v=True")
    if gV is None:
        return (V * gL.unsqueeze(-2)) @ V.mH
    VhgV = V.mH @ gV
    if V.is_complex():
        _check_phase_invariant(VhgV.diagonal(0, -2, -1).imag, "linalg_eig_backward", "eigenvectors")
    eye = torch.eye(L.shape[-1], dtype=L.dtype, device=L.device)
    E = L.unsqueeze(-2) - L.unsqueeze(-1) + eye  # the diagonal is not divided
    inner = (0.5 * (VhgV - VhgV.mH) / E) * (1 - eye)
    if gL is not None:
        inner = inner + torch.diag_embed(gL)
    return V @ inner @ V.mH


def svd_backward(grads, U: Tensor, S: Tensor, Vh: Tensor) -> Tensor:
    """A = U diag(S) V^H (Townsend's formula, upstream's svd_backward): the skew-Hermitian parts of U^H gU and
    V^H gV over s_j^2 - s_i^2, the diagonal gS (and, complex, i Im(U^H gU)_ii / s_i), plus the parts of gU
    and gV outside U's and V's spans."""
    gU, gS, gVh = _grad(grads, 0), _grad(grads, 1), _grad(grads, 2)
    m, n = U.shape[-2], Vh.shape[-1]
    k = S.shape[-1]
    if U.numel() == 0 and S.numel() != 0:  # (an empty batch or matrix has empty factors either way)
        raise RuntimeError("linalg.svd: the derivative needs U and V: call _linalg_svd with compute_uv=True")
    U, Vh = U[..., :k], Vh[..., :k, :]  # full_matrices: the extra columns do not enter A
    if gU is not None:
        gU = gU[..., :k]
    if gVh is not None:
        gVh = gVh[..., :k, :]
    if gU is None and gVh is None:
        return (U * gS.unsqueeze(-2)) @ Vh
    V = Vh.mH
    gV = gVh.mH if gVh is not None else None
    eye = torch.eye(k, dtype=S.dtype, device=S.device)
    S2 = S * S
    E = S2.unsqueeze(-2) - S2.unsqueeze(-1) + eye
    UhgU = U.mH @ gU if gU is not None else None
    VhgV = V.mH @ gV if gV is not None else None
    if U.is_complex():
        zero = torch.zeros_like(S)
        im_u = UhgU.diagonal(0, -2, -1).imag if UhgU is not None else zero
        im_v = VhgV.diagonal(0, -2, -1).imag if VhgV is not None else zero
        _check_phase_invariant(im_u + im_v, "svd_backward", "singular vectors")
    inner = torch.zeros(S.shape + (k,), dtype=U.dtype, device=S.device)
    if UhgU is not None:
        inner = inner + (UhgU - UhgU.mH) * S.unsqueeze(-2)
    if VhgV is not None:
        inner = inner + S.unsqueeze(-1) * (VhgV - VhgV.mH)
    inner = inner / E * (1 - eye)
    if gS is not None:
        inner = inner + torch.diag_embed(gS)
    if U.is_complex() and UhgU is not None:  # the phase part that the diagonal of U^H gU carries
        inner = inner + torch.diag_embed(1j * UhgU.diagonal(0, -2, -1).imag / S)
    gA = U @ inner @ Vh
    if m > k and gU is not None:  # the part of gU outside U's columns
        gUSinv = gU / S.unsqueeze(-2)
        gA = gA + (gUSinv - U @ (U.mH @ gUSinv)) @ Vh
    if n > k and gV is not None:  # the part of gV outside V's columns
        gVSinv = gV / S.unsqueeze(-2)
        gA = gA + U @ (gVSinv - V @ (V.mH @ gVSinv)).mH
    return gA


def pinv_backward(grad: Tensor, pinvA: Tensor, A: Tensor) -> Tensor:
    """The gradient of P = pinv(A) (constant rank; upstream's pinv_backward, which it uses for hermitian=True too,
    on the whole of A): -(P G^H P)^H + (I - A P)^H G^H P P^H ... written with the smaller of A's dims inside."""
    m, n = A.shape[-2], A.shape[-1]
    pinvAh, gradh = pinvA.mH, grad.mH
    if m <= n:
        K = gradh @ pinvA
        KpinvAh = K @ pinvAh
        return -(pinvA @ K).mH + KpinvAh - (A @ pinvA) @ KpinvAh + (pinvAh @ pinvA) @ (gradh - K @ A)
    K = pinvA @ gradh
    pinvAhK = pinvAh @ K
    return -(K @ pinvA).mH + (gradh - A @ K) @ pinvA @ pinvAh + pinvAhK - pinvAhK @ pinvA @ A
