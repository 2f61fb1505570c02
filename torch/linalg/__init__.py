"""torch.linalg: PyTorch's linear-algebra module. The factorizations (LU, LDL^T, Cholesky, QR, symmetric
eigendecomposition, SVD) and the LU, LDL^T and triangular solves are TH's LAPACK kernels
(aten/src/TH/ops/LinearAlgebra.cpp, gradients in aten/derivatives.yaml); everything else is Python over
them and differentiates through them. Float and double, complex64 and complex128 (LAPACK's c/z routines,
gradients with X^H) for all but the LDL^T factorization (real only); eig/eigvals of real input give complex
results. CUDA tensors are factorized on the host."""

from __future__ import annotations

from torch._C import _LinAlgError as LinAlgError
from torch._out import with_out
from torch.linalg import _decompositions, _norms, _products, _solvers
from torch.linalg._products import diagonal, vander

# the functions that take upstream's out= (torch/_out.py); cond and matrix_rank only ask that their
# result cast safely to out's dtype, as upstream's composites do
cholesky = with_out("linalg_cholesky")(_decompositions.cholesky)
cholesky_ex = with_out("linalg_cholesky_ex")(_decompositions.cholesky_ex)
eig = with_out("linalg_eig")(_decompositions.eig)
eigh = with_out("linalg_eigh")(_decompositions.eigh)
eigvals = with_out("linalg_eigvals")(_decompositions.eigvals)
eigvalsh = with_out("linalg_eigvalsh")(_decompositions.eigvalsh)
householder_product = with_out("linalg_householder_product")(_decompositions.householder_product)
ldl_factor = with_out("linalg_ldl_factor")(_decompositions.ldl_factor)
ldl_factor_ex = with_out("linalg_ldl_factor_ex")(_decompositions.ldl_factor_ex)
ldl_solve = with_out("linalg_ldl_solve")(_decompositions.ldl_solve)
lu = with_out("linalg_lu")(_decompositions.lu)
lu_factor = with_out("linalg_lu_factor")(_decompositions.lu_factor)
lu_factor_ex = with_out("linalg_lu_factor_ex")(_decompositions.lu_factor_ex)
lu_solve = with_out("linalg_lu_solve")(_decompositions.lu_solve)
qr = with_out("linalg_qr")(_decompositions.qr)
svd = with_out("linalg_svd")(_decompositions.svd)
svdvals = with_out("linalg_svdvals")(_decompositions.svdvals)
cond = with_out("linalg_cond", "safe")(_norms.cond)
det = with_out("linalg_det")(_norms.det)
matrix_norm = with_out("linalg_matrix_norm")(_norms.matrix_norm)
matrix_rank = with_out("linalg_matrix_rank", "safe")(_norms.matrix_rank)
norm = with_out("linalg_norm")(_norms.norm)
slogdet = with_out("linalg_slogdet")(_norms.slogdet)
vector_norm = with_out("linalg_vector_norm")(_norms.vector_norm)
cross = with_out("linalg_cross")(_products.cross)
matmul = with_out("linalg_matmul")(_products.matmul)
multi_dot = with_out("linalg_multi_dot")(_products.multi_dot)
vecdot = with_out("linalg_vecdot")(_products.vecdot)
inv = with_out("linalg_inv")(_solvers.inv)
lstsq = with_out("linalg_lstsq")(_solvers.lstsq)
matrix_exp = _solvers.matrix_exp  # upstream's takes no out=
inv_ex = with_out("linalg_inv_ex")(_solvers.inv_ex)
matrix_power = with_out("linalg_matrix_power")(_solvers.matrix_power)
pinv = with_out("linalg_pinv")(_solvers.pinv)
solve = with_out("linalg_solve")(_solvers.solve)
solve_ex = with_out("linalg_solve_ex")(_solvers.solve_ex)
solve_triangular = with_out("linalg_solve_triangular")(_solvers.solve_triangular)
tensorinv = with_out("linalg_tensorinv")(_solvers.tensorinv)
tensorsolve = with_out("linalg_tensorsolve")(_solvers.tensorsolve)

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
