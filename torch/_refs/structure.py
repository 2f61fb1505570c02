"""Tensors built around a structure: block_diag, diag_embed, diagflat, the index sets triu_indices /
tril_indices, and combinations. Written with cat, diagonal views and indexing, so autograd comes for free."""

from __future__ import annotations

import itertools

import torch
from torch._C import Tensor
from torch._refs.creation import factory_result
from torch._registry import register


@register
def block_diag(*tensors: Tensor) -> Tensor:
    """The block-diagonal matrix of the tensors (0-dim: 1x1, 1-D: one row, 2-D: as is), zeros elsewhere, in
    their promoted dtype."""
    blocks = []
    for i, t in enumerate(tensors):
        if t.dim() > 2:
            raise RuntimeError(
                f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has {t.dim()} dimensions"
            )
        blocks.append(t.reshape(1, 1) if t.dim() == 0 else t.reshape(1, -1) if t.dim() == 1 else t)
    if not blocks:
        return torch.empty(1, 0)
    dtype = blocks[0].dtype
    for b in blocks[1:]:
        dtype = torch.promote_types(dtype, b.dtype)
    cols = sum(b.shape[1] for b in blocks)
    rows, left = [], 0
    for b in blocks:
        r, c = b.shape
        pad_l = torch.zeros(r, left, dtype=dtype, device=b.device)
        pad_r = torch.zeros(r, cols - left - c, dtype=dtype, device=b.device)
        rows.append(torch.cat([pad_l, b.to(dtype), pad_r], 1))
        left += c
    return torch.cat(rows, 0)


@register(method=True)
def diag_embed(input: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """A tensor whose diagonals (offset, in dims dim1 and dim2 of the result) hold input's last dim, zeros
    elsewhere."""
    nd = input.dim() + 1
    d1, d2 = dim1 % nd, dim2 % nd
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    n = input.shape[-1] + abs(offset)
    out = torch.zeros(*input.shape[:-1], n, n, dtype=input.dtype, device=input.device)
    out.diagonal(offset, -2, -1).copy_(input)
    return out.movedim((-2, -1), (d1, d2))


@register(method=True)
def diagflat(input: Tensor, offset: int = 0) -> Tensor:
    """The 2-D matrix with input (flattened) on its diagonal `offset`."""
    return torch.diag(input.reshape(-1), offset)


def _tri_indices(row: int, col: int, offset: int, dtype, device, upper: bool) -> Tensor:
    if row < 0 or col < 0:
        raise RuntimeError(f"row must be non-negative, got{row}" if row < 0 else f"col must be non-negative, got{col}")
    mask = torch.ones(row, col, dtype=torch.bool, device=device)
    mask = mask.triu(offset) if upper else mask.tril(offset)
    return mask.nonzero().t().to(torch.int64 if dtype is None else dtype).contiguous()


@register
def triu_indices(
    row: int, col: int, offset: int = 0, *, dtype=None, device=None, layout=None, pin_memory: bool = False,
    requires_grad: bool = False,
) -> Tensor:  # fmt: skip
    """The [2, N] coordinates (row-major) of the upper triangle of a row x col matrix, from diagonal offset."""
    out = _tri_indices(row, col, offset, dtype, device, upper=True)
    return factory_result(out, pin_memory, requires_grad)


@register
def tril_indices(
    row: int, col: int, offset: int = 0, *, dtype=None, device=None, layout=None, pin_memory: bool = False,
    requires_grad: bool = False,
) -> Tensor:  # fmt: skip
    """The [2, N] coordinates (row-major) of the lower triangle of a row x col matrix, up to diagonal offset."""
    out = _tri_indices(row, col, offset, dtype, device, upper=False)
    return factory_result(out, pin_memory, requires_grad)


@register
def combinations(input: Tensor, r: int = 2, with_replacement: bool = False) -> Tensor:
    """The r-element combinations of a 1-D input's elements, in itertools' order, as the rows of an [N, r]
    tensor (r == 0: an empty 1-D tensor)."""
    if input.dim() != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return torch.empty(0, dtype=input.dtype, device=input.device)
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    index = torch.tensor(list(pick(range(input.shape[0]), r)), dtype=torch.int64, device=input.device)
    return input[index.reshape(-1, r)]  # none: an empty [0, r] result, still a function of input
