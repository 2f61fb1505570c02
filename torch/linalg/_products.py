"""The products of torch.linalg: cross, vecdot, multi_dot, and its spellings of matmul, diagonal and vander."""

from __future__ import annotations

import torch
from torch._C import Tensor
from torch._dtypes import scalar_type
from torch.amp.autocast_mode import autocast_policy


def cross(input: Tensor, other: Tensor, *, dim: int = -1) -> Tensor:
    """The cross product of the 3-vectors along dim (broadcast)."""
    return torch.cross(input, other, dim=dim)


@autocast_policy(cpu="lower_precision_fp", cuda="lower_precision_fp")
def vecdot(x: Tensor, y: Tensor, *, dim: int = -1) -> Tensor:
    """The dot product of the vectors along dim (broadcast), conjugating x: sum(x.conj() * y), as upstream
    (floating and complex inputs only)."""
    for t in (x, y):
        if not t.dtype._differentiable:
            raise RuntimeError(
                f"linalg.vecdot: Expected a floating point or complex tensor as input. Got {scalar_type(t.dtype)}"
            )
    return (x.conj() * y).sum(dim)


@autocast_policy(cuda="lower_precision_fp")
def multi_dot(tensors) -> Tensor:
    """The product of a chain of matrices (the first may be a row vector, the last a column vector), in the
    order that multiplies the fewest numbers (the classic dynamic programme)."""
    tensors = list(tensors)
    if len(tensors) < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {len(tensors)}")
    first_vector, last_vector = tensors[0].dim() == 1, tensors[-1].dim() == 1
    mats = [t.unsqueeze(0) if i == 0 and first_vector else t for i, t in enumerate(tensors)]
    mats[-1] = mats[-1].unsqueeze(-1) if last_vector else mats[-1]
    for i, t in enumerate(mats):
        if t.dim() != 2:
            where = "first and last" if i in (0, len(mats) - 1) else "middle"
            raise RuntimeError(
                f"multi_dot(): tensor {i} must be 2D but got {tensors[i].dim()}D"
                if where == "middle"
                else f"multi_dot(): the {'first' if i == 0 else 'last'} tensor must be 1D or 2D but got "
                f"{tensors[i].dim()}D"
            )
    for i in range(len(mats) - 1):
        if mats[i].shape[1] != mats[i + 1].shape[0]:
            raise RuntimeError(
                f"multi_dot(): tensors {i} and {i + 1} with shapes {list(tensors[i].shape)} and "
                f"{list(tensors[i + 1].shape)} cannot be multiplied"
            )
    dims = [mats[0].shape[0]] + [t.shape[1] for t in mats]
    n = len(mats)
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] is None or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k

    def chain(i: int, j: int) -> Tensor:
        if i == j:
            return mats[i]
        k = split[i][j]
        return torch.mm(chain(i, k), chain(k + 1, j))

    result = chain(0, n - 1)
    if first_vector:
        result = result.squeeze(0)
    if last_vector:
        result = result.squeeze(-1)
    return result


def matmul(input: Tensor, other: Tensor) -> Tensor:
    """torch.matmul."""
    return torch.matmul(input, other)


def diagonal(A: Tensor, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """torch.diagonal with the last two dims as default."""
    return torch.diagonal(A, offset, dim1, dim2)


def vander(x: Tensor, *, N: int | None = None) -> Tensor:
    """The Vandermonde matrix of x with increasing powers x^0 ... x^(N-1) (batched over x's leading dims)."""
    supported = (torch.float32, torch.float64, torch.complex64, torch.complex128)
    if x.dtype == torch.bool or (x.dtype.is_floating_point or x.dtype.is_complex) and x.dtype not in supported:
        raise RuntimeError(
            f"linalg.vander supports floating point, complex, and integer tensors, but got {scalar_type(x.dtype)}"
        )
    x = x if x.dim() else x.unsqueeze(-1)  # a 0-dim x is one of shape (1,)
    N = x.shape[-1] if N is None else N
    if N <= 1:
        raise RuntimeError("N must be greater than 1.")  # upstream's: N = 1 too
    powers = torch.cat([torch.ones_like(x).unsqueeze(-1), x.unsqueeze(-1).expand(*x.shape, N - 1)], -1)
    return powers.cumprod(-1)
