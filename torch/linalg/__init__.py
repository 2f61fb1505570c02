"""torch.linalg: PyTorch's linear-algebra module. The factorizations (LU, LDL^T, Cholesky, QR, symmetric
eigendecomposition, SVD) and the LU, LDL^T and triangular solves are TH's LAPACK kernels
(aten/src/TH/ops/LinearAlgebra.cpp, gradients in aten/derivatives.yaml); everything else is Python over
them and differentiates through them. Float and double, complex64 and complex128 (LAPACK's c/z routines,
gradients with X^H) for all but the LDL^T factorization (real only); eig/eigvals of real input give complex
results. CUDA tensors are factorized on the host."""

from __future__ import annotations

from torch._C import _LinAlgError as LinAlgError
from torch.linalg._decompositions import (
    cholesky,
    cholesky_ex,
    eig,
    eigh,
    eigvals,
    eigvalsh,
    householder_product,
    ldl_factor,
    ldl_factor_ex,
    ldl_solve,
    lu,
    lu_factor,
    lu_factor_ex,
    lu_solve,
    qr,
    svd,
    svdvals,
)
from torch.linalg._norms import cond, det, matrix_norm, matrix_rank, norm, slogdet, vector_norm
from torch.linalg._products import cross, diagonal, matmul, multi_dot, vander, vecdot
from torch.linalg._solvers import (
    inv,
    inv_ex,
    lstsq,
    matrix_exp,
    matrix_power,
    pinv,
    solve,
    solve_ex,
    solve_triangular,
    tensorinv,
    tensorsolve,
)

__all__ = [
    "LinAlgError",
    "cholesky",
    "cholesky_ex",
    "cond",
    "cross",
    "det",
    "diagonal",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "householder_product",
    "inv",
    "inv_ex",
    "ldl_factor",
    "ldl_factor_ex",
    "ldl_solve",
    "lstsq",
    "lu",
    "lu_factor",
    "lu_factor_ex",
    "lu_solve",
    "matmul",
    "matrix_exp",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "multi_dot",
    "norm",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "solve_ex",
    "solve_triangular",
    "svd",
    "svdvals",
    "tensorinv",
    "tensorsolve",
    "vander",
    "vecdot",
    "vector_norm",
]
