"""Random sampling written over the uniform and normal draws of TH's Philox generator (so a seed gives the same
numbers on CPU and CUDA): bernoulli, multinomial (with replacement by inverse CDF, without by the exponential
race: keys E_i / w_i, the smallest k win, which is sequential sampling without replacement), normal with tensor
parameters, and the in-place exponential_, cauchy_, log_normal_, geometric_, random_ and bernoulli_."""

from __future__ import annotations

import math

import torch
from torch._C import Tensor
from torch._dtypes import scalar_type
from torch._registry import register


def _uniform_like(t: Tensor, generator=None, dtype=None) -> Tensor:
    """Uniform [0, 1) draws of t's shape, in t's float dtype (float64 for integer t) unless dtype is given."""
    if dtype is None:
        dtype = t.dtype if t.dtype.is_floating_point else torch.float64
    return torch.rand(tuple(t.shape), generator=generator, dtype=dtype, device=t.device)


@register(method=True)
def bernoulli(input: Tensor, p=None, *, generator=None, out: Tensor | None = None) -> Tensor:
    """0/1 draws, each 1 with probability input's element (or p, if given), in input's dtype. Probabilities must
    lie in [0, 1]."""
    probs = input if p is None else torch.full_like(input, p, dtype=torch.float64)
    if bool(((probs < 0) | (probs > 1)).any()):
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.")
    result = (_uniform_like(input, generator, torch.float64) < probs).to(input.dtype)
    return result if out is None else out.resize_(result.shape).copy_(result)


@register(function=False, method=True)
def bernoulli_(self: Tensor, p=0.5, *, generator=None) -> Tensor:
    """self filled with 0/1 draws, 1 with probability p (a number, or a tensor broadcast to self)."""
    probs = p if isinstance(p, Tensor) else torch.full((), float(p), dtype=torch.float64, device=self.device)
    if bool(((probs < 0) | (probs > 1)).any()):
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
    return self.copy_(_uniform_like(self, generator, torch.float64) < probs)


@register(method=True)
def multinomial(input: Tensor, num_samples: int, replacement: bool = False, *, generator=None,
                out: Tensor | None = None) -> Tensor:  # fmt: skip
    """num_samples indices per row of input (1-D or 2-D non-negative weights, not necessarily summing to 1),
    drawn with the weights as probabilities; without replacement each index at most once."""
    if input.dim() not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not input.dtype.is_floating_point:
        raise RuntimeError(
            f"multinomial only supports floating-point dtypes for input, got: {scalar_type(input.dtype)}"
        )
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    n = input.shape[-1]
    if not replacement and num_samples > n:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    w = input.to(torch.float64).reshape(-1, n)
    if bool((~torch.isfinite(w) | (w < 0)).any()):
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    total = w.sum(1, keepdim=True)
    if bool((total <= 0).any()):
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    if replacement:
        cdf = w.cumsum(1)
        u = torch.rand(w.shape[0], num_samples, generator=generator, dtype=torch.float64, device=w.device) * total
        result = torch.searchsorted(cdf, u, right=True).clamp(max=n - 1)
    else:
        if not replacement and bool(((w > 0).sum(1) < num_samples).any()):
            raise RuntimeError(
                "invalid multinomial distribution (with replacement=False, not enough non-negative category to sample)"
            )
        e = -torch.log1p(-torch.rand(tuple(w.shape), generator=generator, dtype=torch.float64, device=w.device))
        keys = torch.where(w > 0, e / torch.where(w > 0, w, torch.ones_like(w)), torch.full_like(w, math.inf))
        result = keys.topk(num_samples, 1, largest=False, sorted=True).indices
    result = result.reshape(*input.shape[:-1], num_samples)
    return result if out is None else out.resize_(result.shape).copy_(result)


@register
def normal(
    mean, std=1.0, size=None, *, generator=None, dtype=None, layout=None, device=None, pin_memory: bool = False,
    requires_grad: bool = False, out: Tensor | None = None,
) -> Tensor:  # fmt: skip
    """Normal draws with the given mean and std: tensors (broadcast together) or numbers (then `size` gives the
    shape)."""
    tensors = [t for t in (mean, std) if isinstance(t, Tensor)]
    if tensors:
        if any(bool((t < 0).any()) for t in tensors if t is std):
            raise RuntimeError("normal expects all elements of std >= 0.0")
        ref = tensors[0] if len(tensors) == 1 else torch.broadcast_tensors(*tensors)[0]
        shape = tuple(ref.shape) if len(tensors) == 1 else tuple(torch.broadcast_shapes(mean.shape, std.shape))
        kind = torch.promote_types(*(t.dtype for t in tensors)) if len(tensors) == 2 else tensors[0].dtype
        z = torch.randn(shape, generator=generator, dtype=kind, device=ref.device)
        result = z * std + mean
        if len(tensors) == 2:  # upstream's result is mean's dtype
            result = result.to(mean.dtype)
    else:
        if size is None:
            raise TypeError("normal() with a number mean and std needs a size")
        if std < 0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
        result = torch.randn(size, generator=generator, dtype=dtype, layout=layout, device=device) * std + mean
        if pin_memory:
            result = result.pin_memory()
        result.requires_grad_(requires_grad)
    return result if out is None else out.resize_(result.shape).copy_(result)


def _fill_from_uniform(self: Tensor, transform, generator) -> Tensor:
    if not self.dtype.is_floating_point:
        raise RuntimeError(f"expected a floating-point tensor, but got {scalar_type(self.dtype)}")
    u = _uniform_like(self, generator, torch.float64)
    return self.copy_(transform(u))


@register(function=False, method=True)
def exponential_(self: Tensor, lambd: float = 1.0, *, generator=None) -> Tensor:
    """self filled with exponential draws of rate lambd (> 0)."""
    if not lambd > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd}")
    return _fill_from_uniform(self, lambda u: -torch.log1p(-u) / lambd, generator)


@register(function=False, method=True)
def cauchy_(self: Tensor, median: float = 0.0, sigma: float = 1.0, *, generator=None) -> Tensor:
    """self filled with Cauchy draws: median + sigma * tan(pi * (u - 1/2))."""
    if not sigma > 0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={sigma}")
    return _fill_from_uniform(self, lambda u: median + sigma * torch.tan(math.pi * (u - 0.5)), generator)


@register(function=False, method=True)
def log_normal_(self: Tensor, mean: float = 1.0, std: float = 2.0, *, generator=None) -> Tensor:
    """self filled with exp of normal draws of the given mean and std."""
    if not std > 0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std}")
    z = torch.randn(tuple(self.shape), generator=generator, dtype=torch.float64, device=self.device)
    return self.copy_(torch.exp(z * std + mean))


@register(function=False, method=True)
def geometric_(self: Tensor, p: float, *, generator=None) -> Tensor:
    """self filled with geometric draws: the number of Bernoulli(p) trials up to the first success (>= 1)."""
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p}")
    u = _uniform_like(self, generator, torch.float64)
    return self.copy_(torch.ceil(torch.log1p(-u) / math.log1p(-p)).clamp(min=1))


@register(function=False, method=True)
def random_(self: Tensor, from_=0, to=None, *, generator=None) -> Tensor:
    """self filled with integers drawn uniformly from [from, to - 1] (random_(to) draws from [0, to - 1]); without
    to, up to the largest integer self's dtype holds exactly (2**24 for float32, 2**53 for float64)."""
    if to is None and from_ != 0 and not isinstance(from_, bool):
        from_, to = 0, from_
    if to is None:
        if self.dtype.is_floating_point:
            to = 2 ** {torch.float16: 11, torch.bfloat16: 8, torch.float32: 24}.get(self.dtype, 53) + 1
        else:
            to = torch.iinfo(self.dtype).max + 1 if self.dtype != torch.bool else 2
    if not from_ < to:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={from_} >= to={to}")
    if max(abs(from_), abs(to)) > 2**53 and not self.dtype.is_floating_point:  # past float64's integers
        return self.copy_(_random_int64(tuple(self.shape), from_, to, generator, self.device))
    u = _uniform_like(self, generator, torch.float64)
    return self.copy_(torch.floor(u * (to - from_)) + from_)


def _random_bits63(shape, generator, device) -> Tensor:
    """Uniform int64 draws from [0, 2**63), assembled from 21-bit pieces of float64 uniforms (each exact)."""
    out = torch.zeros(shape, dtype=torch.int64, device=device)
    for bits in (21, 21, 21):
        u = torch.rand(shape, generator=generator, dtype=torch.float64, device=device)
        out = out * 2**bits + torch.floor(u * 2**bits).to(torch.int64)
    return out


def _random_int64(shape, low: int, high: int, generator, device) -> Tensor:
    """Uniform int64 draws from [low, high) with bounds past 2**53 (float64 would round the low bits away): 63
    random bits modulo the span (upstream's random64() % range); a span past 2**63 picks its lower 2**63 or
    the rest in proportion, then a draw within."""
    span = high - low
    if span == 2**63:
        return _random_bits63(shape, generator, device) + low
    if span < 2**63:
        return _random_bits63(shape, generator, device) % span + low
    lower = _random_bits63(shape, generator, device) + low
    upper = _random_bits63(shape, generator, device) % (span - 2**63) + (low + 2**63)
    u = torch.rand(shape, generator=generator, dtype=torch.float64, device=device)
    return torch.where(u < 2**63 / span, lower, upper)


_BINOMIAL_DIRECT = 16  # counts up to this are summed Bernoulli draws


@register
def binomial(count: Tensor, prob: Tensor, generator=None) -> Tensor:
    """Binomial(count, prob) samples (count and prob broadcast; count integral-valued, of prob's float dtype).
    Exact for every count: while a count is large, the median of its uniforms is drawn as a Beta variate and
    the count halves on the side of prob (Knuth's recursion); the rest are summed Bernoulli draws."""
    if not prob.dtype.is_floating_point:
        raise RuntimeError(f"\"binomial_cpu\" not implemented for '{scalar_type(prob.dtype)}'")
    count, prob = torch.broadcast_tensors(count.to(prob.dtype), prob)
    with torch.no_grad():
        dtype = torch.float64  # the recursion's ratios in double: p / x stays accurate
        n, p = count.to(dtype).clone(), prob.to(dtype).clamp(0, 1).clone()
        total = torch.zeros_like(n)
        while True:
            big = n > _BINOMIAL_DIRECT
            if not bool(big.any()):
                break
            a = torch.where(big, torch.floor((n + 1) / 2) + 1, torch.ones_like(n))
            b = torch.where(big, n + 1 - a, torch.ones_like(n))
            ga = torch._standard_gamma(a, generator=generator)
            gb = torch._standard_gamma(b, generator=generator)
            x = ga / (ga + gb)  # the a-th smallest of n uniforms
            below = big & (x >= p)  # the successes are among the a - 1 smaller ones
            above = big & (x < p)
            total = torch.where(above, total + a, total)
            n = torch.where(below, a - 1, torch.where(above, b - 1, n))
            p = torch.where(below, p / x, torch.where(above, (p - x) / (1 - x), p)).clamp(0, 1)
        u = torch.rand((*n.shape, _BINOMIAL_DIRECT), dtype=dtype, device=n.device, generator=generator)
        k = torch.arange(_BINOMIAL_DIRECT, dtype=dtype, device=n.device)
        total = total + ((u < p.unsqueeze(-1)) & (k < n.unsqueeze(-1))).sum(-1).to(dtype)
    return total.to(prob.dtype)
