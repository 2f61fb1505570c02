"""kl_divergence(p, q) = E_p[log p - log q], by a table of closed forms keyed on the two families.

The table holds every pair upstream 2.13 registers, with its formulas, in three groups: two of one family,
two families with a closed form, and the pairs whose KL is +inf because p puts mass where q has none. A pair
is looked up as upstream does: the most specific registered (type_p, type_q) both types are subclasses of
(a RuntimeWarning where p's and q's orders disagree), memoized until the next register_kl."""

from __future__ import annotations

import math
import warnings
from functools import total_ordering

import torch
from torch.distributions.bernoulli import Bernoulli
from torch.distributions.binomial import Binomial
from torch.distributions.categorical import Categorical
from torch.distributions.cauchy import Cauchy
from torch.distributions.continuous_bernoulli import ContinuousBernoulli
from torch.distributions.dirichlet import Beta, Dirichlet
from torch.distributions.exp_family import ExponentialFamily
from torch.distributions.exponential import Exponential
from torch.distributions.extreme_value import Gumbel, Pareto
from torch.distributions.gamma import Gamma
from torch.distributions.geometric import Geometric
from torch.distributions.half_normal import HalfNormal
from torch.distributions.independent import Independent
from torch.distributions.laplace import Laplace
from torch.distributions.lowrank_multivariate_normal import (
    LowRankMultivariateNormal,
    _batch_lowrank_logdet,
    _batch_lowrank_mahalanobis,
)
from torch.distributions.multivariate_normal import MultivariateNormal, _batch_mahalanobis
from torch.distributions.normal import Normal
from torch.distributions.one_hot_categorical import OneHotCategorical
from torch.distributions.poisson import Poisson
from torch.distributions.transformed_distribution import TransformedDistribution
from torch.distributions.uniform import Uniform
from torch.distributions.utils import _sum_rightmost
from torch.distributions.utils import euler_constant as _euler_gamma

__all__ = ["kl_divergence", "register_kl"]

_KL_REGISTRY: dict = {}  # (type_p, type_q) -> fn: the registered pairs
_KL_MEMOIZE: dict = {}  # (type(p), type(q)) -> the fn dispatch chose (or NotImplemented), cleared by register_kl


def register_kl(type_p, type_q):
    """Decorator: fn(p, q) is kl_divergence for p of type_p and q of type_q (and their subclasses, where no
    more specific pair is registered)."""
    for t in (type_p, type_q):
        if not isinstance(t, type):
            raise TypeError(f"Expected a Distribution subclass but got {t}")

    def decorator(fn):
        _KL_REGISTRY[type_p, type_q] = fn
        _KL_MEMOIZE.clear()  # a new pair can change what the pairs seen so far resolve to
        return fn

    return decorator


@total_ordering
class _Match:
    """A registered pair, ordered lexicographically by specificity (a <= b: a's first differing type is a
    subclass of b's)."""

    __slots__ = ("types",)

    def __init__(self, *types):
        self.types = types

    def __eq__(self, other):
        return self.types == other.types

    def __le__(self, other):
        for x, y in zip(self.types, other.types):
            if not issubclass(x, y):
                return False
            if x is not y:
                break
        return True


def _dispatch_kl(type_p, type_q):
    """The function of the most specific registered pair matching (type_p, type_q), NotImplemented if none:
    most specific in p first, then in q; a RuntimeWarning where ordering by q first picks another function."""
    matches = [(sp, sq) for sp, sq in _KL_REGISTRY if issubclass(type_p, sp) and issubclass(type_q, sq)]
    if not matches:
        return NotImplemented
    left_p, left_q = min(_Match(*m) for m in matches).types
    right_q, right_p = min(_Match(*reversed(m)) for m in matches).types
    left_fn, right_fn = _KL_REGISTRY[left_p, left_q], _KL_REGISTRY[right_p, right_q]
    if left_fn is not right_fn:
        warnings.warn(
            f"Ambiguous kl_divergence({type_p.__name__}, {type_q.__name__}). "
            f"Please register_kl({left_p.__name__}, {right_q.__name__})",
            RuntimeWarning,
            stacklevel=2,
        )
    return left_fn


def kl_divergence(p, q):
    """The Kullback-Leibler divergence KL(p || q) = E_p[log p(x) - log q(x)], of shape batch_shape (a
    NotImplementedError for a pair of types that no register_kl covers)."""
    try:
        fn = _KL_MEMOIZE[type(p), type(q)]
    except KeyError:
        fn = _KL_MEMOIZE[type(p), type(q)] = _dispatch_kl(type(p), type(q))
    if fn is NotImplemented:
        raise NotImplementedError(
            f"No KL(p || q) is implemented for p type {type(p).__name__} and q type {type(q).__name__}"
        )
    return fn(p, q)


def _infinite_like(tensor):
    """A tensor like `tensor` of +inf (the KL of p to a q whose support misses part of p's)."""
    return torch.full_like(tensor, math.inf)


def _inf_where(mask, result):
    """result, +inf where mask (the batch entries where p has mass outside q's support)."""
    return torch.where(mask, _infinite_like(result), result)


def _x_log_x(tensor):
    """x log x, 0 at x = 0."""
    return torch.special.xlogy(tensor, tensor)


def _batch_trace_XXT(bmat):
    """trace(X X^T) per batch: the sum of the squares of each matrix."""
    return bmat.pow(2).sum((-2, -1))


# ---------------------------------------------------------------------------------------------------------------
# Two of one family
# ---------------------------------------------------------------------------------------------------------------


@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(p, q):
    """Sum over x in {0, 1} of p(x) log(p(x) / q(x)): a term is 0 where p(x) = 0 and inf where only q(x) = 0."""
    t1 = p.probs * (torch.nn.functional.softplus(-q.logits) - torch.nn.functional.softplus(-p.logits))
    t1 = _inf_where(q.probs == 0, t1)
    t1 = torch.where(p.probs == 0, torch.zeros_like(t1), t1)
    t2 = (1 - p.probs) * (torch.nn.functional.softplus(q.logits) - torch.nn.functional.softplus(p.logits))
    t2 = _inf_where(q.probs == 1, t2)
    t2 = torch.where(p.probs == 1, torch.zeros_like(t2), t2)
    return t1 + t2


@register_kl(Binomial, Binomial)
def _kl_binomial_binomial(p, q):
    """n_p (p log(p / q) + (1 - p) log((1 - p) / (1 - q))) for equal counts; inf where p's count exceeds q's
    (NotImplementedError where it is below: no closed form)."""
    if (p.total_count < q.total_count).any():
        raise NotImplementedError("KL between Binomials where q.total_count > p.total_count is not implemented")
    kl = p.total_count * (p.probs * (p.logits - q.logits) + (-p.probs).log1p() - (-q.probs).log1p())
    return _inf_where(p.total_count > q.total_count, kl)


@register_kl(Categorical, Categorical)
def _kl_categorical_categorical(p, q):
    """Sum over categories of p log(p / q): 0 where p = 0, inf where only q = 0."""
    t = p.probs * (p.logits - q.logits)
    t = torch.where(q.probs == 0, torch.full_like(t, math.inf), t)
    t = torch.where(p.probs == 0, torch.zeros_like(t), t)
    return t.sum(-1)


@register_kl(OneHotCategorical, OneHotCategorical)
def _kl_onehotcategorical_onehotcategorical(p, q):
    """The KL of the categoricals underneath."""
    return _kl_categorical_categorical(p._categorical, q._categorical)


@register_kl(Geometric, Geometric)
def _kl_geometric_geometric(p, q):
    """-H(p) - E_p[log q(X)], with E_p[X] = (1 - p) / p failures before the first success."""
    return -p.entropy() - torch.log1p(-q.probs) / p.probs - q.logits


@register_kl(Poisson, Poisson)
def _kl_poisson_poisson(p, q):
    """rate_p log(rate_p / rate_q) - (rate_p - rate_q)."""
    return p.rate * (torch.log(p.rate) - torch.log(q.rate)) - (p.rate - q.rate)


@register_kl(ContinuousBernoulli, ContinuousBernoulli)
def _kl_continuous_bernoulli_continuous_bernoulli(p, q):
    """E_p[X] (logit p - logit q) + the two log normalizers and log(1 - probs) terms."""
    t1 = p.mean * (p.logits - q.logits)
    t2 = p._cont_bern_log_norm() + torch.log1p(-p.probs)
    t3 = -q._cont_bern_log_norm() - torch.log1p(-q.probs)
    return t1 + t2 + t3


@register_kl(ExponentialFamily, ExponentialFamily)
def _kl_expfamily_expfamily(p, q):
    """Two of one exponential family: the Bregman divergence of the log normalizer, its gradient by autograd."""
    if type(p) is not type(q):
        raise NotImplementedError(
            "The cross KL-divergence between different exponential families cannot be computed using Bregman "
            "divergences"
        )
    p_nparams = [param.detach().requires_grad_() for param in p._natural_params]
    q_nparams = q._natural_params
    lg_normal = p._log_normalizer(*p_nparams)
    gradients = torch.autograd.grad(lg_normal.sum(), p_nparams, create_graph=True)
    result = q._log_normalizer(*q_nparams) - lg_normal
    for pnp, qnp, g in zip(p_nparams, q_nparams, gradients):
        result = result - _sum_rightmost((qnp - pnp) * g, len(q.event_shape))
    return result


@register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(p, q):
    """log B(alpha_q) - log B(alpha_p) + sum (alpha_p - alpha_q)(digamma(alpha_p) - digamma(sum alpha_p))."""
    sum_p = p.concentration.sum(-1)
    t1 = torch.lgamma(sum_p) - torch.lgamma(q.concentration.sum(-1))
    t2 = (torch.lgamma(p.concentration) - torch.lgamma(q.concentration)).sum(-1)
    t3 = (p.concentration - q.concentration) * (torch.digamma(p.concentration) - torch.digamma(sum_p).unsqueeze(-1))
    return t1 - t2 + t3.sum(-1)


@register_kl(Beta, Beta)
def _kl_beta_beta(p, q):
    """The KL of the Dirichlets of the two concentrations."""
    return _kl_dirichlet_dirichlet(p._dirichlet, q._dirichlet)


@register_kl(Exponential, Exponential)
def _kl_exponential_exponential(p, q):
    """r - 1 - log r, r = rate_q / rate_p."""
    rate_ratio = q.rate / p.rate
    return rate_ratio - 1 - rate_ratio.log()


@register_kl(Gamma, Gamma)
def _kl_gamma_gamma(p, q):
    """The closed form in the shapes a and rates b."""
    t1 = q.concentration * torch.log(p.rate / q.rate)
    t2 = torch.lgamma(q.concentration) - torch.lgamma(p.concentration)
    t3 = (p.concentration - q.concentration) * torch.digamma(p.concentration)
    t4 = (q.rate - p.rate) * (p.concentration / p.rate)
    return t1 + t2 + t3 + t4


@register_kl(Uniform, Uniform)
def _kl_uniform_uniform(p, q):
    """log(width_q / width_p), inf unless [low_q, high_q] covers [low_p, high_p]."""
    result = ((q.high - q.low) / (p.high - p.low)).log()
    return _inf_where((q.low > p.low) | (q.high < p.high), result)


@register_kl(Pareto, Pareto)
def _kl_pareto_pareto(p, q):
    """alpha_q log(scale_p / scale_q) - log(alpha_q / alpha_p) + alpha_q / alpha_p - 1, inf where p starts
    below q (scale_p < scale_q)."""
    scale_ratio = p.scale / q.scale
    alpha_ratio = q.alpha / p.alpha
    result = q.alpha * scale_ratio.log() - alpha_ratio.log() + alpha_ratio - 1
    return _inf_where(p.support.lower_bound < q.support.lower_bound, result)


@register_kl(Normal, Normal)
def _kl_normal_normal(p, q):
    """0.5 (r + ((loc_p - loc_q) / scale_q)^2 - 1 - log r), r = (scale_p / scale_q)^2."""
    var_ratio = (p.scale / q.scale).pow(2)
    t1 = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())


@register_kl(HalfNormal, HalfNormal)
def _kl_halfnormal_halfnormal(p, q):
    """The KL of the two zero-mean normals folded (folding both maps p/q pointwise to the same ratio)."""
    return _kl_normal_normal(p.base_dist, q.base_dist)


@register_kl(Laplace, Laplace)
def _kl_laplace_laplace(p, q):
    """-log(s_p / s_q) + |loc_p - loc_q| / s_q + (s_p / s_q) exp(-|loc_p - loc_q| / s_p) - 1."""
    scale_ratio = p.scale / q.scale
    loc_abs_diff = (p.loc - q.loc).abs()
    t1 = -scale_ratio.log()
    t2 = loc_abs_diff / q.scale
    t3 = scale_ratio * torch.exp(-loc_abs_diff / p.scale)
    return t1 + t2 + t3 - 1


@register_kl(Cauchy, Cauchy)
def _kl_cauchy_cauchy(p, q):
    """log(((s_p + s_q)^2 + (loc_p - loc_q)^2) / (4 s_p s_q)) (Chyzak and Nielsen, arXiv:1905.10965)."""
    t1 = ((p.scale + q.scale).pow(2) + (p.loc - q.loc).pow(2)).log()
    t2 = (4 * p.scale * q.scale).log()
    return t1 - t2


@register_kl(Gumbel, Gumbel)
def _kl_gumbel_gumbel(p, q):
    """The closed form in the locations and scales (E_p[exp(-(X - loc_q) / s_q)] by the Gumbel's moment
    generating function)."""
    ct1 = p.scale / q.scale
    ct2 = q.loc / q.scale
    ct3 = p.loc / q.scale
    t1 = -ct1.log() - ct2 + ct3
    t2 = ct1 * _euler_gamma
    t3 = torch.exp(ct2 + (1 + ct1).lgamma() - ct3)
    return t1 + t2 + t3 - (1 + _euler_gamma)


@register_kl(MultivariateNormal, MultivariateNormal)
def _kl_mvn_mvn(p, q):
    """0.5 (tr(Sq^-1 Sp) + |Lq^-1 (mu_q - mu_p)|^2 - k + log det Sq - log det Sp), through the Cholesky factors."""
    if p.event_shape != q.event_shape:
        raise ValueError(
            "KL-divergence between two Multivariate Normals with different event shapes cannot be computed"
        )
    Lp, Lq = p._unbroadcasted_scale_tril, q._unbroadcasted_scale_tril
    shape = torch.broadcast_shapes(p.batch_shape, q.batch_shape)
    n = p.event_shape[0]
    Lp, Lq = Lp.expand(shape + (n, n)), Lq.expand(shape + (n, n))
    half_term1 = Lq.diagonal(0, -2, -1).log().sum(-1) - Lp.diagonal(0, -2, -1).log().sum(-1)
    term2 = (torch.linalg.solve_triangular(Lq, Lp, upper=False) ** 2).sum((-2, -1))
    diff = (q.loc - p.loc).expand(shape + (n,))
    term3 = (torch.linalg.solve_triangular(Lq, diff.unsqueeze(-1), upper=False) ** 2).sum((-2, -1))
    return half_term1 + 0.5 * (term2 + term3 - n)


@register_kl(LowRankMultivariateNormal, LowRankMultivariateNormal)
def _kl_lowrankmultivariatenormal_lowrankmultivariatenormal(p, q):
    """The MVN closed form with q's inverse covariance by Woodbury (no n x n inverse)."""
    if p.event_shape != q.event_shape:
        raise ValueError(
            "KL-divergence between two Low Rank Multivariate Normals with different event shapes cannot be computed"
        )
    term1 = _batch_lowrank_logdet(
        q._unbroadcasted_cov_factor, q._unbroadcasted_cov_diag, q._capacitance_tril
    ) - _batch_lowrank_logdet(p._unbroadcasted_cov_factor, p._unbroadcasted_cov_diag, p._capacitance_tril)
    term3 = _batch_lowrank_mahalanobis(
        q._unbroadcasted_cov_factor, q._unbroadcasted_cov_diag, q.loc - p.loc, q._capacitance_tril
    )
    # Expands term2 according to inv(qcov) = qD^-1 - qD^-1 qW A^T A qW^T qD^-1, A = qC^-1 qW^T qD^-1
    # (Woodbury), and tr(inv(qcov) pcov) term by term
    qWt_qDinv = q._unbroadcasted_cov_factor.mT / q._unbroadcasted_cov_diag.unsqueeze(-2)
    A = torch.linalg.solve_triangular(q._capacitance_tril, qWt_qDinv, upper=False)
    term21 = (p._unbroadcasted_cov_diag / q._unbroadcasted_cov_diag).sum(-1)
    term22 = _batch_trace_XXT(p._unbroadcasted_cov_factor * q._unbroadcasted_cov_diag.rsqrt().unsqueeze(-1))
    term23 = _batch_trace_XXT(A * p._unbroadcasted_cov_diag.sqrt().unsqueeze(-2))
    term24 = _batch_trace_XXT(A.matmul(p._unbroadcasted_cov_factor))
    term2 = term21 + term22 - term23 - term24
    return 0.5 * (term1 + term2 + term3 - p.event_shape[0])


@register_kl(MultivariateNormal, LowRankMultivariateNormal)
def _kl_multivariatenormal_lowrankmultivariatenormal(p, q):
    """The MVN closed form, p full rank, q low rank plus diagonal (Woodbury for q's inverse)."""
    if p.event_shape != q.event_shape:
        raise ValueError(
            "KL-divergence between two (Low Rank) Multivariate Normals with different event shapes cannot be computed"
        )
    term1 = _batch_lowrank_logdet(
        q._unbroadcasted_cov_factor, q._unbroadcasted_cov_diag, q._capacitance_tril
    ) - 2 * p._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
    term3 = _batch_lowrank_mahalanobis(
        q._unbroadcasted_cov_factor, q._unbroadcasted_cov_diag, q.loc - p.loc, q._capacitance_tril
    )
    qWt_qDinv = q._unbroadcasted_cov_factor.mT / q._unbroadcasted_cov_diag.unsqueeze(-2)
    A = torch.linalg.solve_triangular(q._capacitance_tril, qWt_qDinv, upper=False)
    term21 = _batch_trace_XXT(p._unbroadcasted_scale_tril * q._unbroadcasted_cov_diag.rsqrt().unsqueeze(-1))
    term22 = _batch_trace_XXT(A.matmul(p._unbroadcasted_scale_tril))
    term2 = term21 - term22
    return 0.5 * (term1 + term2 + term3 - p.event_shape[0])


@register_kl(LowRankMultivariateNormal, MultivariateNormal)
def _kl_lowrankmultivariatenormal_multivariatenormal(p, q):
    """The MVN closed form, p low rank plus diagonal, q full rank (triangular solves against q's factor)."""
    if p.event_shape != q.event_shape:
        raise ValueError(
            "KL-divergence between two (Low Rank) Multivariate Normals with different event shapes cannot be computed"
        )
    term1 = 2 * q._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1) - _batch_lowrank_logdet(
        p._unbroadcasted_cov_factor, p._unbroadcasted_cov_diag, p._capacitance_tril
    )
    n = p.event_shape[0]
    shape = torch.broadcast_shapes(q._unbroadcasted_scale_tril.shape[:-2], p._unbroadcasted_cov_factor.shape[:-2])
    diff = (q.loc - p.loc).expand(shape + (n,))
    term3 = _batch_mahalanobis(q._unbroadcasted_scale_tril.expand(shape + (n, n)), diff)
    q_scale_tril = q._unbroadcasted_scale_tril.expand(shape + (n, n))
    p_cov_factor = p._unbroadcasted_cov_factor.expand(shape + (n, p.cov_factor.size(-1)))
    p_cov_diag = torch.diag_embed(p._unbroadcasted_cov_diag.sqrt()).expand(shape + (n, n))
    term21 = _batch_trace_XXT(torch.linalg.solve_triangular(q_scale_tril, p_cov_factor, upper=False))
    term22 = _batch_trace_XXT(torch.linalg.solve_triangular(q_scale_tril, p_cov_diag, upper=False))
    return 0.5 * (term1 + term21 + term22 + term3 - n)


@register_kl(Independent, Independent)
def _kl_independent_independent(p, q):
    """The base distributions' KL summed over the reinterpreted dims (NotImplementedError where p and q
    reinterpret different numbers of dims)."""
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise NotImplementedError
    return _sum_rightmost(kl_divergence(p.base_dist, q.base_dist), p.reinterpreted_batch_ndims)


@register_kl(TransformedDistribution, TransformedDistribution)
def _kl_transformed_transformed(p, q):
    """The base distributions' KL, where p and q push them through equal transforms (a bijection leaves KL
    unchanged); NotImplementedError otherwise."""
    if p.transforms != q.transforms:
        raise NotImplementedError
    if p.event_shape != q.event_shape:
        raise NotImplementedError
    return kl_divergence(p.base_dist, q.base_dist)


# ---------------------------------------------------------------------------------------------------------------
# Two families with a closed form: -H(p) - E_p[log q(X)], by p's moments (where q's support covers p's)
# ---------------------------------------------------------------------------------------------------------------


@register_kl(Bernoulli, Poisson)
def _kl_bernoulli_poisson(p, q):
    """-H(p) - E_p[X log rate - rate - log X!] (log X! = 0 on {0, 1})."""
    return -p.entropy() - (p.probs * q.rate.log() - q.rate)


@register_kl(Beta, ContinuousBernoulli)
def _kl_beta_continuous_bernoulli(p, q):
    """-H(p) - E_p[X] logit(q) - log(1 - q) - log C(q)."""
    return -p.entropy() - p.mean * q.logits - torch.log1p(-q.probs) - q._cont_bern_log_norm()


@register_kl(Beta, Exponential)
def _kl_beta_exponential(p, q):
    """-H(p) - log rate + rate E_p[X]."""
    return -p.entropy() - q.rate.log() + q.rate * (p.concentration1 / (p.concentration1 + p.concentration0))


@register_kl(Beta, Gamma)
def _kl_beta_gamma(p, q):
    """-H(p) + log Gamma(a) - a log b - (a - 1) E_p[log X] + b E_p[X]."""
    t1 = -p.entropy()
    t2 = q.concentration.lgamma() - q.concentration * q.rate.log()
    t3 = (q.concentration - 1) * (p.concentration1.digamma() - (p.concentration1 + p.concentration0).digamma())
    t4 = q.rate * p.concentration1 / (p.concentration1 + p.concentration0)
    return t1 + t2 - t3 + t4


@register_kl(Beta, Normal)
def _kl_beta_normal(p, q):
    """-H(p) + 0.5 log(2 pi s^2) + E_p[(X - loc)^2] / (2 s^2)."""
    E_beta = p.concentration1 / (p.concentration1 + p.concentration0)
    var_normal = q.scale.pow(2)
    t1 = -p.entropy()
    t2 = 0.5 * (var_normal * 2 * math.pi).log()
    t3 = (E_beta * (1 - E_beta) / (p.concentration1 + p.concentration0 + 1) + E_beta.pow(2)) * 0.5
    t4 = q.loc * E_beta
    t5 = q.loc.pow(2) * 0.5
    return t1 + t2 + (t3 - t4 + t5) / var_normal


@register_kl(Beta, Uniform)
def _kl_beta_uniform(p, q):
    """-H(p) + log(high - low), inf unless [low, high] covers [0, 1]."""
    result = -p.entropy() + (q.high - q.low).log()
    return _inf_where((q.low > p.support.lower_bound) | (q.high < p.support.upper_bound), result)


@register_kl(ContinuousBernoulli, Exponential)
def _kl_continuous_bernoulli_exponential(p, q):
    """-H(p) - log rate + rate E_p[X]."""
    return -p.entropy() - torch.log(q.rate) + q.rate * p.mean


@register_kl(ContinuousBernoulli, Normal)
def _kl_continuous_bernoulli_normal(p, q):
    """-H(p) + 0.5 log(2 pi s^2) + E_p[(X - loc)^2] / (2 s^2)."""
    t1 = -p.entropy()
    t2 = 0.5 * (math.log(2.0 * math.pi) + torch.square(q.loc / q.scale)) + torch.log(q.scale)
    t3 = (p.variance + torch.square(p.mean) - 2.0 * q.loc * p.mean) / (2.0 * torch.square(q.scale))
    return t1 + t2 + t3


@register_kl(ContinuousBernoulli, Uniform)
def _kl_continuous_bernoulli_uniform(p, q):
    """log(high - low) - H(p), infinite unless [low, high] covers [0, 1] (as upstream: where an end lies
    exactly on 0 or 1 too)."""
    result = -p.entropy() + (q.high - q.low).log()
    return _inf_where(torch.ge(q.low, p.support.lower_bound) | torch.le(q.high, p.support.upper_bound), result)


@register_kl(Exponential, Gamma)
def _kl_exponential_gamma(p, q):
    """-H(p) + log Gamma(a) - a log b - (a - 1) E_p[log X] + b E_p[X], E_p[log X] = -gamma - log rate_p."""
    ratio = q.rate / p.rate
    t1 = -q.concentration * torch.log(ratio)
    return t1 + ratio + q.concentration.lgamma() + q.concentration * _euler_gamma - (1 + _euler_gamma)


@register_kl(Exponential, Gumbel)
def _kl_exponential_gumbel(p, q):
    """-H(p) + log s + E_p[(X - loc) / s] + E_p[exp(-(X - loc) / s)] (the latter by p's Laplace transform)."""
    scale_rate_prod = p.rate * q.scale
    loc_scale_ratio = q.loc / q.scale
    t1 = scale_rate_prod.log() - 1
    t2 = torch.exp(loc_scale_ratio) * scale_rate_prod / (scale_rate_prod + 1)
    t3 = scale_rate_prod.reciprocal()
    return t1 - loc_scale_ratio + t2 + t3


@register_kl(Exponential, Normal)
def _kl_exponential_normal(p, q):
    """-H(p) + 0.5 log(2 pi s^2) + E_p[(X - loc)^2] / (2 s^2)."""
    var_normal = q.scale.pow(2)
    rate_sqr = p.rate.pow(2)
    t1 = 0.5 * torch.log(rate_sqr * var_normal * 2 * math.pi)
    t2 = rate_sqr.reciprocal()
    t3 = q.loc / p.rate
    t4 = q.loc.pow(2) * 0.5
    return t1 - 1 + (t2 - t3 + t4) / var_normal


@register_kl(Gamma, Exponential)
def _kl_gamma_exponential(p, q):
    """-H(p) - log rate + rate E_p[X]."""
    return -p.entropy() - q.rate.log() + q.rate * p.concentration / p.rate


@register_kl(Gamma, Gumbel)
def _kl_gamma_gumbel(p, q):
    """-H(p) + log s + E_p[(X - loc) / s] + E_p[exp(-(X - loc) / s)] (the latter by p's Laplace transform)."""
    beta_scale_prod = p.rate * q.scale
    loc_scale_ratio = q.loc / q.scale
    t1 = (p.concentration - 1) * p.concentration.digamma() - p.concentration.lgamma() - p.concentration
    t2 = beta_scale_prod.log() + p.concentration / beta_scale_prod
    t3 = torch.exp(loc_scale_ratio) * (1 + beta_scale_prod.reciprocal()).pow(-p.concentration) - loc_scale_ratio
    return t1 + t2 + t3


@register_kl(Gamma, Normal)
def _kl_gamma_normal(p, q):
    """-H(p) + 0.5 log(2 pi s^2) + E_p[(X - loc)^2] / (2 s^2)."""
    var_normal = q.scale.pow(2)
    beta_sqr = p.rate.pow(2)
    t1 = 0.5 * torch.log(beta_sqr * var_normal * 2 * math.pi) - p.concentration - p.concentration.lgamma()
    t2 = 0.5 * (p.concentration.pow(2) + p.concentration) / beta_sqr
    t3 = q.loc * p.concentration / p.rate
    t4 = 0.5 * q.loc.pow(2)
    return t1 + (p.concentration - 1) * p.concentration.digamma() + (t2 - t3 + t4) / var_normal


@register_kl(Gumbel, Normal)
def _kl_gumbel_normal(p, q):
    """-H(p) + 0.5 log(2 pi s^2) + E_p[(X - loc)^2] / (2 s^2), by the Gumbel's mean and variance."""
    param_ratio = p.scale / q.scale
    t1 = (param_ratio / math.sqrt(2 * math.pi)).log()
    t2 = (math.pi * param_ratio * 0.5).pow(2) / 3
    t3 = ((p.loc + p.scale * _euler_gamma - q.loc) / q.scale).pow(2) * 0.5
    return -t1 + t2 + t3 - (_euler_gamma + 1)


@register_kl(Laplace, Normal)
def _kl_laplace_normal(p, q):
    """-H(p) + 0.5 log(2 pi s^2) + E_p[(X - loc)^2] / (2 s^2), E_p[(X - loc_p)^2] = 2 b^2."""
    var_normal = q.scale.pow(2)
    scale_sqr_var_ratio = p.scale.pow(2) / var_normal
    t1 = 0.5 * torch.log(2 * scale_sqr_var_ratio / math.pi)
    t2 = 0.5 * p.loc.pow(2)
    t3 = p.loc * q.loc
    t4 = 0.5 * q.loc.pow(2)
    return -t1 + scale_sqr_var_ratio + (t2 - t3 + t4) / var_normal - 1


@register_kl(Normal, Gumbel)
def _kl_normal_gumbel(p, q):
    """-H(p) + log s + E_p[(X - loc) / s] + E_p[exp(-(X - loc) / s)] (the latter by p's moment generating
    function)."""
    mean_scale_ratio = p.loc / q.scale
    var_scale_sqr_ratio = (p.scale / q.scale).pow(2)
    loc_scale_ratio = q.loc / q.scale
    t1 = var_scale_sqr_ratio.log() * 0.5
    t2 = mean_scale_ratio - loc_scale_ratio
    t3 = torch.exp(-mean_scale_ratio + 0.5 * var_scale_sqr_ratio + loc_scale_ratio)
    return -t1 + t2 + t3 - (0.5 * (1 + math.log(2 * math.pi)))


@register_kl(Normal, Laplace)
def _kl_normal_laplace(p, q):
    """-H(p) + log(2 b) + E_p[|X - loc|] / b, E_p[|X - loc|] the folded normal's mean."""
    loc_diff = p.loc - q.loc
    scale_ratio = p.scale / q.scale
    loc_diff_scale_ratio = loc_diff / p.scale
    t1 = torch.log(scale_ratio)
    t2 = math.sqrt(2 / math.pi) * p.scale * torch.exp(-0.5 * loc_diff_scale_ratio.pow(2))
    t3 = loc_diff * torch.erf(math.sqrt(0.5) * loc_diff_scale_ratio)
    return -t1 + (t2 + t3) / q.scale - (0.5 * (1 + math.log(0.5 * math.pi)))


@register_kl(Pareto, Exponential)
def _kl_pareto_exponential(p, q):
    """-H(p) - log rate + rate E_p[X]; inf where alpha <= 1 (p has no mean)."""
    scale_rate_prod = p.scale * q.rate
    t1 = (p.alpha / scale_rate_prod).log()
    t2 = p.alpha.reciprocal()
    t3 = p.alpha * scale_rate_prod / (p.alpha - 1)
    return _inf_where(p.alpha <= 1, t1 - t2 + t3 - 1)


@register_kl(Pareto, Gamma)
def _kl_pareto_gamma(p, q):
    """-H(p) + log Gamma(a) - a log b - (a - 1) E_p[log X] + b E_p[X]; inf where alpha <= 1 (no mean)."""
    common_term = p.scale.log() + p.alpha.reciprocal()
    t1 = p.alpha.log() - common_term
    t2 = q.concentration.lgamma() - q.concentration * q.rate.log()
    t3 = (1 - q.concentration) * common_term
    t4 = q.rate * p.alpha * p.scale / (p.alpha - 1)
    return _inf_where(p.alpha <= 1, t1 + t2 + t3 + t4 - 1)


@register_kl(Pareto, Normal)
def _kl_pareto_normal(p, q):
    """-H(p) + 0.5 log(2 pi s^2) + E_p[(X - loc)^2] / (2 s^2); inf where alpha <= 2 (no variance)."""
    var_normal = 2 * q.scale.pow(2)
    common_term = p.scale / (p.alpha - 1)
    t1 = (math.sqrt(2 * math.pi) * q.scale * p.alpha / p.scale).log()
    t2 = p.alpha.reciprocal()
    t3 = p.alpha * common_term.pow(2) / (p.alpha - 2)
    t4 = (p.alpha * common_term - q.loc).pow(2)
    return _inf_where(p.alpha <= 2, t1 - t2 + (t3 + t4) / var_normal - 1)


@register_kl(Uniform, Beta)
def _kl_uniform_beta(p, q):
    """-log(high - low) - E_p[log q(X)] (E_p[log X] by x log x at the ends), inf unless [low, high] lies
    in [0, 1]."""
    common_term = p.high - p.low
    t1 = torch.log(common_term)
    t2 = (q.concentration1 - 1) * (_x_log_x(p.high) - _x_log_x(p.low) - common_term) / common_term
    t3 = (q.concentration0 - 1) * (_x_log_x(1 - p.high) - _x_log_x(1 - p.low) + common_term) / common_term
    t4 = q.concentration1.lgamma() + q.concentration0.lgamma() - (q.concentration1 + q.concentration0).lgamma()
    result = t3 + t4 - t1 - t2
    return _inf_where((p.high > q.support.upper_bound) | (p.low < q.support.lower_bound), result)


@register_kl(Uniform, ContinuousBernoulli)
def _kl_uniform_continuous_bernoulli(p, q):
    """-H(p) - E_p[log q], infinite where [low, high] is not inside [0, 1] (as upstream: where an end lies
    exactly on 0 or 1 too)."""
    result = -p.entropy() - p.mean * q.logits - torch.log1p(-q.probs) - q._cont_bern_log_norm()
    return _inf_where(torch.ge(p.high, q.support.upper_bound) | torch.le(p.low, q.support.lower_bound), result)


@register_kl(Uniform, Exponential)
def _kl_uniform_exponential(p, q):
    """rate E_p[X] - log((high - low) rate), inf where low < 0."""
    result = q.rate * (p.high + p.low) / 2 - ((p.high - p.low) * q.rate).log()
    return _inf_where(p.low < q.support.lower_bound, result)


@register_kl(Uniform, Gamma)
def _kl_uniform_gamma(p, q):
    """-log(high - low) + log Gamma(a) - a log b - (a - 1) E_p[log X] + b E_p[X], inf where low < 0."""
    common_term = p.high - p.low
    t1 = common_term.log()
    t2 = q.concentration.lgamma() - q.concentration * q.rate.log()
    t3 = (1 - q.concentration) * (_x_log_x(p.high) - _x_log_x(p.low) - common_term) / common_term
    t4 = q.rate * (p.high + p.low) / 2
    return _inf_where(p.low < q.support.lower_bound, -t1 + t2 + t3 + t4)


@register_kl(Uniform, Gumbel)
def _kl_uniform_gumbel(p, q):
    """-log(high - low) + log s + E_p[(X - loc) / s] + E_p[exp(-(X - loc) / s)]."""
    common_term = q.scale / (p.high - p.low)
    high_loc_diff = (p.high - q.loc) / q.scale
    low_loc_diff = (p.low - q.loc) / q.scale
    t1 = common_term.log() + 0.5 * (high_loc_diff + low_loc_diff)
    t2 = common_term * (torch.exp(-high_loc_diff) - torch.exp(-low_loc_diff))
    return t1 - t2


@register_kl(Uniform, Normal)
def _kl_uniform_normal(p, q):
    """-log(high - low) + 0.5 log(2 pi s^2) + E_p[(X - loc)^2] / (2 s^2)."""
    common_term = p.high - p.low
    t1 = (math.sqrt(math.pi * 2) * q.scale / common_term).log()
    t2 = common_term.pow(2) / 12
    t3 = ((p.high + p.low - 2 * q.loc) / 2).pow(2)
    return t1 + 0.5 * (t2 + t3) / q.scale.pow(2)


@register_kl(Uniform, Pareto)
def _kl_uniform_pareto(p, q):
    """-log(high - low) - log(alpha scale^alpha) + (alpha + 1) E_p[log X], inf where low < scale."""
    support_uniform = p.high - p.low
    t1 = (q.alpha * q.scale.pow(q.alpha) * support_uniform).log()
    t2 = (_x_log_x(p.high) - _x_log_x(p.low) - support_uniform) / support_uniform
    return _inf_where(p.low < q.support.lower_bound, t2 * (q.alpha + 1) - t1)


# ---------------------------------------------------------------------------------------------------------------
# +inf: p puts mass where q has none (the real line or a half-line against a bounded or half-line support,
# [0, 1] against Pareto's [scale, inf) with scale > 0, counts above 1 against Bernoulli's {0, 1}, unbounded
# counts against Binomial's {0..n})
# ---------------------------------------------------------------------------------------------------------------


@register_kl(Beta, Pareto)
def _kl_beta_infinity(p, q):
    """Beta on [0, 1] against Pareto on [scale, inf): +inf."""
    return _infinite_like(p.concentration1)


@register_kl(ContinuousBernoulli, Pareto)
def _kl_continuous_bernoulli_infinity(p, q):
    """ContinuousBernoulli on [0, 1] against Pareto on [scale, inf): +inf."""
    return _infinite_like(p.probs)


@register_kl(Exponential, Beta)
@register_kl(Exponential, ContinuousBernoulli)
@register_kl(Exponential, Pareto)
@register_kl(Exponential, Uniform)
def _kl_exponential_infinity(p, q):
    """Exponential on [0, inf) against a bounded support or Pareto's [scale, inf): +inf."""
    return _infinite_like(p.rate)


@register_kl(Gamma, Beta)
@register_kl(Gamma, ContinuousBernoulli)
@register_kl(Gamma, Pareto)
@register_kl(Gamma, Uniform)
def _kl_gamma_infinity(p, q):
    """Gamma on (0, inf) against a bounded support or Pareto's [scale, inf): +inf."""
    return _infinite_like(p.concentration)


@register_kl(Gumbel, Beta)
@register_kl(Gumbel, ContinuousBernoulli)
@register_kl(Gumbel, Exponential)
@register_kl(Gumbel, Gamma)
@register_kl(Gumbel, Pareto)
@register_kl(Gumbel, Uniform)
@register_kl(Laplace, Beta)
@register_kl(Laplace, ContinuousBernoulli)
@register_kl(Laplace, Exponential)
@register_kl(Laplace, Gamma)
@register_kl(Laplace, Pareto)
@register_kl(Laplace, Uniform)
@register_kl(Normal, Beta)
@register_kl(Normal, ContinuousBernoulli)
@register_kl(Normal, Exponential)
@register_kl(Normal, Gamma)
@register_kl(Normal, Pareto)
@register_kl(Normal, Uniform)
def _kl_real_infinity(p, q):
    """A density on the whole real line (Gumbel, Laplace, Normal) against one on a bounded interval or a
    half-line: +inf."""
    return _infinite_like(p.loc)


@register_kl(Pareto, Beta)
@register_kl(Pareto, ContinuousBernoulli)
@register_kl(Pareto, Uniform)
def _kl_pareto_infinity(p, q):
    """Pareto on [scale, inf) against a bounded support: +inf."""
    return _infinite_like(p.scale)


@register_kl(Poisson, Bernoulli)
@register_kl(Poisson, Binomial)
def _kl_poisson_infinity(p, q):
    """Poisson on all counts against Bernoulli's {0, 1} or Binomial's {0, ..., n}: +inf."""
    return _infinite_like(p.rate)


def _add_kl_info():
    """Appends the registered pairs to kl_divergence's docstring (as upstream's Sphinx page lists them)."""
    rows = ["KL divergence is currently implemented for the following distribution pairs:"]
    for p, q in sorted(_KL_REGISTRY, key=lambda pq: (pq[0].__name__, pq[1].__name__)):
        rows.append(f"* :class:`~torch.distributions.{p.__name__}` and :class:`~torch.distributions.{q.__name__}`")
    if kl_divergence.__doc__:  # a paragraph and a bullet list, indented as the docstring's own lines
        kl_divergence.__doc__ += "\n\n    " + rows[0] + "\n\n" + "".join(f"    {row}\n" for row in rows[1:])


_add_kl_info()
