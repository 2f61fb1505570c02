"""torch.special: special functions, as PyTorch's module. The kernels (erf, erfc, erfinv, lgamma/gammaln,
digamma/psi, expit, sinc, ...) are TH's, with their math in aten/src/TH/math/Unary.h shared by the CPU and
CUDA; the Bessel functions, erfcx, ndtri, zeta, the incomplete gamma functions and the orthogonal
polynomials are the special-function family's (aten/src/TH/math/Special.h); the rest are composites of them
(entr, ndtr, log_ndtr, xlog1py, multigammaln, polygamma, ...), differentiable through the ops they are made
of."""

from __future__ import annotations

import inspect
import math

import torch
from torch._C import Tensor
from torch._out import with_out
from torch._refs.binary_math import x_times_log

__all__ = [
    "airy_ai",
    "bessel_j0",
    "bessel_j1",
    "bessel_y0",
    "bessel_y1",
    "chebyshev_polynomial_t",
    "chebyshev_polynomial_u",
    "chebyshev_polynomial_v",
    "chebyshev_polynomial_w",
    "digamma",
    "entr",
    "erf",
    "erfc",
    "erfcx",
    "erfinv",
    "exp2",
    "expit",
    "expm1",
    "gammainc",
    "gammaincc",
    "gammaln",
    "hermite_polynomial_h",
    "hermite_polynomial_he",
    "i0",
    "i0e",
    "i1",
    "i1e",
    "laguerre_polynomial_l",
    "legendre_polynomial_p",
    "log1p",
    "log_ndtr",
    "log_softmax",
    "logit",
    "logsumexp",
    "modified_bessel_i0",
    "modified_bessel_i1",
    "modified_bessel_k0",
    "modified_bessel_k1",
    "multigammaln",
    "ndtr",
    "ndtri",
    "polygamma",
    "psi",
    "round",
    "scaled_modified_bessel_k0",
    "scaled_modified_bessel_k1",
    "shifted_chebyshev_polynomial_t",
    "shifted_chebyshev_polynomial_u",
    "shifted_chebyshev_polynomial_v",
    "shifted_chebyshev_polynomial_w",
    "sinc",
    "softmax",
    "spherical_bessel_j0",
    "xlog1py",
    "xlogy",
    "zeta",
]


def _same(name: str, doc: str, arg: str = "input"):
    """torch.special.<name> as the torch function it is, out= and all (looked up when called: torch is still
    being set up while this module is imported); its tensor is keyword `arg` (upstream's `x` for some)."""

    def fn(*args, **kwargs):
        if arg in kwargs:
            args = (kwargs.pop(arg), *args)
        return getattr(torch, name)(*args, **kwargs)

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


@with_out("special_softmax", "exact")
def softmax(input: Tensor, dim: int, *, dtype=None) -> Tensor:
    """exp(x) / sum(exp(x)) along dim (computed in dtype if given)."""
    return torch.softmax(input, dim, dtype=dtype)


@with_out("special_log_softmax", "exact")
def log_softmax(input: Tensor, dim: int, *, dtype=None) -> Tensor:
    """log(softmax(x)) along dim, without the cancellation of taking the log afterwards."""
    return torch.log_softmax(input, dim, dtype=dtype)


def _floating(input: Tensor) -> Tensor:
    return input if input.dtype._differentiable else input.to(torch.get_default_dtype())


@with_out("special_entr", "castable")
def entr(input: Tensor) -> Tensor:
    """The elementwise entropy -x * log(x): 0 at 0, -inf for x < 0 (NaN stays NaN)."""
    x = _floating(input)
    zero = x == 0
    safe = torch.where(zero | (x < 0), torch.ones((), dtype=x.dtype, device=x.device), x)
    out = -safe * torch.log(safe)
    out = torch.where(x < 0, torch.full((), -math.inf, dtype=x.dtype, device=x.device), out)
    return torch.where(zero, torch.zeros((), dtype=x.dtype, device=x.device), out)


@with_out("special_ndtr", "castable")
def ndtr(input: Tensor) -> Tensor:
    """The standard normal distribution function: the area under its density from -inf to x."""
    x = _floating(input)
    return 0.5 * torch.erfc(-x * (1 / math.sqrt(2)))


@with_out("special_log_ndtr", "castable")
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


@with_out("special_xlog1py", "castable")
def xlog1py(input, other) -> Tensor:
    """x * log1p(y), 0 where x is 0 (unless y is NaN); either may be a number."""
    return x_times_log(input, other, torch.log1p, -1.0, "xlog1py")


@with_out("special_multigammaln", "castable")
def multigammaln(input: Tensor, p: int) -> Tensor:
    """The log of the multivariate gamma function of dimension p: p(p-1)/4 log(pi) + sum of lgamma(x - j/2) for
    j < p (defined for x > (p - 1) / 2; below, the sum of lgamma's values, as PyTorch computes it)."""
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    x = _floating(input)
    offsets = -torch.arange(p, dtype=x.dtype, device=x.device) / 2
    return torch.lgamma(x.unsqueeze(-1) + offsets).sum(-1) + p * (p - 1) / 4 * math.log(math.pi)


i0 = _same("i0", "The modified Bessel function of the first kind of order 0, I0(x) (torch.i0).")
modified_bessel_i0 = _same("i0", "I0(x): the modified Bessel function of the first kind of order 0.")
i0e = _same("_special_i0e", "exp(-|x|) I0(x): the exponentially scaled I0, without overflow.")
i1 = _same("_special_i1", "The modified Bessel function of the first kind of order 1, I1(x).")
modified_bessel_i1 = _same("_special_i1", "I1(x): the modified Bessel function of the first kind of order 1.")
i1e = _same("_special_i1e", "exp(-|x|) I1(x): the exponentially scaled I1, without overflow.")
modified_bessel_k0 = _same("_special_modified_bessel_k0", "K0(x): the modified Bessel function of the second kind.")
modified_bessel_k1 = _same("_special_modified_bessel_k1", "K1(x): the modified Bessel function of the second kind.")
scaled_modified_bessel_k0 = _same("_special_scaled_modified_bessel_k0", "exp(x) K0(x), without underflow.", arg="x")
scaled_modified_bessel_k1 = _same("_special_scaled_modified_bessel_k1", "exp(x) K1(x), without underflow.", arg="x")
airy_ai = _same("_special_airy_ai", "Ai(x): the Airy function of the first kind (NaN at +-inf, as upstream).", arg="x")
bessel_j0 = _same("_special_bessel_j0", "J0(x): the Bessel function of the first kind of order 0.")
bessel_j1 = _same("_special_bessel_j1", "J1(x): the Bessel function of the first kind of order 1.")
bessel_y0 = _same("_special_bessel_y0", "Y0(x): the Bessel function of the second kind of order 0 (NaN below 0).")
bessel_y1 = _same("_special_bessel_y1", "Y1(x): the Bessel function of the second kind of order 1 (NaN below 0).")
spherical_bessel_j0 = _same("_special_spherical_bessel_j0", "j0(x) = sin(x) / x, 1 at 0.", arg="x")
erfcx = _same("_special_erfcx", "The scaled complementary error function exp(x**2) erfc(x).")
ndtri = _same("_special_ndtri", "The inverse of ndtr: the x with ndtr(x) = p (+-inf at 1 and 0, NaN outside).")


def _as_tensor(value, like: Tensor) -> Tensor:
    """A Python number as a 0-dim tensor on `like`'s device (its dtype joins the promotion as a number's)."""
    return value if isinstance(value, Tensor) else torch.tensor(value, device=like.device)


def _binary(name: str, doc: str, numbers: bool = True, names: tuple = ("input", "other")):
    """torch.special.<name>(input, other) over its kernel torch.<op>; either argument may be a number (unless
    numbers=False: upstream's gammainc/gammaincc take tensors only). `names`: the arguments' keywords
    (upstream's polynomials take x and n)."""

    def fn(*args, out=None, **kwargs) -> Tensor:
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{fn.__name__}(): {e}") from None
        input, other = bound.arguments[names[0]], bound.arguments[names[1]]
        if not numbers:
            for position, (arg, value) in enumerate((("input", input), ("other", other)), 1):
                if not isinstance(value, Tensor):
                    raise TypeError(
                        f"special_{fn.__name__}(): argument '{arg}' (position {position}) must be Tensor, not "
                        f"{type(value).__name__}"
                    )
        if not isinstance(input, Tensor) and not isinstance(other, Tensor):
            raise TypeError(f"{fn.__name__}(): expected a Tensor for input or other, got two numbers")
        like = input if isinstance(input, Tensor) else other
        a, b = _as_tensor(input, like), _as_tensor(other, like)
        op = getattr(torch, name)
        return op(a, b) if out is None else op(a, b, out=out)

    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    signature = inspect.Signature([inspect.Parameter(n, kind) for n in names])
    fn.__signature__ = inspect.Signature(
        [*signature.parameters.values(), inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, default=None)]
    )
    fn.__doc__ = doc
    return fn


zeta = _binary("_special_zeta", "The Hurwitz zeta function: the sum over k >= 0 of (k + other) ** -input.")
gammainc = _binary(
    "igamma", "The regularized lower incomplete gamma function P(input, other) (torch.igamma).", numbers=False
)
gammaincc = _binary(
    "igammac", "The regularized upper incomplete gamma function Q(input, other) (torch.igammac).", numbers=False
)
_POLYNOMIAL = "{} of degree n (an integer; 0 for n < 0) at input, by its three-term recurrence."


def _polynomial(kernel: str, what: str):
    """torch.special's orthogonal polynomial `what` of degree n at x (upstream's keywords x and n)."""
    return _binary(kernel, _POLYNOMIAL.format(what), names=("x", "n"))


chebyshev_polynomial_t = _polynomial("_special_chebyshev_polynomial_t", "The Chebyshev polynomial T")
chebyshev_polynomial_u = _polynomial("_special_chebyshev_polynomial_u", "The Chebyshev polynomial U")
chebyshev_polynomial_v = _polynomial("_special_chebyshev_polynomial_v", "The Chebyshev polynomial V")
chebyshev_polynomial_w = _polynomial("_special_chebyshev_polynomial_w", "The Chebyshev polynomial W")
shifted_chebyshev_polynomial_t = _polynomial(
    "_special_shifted_chebyshev_polynomial_t", "T*(x) = T(2x - 1), the shifted Chebyshev polynomial"
)
shifted_chebyshev_polynomial_u = _polynomial(
    "_special_shifted_chebyshev_polynomial_u", "U*(x) = U(2x - 1), the shifted Chebyshev polynomial"
)
shifted_chebyshev_polynomial_v = _polynomial(
    "_special_shifted_chebyshev_polynomial_v", "V*(x) = V(2x - 1), the shifted Chebyshev polynomial"
)
shifted_chebyshev_polynomial_w = _polynomial(
    "_special_shifted_chebyshev_polynomial_w", "W*(x) = W(2x - 1), the shifted Chebyshev polynomial"
)
hermite_polynomial_h = _polynomial("_special_hermite_polynomial_h", "The physicists' Hermite polynomial H")
hermite_polynomial_he = _polynomial("_special_hermite_polynomial_he", "The probabilists' Hermite polynomial He")
laguerre_polynomial_l = _polynomial("_special_laguerre_polynomial_l", "The Laguerre polynomial L")
legendre_polynomial_p = _polynomial("_special_legendre_polynomial_p", "The Legendre polynomial P")
for _name, _fn in list(globals().items()):
    if _name in __all__ and getattr(_fn, "__name__", "") == "fn":
        _fn.__name__ = _fn.__qualname__ = _name


def polygamma(n: int, input: Tensor, *, out=None) -> Tensor:
    """The n-th derivative of digamma: digamma for n = 0, else (-1)**(n+1) n! zeta(n + 1, x)."""
    return torch.polygamma(n, input, out=out)
