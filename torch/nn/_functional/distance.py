"""Distances and similarities: pairwise_distance, cosine_similarity, cdist, pdist, normalize."""

from __future__ import annotations

import torch
from torch._dtypes import scalar_type
from torch.amp.autocast_mode import autocast_policy
from torch.autograd._stepwise import record_stepwise

__all__ = ["cdist", "cosine_similarity", "normalize", "pairwise_distance", "pdist"]


def _pnorm(x, p: float, dim, keepdim: bool = False):
    """The p-norm of x over dim (p = inf: max |x|, p = 0: count of non-zeros; real for complex x; 16-bit
    floats summed in float32): torch.linalg.vector_norm."""
    return torch.linalg.vector_norm(x, p, dim, keepdim)


def pairwise_distance(x1, x2, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False):
    """||x1 - x2 + eps||_p along the last dimension."""
    out_dim = max(x1.dim(), x2.dim())
    if out_dim == 0:
        return _pnorm((x1 - x2 + eps).unsqueeze(0), p, -1, keepdim=False).reshape([1] if keepdim else [])
    return _pnorm(x1 - x2 + eps, p, -1, keepdim)


@autocast_policy(cuda="fp32")
def cosine_similarity(x1, x2, dim: int = 1, eps: float = 1e-8):
    """x1 . x2 / (max(||x1||, eps) * max(||x2||, eps)) along dim."""
    x1, x2 = torch.broadcast_tensors(x1, x2)
    common = torch.result_type(x1, x2)
    if not (common.is_floating_point or common.is_complex):
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is {scalar_type(common)}")
    n1 = _pnorm(x1, 2, dim, keepdim=True).clamp(min=eps)
    n2 = _pnorm(x2, 2, dim, keepdim=True).clamp(min=eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


@autocast_policy(cpu="fp32", cuda="fp32")
def cdist(x1, x2, p: float = 2.0, compute_mode: str = "use_mm_for_euclid_dist_if_necessary"):
    """p-norm distances between each row of x1 (..., P, M) and each row of x2 (..., R, M) -> (..., P, R)."""
    if x1.dim() < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X1 got: {x1.dim()}D")
    if x2.dim() < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X2 got: {x2.dim()}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    for name, x in (("X1", x1), ("X2", x2)):
        if not x.dtype.is_floating_point:
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: {scalar_type(x.dtype)}")
    return _distances(x1.unsqueeze(-2) - x2.unsqueeze(-3), p, x1, x2)


def _distances(diff, p: float, *inputs):
    """The p-norms of the differences `diff` of rows of `inputs` along the last dim; for p = 0 (the count of the
    coordinates that differ) the inputs' gradients are upstream's zeros (its norm of a vector has none)."""
    if p == 0:
        return record_stepwise(_pnorm(diff.detach(), p, -1), inputs, ["zeros"] * len(inputs))
    return _pnorm(diff, p, -1)


@autocast_policy(cuda="fp32")
def pdist(input, p: float = 2):
    """The upper triangle (row-major, i < j) of cdist(input, input)."""
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    n = input.shape[0]
    i = [a for a in range(n) for b in range(a + 1, n)]
    j = [b for a in range(n) for b in range(a + 1, n)]
    ii = torch.tensor(i, dtype=torch.int64, device=input.device)
    jj = torch.tensor(j, dtype=torch.int64, device=input.device)
    return _distances(input.index_select(0, ii) - input.index_select(0, jj), p, input)


def normalize(input, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out=None):
    """input / max(||input||_p, eps) along dim."""
    result = input / _pnorm(input, p, dim, keepdim=True).clamp(min=eps).expand_as(input)
    if out is not None:
        return out.copy_(result)
    return result
