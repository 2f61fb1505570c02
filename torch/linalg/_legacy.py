"""PyTorch's older linear-algebra names in the torch namespace and as Tensor methods (torch.det, torch.svd,
Tensor.inverse, torch.cholesky_solve, torch.lu, ...), each on its torch.linalg counterpart with the old
signature and result."""

from __future__ import annotations

import torch
from torch import _C
from torch._C import Tensor
from torch._registry import register
from torch.autograd._formulas import sum_to
from torch.autograd.function import Function
from torch.linalg import _decompositions, _norms, _solvers
from torch.linalg._decompositions import _result


@register(method=True)
def det(input: Tensor) -> Tensor:
    """The determinant (torch.linalg.det)."""
    return _norms.det(input)


@register(method=True, out="exact")
def slogdet(input: Tensor):
    """(sign, log|det|) (torch.linalg.slogdet)."""
    sign, logabsdet = _norms.slogdet(input)
    return _result("slogdet", ("sign", "logabsdet"), sign, logabsdet)


@register(method=True)
def logdet(input: Tensor) -> Tensor:
    """log det: NaN for a negative determinant, -inf for a singular matrix; for complex input the complex
    logarithm log|det| + i arg(det)."""
    sign, logabsdet = _norms.slogdet(input)
    if sign.is_complex():
        return logabsdet.to(sign.dtype) + 1j * sign.angle().to(sign.dtype)
    return torch.where(sign < 0, torch.full_like(logabsdet, float("nan")), logabsdet)


@register(method=True, out="exact")
def inverse(input: Tensor) -> Tensor:
    """The inverse (torch.linalg.inv)."""
    return _solvers.inv(input)


@register(method=True, out="exact")
def cholesky(input: Tensor, upper: bool = False) -> Tensor:
    """The Cholesky factor (torch.linalg.cholesky)."""
    return _decompositions.cholesky(input, upper=upper)


@register(method=True, out="exact")
def cholesky_solve(input: Tensor, input2: Tensor, upper: bool = False) -> Tensor:
    """The solution X of A X = input for A = L L^H (U^H U with upper), input2 its Cholesky factor."""
    if (
        input.dim() < 2
        or input2.dim() < 2
        or input2.shape[-1] != input2.shape[-2]
        or input.shape[-2] != input2.shape[-1]
    ):
        raise RuntimeError(
            f"Incompatible matrix sizes for cholesky_solve: each A matrix is {input2.shape[-2]} by "
            f"{input2.shape[-1]} but each b matrix is {input.shape[-2]} by {input.shape[-1]}"
        )
    return _CholeskySolve.apply(input, input2, upper)


class _CholeskySolve(Function):
    """X = (L L^H)^-1 B from L's triangle, with upstream's gradient (cholesky_solve_backward): gB = (L L^H)^-1 G
    and, for the factor, the whole matrix -(C + C^H) L (-L (C + C^H) with upper), C = gB X^H, as if every entry
    of it entered the product, not only its triangle."""

    @staticmethod
    def forward(ctx, B: Tensor, factor: Tensor, upper: bool):
        L = factor.mH if upper else factor
        X = _C._linalg_solve_triangular(L.mH, _C._linalg_solve_triangular(L, B, upper=False), upper=True)
        ctx.save_for_backward(factor, X)
        ctx.upper = upper
        ctx.shapes = (B.shape, factor.shape)
        return X

    @staticmethod
    def backward(ctx, grad):
        factor, X = ctx.saved_tensors
        gB = cholesky_solve(grad, factor, ctx.upper)
        C = gB @ X.mH
        C = C + C.mH
        gfactor = -(factor @ C) if ctx.upper else -(C @ factor)
        return sum_to(gB, ctx.shapes[0]), sum_to(gfactor, ctx.shapes[1]), None


@register(method=True, out="exact")
def cholesky_inverse(input: Tensor, upper: bool = False) -> Tensor:
    """The inverse of A = L L^H (U^H U with upper) from its Cholesky factor."""
    eye = torch.eye(input.shape[-1], dtype=input.dtype, device=input.device)
    return cholesky_solve(eye.expand(input.shape), input, upper)


@register(out="exact")
def lu_unpack(LU_data: Tensor, LU_pivots: Tensor, unpack_data: bool = True, unpack_pivots: bool = True):
    """(P, L, U) from lu_factor's packed LU and pivots."""
    return _decompositions.lu_unpack(LU_data, LU_pivots, unpack_data, unpack_pivots)


@register(method=True, out="exact")
def triangular_solve(
    input: Tensor, A: Tensor, upper: bool = True, transpose: bool = False, unitriangular: bool = False
):
    """(solution of op(A) X = input, a copy of A), A triangular, op transposing it with transpose=True."""
    coefficient = A.mT if transpose else A
    X = _C._linalg_solve_triangular(coefficient, input, upper=upper != transpose, unitriangular=unitriangular)
    return _result("triangular_solve", ("solution", "cloned_coefficient"), X, A.clone())


@register(method=True)
def pinverse(input: Tensor, rcond: float = 1e-15) -> Tensor:
    """The pseudo-inverse, singular values below rcond * largest dropped (torch.linalg.pinv)."""
    return _solvers.pinv(input, rtol=rcond)


@register(method=True, out="exact")
def svd(input: Tensor, some: bool = True, compute_uv: bool = True):
    """(U, S, V) with input = U diag(S) V^H (V, not V^H); reduced unless some=False; U and V zero-filled
    with compute_uv=False."""
    if not compute_uv:
        S = _decompositions.svdvals(input)
        m, n = input.shape[-2], input.shape[-1]
        batch = input.shape[:-2]
        U = torch.zeros(*batch, m, m, dtype=input.dtype, device=input.device)
        return _result("svd", ("U", "S", "V"), U, S, torch.zeros(*batch, n, n, dtype=input.dtype, device=input.device))
    U, S, Vh = _decompositions.svd(input, full_matrices=not some)
    return _result("svd", ("U", "S", "V"), U, S, Vh.mH)


@register(method=True, out="exact")
def qr(input: Tensor, some: bool = True):
    """(Q, R): reduced unless some=False (torch.linalg.qr)."""
    Q, R = _decompositions.qr(input, "reduced" if some else "complete")
    return _result("qr", ("Q", "R"), Q, R)


@register(method=True, out="exact")
def orgqr(input: Tensor, input2: Tensor) -> Tensor:
    """The product of geqrf's Householder reflectors (torch.linalg.householder_product)."""
    return _decompositions.householder_product(input, input2)


@register(method=True, out="exact")
def ormqr(input: Tensor, input2: Tensor, input3: Tensor, left: bool = True, transpose: bool = False) -> Tensor:
    """op(Q) @ input3 (input3 @ op(Q) unless left), Q the m x m product of geqrf's reflectors (input, input2)."""
    m = input.shape[-2]
    full = torch.zeros(*input.shape[:-1], m, dtype=input.dtype, device=input.device)
    k = min(input.shape[-1], m)
    full[..., :k] = input[..., :k]
    Q = _decompositions.householder_product(full, input2)
    Q = Q.mH if transpose else Q  # the adjoint, as upstream
    return Q @ input3 if left else input3 @ Q


@register(method=True)
def lu(A: Tensor, pivot: bool = True, get_infos: bool = False):
    """(LU, pivots[, infos]): torch.linalg.lu_factor_ex's factors, the older way (a singular A does not raise)."""
    LU, pivots, infos = _decompositions.lu_factor_ex(A, pivot=pivot)
    return (LU, pivots, infos) if get_infos else (LU, pivots)


@register(method=True, out="exact")
def lu_solve(input: Tensor, LU_data: Tensor, LU_pivots: Tensor) -> Tensor:
    """The solution of A X = input from A's LU factors (torch.linalg.lu_solve)."""
    return _decompositions.lu_solve(LU_data, LU_pivots, input)


@register(method=True)
def matrix_exp(input: Tensor) -> Tensor:
    """The matrix exponential (torch.linalg.matrix_exp)."""
    return _solvers.matrix_exp(input)
