"""torch.special: special functions, as PyTorch's module. The kernels (erf, erfc, erfinv, lgamma/gammaln,
digamma/psi, expit, sinc, ...) are TH's, with their math in aten/src/TH/math/Unary.h shared by the CPU and
CUDA; the rest are composites of them (entr, ndtr, log_ndtr, xlog1py, multigammaln, ...), differentiable
through the ops they are made of."""

from __future__ import annotations

import math

import torch
from torch._C import Tensor
from torch._refs.binary_math import x_times_log

__all__ = [
    "digamma",
    "entr",
    "erf",
    "erfc",
    "erfinv",
    "exp2",
    "expit",
    "expm1",
    "gammaln",
    "log1p",
    "log_ndtr",
    "log_softmax",
    "logit",
    "logsumexp",
    "multigammaln",
    "ndtr",
    "psi",
    "round",
    "sinc",
    "softmax",
    "xlog1py",
    "xlogy",
]


def _same(name: str, doc: str):
    """torch.special.<name> as the torch function it is (looked up when called: torch is still being set up
    while this module is imported)."""

    def fn(input, *args, **kwargs):
        return getattr(torch, name)(input, *args, **kwargs)

    fn.__doc__ = doc
    return fn


erf = _same("erf", "The error function 2/sqrt(pi) * integral of exp(-t**2) from 0 to x.")
erfc = _same("erfc", "The complementary error function 1 - erf(x), accurate where erf(x) is near 1.")
erfinv = _same("erfinv", "The inverse of erf on (-1, 1); +-inf at +-1, NaN outside.")
gammaln = _same("lgamma", "log|Gamma(x)| (torch.lgamma).")
digamma = _same("digamma", "The digamma function psi(x) = d/dx log Gamma(x).")
psi = _same("digamma", "The digamma function (torch.special.digamma).")
expit = _same("sigmoid", "The logistic function 1 / (1 + exp(-x)) (torch.sigmoid).")
exp2 = _same("exp2", "2 ** x.")
expm1 = _same("expm1", "exp(x) - 1, accurate near 0.")
log1p = _same("log1p", "log(1 + x), accurate near 0.")
sinc = _same("sinc", "sin(pi x) / (pi x), 1 at 0.")
round = _same("round", "Rounds half to even (decimals= for other places).")
logit = _same("logit", "log(p / (1 - p)); with eps, p clamped to [eps, 1 - eps] first.")
xlogy = _same("xlogy", "x * log(y), 0 where x is 0 (unless y is NaN).")
logsumexp = _same("logsumexp", "log(sum(exp(input))) over dim, without overflow.")


def softmax(input: Tensor, dim: int, *, dtype=None) -> Tensor:
    """exp(x) / sum(exp(x)) along dim (computed in dtype if given)."""
    return torch.softmax(input, dim, dtype=dtype)


def log_softmax(input: Tensor, dim: int, *, dtype=None) -> Tensor:
    """log(softmax(x)) along dim, without the cancellation of taking the log afterwards."""
    return torch.log_softmax(input, dim, dtype=dtype)


def _floating(input: Tensor) -> Tensor:
    return input if input.dtype.is_floating_point else input.to(torch.get_default_dtype())


def entr(input: Tensor) -> Tensor:
    """The elementwise entropy -x * log(x): 0 at 0, -inf for x < 0 (NaN stays NaN)."""
    x = _floating(input)
    zero = x == 0
    safe = torch.where(zero | (x < 0), torch.ones((), dtype=x.dtype, device=x.device), x)
    out = -safe * torch.log(safe)
    out = torch.where(x < 0, torch.full((), -math.inf, dtype=x.dtype, device=x.device), out)
    return torch.where(zero, torch.zeros((), dtype=x.dtype, device=x.device), out)


def ndtr(input: Tensor) -> Tensor:
    """The standard normal distribution function: the area under its density from -inf to x."""
    x = _floating(input)
    return 0.5 * torch.erfc(-x * (1 / math.sqrt(2)))


def log_ndtr(input: Tensor) -> Tensor:
    """log(ndtr(x)), accurate in both tails: log1p for x > 0, erfc in double precision for -20 <= x < 0, and the
    asymptotic series -x**2/2 - log(-x) - log(2 pi)/2 + log(1 - 1/x**2 + 3/x**4 - ...) below (where erfc
    underflows)."""
    x = _floating(input)
    d = x.to(torch.float64)
    # each branch sees its inputs clamped to its own range, so the others' infinities reach no gradient
    right = torch.log1p(-0.5 * torch.erfc(d.clamp(min=0) * (1 / math.sqrt(2))))
    middle = torch.log(0.5 * torch.erfc(-d.clamp(-20, 0) * (1 / math.sqrt(2))))
    far = d.clamp(max=-20)
    inv2 = 1 / (far * far)
    series, term = torch.ones_like(far), torch.ones_like(far)
    for k in range(1, 11):  # (2k - 1)!! / x**2k with alternating signs: below 1e-17 at |x| >= 20
        term = term * (-(2 * k - 1)) * inv2
        series = series + term
    tail = -0.5 * far * far - torch.log(-far) - 0.5 * math.log(2 * math.pi) + torch.log(series)
    return torch.where(d < -20, tail, torch.where(d < 0, middle, right)).to(x.dtype)


def xlog1py(input, other) -> Tensor:
    """x * log1p(y), 0 where x is 0 (unless y is NaN); either may be a number."""
    return x_times_log(input, other, torch.log1p, -1.0)


def multigammaln(input: Tensor, p: int) -> Tensor:
    """The log of the multivariate gamma function of dimension p: p(p-1)/4 log(pi) + sum of lgamma(x - j/2) for
    j < p (defined for x > (p - 1) / 2; below, the sum of lgamma's values, as PyTorch computes it)."""
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    x = _floating(input)
    offsets = -torch.arange(p, dtype=x.dtype, device=x.device) / 2
    return torch.lgamma(x.unsqueeze(-1) + offsets).sum(-1) + p * (p - 1) / 4 * math.log(math.pi)
