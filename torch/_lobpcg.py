"""torch.lobpcg: the k largest or smallest eigenpairs of a symmetric (generalized, positive-definite)
eigenproblem A X = B X E by the Locally Optimal Block Preconditioned Conjugate Gradient method, with the
gradient of the standard problem (B = I) for a dense A. Dense tensors only: this torch has no sparse
layouts.

References:
    [Knyazev2001] A. V. Knyazev, Toward the Optimal Preconditioned Eigensolver: Locally Optimal Block
    Preconditioned Conjugate Gradient Method, SIAM J. Sci. Comput. 23(2), 517-541, 2001.
    [StathopoulosWu2002] A. Stathopoulos and K. Wu, A Block Orthogonalization Procedure with Constant
    Synchronization Requirements, SIAM J. Sci. Comput. 23(6), 2165-2182, 2002.
    [DuerschEtal2018] J. A. Duersch, M. Shao, C. Yang and M. Gu, A Robust and Efficient Implementation of
    LOBPCG, SIAM J. Sci. Comput. 40(5), C655-C676, 2018 (arXiv:1704.07458).
    [DuerschPhD2015] J. A. Duersch, High Performance Block Eigensolvers, PhD thesis, UC Berkeley, 2015.
"""

from __future__ import annotations

import torch
from torch import _linalg_utils as _utils
from torch._C import Tensor
from torch._registry import register
from torch.autograd.function import Function


def _symeig_backward(D_grad: Tensor, U_grad: Tensor, A: Tensor, D: Tensor, U: Tensor) -> Tensor:
    """The gradient of a loss of (D, U), k eigenpairs of the symmetric (*, m, m) A (A U = U diag(D),
    U^T U = I), with respect to A, given its gradients D_grad (*, k) and U_grad (*, m, k).

    In span(U), as for a complete eigendecomposition: U (diag(D_grad) + F o U^T U_grad) U^T with
    F_ij = 1 / (d_j - d_i), F_ii = 0. In its orthogonal complement (P = I - U U^T), differentiating
    A u_j = d_j u_j gives P du_j = -(P (A - d_j) P)^+ dA u_j: the term Y U^T with
    y_j = -(P (A - d_j) P)^+ P g_j, the solution of the Sylvester equation that upstream solves through
    the characteristic polynomial of D. Here each y_j solves M_j y_j = -P g_j with
    M_j = P (A - d_j) P + U U^T, which is A - d_j on the complement and the identity on span(U): it is
    invertible whenever d_j is not also an eigenvalue of A on the complement. Differentiable again.
    """
    Ut = U.mT
    gap = D.unsqueeze(-2) - D.unsqueeze(-1)
    F = (gap + torch.diag_embed(torch.full_like(D, float("inf")))).reciprocal()
    inner = U @ (torch.diag_embed(D_grad) + (Ut @ U_grad) * F) @ Ut
    UUt = U @ Ut
    P = torch.eye(A.shape[-1], dtype=A.dtype, device=A.device) - UUt
    PAP = P @ A @ P
    M = PAP.unsqueeze(-3) - D[..., None, None] * P.unsqueeze(-3) + UUt.unsqueeze(-3)  # (*, k, m, m)
    rhs = (P @ U_grad).mT.unsqueeze(-1)  # (*, k, m, 1): P g_j
    Y = -torch.linalg.solve(M, rhs).squeeze(-1).mT  # (*, m, k)
    return inner + Y @ Ut


class LOBPCGAutogradFunction(Function):
    """torch.lobpcg as a differentiable function of A: forward runs the solver, backward is
    _symeig_backward for the eigenpairs found (the standard problem only: B = I)."""

    @staticmethod
    def forward(ctx, A: Tensor, B: Tensor | None, options: dict) -> tuple[Tensor, Tensor]:
        """The eigenpairs (E, X) of _lobpcg (options: lobpcg's other arguments); saves A, B and them for
        backward."""
        A = A.contiguous()
        B = None if B is None else B.contiguous()
        D, U = _lobpcg(A, B, **options)
        ctx.save_for_backward(A, B, D, U)
        return D, U

    @staticmethod
    def backward(ctx, D_grad: Tensor, U_grad: Tensor):
        """The gradient with respect to A (upstream's limits: not complex, not with B)."""
        A, B, D, U = ctx.saved_tensors
        if A.is_complex() or (B is not None and B.is_complex()):
            raise ValueError(
                "lobpcg.backward does not support complex input yet. Note that lobpcg.forward does though."
            )
        if B is not None:
            raise ValueError("lobpcg.backward does not support backward with B != I yet.")
        return _symeig_backward(D_grad, U_grad, A, D, U), None, None


@register(ints=False)  # upstream's is Python: no parser refuses a bool
def lobpcg(
    A: Tensor,
    k: int | None = None,
    B: Tensor | None = None,
    X: Tensor | None = None,
    n: int | None = None,
    iK: Tensor | None = None,
    niter: int | None = None,
    tol: float | None = None,
    largest: bool | None = None,
    method: str | None = None,
    tracker=None,
    ortho_iparams: dict | None = None,
    ortho_fparams: dict | None = None,
    ortho_bparams: dict | None = None,
) -> tuple[Tensor, Tensor]:
    """The k largest (or smallest) eigenvalues and eigenvectors of the symmetric positive-definite
    generalized eigenproblem A X = B X diag(E), by matrix-free LOBPCG.

    method="basic" is Knyazev's LOBPCG [Knyazev2001]: the fewest products per iteration, but its Cholesky
    may fail on a nearly singular basis. method="ortho" (the default) keeps the basis B-orthonormal
    [StathopoulosWu2002, DuerschEtal2018]: robust, and usually converging in fewer iterations.

    Args:
        A (Tensor): the symmetric input, (*, m, m).
        k (int, optional): the number of eigenpairs wanted; default the number of columns of X, or 1.
        B (Tensor, optional): the positive-definite right-hand matrix, A's shape; default the identity.
        X (Tensor, optional): the initial approximation of the eigenvectors, (*, m, n) with k <= n <= m;
            default a random (m, n) Gaussian per matrix (seed the default generator to repeat a result).
        n (int, optional): the number of columns of the random X when X is not given (default k); ignored
            when X is given.
        iK (Tensor, optional): a preconditioner (an approximate inverse of A), (m, m) or (*, m, m).
        niter (int, optional): the most iterations (default 1000); -1 iterates until convergence.
        tol (float, optional): the relative residual tolerance of the stopping criterion; default
            feps ** 0.5 for the machine epsilon feps of A's dtype.
        largest (bool, optional): the largest eigenvalues (True, the default) or the smallest (False).
        method (str, optional): "ortho" (default) or "basic".
        tracker (callable, optional): called with the LOBPCG worker after every iteration; it sees the
            parameters (iparams, fparams, bparams), the state (ivars, fvars, bvars, tvars; e.g.
            ivars["istep"], ivars["converged_count"], tvars["rerr"]) and the tensors A, B, iK, E, X, S, R
            (copy any it keeps); setting bvars["force_stop"] = True stops the iteration.
        ortho_iparams, ortho_fparams, ortho_bparams (dict, optional): the parameters of method="ortho":
            ortho_i_max, ortho_j_max (3); ortho_tol, ortho_tol_drop, ortho_tol_replace (tol);
            ortho_use_drop (False).

    Returns a plain tuple: E (*, k), the eigenvalues in the order asked for, and X (*, m, k), their
    B-orthonormal eigenvectors.

    The problem needs m >= 3 n. When A requires grad it is replaced by (A + A^T) / 2, so that its gradient
    is symmetric; the gradient is that of the standard problem (B = None) for real A.
    """
    options = dict(
        k=k,
        X=X,
        n=n,
        iK=iK,
        niter=niter,
        tol=tol,
        largest=largest,
        method=method,
        tracker=tracker,
        ortho_iparams=ortho_iparams,
        ortho_fparams=ortho_fparams,
        ortho_bparams=ortho_bparams,
    )
    if A.requires_grad or (B is not None and B.requires_grad):
        return LOBPCGAutogradFunction.apply((A + A.mT) / 2, None if B is None else (B + B.mT) / 2, options)
    return _lobpcg(A, B, **options)


def _lobpcg(
    A: Tensor,
    B: Tensor | None,
    *,
    k: int | None,
    X: Tensor | None,
    n: int | None,
    iK: Tensor | None,
    niter: int | None,
    tol: float | None,
    largest: bool | None,
    method: str | None,
    tracker,
    ortho_iparams: dict | None,
    ortho_fparams: dict | None,
    ortho_bparams: dict | None,
) -> tuple[Tensor, Tensor]:
    """lobpcg without its gradient: checks the arguments, fills in the defaults and runs one LOBPCG worker
    per matrix of the batch."""
    if A.shape[-2] != A.shape[-1]:
        raise AssertionError(f"A must be square, got shape {A.shape}")
    if B is not None and A.shape != B.shape:
        raise AssertionError(f"A and B must have same shape, got {A.shape} vs {B.shape}")
    dtype = _utils.floating_dtype(A)
    if tol is None:  # feps ** 0.5, with upstream's rounded machine epsilons
        feps = {torch.float32: 1.2e-07, torch.float64: 2.23e-16}.get(dtype) or torch.finfo(dtype).eps
        tol = feps**0.5
    m = A.shape[-1]
    k = (1 if X is None else X.shape[-1]) if k is None else k
    n = (k if n is None else n) if X is None else X.shape[-1]
    if m < 3 * n:
        raise ValueError(
            f"LOBPCG algorithm is not applicable when the number of A rows (={m})"
            f" is smaller than 3 x the number of requested eigenpairs (={n})"
        )
    if k > n:
        raise ValueError(f"lobpcg: k(={k}) must not be greater than n(={n}), the number of columns of X")
    method = "ortho" if method is None else method
    if method not in ("ortho", "basic"):
        raise ValueError(f"lobpcg: method must be 'ortho' or 'basic', got {method!r}")

    iparams = {"m": m, "n": n, "k": k, "niter": 1000 if niter is None else niter}
    fparams = {"tol": tol}
    bparams = {"largest": True if largest is None else largest}
    if method == "ortho":
        iparams.update(ortho_iparams or {})
        fparams.update(ortho_fparams or {})
        bparams.update(ortho_bparams or {})
        iparams.setdefault("ortho_i_max", 3)
        iparams.setdefault("ortho_j_max", 3)
        fparams.setdefault("ortho_tol", tol)
        fparams.setdefault("ortho_tol_drop", tol)
        fparams.setdefault("ortho_tol_replace", tol)
        bparams.setdefault("ortho_use_drop", False)

    batch = A.shape[:-2]
    if X is not None and X.shape[-2:] != (m, n):
        raise AssertionError(f"X shape mismatch: got {X.shape[-2:]}, expected {(m, n)}")
    N = batch.numel()
    bA = A.reshape(N, m, m)
    bB = None if B is None else B.reshape(N, m, m)
    bX = None if X is None else X.broadcast_to(batch + (m, n)).reshape(N, m, n)
    biK = None if iK is None or iK.dim() == 2 else iK.broadcast_to(A.shape).reshape(N, m, m)
    E = torch.empty((N, k), dtype=dtype, device=A.device)
    V = torch.empty((N, m, k), dtype=dtype, device=A.device)
    for i in range(N):  # one solve per matrix: each converges in its own number of iterations
        X_ = torch.randn((m, n), dtype=dtype, device=A.device) if bX is None else bX[i]
        iparams["batch_index"] = i
        iK_ = iK if biK is None else biK[i]
        worker = LOBPCG(bA[i], None if bB is None else bB[i], X_, iK_, iparams, fparams, bparams, method, tracker)
        worker.run()
        E[i] = worker.E[:k]
        V[i] = worker.X[:, :k]
    return E.reshape(batch + (k,)), V.reshape(batch + (m, k))


class LOBPCG:
    """The state and the iteration of one LOBPCG solve (one matrix): A, B, the preconditioner iK, the
    parameter dictionaries, the current eigenpairs E, X, residual R and search basis S = [X, P, W]
    (m, 3 n); ivars/fvars/bvars/tvars hold the iteration's integer/float/bool/tensor state."""

    def __init__(
        self,
        A: Tensor,
        B: Tensor | None,
        X: Tensor,
        iK: Tensor | None,
        iparams: dict,
        fparams: dict,
        bparams: dict,
        method: str,
        tracker,
    ) -> None:
        self.A, self.B, self.iK = A, B, iK
        self.iparams, self.fparams, self.bparams = iparams, fparams, bparams
        self.method = method
        self.tracker = tracker
        m, n = iparams["m"], iparams["n"]
        self.X = X
        self.E = torch.zeros((n,), dtype=X.dtype, device=X.device)
        self.R = torch.zeros((m, n), dtype=X.dtype, device=X.device)
        self.S = torch.zeros((m, 3 * n), dtype=X.dtype, device=X.device)
        self.tvars: dict = {}
        self.ivars: dict = {"istep": 0}
        self.fvars: dict = {}
        self.bvars: dict = {}

    def __str__(self) -> str:
        fields = ("iparams", "fparams", "bparams", "ivars", "fvars", "bvars", "tvars", "A", "B", "iK", "X", "E")
        return "LOBPCG:\n" + "".join(f"  {name}={getattr(self, name)}\n" for name in fields)

    def run(self) -> None:
        """Iterates until k eigenpairs have converged, niter iterations are done or the tracker stops it
        (one iteration at least), calling the tracker after each."""
        while True:
            self.update()
            if self.tracker is not None:
                self.tracker(self)
            if self.stop_iteration():
                return

    def update(self) -> None:
        """One iteration (the first one also measures A and B along X)."""
        if self.ivars["istep"] == 0:
            X_norm = float(torch.linalg.norm(self.X))
            self.fvars["X_norm"] = X_norm
            self.fvars["A_norm"] = float(torch.linalg.norm(_utils.matmul(self.A, self.X))) / X_norm
            self.fvars["B_norm"] = float(torch.linalg.norm(_utils.matmul(self.B, self.X))) / X_norm
            self.ivars["iterations_left"] = self.iparams["niter"]
            self.ivars["converged_count"] = 0
            self.ivars["converged_end"] = 0
        if self.method == "ortho":
            self._update_ortho()
        else:
            self._update_basic()
        self.ivars["iterations_left"] -= 1
        self.ivars["istep"] += 1

    def update_residual(self) -> None:
        """R = A X - B X diag(E)."""
        self.R = _utils.matmul(self.A, self.X) - _utils.matmul(self.B, self.X) * self.E

    def update_converged_count(self) -> int:
        """The number of leading eigenpairs that have converged, by the backward-stable criterion
        |r_j| / (|x_j| (|A| + |e_j| |B|)) < tol of [DuerschEtal2018] 4.3 (later pairs do not count before
        an earlier one has: the order of the pairs is kept)."""
        A_norm, B_norm = self.fvars["A_norm"], self.fvars["B_norm"]
        rerr = torch.linalg.norm(self.R, dim=0) / (torch.linalg.norm(self.X, dim=0) * (A_norm + self.E.abs() * B_norm))
        count = 0
        for converged in (rerr < self.fparams["tol"]).tolist():
            if not converged:
                break
            count += 1
        self.ivars["converged_count"] = count
        self.tvars["rerr"] = rerr
        return count

    def stop_iteration(self) -> bool:
        """Whether to stop: the tracker asked to, niter iterations are done or k pairs have converged."""
        return (
            self.bvars.get("force_stop", False)
            or self.ivars["iterations_left"] == 0
            or self.ivars["converged_count"] >= self.iparams["k"]
        )

    def _first_step(self) -> None:
        """Rayleigh-Ritz on the initial X: E, X (B-orthonormal) and the residual R."""
        Ri = self._get_rayleigh_ritz_transform(self.X)
        E, Z = _utils.symeig(_utils.qform(_utils.qform(self.A, self.X), Ri), self.bparams["largest"])
        self.X = self.X @ (Ri @ Z)
        self.E = E
        self.update_residual()
        self.update_converged_count()
        self.S[:, : self.iparams["n"]] = self.X

    def _set_search_directions(self, W: Tensor, p_cols: int) -> None:
        """S = [X, P (p_cols columns, already there), W]."""
        n = self.iparams["n"]
        ns = self.ivars["converged_end"] = n + p_cols + W.shape[-1]
        self.S[:, n + p_cols : ns] = W

    def _update_basic(self) -> None:
        """One step of Knyazev's LOBPCG: Rayleigh-Ritz on the unconverged part of [X, P, W], with the
        B-normalizing transform of _get_rayleigh_ritz_transform; W is made B-orthogonal to the converged
        eigenvectors (upstream leaves it as it is, and a preconditioned W can then converge to one of them
        a second time)."""
        n, nc, ns = self.iparams["n"], self.ivars["converged_count"], self.ivars["converged_end"]
        if self.ivars["istep"] == 0:
            self._first_step()
            self._set_search_directions(_utils.matmul(self.iK, self.R), 0)
            return
        S_ = self.S[:, nc:ns]
        Ri = self._get_rayleigh_ritz_transform(S_)
        E_, Z = _utils.symeig(_utils.qform(_utils.qform(self.A, S_), Ri), self.bparams["largest"])
        self.X[:, nc:] = S_ @ (Ri @ Z[:, : n - nc])
        self.E[nc:] = E_[: n - nc]
        P = S_ @ (Ri @ Z[:, n : 2 * n - nc])
        self.update_residual()
        nc = self.update_converged_count()
        self.S[:, :n] = self.X
        self.S[:, n : n + P.shape[-1]] = P
        W = _utils.matmul(self.iK, self.R[:, nc:])
        if nc:  # deflate the converged pairs, which S[:, nc:] leaves out: else a preconditioned W finds them again
            X_c = self.X[:, :nc]
            W = W - X_c @ (X_c.mT @ _utils.matmul(self.B, W))
        self._set_search_directions(W, P.shape[-1])

    def _update_ortho(self) -> None:
        """One step of LOBPCG with a B-orthonormal basis: Rayleigh-Ritz on the unconverged part of
        [X, P, W], P kept B-orthonormal to X, W (the preconditioned residual) B-orthonormalized against
        [X, P] by _get_ortho."""
        n, nc, ns = self.iparams["n"], self.ivars["converged_count"], self.ivars["converged_end"]
        if self.ivars["istep"] == 0:
            self._first_step()
            self._set_search_directions(self._get_ortho(_utils.matmul(self.iK, self.R), self.X), 0)
            return
        S_ = self.S[:, nc:ns]
        E_, Z = _utils.symeig(_utils.qform(self.A, S_), self.bparams["largest"])
        self.X[:, nc:] = S_ @ Z[:, : n - nc]
        self.E[nc:] = E_[: n - nc]
        P = S_ @ (Z[:, n - nc :] @ _utils.basis(Z[: n - nc, n - nc :].mT))
        self.update_residual()
        nc = self.update_converged_count()
        self.S[:, :n] = self.X
        self.S[:, n : n + P.shape[-1]] = P
        W = self._get_ortho(_utils.matmul(self.iK, self.R[:, nc:]), self.S[:, : n + P.shape[-1]])
        self._set_search_directions(W, P.shape[-1])

    def _get_rayleigh_ritz_transform(self, S: Tensor) -> Tensor:
        """Ri such that Ri^T (S^T B S) Ri = I, which turns the projected problem (S^T A S) C = (S^T B S) C E
        into the standard (Ri^T S^T A S Ri) Z = Z E, C = Ri Z ([DuerschEtal2018]): with
        d = diag(S^T B S) ** -1/2 and R^T R the Cholesky factorization of diag(d) S^T B S diag(d),
        Ri = diag(d) R^-1 (upper triangular)."""
        SBS = _utils.qform(self.B, S)
        d = SBS.diagonal(0, -2, -1) ** -0.5
        R = torch.linalg.cholesky(SBS * d * d.unsqueeze(-1), upper=True)
        return torch.linalg.solve_triangular(R, d.diag_embed(), upper=True, left=False)

    def _get_svqb(self, U: Tensor, drop: bool, tau: float) -> Tensor:
        """U with B-orthonormal columns spanning (about) the same space: Algorithm 4 of [DuerschPhD2015]
        (after [StathopoulosWu2002]), the eigendecomposition of the scaled Gram matrix, its eigenvalues
        below tau * max raised to that (drop=False) or their directions dropped (drop=True). Exactly zero
        columns are dropped first."""
        if U.numel() == 0:
            return U
        UBU = _utils.qform(self.B, U)
        d = UBU.diagonal(0, -2, -1)
        nonzero = d != 0
        if not bool(nonzero.all()):
            U = U[:, nonzero]
            if U.numel() == 0:
                return U
            UBU = _utils.qform(self.B, U)
            d = UBU.diagonal(0, -2, -1)
        d_col = (d**-0.5).unsqueeze(-1)
        E, Z = _utils.symeig(UBU * d_col * d_col.mT)
        t = tau * E.abs().max()
        if drop:
            keep = E > t
            E, Z = E[keep], Z[:, keep]
        else:
            E = E.clamp(min=t)
        return (U * d_col.mT) @ (Z * E**-0.5)

    def _get_ortho(self, U: Tensor, V: Tensor) -> Tensor:
        """U B-orthonormalized and made B-orthogonal to the B-orthonormal V: Algorithm 3 of
        [DuerschPhD2015] (after [StathopoulosWu2002]), or its Algorithm 6, which drops the columns of U
        that add little to span([U, V]), with ortho_use_drop. Empty when U lies in span(V)."""
        i_max, j_max = self.iparams["ortho_i_max"], self.iparams["ortho_j_max"]
        tau_ortho, tau_drop, tau_replace = (
            self.fparams["ortho_tol"],
            self.fparams["ortho_tol_drop"],
            self.fparams["ortho_tol_replace"],
        )
        use_drop = self.bparams["ortho_use_drop"]
        BV_norm = float(torch.linalg.norm(_utils.matmul(self.B, V)))
        BU = _utils.matmul(self.B, U)
        VBU = V.mT @ BU
        for _ in range(i_max):
            U = U - V @ VBU
            drop, tau_svqb = False, tau_drop
            for _ in range(j_max):
                if use_drop:
                    U = self._get_svqb(U, drop, tau_svqb)
                    drop, tau_svqb = True, tau_replace
                else:
                    U = self._get_svqb(U, False, tau_replace)
                if U.numel() == 0:  # every column of U was B-collinear to V
                    return U
                BU = _utils.matmul(self.B, U)
                UBU = U.mT @ BU
                identity = torch.eye(UBU.shape[-1], dtype=UBU.dtype, device=UBU.device)
                rerr = float(torch.linalg.norm(UBU - identity)) / float(torch.linalg.norm(BU) * torch.linalg.norm(U))
                if rerr < tau_ortho:
                    break
            VBU = V.mT @ BU
            rerr = float(torch.linalg.norm(VBU)) / (BV_norm * float(torch.linalg.norm(U)))
            if rerr < tau_ortho:
                break
            m = self.iparams["m"]
            if m < U.shape[-1] + V.shape[-1]:
                raise ValueError(
                    f"Overdetermined shape of U: #B-cols(={m}) >= #U-cols(={U.shape[-1]}) + "
                    f"#V-cols(={V.shape[-1]}) must hold"
                )
        return U
