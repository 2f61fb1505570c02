"""Small dense linear-algebra helpers shared by torch._lowrank and torch._lobpcg. A matrix argument that
may be None stands for the identity (B of a standard eigenproblem, an absent preconditioner)."""

from __future__ import annotations

import torch
from torch._C import Tensor


def floating_dtype(A: Tensor) -> torch.dtype:
    """The dtype the algorithms compute in for A: float16/32/64 as they are, anything else float32."""
    return A.dtype if A.dtype in (torch.float16, torch.float32, torch.float64) else torch.float32


def matmul(A: Tensor | None, B: Tensor) -> Tensor:
    """A @ B, or B when A is None (the identity)."""
    return B if A is None else torch.matmul(A, B)


def qform(A: Tensor | None, S: Tensor) -> Tensor:
    """The quadratic form S^T A S."""
    return torch.matmul(S.mT, matmul(A, S))


def basis(A: Tensor) -> Tensor:
    """An orthonormal basis of the columns of A (the reduced Q of its QR)."""
    return torch.linalg.qr(A).Q


def symeig(A: Tensor, largest: bool | None = False) -> tuple[Tensor, Tensor]:
    """The eigenvalues and eigenvectors of the symmetric A (its upper triangle read), ascending, or descending
    with largest=True."""
    E, Z = torch.linalg.eigh(A, UPLO="U")
    if largest:
        return E.flip(-1), Z.flip(-1)
    return E, Z
