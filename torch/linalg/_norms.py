"""Norms and the scalars of a matrix in torch.linalg: vector_norm, matrix_norm, norm, cond, matrix_rank,
det, slogdet; differentiable through the ops they are made of."""

from __future__ import annotations

import math

import torch
from torch import _C
from torch._C import Tensor
from torch._dtypes import scalar_type
from torch._refs._dims import wrap_dim
from torch._refs.promotion import in_float32
from torch.autograd._stepwise import record_stepwise
from torch.linalg._decompositions import _result
from torch.linalg._solvers import _square, _tolerance

_INF = math.inf


def _floating(x: Tensor, fn: str, dtype) -> Tensor:
    """x, checked to be floating or complex (before a dtype= cast, as upstream checks the input), cast."""
    if not x.dtype._differentiable:
        raise RuntimeError(f"{fn}: Expected a floating point or complex tensor as input. Got {scalar_type(x.dtype)}")
    return x if dtype is None else x.to(dtype)


def vector_norm(input: Tensor, ord=2, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """The ord-norm of x over dim (all of x by default) seen as a vector: inf (max |x|), -inf (min |x|),
    0 (the count of non-zeros), or (sum |x|^ord)^(1/ord)."""
    input = _floating(input, "linalg.vector_norm", dtype)
    if isinstance(ord, Tensor):
        ord = float(ord)
    dims = () if dim is None else ((dim,) if isinstance(dim, int) else tuple(dim))
    if input.numel() == 0 and ord in (_INF, -_INF) and not dims:
        raise RuntimeError(
            f"linalg.vector_norm cannot compute the {ord} norm on an empty tensor because the operation does "
            "not have an identity"
        )
    empty = [d for d in dims if input.numel() == 0 and ord in (_INF, -_INF) and input.shape[d] == 0]
    if empty:  # upstream's wording, its missing space too
        raise RuntimeError(
            f"linalg.vector_norm cannot compute the {ord} norm on the dimension {empty[0]}because this dimension is "
            "empty and the operation does not have an identity"
        )
    if dim is None and not keepdim:
        input, dims = input.reshape(-1), (0,)
    elif dim is None:
        dims = tuple(range(input.dim()))
    a = input.abs()
    if ord == _INF:
        return a.amax(dims, keepdim=keepdim)
    if ord == -_INF:
        return a.amin(dims, keepdim=keepdim)
    if ord == 0:  # a count: upstream's formula leaves the input without a gradient (None)
        return record_stepwise((a != 0).to(a.dtype).sum(dims, keepdim=keepdim).detach(), [input], ["none"])
    if ord == 1:
        return a.sum(dims, keepdim=keepdim)

    def norm(src, a):
        if ord == 2 and not src.is_complex():
            powers = src * src
        elif ord < 1:  # |0| ** ord as a constant (inf, 0): the gradient at 0 is upstream's 0, not inf * 0 = NaN
            zero = a == 0
            powers = torch.where(zero, math.inf if ord < 0 else 0.0, torch.where(zero, 1.0, a) ** ord)
        else:
            powers = a**ord
        return _root(powers.sum(dims, keepdim=keepdim), ord)

    # the powers of 16-bit floats are taken and summed in float32 (300 ** 2 overflows float16)
    return in_float32(norm, input.dtype, input, a)


def _root(s: Tensor, ord) -> Tensor:
    """s ** (1 / ord), with the gradient 0 (not NaN) where s is 0, as PyTorch's norms have at the zero vector:
    the root is taken of 1 there and masked out."""
    zero = s == 0
    return torch.where(zero, torch.ones_like(s), s) ** (1.0 / ord) * (~zero).to(s.dtype)


def matrix_norm(input: Tensor, ord="fro", dim=(-2, -1), keepdim: bool = False, *, dtype=None) -> Tensor:
    """The ord-norm of the matrices of A over the two dims `dim`: 'fro', 'nuc' (sum of singular values),
    inf / -inf (max / min absolute row sum), 1 / -1 (columns), 2 / -2 (largest / smallest singular value)."""
    input = _floating(input, "linalg.matrix_norm", dtype)
    if input.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    if isinstance(dim, int):
        raise TypeError("linalg_matrix_norm(): argument 'dim' must be tuple of ints, not int")
    dim = tuple(dim)
    if len(dim) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(map(str, dim))}")
    d0, d1 = (wrap_dim(d, input.dim()) for d in dim)  # out of range: IndexError (d % ndim was another dim)
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dim[0]}, {dim[1]})")
    if ord == "fro":
        return vector_norm(input, 2, (d0, d1), keepdim)
    if ord in ("nuc", 2, -2):
        moved = input.movedim((d0, d1), (-2, -1))
        S = torch.linalg.svdvals(moved)
        r = S.sum(-1) if ord == "nuc" else _max_min(S, -1, ord > 0, False)
        if keepdim:
            for d in sorted((d0, d1)):
                r = r.unsqueeze(d)
        return r
    if ord in (_INF, -_INF, 1, -1):
        over, across = (d1, d0) if ord in (_INF, -_INF) else (d0, d1)
        sums = input.abs().sum(over, keepdim=keepdim)
        return _max_min(sums, across - 1 if not keepdim and over < across else across, ord > 0, keepdim)
    raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")


def _max_min(norms: Tensor, dim: int, largest: bool, keepdim: bool) -> Tensor:
    """The largest (or smallest) of norms along dim; the largest of none is 0 (norms are not negative), the
    smallest of none amin's error, as upstream's matrix_norm."""
    if largest and norms.shape[dim] == 0:
        shape = list(norms.shape)
        shape[dim] = 1
        r = torch.zeros(shape, dtype=norms.dtype, device=norms.device)
        return r if keepdim else r.squeeze(dim)
    return norms.amax(dim, keepdim=keepdim) if largest else norms.amin(dim, keepdim=keepdim)


def norm(input: Tensor, ord=None, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """A vector norm or a matrix norm, as PyTorch chooses: a matrix norm for a 2-tuple dim (or a 2-D A with
    ord and no dim), the 2-norm of all of A without ord or dim, else a vector norm."""
    if isinstance(dim, int):
        dim = (dim,)
    if dim is not None:
        if len(dim) not in (1, 2):
            raise RuntimeError(
                f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got [{', '.join(map(str, dim))}]"
            )
    elif ord is not None and input.dim() not in (1, 2):
        raise RuntimeError(
            f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got {input.dim()}D."
        )
    if isinstance(ord, str):  # a matrix norm, over dim or (0, 1): matrix_norm refuses what is not a matrix
        return matrix_norm(input, ord, (0, 1) if dim is None else dim, keepdim, dtype=dtype)
    if ord is not None and (dim is not None and len(dim) == 2 or dim is None and input.dim() == 2):
        return matrix_norm(input, ord, (0, 1) if dim is None else dim, keepdim, dtype=dtype)
    return vector_norm(input, 2 if ord is None else ord, dim, keepdim, dtype=dtype)


def cond(input: Tensor, p=None) -> Tensor:
    """The condition number of A in the p-norm: the ratio of extreme singular values for p = None, 2 or -2,
    else norm(A) * norm(A^-1)."""
    if input.numel() == 0:
        _square(input, "linalg.cond") if p not in (None, 2, -2) else None
        return torch.zeros(input.shape[:-2], dtype=input.dtype, device=input.device)
    if p in (None, 2, -2):
        S = torch.linalg.svdvals(input)
        return S.amax(-1) / S.amin(-1) if p != -2 else S.amin(-1) / S.amax(-1)
    _square(input, "linalg.cond")
    inverse, info = torch.linalg.inv_ex(input)  # a singular matrix has condition number inf
    r = matrix_norm(input, p) * matrix_norm(inverse, p)
    return torch.where(info > 0, torch.full_like(r, math.inf), r)


def matrix_rank(input: Tensor, *, atol=None, rtol=None, hermitian: bool = False, tol=None) -> Tensor:
    """The number of singular values of A above max(atol, rtol * largest) (eigenvalues for hermitian)."""
    if tol is not None:
        atol, rtol = tol, 0.0
    S = torch.linalg.eigvalsh(input).abs() if hermitian else torch.linalg.svdvals(input)
    return (S > _tolerance(S, atol, rtol, input.shape[-2], input.shape[-1])).sum(-1)


def _lu_sign(pivots: Tensor, dtype) -> Tensor:
    """The sign of the permutation of LAPACK's pivots: -1 for each row that was swapped."""
    swaps = (pivots != torch.arange(1, pivots.shape[-1] + 1, device=pivots.device, dtype=pivots.dtype)).sum(-1)
    return 1.0 - 2.0 * (swaps % 2).to(dtype)


def slogdet(A: Tensor):
    """(sign, log|det A|) of square matrices: from the diagonal of U in A = P L U."""
    _square(A, "linalg.slogdet")
    LU, pivots, _ = _C._linalg_lu_factor_ex(A)
    diag = LU.diagonal(0, -2, -1)
    sign = _lu_sign(pivots, A.dtype) * diag.sgn().prod(-1)  # a unit complex number for complex A
    return _result("linalg_slogdet", ("sign", "logabsdet"), sign, diag.abs().log().sum(-1))


def det(A: Tensor) -> Tensor:
    """The determinant of square matrices: the product of U's diagonal in A = P L U, signed by P."""
    _square(A, "linalg.det")
    LU, pivots, _ = _C._linalg_lu_factor_ex(A)
    return _lu_sign(pivots, A.dtype) * LU.diagonal(0, -2, -1).prod(-1)
