"""The distributions that fill the gaps against upstream PyTorch: InverseGamma, GeneralizedPareto,
OneHotCategoricalStraightThrough and the ExponentialFamily base (with the families upstream derives from it,
their entropies and KL divergences by Bregman divergences); the modules upstream has that we group elsewhere
(torch.distributions.beta, chi2, gumbel, ...); expand of Gamma, Chi2 and TransformedDistribution.

Densities, distribution functions, moments and entropies against SciPy; samples' moments and
Kolmogorov-Smirnov statistics with a fixed seed and bounds of many standard errors; gradients by gradcheck in
float64 (or, where upstream cannot, against the derivative worked out by hand); argument and sample validation
with upstream's messages. Runs against upstream PyTorch too (TORCH_REFERENCE)."""

from __future__ import annotations

import importlib
import os

import numpy as np
import pytest

import torch
import torch.distributions as D
from torch.distributions import (
    Chi2,
    Gamma,
    GeneralizedPareto,
    InverseGamma,
    Normal,
    OneHotCategorical,
    OneHotCategoricalStraightThrough,
    constraints,
    kl_divergence,
)
from torch.distributions.exp_family import ExponentialFamily

st = pytest.importorskip("scipy.stats")
sp = pytest.importorskip("scipy.special")

F64 = torch.float64
# upstream PyTorch's _standard_gamma_grad is an approximation good to about 1e-3 (ours sums the series)
GRAD_RTOL = 2e-3 if "TORCH_REFERENCE" in os.environ else 1e-6


def t(values, dtype=F64):
    return torch.tensor(values, dtype=dtype)


# ------------------------------------------------------------------------------------- the names


def test_upstreams_names_and_modules():
    for name in [
        "InverseGamma", "GeneralizedPareto", "OneHotCategoricalStraightThrough", "ExponentialFamily", "biject_to",
        "transform_to", "CatTransform", "StackTransform", "ReshapeTransform", "CumulativeDistributionTransform",
        "LowerCholeskyTransform", "PositiveDefiniteTransform", "IndependentTransform", "constraint_registry",
        "exp_family", "inverse_gamma", "generalized_pareto",
    ]:  # fmt: skip
        assert hasattr(D, name), name
        assert name in D.__all__ or "_" in name, name  # the classes and functions; not the modules
    for module, name in [
        ("beta", "Beta"), ("chi2", "Chi2"), ("gumbel", "Gumbel"), ("half_cauchy", "HalfCauchy"),
        ("half_normal", "HalfNormal"), ("multinomial", "Multinomial"), ("pareto", "Pareto"), ("weibull", "Weibull"),
        ("inverse_gamma", "InverseGamma"), ("generalized_pareto", "GeneralizedPareto"),
        ("exp_family", "ExponentialFamily"), ("one_hot_categorical", "OneHotCategoricalStraightThrough"),
    ]:  # fmt: skip
        assert getattr(importlib.import_module(f"torch.distributions.{module}"), name) is getattr(D, name)
    assert D.biject_to is D.constraint_registry.biject_to and D.transform_to is D.constraint_registry.transform_to


# ------------------------------------------------------------------------------------- InverseGamma

IA, IB = np.array([0.7, 1.8, 4.0, 12.0]), np.array([1.5, 0.3, 2.0, 5.0])


def test_inverse_gamma_against_scipy():
    d = InverseGamma(t(IA), t(IB))
    assert d.batch_shape == (4,) and d.event_shape == () and d.has_rsample
    assert d.support is constraints.positive and isinstance(d.base_dist, Gamma)
    x = np.array([0.3, 0.05, 1.4, 0.6])
    ref = st.invgamma(IA, scale=IB)
    np.testing.assert_allclose(d.log_prob(t(x)).numpy(), ref.logpdf(x), rtol=1e-10)
    np.testing.assert_allclose(d.cdf(t(x)).numpy(), ref.cdf(x), rtol=1e-9)
    np.testing.assert_allclose(d.entropy().numpy(), ref.entropy(), rtol=1e-10)
    np.testing.assert_allclose(d.mode.numpy(), IB / (IA + 1), rtol=1e-14)
    mean, var = d.mean.numpy(), d.variance.numpy()
    assert np.isinf(mean[0]) and np.isinf(var[0]) and np.isinf(var[1])  # no mean below 1, no variance below 2
    np.testing.assert_allclose(mean[1:], ref.mean()[1:], rtol=1e-12)
    np.testing.assert_allclose(var[2:], ref.var()[2:], rtol=1e-12)
    # the mode is the density's maximum
    m = d.mode
    assert bool((d.log_prob(m * 1.01) < d.log_prob(m)).all() and (d.log_prob(m * 0.99) < d.log_prob(m)).all())


def test_inverse_gamma_samples():
    torch.manual_seed(0)
    a, b, n = 8.0, 3.0, 100_000
    x = InverseGamma(t(a), t(b)).sample((n,))
    assert x.shape == (n,) and bool((x > 0).all())
    x = x.numpy()
    mean, var = b / (a - 1), b**2 / ((a - 1) ** 2 * (a - 2))
    assert abs(x.mean() - mean) < 8 * np.sqrt(var / n)
    assert abs(x.var() / var - 1) < 0.1  # kurtosis 11.7 at a = 8: a relative standard error of 1%
    assert st.kstest(x, st.invgamma(a, scale=b).cdf).statistic < 8 / np.sqrt(n)


def test_inverse_gamma_gradients():
    a, b = t([1.5, 6.0]).requires_grad_(), t([0.8, 2.0]).requires_grad_()
    v = t([0.4, 0.9]).requires_grad_()
    assert torch.autograd.gradcheck(lambda a, b, v: InverseGamma(a, b).log_prob(v), (a, b, v))
    assert torch.autograd.gradcheck(lambda a, b: InverseGamma(a, b).entropy(), (a, b))
    # rsample: Y = rate / G for G ~ Gamma(a, 1), dG/da the implicit derivative of the gamma quantile
    torch.manual_seed(3)
    y = InverseGamma(a, b).rsample()
    grad_a, grad_b = torch.autograd.grad(y.sum(), (a, b))
    y, an, bn = y.detach().numpy(), a.detach().numpy(), b.detach().numpy()
    g = bn / y
    u, h = st.gamma.cdf(g, an), 1e-6
    dg_da = (st.gamma.ppf(u, an + h) - st.gamma.ppf(u, an - h)) / (2 * h)
    np.testing.assert_allclose(grad_b.numpy(), 1 / g, rtol=1e-12)
    np.testing.assert_allclose(grad_a.numpy(), -bn / g**2 * dg_da, rtol=max(GRAD_RTOL, 1e-5))


def test_inverse_gamma_expand_and_validation():
    d = InverseGamma(t([2.0, 3.0]), t([1.0, 0.5]), validate_args=True)
    e = d.expand((3, 2))
    assert type(e) is InverseGamma and e.batch_shape == (3, 2) and e._validate_args
    assert e.concentration.shape == (3, 2) and e.base_dist.batch_shape == (3, 2)
    torch.testing.assert_close(e.log_prob(t([0.5, 2.0])), d.log_prob(t([0.5, 2.0])).expand(3, 2))
    with pytest.raises(ValueError, match="Expected value argument"):
        d.log_prob(t([-1.0, 1.0]))
    with pytest.raises(ValueError, match=r"Expected parameter concentration .* to satisfy the constraint GreaterThan"):
        InverseGamma(t([-1.0]), t([1.0]), validate_args=True)
    with pytest.raises(ValueError, match="Expected parameter rate"):
        InverseGamma(t([1.0]), t([0.0]), validate_args=True)
    InverseGamma(t([-1.0]), t([1.0]), validate_args=False)


def test_gamma_and_chi2_expand():
    g = Gamma(t([1.0, 2.0]), t([3.0, 4.0]))
    e = g.expand((5, 2))
    assert type(e) is Gamma and e.batch_shape == (5, 2) and e.rate.shape == (5, 2)
    torch.testing.assert_close(e.log_prob(t(0.7)), g.log_prob(t(0.7)).expand(5, 2))
    c = Chi2(t([3.0]))
    e = c.expand((4, 1))
    assert type(e) is Chi2 and e.batch_shape == (4, 1) and e.df.shape == (4, 1)
    np.testing.assert_allclose(e.log_prob(t(1.5)).numpy(), st.chi2.logpdf(1.5, 3.0), rtol=1e-10)


# ------------------------------------------------------------------------------------- GeneralizedPareto

GL, GS, GC = [0.1, -1.0, 0.5, 2.0], [2.0, 0.5, 1.0, 3.0], [0.4, -0.3, 0.0, -1.0]


def test_generalized_pareto_against_scipy():
    # float32: upstream 2.13's log_prob compares concentration with a float32 zero and refuses float64
    d = GeneralizedPareto(t(GL, torch.float32), t(GS, torch.float32), t(GC, torch.float32))
    assert d.batch_shape == (4,) and d.has_rsample
    x = np.array([0.5, -0.8, 2.0, 4.5])
    ref = st.genpareto(np.array(GC), loc=np.array(GL), scale=np.array(GS))
    xt = t(x, torch.float32)
    np.testing.assert_allclose(d.log_prob(xt).numpy(), ref.logpdf(x), rtol=1e-5)
    np.testing.assert_allclose(d.cdf(xt).numpy(), ref.cdf(x), rtol=1e-5)
    np.testing.assert_allclose(d.log_cdf(xt).numpy(), ref.logcdf(x), rtol=1e-5)
    np.testing.assert_allclose(d.log_survival_function(xt).numpy(), ref.logsf(x), rtol=1e-5)
    q = np.array([0.2, 0.5, 0.9, 0.99])
    np.testing.assert_allclose(d.icdf(t(q, torch.float32)).numpy(), ref.ppf(q), rtol=1e-5)
    np.testing.assert_allclose(d.mean.numpy(), ref.mean(), rtol=1e-6)
    np.testing.assert_allclose(d.variance.numpy(), ref.var(), rtol=1e-6)
    np.testing.assert_allclose(d.entropy().numpy(), ref.entropy(), rtol=1e-5)
    assert d.mode.tolist() == t(GL, torch.float32).tolist()
    upper = d.support.upper_bound.numpy()
    np.testing.assert_allclose(upper, [np.inf, -1.0 + 0.5 / 0.3, np.inf, 5.0], rtol=1e-6)
    np.testing.assert_allclose(d.support.lower_bound.numpy(), GL)
    # no mean at concentration >= 1, no variance at >= 1/2: NaN
    heavy = GeneralizedPareto(t([0.0, 0.0]), t([1.0, 1.0]), t([1.0, 0.6]))
    assert np.isnan(heavy.mean.numpy()[0]) and np.isfinite(heavy.mean.numpy()[1])
    assert np.isnan(heavy.variance.numpy()).all()
    assert GeneralizedPareto(0.0, 1.0, 0.5).batch_shape == ()


def test_generalized_pareto_special_cases():
    f32 = torch.float32  # upstream 2.13's cdf refuses float64 too
    x = np.array([0.1, 1.0, 3.0])
    exp = GeneralizedPareto(t([0.0], f32), t([2.0], f32), t([0.0], f32))
    np.testing.assert_allclose(exp.cdf(t(x, f32)).numpy(), st.expon.cdf(x, scale=2.0), rtol=1e-6)
    np.testing.assert_allclose(exp.icdf(t([0.3], f32)).numpy(), st.expon.ppf(0.3, scale=2.0), rtol=1e-6)
    uniform = GeneralizedPareto(t([1.0], f32), t([2.0], f32), t([-1.0], f32))  # uniform on [1, 3]
    np.testing.assert_allclose(uniform.cdf(t([1.5, 2.5], f32)).numpy(), [0.25, 0.75], rtol=1e-6)
    np.testing.assert_allclose(uniform.log_prob(t([1.5, 2.5], f32)).numpy(), -np.log(2.0), rtol=1e-6)


@pytest.mark.parametrize("conc", [0.2, -0.3])
def test_generalized_pareto_samples(conc):
    torch.manual_seed(1)
    n, loc, scale = 100_000, 0.5, 2.0
    x = GeneralizedPareto(t(loc), t(scale), t(conc)).sample((n,)).numpy()
    ref = st.genpareto(conc, loc=loc, scale=scale)
    assert x.min() >= loc and (conc > 0 or x.max() <= loc - scale / conc)
    assert abs(x.mean() - ref.mean()) < 8 * np.sqrt(ref.var() / n)
    assert st.kstest(x, ref.cdf).statistic < 8 / np.sqrt(n)


def test_generalized_pareto_gradients():
    loc, scale, conc = t([0.1, -0.5]).requires_grad_(), t([2.0, 0.7]).requires_grad_(), t([0.3, -0.2])
    conc.requires_grad_()

    def draw(loc, scale, conc):
        torch.manual_seed(5)
        return GeneralizedPareto(loc, scale, conc).rsample((3,))

    assert torch.autograd.gradcheck(draw, (loc, scale, conc))
    assert torch.autograd.gradcheck(lambda s, c: GeneralizedPareto(0.0, s, c).entropy(), (scale, conc))
    # log_prob's gradient against the derivatives worked out by hand (float32: upstream refuses float64)
    f32 = [p.detach().float().requires_grad_() for p in (loc, scale, conc)]
    v = t([0.9, 0.4], torch.float32).requires_grad_()
    grads = torch.autograd.grad(GeneralizedPareto(*f32).log_prob(v).sum(), (*f32, v))
    mu, s, c, x = (p.detach().double().numpy() for p in (*f32, v))
    z = (x - mu) / s
    dx = -(c + 1) / (s * (1 + c * z))
    want = [-dx, -1 / s + (c + 1) * z / (s * (1 + c * z)), np.log1p(c * z) / c**2 - (1 + 1 / c) * z / (1 + c * z), dx]
    for got, w in zip(grads, want):
        np.testing.assert_allclose(got.numpy(), w, rtol=2e-5)


def test_generalized_pareto_expand_and_validation():
    d = GeneralizedPareto(t([0.0, 1.0]), t([1.0, 2.0]), t([-0.5, 0.2]), validate_args=True)
    e = d.expand((3, 2))
    assert type(e) is GeneralizedPareto and e.batch_shape == (3, 2) and e._validate_args
    assert e.concentration.shape == (3, 2)
    torch.testing.assert_close(e.icdf(t([0.3, 0.6])), d.icdf(t([0.3, 0.6])).expand(3, 2))
    with pytest.raises(ValueError, match="Expected value argument"):
        d.log_survival_function(t([2.5, 1.5]))  # above the first one's upper end, 0 + 1 / 0.5
    with pytest.raises(ValueError, match=r"Expected parameter scale .* to satisfy the constraint GreaterThan"):
        GeneralizedPareto(0.0, -1.0, 0.1, validate_args=True)
    assert GeneralizedPareto.arg_constraints["concentration"] is constraints.real
    assert constraints.is_dependent(GeneralizedPareto.support)


# ------------------------------------------------------------------------------------- straight through


def test_one_hot_categorical_straight_through():
    logits = t([[0.2, -1.0, 0.7], [1.5, 0.0, -0.3]]).requires_grad_()
    d = OneHotCategoricalStraightThrough(logits=logits)
    assert d.has_rsample and not OneHotCategorical(logits=logits).has_rsample
    assert isinstance(d, OneHotCategorical) and d.support is constraints.one_hot
    assert d.batch_shape == (2,) and d.event_shape == (3,)
    torch.manual_seed(0)
    s = d.rsample((4,))
    assert s.shape == (4, 2, 3) and bool(constraints.one_hot.check(s.detach()).all())
    w = t([0.5, -2.0, 1.0])
    (grad,) = torch.autograd.grad((s * w).sum(), logits)
    p = torch.softmax(logits.detach(), -1).numpy()
    jac_t_w = p * (w.numpy() - (p * w.numpy()).sum(-1, keepdims=True))  # softmax's Jacobian, transposed, on w
    np.testing.assert_allclose(grad.numpy(), 4 * jac_t_w, rtol=1e-12)
    plain = OneHotCategorical(logits=logits.detach())
    torch.testing.assert_close(d.log_prob(s.detach()), plain.log_prob(s.detach()))
    torch.testing.assert_close(d.entropy().detach(), plain.entropy())
    q = OneHotCategoricalStraightThrough(probs=t([0.2, 0.3, 0.5]))
    want = (p * (np.log(p) - np.log([0.2, 0.3, 0.5]))).sum(-1)
    np.testing.assert_allclose(kl_divergence(d, q).detach().numpy(), want, rtol=1e-10)
    # the samples' frequencies
    torch.manual_seed(2)
    n = 40_000
    freq = OneHotCategoricalStraightThrough(probs=t([0.1, 0.6, 0.3])).sample((n,)).mean(0).numpy()
    np.testing.assert_allclose(freq, [0.1, 0.6, 0.3], atol=8 * np.sqrt(0.25 / n))


# ------------------------------------------------------------------------------------- ExponentialFamily


def wishart(df, cov):
    return D.Wishart(t(df), covariance_matrix=t(cov))


EXPFAMILY = {
    "normal": lambda: Normal(t([0.3, -1.0]), t([0.5, 2.0])),
    "gamma": lambda: Gamma(t([0.7, 3.0]), t([1.5, 0.4])),
    "chi2": lambda: Chi2(t([2.5, 7.0])),
    "exponential": lambda: D.Exponential(t([0.3, 2.0])),
    "bernoulli": lambda: D.Bernoulli(t([0.2, 0.9])),
    "continuous_bernoulli": lambda: D.ContinuousBernoulli(t([0.2, 0.7])),
    "wishart": lambda: wishart(4.5, [[2.0, 0.3], [0.3, 1.0]]),
}


def test_which_families_are_exponential():
    for cls in [D.Bernoulli, D.Beta, D.ContinuousBernoulli, D.Dirichlet, D.Exponential, Gamma, Chi2, Normal,
                D.Poisson, D.Wishart]:  # fmt: skip
        assert issubclass(cls, ExponentialFamily), cls
    for cls in [D.Binomial, D.Laplace, D.Uniform, D.Categorical, InverseGamma, GeneralizedPareto, D.StudentT]:
        assert not issubclass(cls, ExponentialFamily), cls


@pytest.mark.parametrize("name", list(EXPFAMILY))
def test_entropy_by_the_log_normalizer(name):
    d = EXPFAMILY[name]()
    np.testing.assert_allclose(ExponentialFamily.entropy(d).detach().numpy(), d.entropy().numpy(), rtol=1e-9)


def test_kl_by_bregman_divergences():
    from torch.distributions.kl import _kl_expfamily_expfamily

    p, q = Gamma(t([0.7, 3.0]), t([1.5, 0.4])), Gamma(t([2.0, 1.0]), t([1.0, 1.0]))
    np.testing.assert_allclose(_kl_expfamily_expfamily(p, q).detach().numpy(), kl_divergence(p, q).numpy(), rtol=1e-10)
    p, q = Normal(t([0.3]), t([0.5])), Normal(t([1.0]), t([2.0]))
    np.testing.assert_allclose(_kl_expfamily_expfamily(p, q).detach().numpy(), kl_divergence(p, q).numpy(), rtol=1e-10)
    # Wishart has no closed form registered: the Bregman divergence, against the known formula
    cp, cq = np.array([[2.0, 0.3], [0.3, 1.0]]), np.array([[1.0, -0.2], [-0.2, 3.0]])
    n, m, k = 4.5, 6.0, 2
    got = kl_divergence(wishart(n, cp), wishart(m, cq)).item()
    want = (
        m / 2 * (np.linalg.slogdet(cq)[1] - np.linalg.slogdet(cp)[1])
        + n / 2 * (np.trace(np.linalg.solve(cq, cp)) - k)
        + sp.multigammaln(m / 2, k)
        - sp.multigammaln(n / 2, k)
        + (n - m) / 2 * sum(sp.digamma(n / 2 - i / 2) for i in range(k))
    )
    np.testing.assert_allclose(got, want, rtol=1e-9)
    with pytest.raises(NotImplementedError, match="The cross KL-divergence between different exponential families"):
        _kl_expfamily_expfamily(Normal(0.0, 1.0), Gamma(1.0, 1.0))


# ------------------------------------------------------------------------------------- expand

EXPANDABLE = {
    "normal": lambda: Normal(t([0.3, -1.0]), t([0.5, 2.0])),
    "cauchy": lambda: D.Cauchy(t([0.3, -1.0]), t([0.5, 2.0])),
    "laplace": lambda: D.Laplace(t([0.3, -1.0]), t([0.5, 2.0])),
    "uniform": lambda: D.Uniform(t([0.0, -1.0]), t([1.0, 2.0])),
    "exponential": lambda: D.Exponential(t([0.5, 2.0])),
    "poisson": lambda: D.Poisson(t([0.5, 2.0])),
    "gamma": lambda: Gamma(t([0.5, 2.0]), t([1.0, 3.0])),
    "chi2": lambda: Chi2(t([1.5, 4.0])),
    "beta": lambda: D.Beta(t([0.5, 2.0]), t([1.0, 3.0])),
    "dirichlet": lambda: D.Dirichlet(t([[0.5, 2.0, 1.0], [1.0, 1.0, 3.0]])),
    "student_t": lambda: D.StudentT(t([2.5, 5.0]), t([0.0, 1.0]), t([1.0, 2.0])),
    "fisher_snedecor": lambda: D.FisherSnedecor(t([2.5, 5.0]), t([3.0, 7.0])),
    "bernoulli_probs": lambda: D.Bernoulli(probs=t([0.2, 0.7])),
    "bernoulli_logits": lambda: D.Bernoulli(logits=t([0.2, -0.7])),
    "geometric": lambda: D.Geometric(probs=t([0.2, 0.7])),
    "binomial": lambda: D.Binomial(t([3.0, 5.0]), probs=t([0.2, 0.7])),
    "negative_binomial": lambda: D.NegativeBinomial(t([3.0, 5.0]), logits=t([0.2, -0.7])),
    "categorical": lambda: D.Categorical(probs=t([[0.2, 0.8], [0.5, 0.5]])),
    "one_hot": lambda: OneHotCategorical(logits=t([[0.2, 0.8], [0.5, -0.5]])),
    "straight_through": lambda: OneHotCategoricalStraightThrough(logits=t([[0.2, 0.8], [0.5, -0.5]])),
    "multinomial": lambda: D.Multinomial(4, probs=t([[0.2, 0.8], [0.5, 0.5]])),
    "mvn": lambda: D.MultivariateNormal(torch.zeros(2, 2, dtype=F64), scale_tril=t([[1.0, 0.0], [0.5, 2.0]])),
    "log_normal": lambda: D.LogNormal(t([0.3, -1.0]), t([0.5, 2.0])),
    "half_normal": lambda: D.HalfNormal(t([0.5, 2.0])),
    "half_cauchy": lambda: D.HalfCauchy(t([0.5, 2.0])),
    "gumbel": lambda: D.Gumbel(t([0.3, -1.0]), t([0.5, 2.0])),
    "weibull": lambda: D.Weibull(t([0.5, 2.0]), t([1.5, 3.0])),
    "pareto": lambda: D.Pareto(t([0.5, 2.0]), t([1.5, 3.0])),
    "inverse_gamma": lambda: InverseGamma(t([1.5, 3.0]), t([0.5, 2.0])),
    "generalized_pareto": lambda: GeneralizedPareto(t([0.0, 1.0]), t([1.0, 2.0]), t([0.2, 0.1])),
    "independent": lambda: D.Independent(Normal(torch.zeros(2, 3, dtype=F64), t([1.0, 2.0, 3.0])), 1),
}


@pytest.mark.parametrize("name", list(EXPANDABLE))
def test_expand(name):
    d = EXPANDABLE[name]()
    assert d.batch_shape == (2,)
    torch.manual_seed(0)
    value = d.sample()
    e = d.expand((3, 2))
    assert type(e) is type(d) and e.batch_shape == (3, 2) and e.event_shape == d.event_shape
    assert e._validate_args == d._validate_args
    if name != "generalized_pareto":  # upstream 2.13's log_prob refuses float64 (see above)
        torch.testing.assert_close(e.log_prob(value), d.log_prob(value).expand(3, 2))
    assert e.sample((4,)).shape == (4, 3, 2) + d.event_shape
    torch.testing.assert_close(e.mean, d.mean.expand(e.mean.shape), equal_nan=True)


def test_categorical_logits_are_real_vectors():
    for cls in [D.Categorical, OneHotCategorical, OneHotCategoricalStraightThrough, D.Multinomial]:
        logits = cls.arg_constraints["logits"]
        assert repr(logits) == "IndependentConstraint(Real(), 1)" and logits.event_dim == 1
        assert D.biject_to(logits).codomain.event_dim == 1
