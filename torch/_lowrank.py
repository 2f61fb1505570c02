"""Randomized low-rank decompositions: torch.svd_lowrank and torch.pca_lowrank (Halko, Martinsson and Tropp,
"Finding structure with randomness", arXiv:0909.4061, 2009). Both are compositions of differentiable ops
(matmul, linalg.qr, linalg.svd), so they have gradients wherever those do. Dense tensors only: this torch
has no sparse layouts."""

from __future__ import annotations

import torch
from torch import _linalg_utils as _utils
from torch._C import Tensor
from torch._registry import register


def get_approximate_basis(A: Tensor, q: int, niter: int | None = 2, M: Tensor | None = None) -> Tensor:
    """Q with q orthonormal columns such that Q Q^H (A - M) approximates A - M (M None: A): the randomized
    range finder with niter subspace iterations (Algorithm 4.4 of Halko et al.), a QR after every product
    for stability. A is (*, m, n), M broadcasts to it; Q is (*, m, q). Draws one (n, q) Gaussian matrix
    from the default generator: seed it for repeatable results."""
    niter = 2 if niter is None else niter
    dtype = A.dtype if A.is_complex() else _utils.floating_dtype(A)
    R = torch.randn(A.shape[-1], q, dtype=dtype, device=A.device)

    def times(X: Tensor) -> Tensor:  # (A - M) X
        return A @ X if M is None else A @ X - M @ X

    def adjoint_times(X: Tensor) -> Tensor:  # (A - M)^H X
        return A.mH @ X if M is None else A.mH @ X - M.mH @ X

    Q = torch.linalg.qr(times(R)).Q
    for _ in range(niter):
        Q = torch.linalg.qr(adjoint_times(Q)).Q
        Q = torch.linalg.qr(times(Q)).Q
    return Q


@register(ints=False)  # upstream's is Python: no parser refuses a bool
def svd_lowrank(
    A: Tensor, q: int | None = 6, niter: int | None = 2, M: Tensor | None = None
) -> tuple[Tensor, Tensor, Tensor]:
    """An approximate truncated SVD `(U, S, V)` of a matrix or a batch of matrices A (of A - M when M is
    given; M broadcasts to A's shape), so that A ~ U diag(S) V^H: Algorithm 5.1 of Halko et al., 2009.

    Args:
        A (Tensor): the input, of size (*, m, n).
        q (int, optional): a slightly overestimated rank of A (default 6). For a matrix of rank k, take
            k <= q <= min(2k, m, n); for large low-rank matrices q = k + 5..10.
        niter (int, optional): the number of subspace iterations, a nonnegative integer (default 2).
        M (Tensor, optional): the mean subtracted from A, broadcast to (*, m, n).

    Returns a plain tuple: U (*, m, q), S (*, q) in descending order and V (*, n, q) (not V^H). It is a
    randomized method: seed the default generator for repeatable results. Differentiable (it is composed of
    matmul, linalg.qr and linalg.svd). For dense matrices the full torch.linalg.svd is usually faster.
    """
    q = 6 if q is None else q
    m, n = A.shape[-2:]
    if M is not None:
        M = M.broadcast_to(A.shape)
    if m < n:  # work on the tall one: A^H = V S U^H
        A = A.mH
        M = None if M is None else M.mH
    Q = get_approximate_basis(A, q, niter=niter, M=M)
    B = Q.mH @ A if M is None else Q.mH @ A - Q.mH @ M
    U, S, Vh = torch.linalg.svd(B, full_matrices=False)
    U, V = Q @ U, Vh.mH
    return (V, S, U) if m < n else (U, S, V)


@register(ints=False)  # upstream's is Python: no parser refuses a bool
def pca_lowrank(A: Tensor, q: int | None = None, center: bool = True, niter: int = 2) -> tuple[Tensor, Tensor, Tensor]:
    """Principal component analysis of a low-rank matrix or a batch of them: the `(U, S, V)` of
    torch.svd_lowrank for A with its column means subtracted (center=True) or for A as it is (center=False).

    With A (*, m, n) holding m samples of n features: the columns of V (*, n, q) are the principal
    directions, S**2 / (m - 1) the eigenvalues of the covariance A^T A / (m - 1) of the centered A, and
    `A @ V[..., :k]` projects the data onto the first k principal components.

    Args:
        A (Tensor): the input, of size (*, m, n).
        q (int, optional): a slightly overestimated rank of A; default min(6, m, n).
        center (bool, optional): subtract the column means first (default True); otherwise A is taken as
            centered.
        niter (int, optional): the number of subspace iterations, a nonnegative integer (default 2).

    Returns a plain tuple U (*, m, q), S (*, q), V (*, n, q). Randomized: seed the default generator for
    repeatable results.
    """
    m, n = A.shape[-2:]
    if q is None:
        q = min(6, m, n)
    elif not (q >= 0 and q <= min(m, n)):
        raise ValueError(f"q(={q}) must be non-negative integer and not greater than min(m, n)={min(m, n)}")
    if not (niter >= 0):
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    if center:
        A = A - A.mean(dim=-2, keepdim=True)
    return svd_lowrank(A, q, niter=niter)
