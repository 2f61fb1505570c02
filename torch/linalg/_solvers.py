"""The solvers of torch.linalg, on the LU, triangular and SVD kernels: solve, inv, solve_triangular, lstsq,
pinv, tensorinv, tensorsolve, matrix_power, matrix_exp; differentiable through the ops they are made of."""

from __future__ import annotations

import math

import torch
from torch import _C
from torch._C import Tensor
from torch._dtypes import scalar_type
from torch._refs._dims import wrap_dim
from torch.autograd._linalg_formulas import pinv_backward
from torch.autograd._stepwise import record_stepwise
from torch.autograd.function import Function
from torch.linalg._decompositions import _batch_prefix, _result


def _linalg_error(message: str):
    """torch.linalg.LinAlgError(message)."""
    return _C._LinAlgError(message)


def _square(A: Tensor, fn: str) -> None:
    """PyTorch's checks of a batch of square float or complex matrices (the kernels without a complex path
    refuse complex ones)."""
    if A.dtype in (torch.float16, torch.bfloat16):
        raise RuntimeError(f"{fn}: Low precision dtypes not supported. Got {scalar_type(A.dtype)}")
    if not A.dtype._differentiable:
        raise RuntimeError(f"{fn}: Expected a floating point or complex tensor as input. Got {scalar_type(A.dtype)}")
    if A.dim() < 2:
        raise RuntimeError(f"{fn}: The input tensor A must have at least 2 dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(
            f"{fn}: A must be batches of square matrices, but they are {A.shape[-2]} by {A.shape[-1]} matrices"
        )


def _vector_rhs(A: Tensor, B: Tensor, left: bool) -> bool:
    """PyTorch's rule: B is a batch of vectors when it is 1-D, or has A's batch shape and one dim less."""
    return left and (B.dim() == 1 or (B.dim() == A.dim() - 1 and B.shape == A.shape[:-1]))


def solve_ex(A: Tensor, B: Tensor, *, left: bool = True, check_errors: bool = False):
    """The solution X of A X = B (X A = B unless left) by LU, and `info` (> 0 where A is singular)."""
    _square(A, "linalg.solve")
    if A.dtype != B.dtype:
        raise RuntimeError(
            f"linalg.solve: Expected A and B to have the same dtype, but found A of type {scalar_type(A.dtype)} "
            f"and B of type {scalar_type(B.dtype)} instead"
        )
    vector = _vector_rhs(A, B, left)
    B_ = B.unsqueeze(-1) if vector else B
    n = A.shape[-1]
    if (left and B_.shape[-2] != n) or (not left and B_.shape[-1] != n):
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(
            f"linalg.solve: Incompatible shapes of A and B for the equation {eq} ({n}x{n} and "
            f"{B_.shape[-2]}x{B_.shape[-1]})"
        )
    LU, pivots, info = _C._linalg_lu_factor_ex(A)
    X = _C._linalg_lu_solve(LU, pivots, B_, left=left)
    if check_errors and bool((info != 0).any()):
        _, prefix = _batch_prefix(info, A)
        raise _linalg_error(f"torch.linalg.solve_ex: {prefix}The solver failed because the input matrix is singular.")
    return _result("linalg_solve_ex", ("result", "info"), X.squeeze(-1) if vector else X, info)


def solve(A: Tensor, B: Tensor, *, left: bool = True) -> Tensor:
    """The solution X of A X = B (X A = B unless left), B a matrix or a vector (batched); LinAlgError where
    A is singular."""
    X, info = solve_ex(A, B, left=left)
    if info.numel() and bool((info != 0).any()):
        _, prefix = _batch_prefix(info, A)
        raise _linalg_error(f"torch.linalg.solve: {prefix}The solver failed because the input matrix is singular.")
    return X


def inv_ex(A: Tensor, *, check_errors: bool = False):
    """The inverse of A and `info` (> 0 where A is singular)."""
    _square(A, "linalg.inv")
    eye = torch.eye(A.shape[-1], dtype=A.dtype, device=A.device)
    LU, pivots, info = _C._linalg_lu_factor_ex(A)
    inverse = _C._linalg_lu_solve(LU, pivots, eye)
    if check_errors:
        _raise_singular(info, A)
    return _result("linalg_inv_ex", ("inverse", "info"), inverse, info)


def inv(A: Tensor) -> Tensor:
    """The inverse of a square A (batched); LinAlgError where it is singular."""
    inverse, info = inv_ex(A)
    _raise_singular(info, A)
    return inverse


def _raise_singular(info: Tensor, A: Tensor) -> None:
    if info.numel() and bool((info != 0).any()):
        code, prefix = _batch_prefix(info, A)
        raise _linalg_error(
            f"linalg.inv: {prefix}The diagonal element {code} is zero, the inversion could not be completed "
            "because the input matrix is singular."
        )


def solve_triangular(
    input: Tensor, B: Tensor, *, upper: bool, left: bool = True, unitriangular: bool = False
) -> Tensor:
    """The solution X of A X = B (X A = B unless left) for a triangular A (its `upper` or lower triangle)."""
    return _C._linalg_solve_triangular(input, B, upper=upper, left=left, unitriangular=unitriangular)


def _tolerance(S: Tensor, atol, rtol, m: int, n: int) -> Tensor:
    """PyTorch's cut-off for the singular values that count: max(atol, rtol * largest), rtol defaulting to
    eps * max(m, n) when neither is given (and to 0 when only atol is)."""
    eps = torch.finfo(S.dtype).eps
    if rtol is None:
        rtol = eps * max(m, n) if atol is None or (isinstance(atol, (int, float)) and atol <= 0) else 0.0
    smax = S.amax(-1, keepdim=True) if S.shape[-1] else torch.zeros(S.shape[:-1] + (1,), dtype=S.dtype)
    rtol_t = rtol if isinstance(rtol, Tensor) else torch.tensor(float(rtol), dtype=S.dtype, device=S.device)
    atol_t = atol if isinstance(atol, Tensor) else torch.tensor(float(atol or 0.0), dtype=S.dtype, device=S.device)
    rtol_t = rtol_t.unsqueeze(-1) if rtol_t.dim() else rtol_t
    atol_t = atol_t.unsqueeze(-1) if atol_t.dim() else atol_t
    return torch.maximum(atol_t, rtol_t * smax)


def _reciprocal_above(S: Tensor, keep: Tensor) -> Tensor:
    """1 / S where `keep`, 0 elsewhere (no division by the values dropped, so no inf or NaN in any gradient)."""
    return torch.where(keep, 1 / torch.where(keep, S, torch.ones_like(S)), torch.zeros_like(S))


def pinv(input: Tensor, rcond=None, hermitian: bool = False, *, atol=None, rtol=None) -> Tensor:
    """The Moore-Penrose pseudo-inverse by SVD (by eigh for a symmetric A with hermitian=True): singular
    values at or below max(atol, rtol * largest) count as zero. rcond is rtol's older name (upstream's
    pinv(input, rcond, hermitian) overload)."""
    if rcond is not None:
        if atol is not None or rtol is not None:
            raise TypeError("linalg.pinv: rcond is rtol's older name; give one of rcond and atol/rtol")
        rtol = rcond
    if input.dim() < 2 or not (input.dtype.is_floating_point or input.dtype.is_complex):
        dt = scalar_type(input.dtype)
        raise RuntimeError(
            f"linalg.pinv({dt}{{{list(input.shape)}}}): expected a tensor with 2 or more dimensions of float, double, "
            "cfloat or cdouble types"
        )
    return _Pinv.apply(input, atol, rtol, hermitian)[0]


class _Pinv(Function):
    """(pinv(A), A's singular values) by SVD, or for a Hermitian A by eigh (which reads A's lower triangle; the
    singular values are the eigenvalues' magnitudes), with upstream's gradient pinv_backward on the whole of A
    either way: the SVD's own gradient divides by differences of singular values, NaN where two are equal (the
    identity, any orthogonal A) and inaccurate where they are close. The singular values are not
    differentiable here."""

    @staticmethod
    def forward(ctx, A: Tensor, atol, rtol, hermitian: bool = False):
        m, n = A.shape[-2], A.shape[-1]
        if hermitian:
            L, V = torch.linalg.eigh(A)
            S = L.abs()
            P = (V * _reciprocal_above(L, S > _tolerance(S, atol, rtol, m, n)).unsqueeze(-2)) @ V.mH
        else:
            U, S, Vh = torch.linalg.svd(A, full_matrices=False)
            P = (Vh.mH * _reciprocal_above(S, S > _tolerance(S, atol, rtol, m, n)).unsqueeze(-2)) @ U.mH
        ctx.save_for_backward(A, P)
        ctx.mark_non_differentiable(S)
        return P, S

    @staticmethod
    def backward(ctx, grad, _grad_S):
        A, P = ctx.saved_tensors
        if grad is None:
            return None, None, None, None
        return pinv_backward(grad, P, A), None, None, None


_LSTSQ_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def lstsq(input: Tensor, b: Tensor, rcond: float | None = None, *, driver: str | None = None):
    """The least-squares solution of A X = B: (solution, residuals, rank, singular_values) as PyTorch
    returns them per driver ('gelsy' by default on the CPU; 'gels' assumes full rank and solves by QR,
    the others by SVD with singular values below rcond * largest treated as zero)."""
    driver = "gelsy" if driver is None else driver
    if driver not in _LSTSQ_DRIVERS:
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
    if input.dim() < 2:
        raise RuntimeError("torch.linalg.lstsq: input must have at least 2 dimensions.")
    vector = b.dim() == input.dim() - 1
    B_ = b.unsqueeze(-1) if vector else b
    if B_.dim() < 2:
        raise RuntimeError("torch.linalg.lstsq: other must have at least 1 dimension.")
    if input.shape[-2] != B_.shape[-2]:
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
    if input.dtype != b.dtype:
        raise RuntimeError(
            f"torch.linalg.lstsq: Expected input and other to have the same dtype, but got input's dtype "
            f"{input.dtype} and other's dtype {b.dtype}"
        )
    m, n = input.shape[-2], input.shape[-1]
    empty = torch.empty(
        0, dtype=input.real.dtype if input.is_complex() else input.dtype, device=input.device
    )  # real, as upstream
    rank = torch.empty(0, dtype=torch.int64, device=input.device)
    singular_values = empty
    if driver == "gels":
        if m >= n:
            Q, R = torch.linalg.qr(input)
            X = solve_triangular(R, Q.mH @ B_, upper=True)
        else:  # the minimum-norm solution through the QR of A^H
            Q, R = torch.linalg.qr(input.mH)
            X = Q @ solve_triangular(R.mH, B_, upper=False)
    else:  # X = pinv(A) B, differentiated as pinv is (not through the SVD)
        rtol = None if rcond is None or rcond < 0 else rcond
        P, S = _Pinv.apply(input, None, rtol)
        X = P @ B_
        rank = (S > _tolerance(S, None, rtol, m, n)).sum(-1)
        if driver in ("gelsd", "gelss"):
            singular_values = S  # not differentiable, as upstream's
    residuals = record_stepwise(empty, [input, b], ["zeros", "zeros"])  # empty, yet differentiable as upstream's
    full_rank = driver == "gels" or bool((rank == min(m, n)).all())
    if m > n and driver != "gelsy" and full_rank:
        residuals = (input @ X - B_).abs().square().sum(-2)
        if vector:
            residuals = residuals.squeeze(-1)
    return _result(
        "linalg_lstsq",
        ("solution", "residuals", "rank", "singular_values"),
        X.squeeze(-1) if vector else X,
        residuals,
        rank,
        singular_values,
    )


def tensorinv(input: Tensor, ind: int = 2) -> Tensor:
    """The inverse of A seen as a linear map from its last dims to its first `ind` dims."""
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    out_shape, in_shape = input.shape[:ind], input.shape[ind:]
    rows, cols = math.prod(out_shape), math.prod(in_shape)
    if rows != cols:
        raise RuntimeError(
            "Expected self to satisfy the requirement prod(self.shape[ind:]) == prod(self.shape[:ind]), but got "
            f"{cols} != {rows}"
        )
    return inv(input.reshape(rows, cols)).reshape(*in_shape, *out_shape)


def tensorsolve(input: Tensor, other: Tensor, dims=None) -> Tensor:
    """The X with tensordot(A, X, X.ndim) == B (A's dims in `dims` moved to the end first)."""
    if dims is not None:
        dims = [wrap_dim(d, input.dim()) for d in dims]
        input = input.permute([d for d in range(input.dim()) if d not in dims] + dims)
    rows = other.numel()
    x_shape = input.shape[other.dim() :]
    cols = math.prod(x_shape)
    if rows != cols:
        raise RuntimeError(
            "Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == prod(self.shape[:other.ndim])"
            f", but got {cols} != {rows}"
        )
    return solve(input.reshape(rows, cols), other.reshape(rows)).reshape(x_shape)


def matrix_power(input: Tensor, n: int) -> Tensor:
    """A multiplied by itself n times (batched), by repeated squaring; a negative n powers the inverse (float
    or complex only); any dtype matmul takes otherwise."""
    return torch.matrix_power(input, n)


def matrix_exp(input: Tensor) -> Tensor:
    """exp(A) by scaling and squaring: A / 2^s with a 1-norm below 1/2, a degree-18 Taylor polynomial
    (Horner), squared s times; differentiable through its products."""
    _square(input, "linalg.matrix_exp")
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise RuntimeError(
            f"linalg.matrix_exp: Expected a floating point or complex tensor as input. Got {scalar_type(input.dtype)}"
        )
    n = input.shape[-1]
    if input.numel() == 0:
        return input.clone()
    norm = float(input.detach().abs().sum(-2).amax()) if n else 0.0
    if not math.isfinite(norm):  # inf or NaN: no finite exponential (PyTorch's is NaN too)
        return torch.full_like(input, math.nan)
    s = max(0, math.ceil(math.log2(norm)) + 1) if norm > 0 else 0
    X = input / (2.0**s)
    eye = torch.eye(n, dtype=input.dtype, device=input.device)
    result = eye + X / 18.0
    for k in range(17, 0, -1):
        result = eye + (X @ result) / float(k)
    for _ in range(s):
        result = result @ result
    return result
