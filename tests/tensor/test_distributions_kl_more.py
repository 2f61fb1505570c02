"""The KL divergences of torch.distributions.kl beyond the first pairs: every pair upstream 2.13 registers
(Binomial, Cauchy, Geometric, Gumbel, HalfNormal, Pareto, TransformedDistribution, the cross-family closed
forms and the pairs whose KL is infinite), the lookup (most specific pair, ambiguity warning, memo cleared by
register_kl, NotImplementedError), and Uniform's parameter constraints.

Each closed form is checked, batch entry by batch entry over broadcast parameters, against SciPy: the
integral (or sum) of p log(p / q) with scipy.stats' densities, +inf where p has mass outside q's support; and
against a seeded Monte Carlo mean of log p(X) - log q(X) within 6 of its standard errors (a bound a correct
formula misses with probability ~1e-9, whatever the seed). Runs against upstream PyTorch too
(TORCH_REFERENCE)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import torch
from torch.distributions import (
    Bernoulli,
    Beta,
    Binomial,
    Cauchy,
    ContinuousBernoulli,
    Distribution,
    Exponential,
    Gamma,
    Geometric,
    Gumbel,
    HalfNormal,
    Independent,
    Laplace,
    LogNormal,
    Normal,
    Pareto,
    Poisson,
    TransformedDistribution,
    Uniform,
    constraints,
    kl_divergence,
    register_kl,
)
from torch.distributions import kl as kl_module
from torch.distributions.transforms import AffineTransform, ExpTransform

F64 = torch.float64
integrate, st = pytest.importorskip("scipy.integrate"), pytest.importorskip("scipy.stats")


def t(values):
    return torch.tensor(values, dtype=F64)


# family -> (torch class, scipy frozen distribution from one batch entry's parameters)
FAMILIES = {
    "Normal": (Normal, lambda loc, scale: st.norm(loc, scale)),
    "Laplace": (Laplace, lambda loc, scale: st.laplace(loc, scale)),
    "Gumbel": (Gumbel, lambda loc, scale: st.gumbel_r(loc, scale)),
    "Cauchy": (Cauchy, lambda loc, scale: st.cauchy(loc, scale)),
    "HalfNormal": (HalfNormal, lambda scale: st.halfnorm(scale=scale)),
    "LogNormal": (LogNormal, lambda loc, scale: st.lognorm(s=scale, scale=math.exp(loc))),
    "Exponential": (Exponential, lambda rate: st.expon(scale=1 / rate)),
    "Gamma": (Gamma, lambda a, rate: st.gamma(a, scale=1 / rate)),
    "Beta": (Beta, lambda a, b: st.beta(a, b)),
    "Uniform": (Uniform, lambda low, high: st.uniform(low, high - low)),
    "Pareto": (Pareto, lambda scale, alpha: st.pareto(alpha, scale=scale)),
    "Bernoulli": (Bernoulli, lambda probs: st.bernoulli(probs)),
    "Binomial": (Binomial, lambda n, probs: st.binom(int(n), probs)),
    "Geometric": (Geometric, lambda probs: st.geom(probs, loc=-1)),  # failures before the first success
    "Poisson": (Poisson, lambda rate: st.poisson(rate)),
}
DISCRETE = {"Bernoulli", "Binomial", "Geometric", "Poisson"}

# (p family, p parameters, q family, q parameters). p's parameters broadcast to a (2, 3) batch; q's are of
# batch (3,) (broadcast against p's) except where upstream's formula needs q's batch to be the whole one (a
# mask from q's parameters alone). Entries out of q's support (or, for Pareto, without the moment the formula
# needs) are +inf.
PAIRS = {
    # two of one family
    "binomial": ("Binomial", ([[10.0], [7.0]], [0.2, 0.5, 0.7]), "Binomial", ([7.0, 7.0, 7.0], [0.3, 0.5, 0.6])),
    "cauchy": ("Cauchy", ([[0.0], [1.5]], [0.5, 1.0, 3.0]), "Cauchy", ([-1.0, 0.0, 2.0], [1.0, 0.3, 2.0])),
    "geometric": ("Geometric", ([[0.2, 0.5, 0.8], [0.3, 0.6, 0.9]],), "Geometric", ([0.4, 0.5, 0.1],)),
    "gumbel": ("Gumbel", ([[0.0], [1.5]], [0.5, 1.0, 3.0]), "Gumbel", ([-1.0, 0.0, 2.0], [1.0, 0.3, 2.0])),
    "halfnormal": ("HalfNormal", ([[0.5, 1.0, 3.0], [2.0, 0.2, 1.0]],), "HalfNormal", ([1.0, 0.3, 2.0],)),
    "pareto": ("Pareto", ([[1.0], [2.0]], [3.0, 1.5, 6.0]), "Pareto", ([1.5, 1.0, 0.5], [2.0, 4.0, 1.0])),
    "transformed": ("LogNormal", ([[0.0], [1.0]], [0.5, 1.0, 2.0]), "LogNormal", ([0.5, -1.0, 0.0], [1.0, 0.5, 3.0])),
    # two families with a closed form
    "bernoulli_poisson": ("Bernoulli", ([[0.1, 0.5, 0.9], [0.3, 0.0, 1.0]],), "Poisson", ([0.5, 1.0, 3.0],)),
    "beta_exponential": ("Beta", ([[2.0], [0.7]], [1.5, 3.0, 0.8]), "Exponential", ([0.5, 1.0, 3.0],)),
    "beta_gamma": ("Beta", ([[2.0], [1.7]], [1.5, 3.0, 1.2]), "Gamma", ([0.5, 2.0, 3.0], [1.0, 0.5, 2.0])),
    "beta_normal": ("Beta", ([[2.0], [0.7]], [1.5, 3.0, 0.8]), "Normal", ([0.0, 0.5, 2.0], [1.0, 0.3, 2.0])),
    "beta_uniform": ("Beta", ([2.0, 1.5, 3.0], [1.5, 3.0, 2.0]),
                     "Uniform", ([[-1.0, 0.0, 0.1], [-0.5, -2.0, 0.0]], [[2.0, 1.0, 1.0], [1.0, 3.0, 0.9]])),
    "exponential_gamma": ("Exponential", ([[0.5, 1.0, 3.0], [2.0, 0.2, 1.0]],),
                          "Gamma", ([0.5, 2.0, 3.0], [1.0, 0.5, 2.0])),
    "exponential_gumbel": ("Exponential", ([[0.5, 1.0, 3.0], [2.0, 0.2, 1.0]],),
                           "Gumbel", ([-1.0, 0.5, 2.0], [1.0, 2.0, 0.7])),
    "exponential_normal": ("Exponential", ([[0.5, 1.0, 3.0], [2.0, 0.2, 1.0]],),
                           "Normal", ([-1.0, 0.5, 2.0], [1.0, 2.0, 0.7])),
    "gamma_exponential": ("Gamma", ([[2.0], [0.7]], [1.5, 3.0, 0.8]), "Exponential", ([0.5, 1.0, 3.0],)),
    "gamma_gumbel": ("Gamma", ([[2.0], [1.7]], [1.5, 3.0, 0.8]), "Gumbel", ([-1.0, 0.5, 2.0], [1.0, 2.0, 0.7])),
    "gamma_normal": ("Gamma", ([[2.0], [1.7]], [1.5, 3.0, 0.8]), "Normal", ([-1.0, 0.5, 2.0], [1.0, 2.0, 0.7])),
    "gumbel_normal": ("Gumbel", ([[0.0], [1.5]], [0.5, 1.0, 3.0]), "Normal", ([-1.0, 0.0, 2.0], [1.0, 0.3, 2.0])),
    "laplace_normal": ("Laplace", ([[0.0], [1.5]], [0.5, 1.0, 3.0]), "Normal", ([-1.0, 0.0, 2.0], [1.0, 0.3, 2.0])),
    "normal_gumbel": ("Normal", ([[0.0], [1.5]], [0.5, 1.0, 3.0]), "Gumbel", ([-1.0, 0.0, 2.0], [1.0, 0.8, 2.0])),
    "normal_laplace": ("Normal", ([[0.0], [1.5]], [0.5, 1.0, 3.0]), "Laplace", ([-1.0, 0.0, 2.0], [1.0, 0.3, 2.0])),
    "pareto_exponential": ("Pareto", ([[1.0], [2.0]], [3.0, 0.8, 6.0]), "Exponential", ([0.5, 1.0, 3.0],)),
    "pareto_gamma": ("Pareto", ([[1.0], [2.0]], [3.0, 1.0, 6.0]), "Gamma", ([0.5, 2.0, 3.0], [1.0, 0.5, 2.0])),
    "pareto_normal": ("Pareto", ([[1.0], [2.0]], [3.0, 2.0, 6.0]), "Normal", ([-1.0, 0.5, 2.0], [1.0, 2.0, 0.7])),
    "uniform_beta": ("Uniform", ([[0.0], [0.2]], [0.5, 0.9, 1.2]), "Beta", ([2.0, 0.7, 3.0], [1.5, 3.0, 0.8])),
    "uniform_exponential": ("Uniform", ([[0.5], [-0.2]], [1.0, 2.0, 4.0]), "Exponential", ([0.5, 1.0, 3.0],)),
    "uniform_gamma": ("Uniform", ([[0.5], [-0.2]], [1.0, 2.0, 4.0]), "Gamma", ([0.5, 2.0, 3.0], [1.0, 0.5, 2.0])),
    "uniform_gumbel": ("Uniform", ([[0.5], [-2.0]], [1.0, 2.0, 4.0]), "Gumbel", ([-1.0, 0.5, 2.0], [1.0, 2.0, 0.7])),
    "uniform_normal": ("Uniform", ([[0.5], [-2.0]], [1.0, 2.0, 4.0]), "Normal", ([-1.0, 0.5, 2.0], [1.0, 2.0, 0.7])),
    "uniform_pareto": ("Uniform", ([[1.5], [0.8]], [2.0, 3.0, 5.0]), "Pareto", ([1.0, 1.5, 0.5], [2.0, 4.0, 1.0])),
}  # fmt: skip

# Pareto's KL to these is +inf where p lacks the moment q's log-density grows with: alpha <= this
PARETO_MOMENT = {"Exponential": 1.0, "Gamma": 1.0, "Normal": 2.0}


def build(family, params, **kwargs):
    return FAMILIES[family][0](*[t(v) for v in params], **kwargs)


def entries(family, params, shape):
    """The scipy distribution of each batch entry of the broadcast parameters, in row-major order."""
    arrays = np.broadcast_arrays(*[np.broadcast_to(np.asarray(v, dtype=np.float64), shape) for v in params])
    return [FAMILIES[family][1](*[float(a.flat[i]) for a in arrays]) for i in range(int(np.prod(shape)))]


def reference_kl(pf, pd, qf, qd, p_alpha=None):
    """KL(p || q) of two scipy distributions: inf where p's support leaves q's, else the integral (sum) of
    p log(p / q), integrated between p's quantiles so that no region of mass is skipped."""
    (pa, pb), (qa, qb) = pd.support(), qd.support()
    if pa < qa or pb > qb or (p_alpha is not None and p_alpha <= PARETO_MOMENT[qf]):
        return math.inf
    if pf in DISCRETE:
        ks = np.arange(pa, min(pb, 3 * pd.isf(1e-12) + 50) + 1)
        pmf = pd.pmf(ks)
        keep = pmf > 0
        return float(np.sum(pmf[keep] * (pd.logpmf(ks[keep]) - qd.logpmf(ks[keep]))))

    def integrand(x):
        log_p = pd.logpdf(x)
        return 0.0 if log_p == -math.inf else math.exp(log_p) * (log_p - qd.logpdf(x))

    # between p's quantiles 1e-30 and 1 - 1e-30 (or what of them lies strictly inside p's support: a density
    # with a pole at an end, Beta's below 1, is not evaluated there); far tails matter where q's log density
    # grows fast (a normal against a narrow Gumbel, a Pareto against a normal)
    levels = [1e-30, 1e-15, 1e-9, 1e-5, 1e-3, 0.01, 0.1, 0.25]
    cuts = {float(pd.median()), *(float(pd.ppf(u)) for u in levels), *(float(pd.isf(u)) for u in levels)}
    cuts = sorted(c for c in cuts if pa < c < pb)
    total = 0.0
    for a, b in zip(cuts, cuts[1:]):
        with warnings.catch_warnings():  # the far tails' pieces warn of slow convergence of what is ~1e-16
            warnings.simplefilter("ignore", integrate.IntegrationWarning)
            value, abserr = integrate.quad(integrand, a, b, limit=200, epsabs=1e-13, epsrel=1e-11)
        assert abserr < 1e-10
        total += value
    return total


def expected(name):
    pf, pp, qf, qp = PAIRS[name]
    p, q = build(pf, pp), build(qf, qp)
    shape = torch.broadcast_shapes(p.batch_shape, q.batch_shape)
    alphas = [float(a) for a in p.alpha.expand(shape).reshape(-1)] if pf == "Pareto" and qf != "Pareto" else None
    ps, qs = entries(pf, pp, shape), entries(qf, qp, shape)
    want = [reference_kl(pf, a, qf, b, None if alphas is None else alphas[i]) for i, (a, b) in enumerate(zip(ps, qs))]
    return p, q, np.array(want).reshape(tuple(shape))


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_closed_form_matches_scipy(name):
    p, q, want = expected(name)
    got = kl_divergence(p, q)
    assert got.shape == want.shape and got.dtype == F64
    got = got.detach().numpy()
    assert np.array_equal(np.isinf(got), np.isinf(want)), (got, want)
    assert (got[np.isinf(got)] > 0).all()
    np.testing.assert_allclose(got[np.isfinite(want)], want[np.isfinite(want)], rtol=1e-6, atol=1e-9)


# Pareto against Normal needs E[X^4] for the Monte Carlo variance to be finite: those batch entries are left
# to the SciPy test (their closed form is checked there).
MC_SKIP_FINITE_BELOW = {"pareto_normal": 4.5, "pareto_exponential": 2.5, "pareto_gamma": 2.5}


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_closed_form_matches_monte_carlo(name):
    pf, pp, qf, qp = PAIRS[name]
    p, q = build(pf, pp), build(qf, qp)
    kl = kl_divergence(p, q).detach()
    torch.manual_seed(0)
    n = 200_000
    x = p.expand(kl.shape).sample((n,))
    Distribution.set_default_validate_args(False)  # samples out of q's support, where the KL is inf, are ignored
    try:
        log_ratio = p.log_prob(x) - build(qf, qp).log_prob(x)
    finally:
        Distribution.set_default_validate_args(True)
    estimate, stderr = log_ratio.mean(0), log_ratio.std(0) / math.sqrt(n)
    check = torch.isfinite(kl)
    if name in MC_SKIP_FINITE_BELOW:
        check &= p.alpha.expand(kl.shape) > MC_SKIP_FINITE_BELOW[name]
    assert check.sum() >= 2
    err = (kl - estimate).abs()[check]
    assert (err <= 6 * stderr[check] + 1e-9).all(), (kl, estimate, stderr)


INFINITE = {
    "beta_pareto": (Beta(t([2.0, 0.5, 1.0]), t([1.0, 3.0, 0.5])), Pareto(t([0.5]), t([2.0]))),
    "exponential_beta": (Exponential(t([0.5, 1.0, 3.0])), Beta(t([2.0]), t([1.0]))),
    "exponential_pareto": (Exponential(t([0.5, 1.0, 3.0])), Pareto(t([0.5]), t([2.0]))),
    "exponential_uniform": (Exponential(t([0.5, 1.0, 3.0])), Uniform(t([-10.0]), t([100.0]))),
    "gamma_beta": (Gamma(t([2.0, 0.5, 1.0]), t([1.0])), Beta(t([2.0]), t([1.0]))),
    "gamma_pareto": (Gamma(t([2.0, 0.5, 1.0]), t([1.0])), Pareto(t([0.5]), t([2.0]))),
    "gamma_uniform": (Gamma(t([2.0, 0.5, 1.0]), t([1.0])), Uniform(t([-10.0]), t([100.0]))),
    "pareto_beta": (Pareto(t([0.1, 0.5, 0.9]), t([2.0])), Beta(t([2.0]), t([1.0]))),
    "pareto_continuous_bernoulli": (Pareto(t([0.1, 0.5, 0.9]), t([2.0])), ContinuousBernoulli(t([0.3]))),
    "pareto_uniform": (Pareto(t([0.1, 0.5, 0.9]), t([2.0])), Uniform(t([0.0]), t([100.0]))),
    "poisson_bernoulli": (Poisson(t([0.01, 0.5, 3.0])), Bernoulli(t([0.5]))),
    "poisson_binomial": (Poisson(t([0.01, 0.5, 3.0])), Binomial(t([1000.0]), t([0.5]))),
}
for _real in ("Gumbel", "Laplace", "Normal"):
    for _q in (
        Beta(t([2.0]), t([1.0])),
        ContinuousBernoulli(t([0.3])),
        Exponential(t([1.0])),
        Gamma(t([2.0]), t([1.0])),
        Pareto(t([0.5]), t([2.0])),
        Uniform(t([-100.0]), t([100.0])),
    ):
        INFINITE[f"{_real.lower()}_{type(_q).__name__.lower()}"] = (
            FAMILIES[_real][0](t([0.0, 0.5, 1.0]), t([1.0, 0.1, 2.0])),
            _q,
        )


@pytest.mark.parametrize("name", sorted(INFINITE))
def test_disjoint_supports_are_infinite(name):
    p, q = INFINITE[name]
    got = kl_divergence(p, q)
    assert got.shape == (3,) and got.dtype == F64
    assert torch.isinf(got).all() and (got > 0).all()


def test_every_upstream_pair_is_registered():
    names = {(a.__name__, b.__name__) for a, b in kl_module._KL_REGISTRY}
    for name, (pf, _, qf, _) in PAIRS.items():
        if name == "transformed":
            pf = qf = "TransformedDistribution"
        assert (pf, qf) in names
    for p, q in INFINITE.values():
        assert (type(p).__name__, type(q).__name__) in names
    assert len(names) == 87


def test_partial_supports_mix_finite_and_infinite():
    p = Uniform(t([0.0, -1.0, 0.5]), t([1.0, 1.0, 2.0]))
    got = kl_divergence(p, Exponential(t([2.0])))
    assert torch.isinf(got[1]) and torch.isfinite(got[[0, 2]]).all()
    got = kl_divergence(Pareto(t([1.0, 0.5]), t([3.0])), Pareto(t([0.8]), t([2.0])))
    assert torch.isfinite(got[0]) and torch.isinf(got[1])
    got = kl_divergence(Binomial(t([5.0, 6.0]), t([0.5])), Binomial(t([5.0]), t([0.4])))
    assert torch.isfinite(got[0]) and torch.isinf(got[1])


def test_bernoulli_against_a_certain_q():
    got = kl_divergence(Bernoulli(t([0.0, 0.3, 1.0, 0.3, 0.0, 1.0])), Bernoulli(t([0.0, 0.0, 1.0, 1.0, 0.5, 0.5])))
    torch.testing.assert_close(got, t([0.0, math.inf, 0.0, math.inf, math.log(2), math.log(2)]))


def test_binomial_with_more_trials_in_q_is_not_implemented():
    with pytest.raises(NotImplementedError, match="q.total_count > p.total_count"):
        kl_divergence(Binomial(t([5.0, 8.0]), t([0.5])), Binomial(t([6.0]), t([0.5])))


def test_geometric_equals_its_series():
    p, q = Geometric(t([0.3])), Geometric(t([0.6]))
    k = np.arange(0, 400)
    want = np.sum(st.geom.pmf(k, 0.3, loc=-1) * (st.geom.logpmf(k, 0.3, loc=-1) - st.geom.logpmf(k, 0.6, loc=-1)))
    np.testing.assert_allclose(kl_divergence(p, q).item(), want, rtol=1e-10)


def test_transformed_distributions_take_their_bases_kl():
    loc, scale = t([[0.0], [1.0]]), t([0.5, 2.0])
    p, q = LogNormal(loc, scale), LogNormal(t([0.3, -0.2]), t([1.0, 0.7]))
    torch.testing.assert_close(
        kl_divergence(p, q), kl_divergence(Normal(loc, scale), Normal(t([0.3, -0.2]), t([1.0, 0.7])))
    )
    # a TransformedDistribution spelled out is LogNormal's pair too
    spelled = TransformedDistribution(Normal(t([0.3, -0.2]), t([1.0, 0.7])), [ExpTransform()])
    torch.testing.assert_close(kl_divergence(p, spelled), kl_divergence(p, q))
    # other transforms: no closed form
    with pytest.raises(NotImplementedError):
        kl_divergence(p, TransformedDistribution(Normal(t([0.0]), t([1.0])), [AffineTransform(1.0, 2.0)]))
    with pytest.raises(NotImplementedError):
        kl_divergence(LogNormal(t([0.0]), t([1.0])), Gumbel(t([0.0]), t([1.0])))


def test_halfnormal_is_the_normals_kl():
    p, q = HalfNormal(t([[0.5], [2.0]])), HalfNormal(t([1.0, 0.3, 4.0]))
    torch.testing.assert_close(kl_divergence(p, q), kl_divergence(Normal(0.0, p.scale), Normal(0.0, q.scale)))


def test_independent_sums_the_new_pairs():
    loc, scale = t([[0.0, 1.0, -1.0], [0.5, 0.0, 2.0]]), t([1.0, 0.5, 2.0])
    p = Independent(Gumbel(loc, scale), 1)
    q = Independent(Normal(t([0.2, 0.0, 1.0]), t([1.5, 1.0, 0.7])), 1)
    got = kl_divergence(p, q)
    assert got.shape == (2,)
    torch.testing.assert_close(got, kl_divergence(p.base_dist, q.base_dist).sum(-1))
    with pytest.raises(NotImplementedError):
        kl_divergence(p, Independent(Normal(t([[0.0]]), t([[1.0]])), 2))


@pytest.mark.parametrize(
    "p, q",
    [
        (Cauchy(0.0, 1.0), Normal(0.0, 1.0)),
        (Normal(0.0, 1.0), Cauchy(0.0, 1.0)),
        (Beta(2.0, 2.0), Laplace(0.0, 1.0)),
        (Laplace(0.0, 1.0), Gumbel(0.0, 1.0)),
        (Geometric(0.5), Poisson(1.0)),
    ],
)
def test_unregistered_pairs_raise(p, q):
    with pytest.raises(NotImplementedError, match=f"p type {type(p).__name__} and q type {type(q).__name__}"):
        kl_divergence(p, q)


def test_different_exponential_families_raise():
    with pytest.raises(NotImplementedError, match="exponential families"):
        kl_divergence(ContinuousBernoulli(t([0.3])), Beta(t([2.0]), t([1.0])))


def test_kl_has_gradients():
    loc, scale = t([0.3, -1.0]).requires_grad_(), t([0.8, 1.5]).requires_grad_()
    q = Normal(t([0.0, 1.0]), t([1.0, 2.0]))

    def f(loc, scale):
        return kl_divergence(Gumbel(loc, scale), q).sum()

    f(loc, scale).backward()
    eps = 1e-6
    for param, grad, i in [(loc, loc.grad, 0), (loc, loc.grad, 1), (scale, scale.grad, 0), (scale, scale.grad, 1)]:
        with torch.no_grad():
            hi, lo = param.detach().clone(), param.detach().clone()
            hi[i] += eps
            lo[i] -= eps
            args_hi = (hi, scale.detach()) if param is loc else (loc.detach(), hi)
            args_lo = (lo, scale.detach()) if param is loc else (loc.detach(), lo)
            numeric = (f(*args_hi) - f(*args_lo)) / (2 * eps)
        np.testing.assert_allclose(grad[i].item(), numeric.item(), rtol=1e-6, atol=1e-8)


class _MyNormal(Normal):
    pass


class _MyOtherNormal(Normal):
    pass


def _unregister(*pairs):
    for pair in pairs:
        kl_module._KL_REGISTRY.pop(pair, None)
    kl_module._KL_MEMOIZE.clear()


def test_lookup_takes_the_most_specific_pair():
    p, q = _MyNormal(t([0.0]), t([1.0])), _MyOtherNormal(t([1.0]), t([2.0]))
    want = kl_divergence(Normal(t([0.0]), t([1.0])), Normal(t([1.0]), t([2.0])))
    torch.testing.assert_close(kl_divergence(p, q), want)  # through (Normal, Normal); memoized now
    try:

        @register_kl(_MyNormal, Normal)
        def _kl_mine(p, q):
            return torch.full_like(p.loc, 7.0)

        assert kl_divergence(p, q).item() == 7.0  # register_kl cleared the memo
        assert kl_divergence(q, p).item() == pytest.approx(kl_divergence(Normal(1.0, 2.0), Normal(0.0, 1.0)).item())
    finally:
        _unregister((_MyNormal, Normal))
    torch.testing.assert_close(kl_divergence(p, q), want)


def test_ambiguous_lookup_warns():
    p, q = _MyNormal(t([0.0]), t([1.0])), _MyOtherNormal(t([1.0]), t([2.0]))
    try:
        register_kl(_MyNormal, Normal)(lambda p, q: torch.full_like(p.loc, 1.0))
        register_kl(Normal, _MyOtherNormal)(lambda p, q: torch.full_like(p.loc, 2.0))
        with pytest.warns(RuntimeWarning, match="Ambiguous kl_divergence"):
            got = kl_divergence(p, q)
        assert got.item() == 1.0  # the most specific in p wins
        register_kl(_MyNormal, _MyOtherNormal)(lambda p, q: torch.full_like(p.loc, 3.0))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert kl_divergence(p, q).item() == 3.0
    finally:
        _unregister((_MyNormal, Normal), (Normal, _MyOtherNormal), (_MyNormal, _MyOtherNormal))


def test_register_kl_wants_types():
    with pytest.raises(TypeError):
        register_kl(Normal(0.0, 1.0), Normal)


def test_kl_divergence_lists_the_pairs():
    assert "* :class:`~torch.distributions.Gumbel` and :class:`~torch.distributions.Normal`" in kl_divergence.__doc__


# Uniform's parameters: each bounded by the other, as upstream 2.13


def test_uniform_arg_constraints_bound_each_other():
    assert isinstance(Uniform.__dict__["arg_constraints"], property)
    u = Uniform(t([0.0, 1.0]), t([2.0, 3.0]))
    lo, hi = u.arg_constraints["low"], u.arg_constraints["high"]
    assert type(lo) is type(constraints.less_than(0.0)) and type(hi) is type(constraints.greater_than(0.0))
    torch.testing.assert_close(lo.upper_bound, u.high)
    torch.testing.assert_close(hi.lower_bound, u.low)
    assert repr(lo) == "LessThan(upper_bound=tensor([2., 3.], dtype=torch.float64))"
    assert constraints.is_dependent(Uniform.support)
    assert Uniform.support.is_discrete is False and Uniform.support.event_dim == 0
    e = u.expand((3, 2))
    assert e.arg_constraints["low"].upper_bound.shape == (3, 2)


@pytest.mark.parametrize(
    "low, high, shape",
    [(1.0, 0.0, ()), (1.0, 1.0, ()), ([0.0, 2.0], [1.0, 1.0], (2,)), (math.nan, 1.0, ()), (0.0, math.nan, ())],
)
def test_uniform_validates_low_below_high(low, high, shape):
    with pytest.raises(ValueError, match=rf"Expected parameter low \(Tensor of shape {re_shape(shape)}\) .*LessThan"):
        Uniform(t(low), t(high), validate_args=True)
    Uniform(t(low), t(high), validate_args=False)  # not checked


def re_shape(shape):
    return "\\(" + ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + "\\)"


def test_uniform_mode_and_stddev():
    u = Uniform(t([0.0, 1.0]), t([2.0, 4.0]))
    assert torch.isnan(u.mode).all() and u.mode.shape == (2,)
    torch.testing.assert_close(u.stddev, t([2.0, 3.0]) / math.sqrt(12))
    with pytest.raises(ValueError, match="support"):
        u.cdf(t([5.0, 2.0]))


def test_dependent_constraints_are_not_checked_and_pareto_passes_validate_args_down():
    from torch.distributions import Distribution, Pareto, constraints

    class WithDependent(Distribution):
        arg_constraints = {"x": constraints.dependent}

        def __init__(self):
            self.x = torch.tensor(1.0)
            super().__init__(validate_args=True)

    WithDependent()  # a dependent constraint has nothing to check: upstream skips it
    value = Pareto(torch.tensor(1.0), torch.tensor(2.0), validate_args=False).log_prob(torch.tensor(0.5))
    assert torch.isfinite(value)  # outside the support, unvalidated: a value, as upstream
