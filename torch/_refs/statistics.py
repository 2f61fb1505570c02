"""Statistics over a sort or a matrix product: quantile and nanquantile (PyTorch's five interpolations), cov and
corrcoef, mode. Differentiable where PyTorch's are, through sort/gather and mm."""

from __future__ import annotations

import builtins
import math
import warnings

import torch
from torch import return_types
from torch._C import Tensor
from torch._dtypes import scalar_type
from torch._refs._dims import wrap_dim
from torch._registry import register
from torch.amp.autocast_mode import autocast_policy

_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(input: Tensor, q, dim, keepdim: bool, interpolation: str, ignore_nan: bool, name: str) -> Tensor:
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError(
            f"{name}() interpolation must be one of linear, lower, higher, midpoint or nearest. Got {interpolation}"
        )
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"{name}() input tensor must be either float or double dtype")
    scalar_q = not isinstance(q, Tensor)
    if scalar_q:
        qs = torch.tensor([q], dtype=input.dtype, device=input.device)
    else:  # q stays in the graph: linear interpolation is differentiable in it, as upstream's
        qs = q.to(dtype=input.dtype, device=input.device).reshape(-1)
    if qs.numel() and bool(((qs < 0) | (qs > 1)).any()):
        if scalar_q:
            raise RuntimeError(f"{name}() q must be in the range [0, 1] but got {q}")
        raise RuntimeError(f"{name}() q values must be in the range [0, 1]")
    if input.numel() == 0:
        raise RuntimeError(f"{name}() input tensor must be non-empty")
    x = input.reshape(-1) if dim is None else input
    d = 0 if dim is None else wrap_dim(dim, x.dim())
    v = x.movedim(d, -1) if x.dim() else x.reshape(1)
    v = v.sort(-1).values  # NaN sorts last
    n = v.shape[-1]
    # upstream's ranks [..., len(q)]: a row with a NaN (nanquantile: with nothing else) takes its last (first)
    # sorted value, NaN, which gets that row's whole gradient
    if ignore_nan:
        count = (~v.isnan()).sum(-1, keepdim=True)  # per row
        pos = qs * (count - 1).to(v.dtype)
        pos = torch.where(pos < 0, 0.0, pos)
    else:
        pos = torch.where(v[..., -1:].isnan(), float(n - 1), qs * float(n - 1))
    if interpolation != "linear":  # only the linear interpolation depends on q continuously
        pos = pos.detach()
    if interpolation == "lower":
        pos = pos.floor()
    elif interpolation == "higher":
        pos = pos.ceil()
    elif interpolation == "nearest":
        pos = pos.round()
    lo = pos.floor().to(torch.int64).clamp(0, n - 1)
    hi = pos.ceil().to(torch.int64).clamp(0, n - 1)
    a, b = v.gather(-1, lo), v.gather(-1, hi)
    if interpolation == "midpoint":
        out = torch.where(lo == hi, a, (a + b) / 2)
    else:
        out = a + (b - a) * (pos - lo.to(v.dtype))
    out = out.movedim(-1, 0)  # q's dim first, as PyTorch
    if dim is not None and keepdim:
        out = out.unsqueeze(d + 1) if x.dim() else out  # a 0-dim input has no dim to keep
    elif dim is None and keepdim:
        out = out.reshape((out.shape[0],) + (1,) * input.dim())
    return out[0] if scalar_q else out


@register(method=True, out="castable")
@autocast_policy(cpu="fp32")
def quantile(input: Tensor, q, dim=None, keepdim: bool = False, *, interpolation: str = "linear") -> Tensor:
    """The q-th quantiles (q a number or a 1-D tensor in [0, 1]) of input's values (along dim); q's dim comes
    first. Between two values: linear, lower, higher, midpoint or nearest (round half to even). A NaN gives NaN."""
    return _quantile(input, q, dim, keepdim, interpolation, False, "quantile")


@register(method=True, out="castable")
@autocast_policy(cpu="fp32")
def nanquantile(input: Tensor, q, dim=None, keepdim: bool = False, *, interpolation: str = "linear") -> Tensor:
    """quantile, ignoring NaNs (an all-NaN row gives NaN)."""
    return _quantile(input, q, dim, keepdim, interpolation, True, "nanquantile")


def _cov_weights(weights: Tensor, kind: str, num_observations: int) -> None:
    """Upstream's checks of cov's fweights or aweights: at most 1-D, one per observation, none negative."""
    if weights.dim() > 1:
        raise RuntimeError(
            f"cov(): expected {kind} to have one or fewer dimensions but got {kind} with {weights.dim()} dimensions"
        )
    dtype = weights.dtype
    if kind == "fweights":
        expected, ok = "integral", not (dtype.is_floating_point or dtype.is_complex or dtype == torch.bool)
    else:
        expected, ok = "floating point", dtype.is_floating_point
    if not ok:
        raise RuntimeError(
            f"cov(): expected {kind} to have {expected} dtype but got {kind} with {scalar_type(weights.dtype)} dtype"
        )
    if weights.numel() != num_observations:
        raise RuntimeError(
            f"cov(): expected {kind} to have the same numel as there are observations in the input but got "
            f"{weights.numel()} != {num_observations}"
        )
    if num_observations and not bool(weights.min() >= 0):
        raise RuntimeError(f"cov(): {kind} cannot be negative")


@register(method=True)
def cov(input: Tensor, *, correction: int = 1, fweights: Tensor | None = None, aweights: Tensor | None = None):
    """The covariance matrix of the variables in input's rows (observations in its columns; a 1-D input is one
    variable), with frequency and/or observation weights; `correction` is subtracted from the weight sum. Computed
    as upstream's, step by step with tensor promotion: the weights' dtype takes part (float16 variables with
    float32 aweights give float32), and the normalization is in the weights' dtype."""
    if input.dim() > 2:
        raise RuntimeError(
            f"cov(): expected input to have two or fewer dimensions but got an input with {input.dim()} dimensions"
        )
    if input.dtype == torch.bool:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = input.reshape(1, -1) if input.dim() < 2 else input
    n = x.shape[1]
    w = None
    if fweights is not None:
        _cov_weights(fweights, "fweights", n)
        w = fweights
    if aweights is not None:
        _cov_weights(aweights, "aweights", n)
        w = aweights if w is None else w * aweights
    if w is None:
        total = torch.tensor(n, dtype=torch.int64, device=x.device)
    else:
        total = w.sum()
        if not bool(total != 0):
            raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    mean = (x if w is None else x * w).sum(1) / total
    if w is not None and aweights is not None and correction != 0:
        norm = total - correction * (w * aweights).sum() / total
    else:
        norm = total - correction
    if bool(norm <= 0):
        warnings.warn(
            "cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of observations.",
            stacklevel=2,
        )
        norm = torch.zeros_like(norm)
    xc = x - mean.unsqueeze(1)
    c = torch.mm(xc, (xc if w is None else xc * w).t().conj())
    return torch.true_divide(c, norm).squeeze()  # one variable (a 1-D input or a single row): a 0-dim result


@register(method=True)
def corrcoef(input: Tensor) -> Tensor:
    """The Pearson correlation coefficients of the variables in input's rows, clipped to [-1, 1]."""
    c = cov(input)
    if c.dim() == 0:
        return c / c
    d = c.diagonal()
    std = (d.real if d.is_complex() else d).sqrt()
    c = c / std.unsqueeze(1) / std.unsqueeze(0)
    if c.is_complex():  # each part clipped, as PyTorch's
        return torch.complex(c.real.clamp(-1, 1), c.imag.clamp(-1, 1))
    return c.clamp(-1, 1)


@register(method=True, out="exact")
def mode(input: Tensor, dim: int = -1, keepdim: bool = False):
    """(values, indices): the most frequent value along dim (the smallest on a tie) and the index of its last
    occurrence."""
    result = return_types.make("mode", ("values", "indices"))
    if input.dim() == 0:
        return result(input.clone(), torch.zeros((), dtype=torch.int64, device=input.device))
    d = wrap_dim(dim, input.dim())
    v = input.movedim(d, -1)
    s, order = torch.sort(v, dim=-1, stable=True)
    n = s.shape[-1]
    # run lengths: each element's count of equal values up to it in the sorted row
    new_run = torch.ones_like(s, dtype=torch.bool)
    new_run[..., 1:] = (s[..., 1:] != s[..., :-1]) & ~(s[..., 1:].isnan() & s[..., :-1].isnan())  # NaNs: one run
    position = torch.arange(n, device=s.device).expand(s.shape)
    run_start = torch.where(new_run, position, torch.zeros_like(position)).cummax(-1).values
    length = position - run_start + 1
    best = length.max(-1, keepdim=True).values
    # the first run (smallest value) reaching the longest length; its last element is where it ends
    end = torch.where(length == best, position, torch.full_like(position, n)).min(-1, keepdim=True).values
    values = s.gather(-1, end)
    same = v == values
    indices = (
        torch.where(same, torch.arange(n, device=v.device).expand(v.shape), torch.full_like(order, -1))
        .max(-1, keepdim=True)
        .values
    )
    values, indices = values.movedim(-1, d), indices.movedim(-1, d)
    if not keepdim:
        values, indices = values.squeeze(d), indices.squeeze(d)
    return result(values, indices)


def _equal_edges(x: Tensor, bins: int, lo_hi, dim: int) -> Tensor:
    """`bins` equal bins over `lo_hi` (x's min and max when None; [0, 1] for an empty x, as upstream's) as
    bins + 1 edges; a zero-width range is widened to one unit around its value, as NumPy does."""
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension {dim}")
    if lo_hi is not None:
        lo, hi = float(lo_hi[0]), float(lo_hi[1])
    else:
        lo, hi = (float(x.min()), float(x.max())) if x.numel() else (0.0, 1.0)
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise RuntimeError(f"range [{lo}, {hi}] is not finite")
    if lo > hi:  # upstream's message, histogram's too (it is histogramdd's 1-D case there)
        raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {lo:g} max {hi:g} "
                           f"for dimension {dim}")  # fmt: skip
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return torch.linspace(lo, hi, bins + 1, dtype=x.dtype, device=x.device)


def _bin_of(x: Tensor, edges: Tensor) -> Tensor:
    """The bin of each element of 1-D x between `edges` (the last bin closed on the right), -1 or
    len(edges) - 1 outside."""
    n = edges.numel() - 1
    index = torch.bucketize(x, edges, right=True) - 1
    return torch.where(x == edges[-1], torch.full_like(index, n - 1), index)


@register(method=True, out="exact")
def histogram(input: Tensor, bins=100, *, range=None, weight=None, density: bool = False):
    """(hist, bin_edges): counts (or weight sums) of input's elements in `bins` equal bins over `range`
    (input's min and max by default) or between the edges of a 1-D tensor `bins`; the last bin includes its
    right edge, elements outside are not counted; density normalizes to an integral of 1."""
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"torch.histogram: input tensor and bins tensors should have the same dtype, but got "
                           f"input {input.dtype} and bins {input.dtype}")  # fmt: skip
    x = input.detach().reshape(-1)
    if isinstance(bins, Tensor):
        if bins.dim() != 1 or bins.numel() < 2:
            raise RuntimeError("torch.histogram(): bins tensor should have one dimension and at least 2 elements")
        edges = bins.detach().to(input.dtype)
    else:
        edges = _equal_edges(x, bins, range, 0)
    n = edges.numel() - 1
    index = _bin_of(x, edges)
    inside = (index >= 0) & (index < n)
    w = torch.ones_like(x) if weight is None else weight.detach().reshape(-1).to(input.dtype)
    hist = torch.zeros(n, dtype=input.dtype, device=input.device).index_add_(0, index[inside], w[inside])
    if density:
        hist = hist / (hist.sum() * (edges[1:] - edges[:-1]))
    return return_types.make("histogram", ("hist", "bin_edges"))(hist, edges)


@register
def histogramdd(input: Tensor, bins=10, *, range=None, weight=None, density: bool = False):
    """(hist, bin_edges): the D-dimensional histogram of the points in input's last dimension (shape
    (..., D)); `bins` is one count for every dimension, a count per dimension, or D 1-D tensors of edges;
    `range` is [min_0, max_0, ..., min_D-1, max_D-1]; each dimension's last bin includes its right edge;
    points outside any dimension's edges are not counted; density normalizes to an integral of 1."""
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"histogramdd\" not implemented for '{scalar_type(input.dtype)}'")
    d = input.shape[-1] if input.dim() else 1
    x = input.detach().reshape(-1, d)
    per_dim = [bins] * d if isinstance(bins, int) else list(bins)
    if len(per_dim) != d:
        raise RuntimeError("histogramdd: The size of bins must be equal to the innermost dimension of the input.")
    if range is not None and len(range) != 2 * d:
        raise RuntimeError(f"torch.histogramdd: for a {d}-dimensional histogram range should have {2 * d} elements, "
                           f"but got {len(range)}")  # fmt: skip
    if weight is not None and tuple(weight.shape) != tuple(input.shape[:-1]):
        raise RuntimeError("torch.histogramdd: if weight tensor is provided it should have the same shape as the "
                           "input tensor excluding its innermost dimension, but got input with shape "
                           f"{list(input.shape)} and weight with shape {list(weight.shape)}")  # fmt: skip
    edges, index = [], []
    for k, b in enumerate(per_dim):
        col = x[:, k]
        if isinstance(b, Tensor):
            e = b.detach().to(input.dtype)
        else:
            e = _equal_edges(col, int(b), None if range is None else range[2 * k : 2 * k + 2], k)
        edges.append(e)
        index.append(_bin_of(col, e))
    sizes = [e.numel() - 1 for e in edges]
    inside = torch.ones(x.shape[0], dtype=torch.bool, device=x.device)
    linear = torch.zeros(x.shape[0], dtype=torch.int64, device=x.device)
    for i, n in zip(index, sizes):
        inside &= (i >= 0) & (i < n)
        linear = linear * n + i
    w = torch.ones(x.shape[0], dtype=input.dtype, device=x.device) if weight is None else (
        weight.detach().reshape(-1).to(input.dtype))  # fmt: skip
    hist = torch.zeros(math.prod(sizes), dtype=input.dtype, device=x.device)
    hist = hist.index_add_(0, linear[inside], w[inside]).reshape(sizes)
    if density:
        volume = torch.ones((), dtype=input.dtype, device=x.device)
        for k, e in enumerate(edges):
            widths = (e[1:] - e[:-1]).reshape([-1 if j == k else 1 for j in builtins.range(d)])
            volume = volume * widths
        hist = hist / (hist.sum() * volume)
    return return_types.make("histogramdd", ("hist", "bin_edges"))(hist, tuple(edges))
