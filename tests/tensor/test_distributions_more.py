"""The distributions and transforms added after the first families: Kumaraswamy, VonMises, the relaxed
(Concrete) Bernoulli and one-hot categorical, ContinuousBernoulli, NegativeBinomial, LogisticNormal,
LowRankMultivariateNormal, Wishart, LKJCholesky, MixtureSameFamily; StickBreaking, Softmax and CorrCholesky
transforms; the new constraints and KL divergences.

Densities against SciPy or a closed form computed here in NumPy (and, where neither exists, against the
requirement that they integrate to 1), moments against numerical integrals, samples' moments and
Kolmogorov-Smirnov tests against the density's distribution, reparameterized gradients against finite
differences of samples drawn with the same seed, transforms' inverses and log-Jacobians against numerical
Jacobians, expand, and argument/sample validation. Runs against upstream PyTorch too (TORCH_REFERENCE)."""

from __future__ import annotations

import math
import os
import warnings

import numpy as np
import pytest

import torch
from torch.distributions import (
    Beta,
    ContinuousBernoulli,
    Exponential,
    Independent,
    Kumaraswamy,
    LKJCholesky,
    LogisticNormal,
    LowRankMultivariateNormal,
    MixtureSameFamily,
    MultivariateNormal,
    NegativeBinomial,
    Normal,
    RelaxedBernoulli,
    RelaxedOneHotCategorical,
    Uniform,
    VonMises,
    Wishart,
    constraints,
    kl_divergence,
)
from torch.distributions.categorical import Categorical
from torch.distributions.relaxed_bernoulli import LogitRelaxedBernoulli
from torch.distributions.relaxed_categorical import ExpRelaxedCategorical
from torch.distributions.transforms import CorrCholeskyTransform, SoftmaxTransform, StickBreakingTransform

st = pytest.importorskip("scipy.stats")
sp = pytest.importorskip("scipy.special")
integrate = pytest.importorskip("scipy.integrate")

REFERENCE = "TORCH_REFERENCE" in os.environ
F64 = torch.float64


def t(values):
    return torch.tensor(values, dtype=F64)


def quad(f, a, b):
    return integrate.quad(f, a, b, epsabs=1e-12, epsrel=1e-10, limit=200)[0]


def fd_gradients(make, params, sample_shape=(4,), seed=0, eps=1e-6):
    """Autograd's gradient of sum(make(*params).rsample(sample_shape)) against central differences of samples
    drawn from the same seed (so the same underlying noise)."""
    leaves = [t(p).requires_grad_() for p in params]
    torch.manual_seed(seed)
    total = make(*leaves).rsample(sample_shape).sum()
    grads = torch.autograd.grad(total, leaves)
    for i, p in enumerate(params):
        p = np.asarray(p, dtype=np.float64)
        numeric = np.zeros_like(p)
        for idx in np.ndindex(p.shape):
            vals = []
            for sign in (1, -1):
                q = p.copy()
                q[idx] += sign * eps
                args = [t(v) for v in params]
                args[i] = t(q)
                torch.manual_seed(seed)
                with torch.no_grad():
                    vals.append(make(*args).rsample(sample_shape).sum().item())
            numeric[idx] = (vals[0] - vals[1]) / (2 * eps)
        np.testing.assert_allclose(grads[i].numpy(), numeric, rtol=1e-5, atol=1e-7)


def numerical_jacobian(f, x, eps=1e-6):
    """d f(x) / d x by central differences (f from a 1-D float64 array to a 1-D one)."""
    x = np.asarray(x, dtype=np.float64)
    cols = []
    for i in range(x.size):
        e = np.zeros_like(x)
        e[i] = eps
        cols.append((f(x + e) - f(x - e)) / (2 * eps))
    return np.stack(cols, -1)


# --------------------------------------------------------------------------------------------- the names


def test_the_new_names_are_exported():
    import torch.distributions as D
    import torch.distributions.transforms as T

    for name in [
        "ContinuousBernoulli", "Kumaraswamy", "LKJCholesky", "LogisticNormal", "LowRankMultivariateNormal",
        "MixtureSameFamily", "NegativeBinomial", "RelaxedBernoulli", "RelaxedOneHotCategorical", "VonMises",
        "Wishart", "StickBreakingTransform", "SoftmaxTransform", "CorrCholeskyTransform", "identity_transform",
    ]:  # fmt: skip
        assert hasattr(D, name), name
    for name in ["StickBreakingTransform", "SoftmaxTransform", "CorrCholeskyTransform", "identity_transform"]:
        assert hasattr(T, name), name
    for name in ["corr_cholesky", "half_open_interval", "less_than", "lower_triangular", "positive_integer",
                 "positive_semidefinite", "square", "symmetric", "dependent", "dependent_property", "is_dependent",
                 "MixtureSameFamilyConstraint"]:  # fmt: skip
        assert hasattr(constraints, name), name
    for name in ["broadcast_all", "clamp_probs", "lazy_property", "logits_to_probs", "probs_to_logits",
                 "tril_matrix_to_vec", "vec_to_tril_matrix"]:  # fmt: skip
        assert hasattr(D.utils, name), name


# --------------------------------------------------------------------------------------------- Kumaraswamy

KA, KB = np.array([0.6, 2.0, 5.0]), np.array([0.8, 3.0, 1.5])


def kumaraswamy_logpdf(x, a, b):
    return np.log(a * b) + (a - 1) * np.log(x) + (b - 1) * np.log1p(-(x**a))


def test_kumaraswamy_density_moments_entropy():
    d = Kumaraswamy(t(KA), t(KB))
    assert d.has_rsample and d.support is constraints.unit_interval
    assert d.batch_shape == (3,) and d.event_shape == ()
    x = np.array([0.1, 0.45, 0.93])
    np.testing.assert_allclose(d.log_prob(t(x)).numpy(), kumaraswamy_logpdf(x, KA, KB), rtol=1e-10)
    for i, (a, b) in enumerate(zip(KA, KB)):

        def pdf(x, a=a, b=b):
            return np.exp(kumaraswamy_logpdf(x, a, b))

        mean = quad(lambda x, pdf=pdf: x * pdf(x), 0, 1)
        var = quad(lambda x, pdf=pdf, mean=mean: (x - mean) ** 2 * pdf(x), 0, 1)
        ent = quad(lambda x, pdf=pdf, a=a, b=b: -pdf(x) * kumaraswamy_logpdf(x, a, b), 0, 1)
        np.testing.assert_allclose(d.mean[i].item(), mean, rtol=1e-8)
        np.testing.assert_allclose(d.variance[i].item(), var, rtol=1e-7)
        np.testing.assert_allclose(d.entropy()[i].item(), ent, rtol=1e-6, atol=1e-8)


@pytest.mark.skipif(REFERENCE, reason="upstream 2.13's Kumaraswamy.mode is NaN for every argument")
def test_kumaraswamy_mode():
    d = Kumaraswamy(t([2.0, 5.0, 0.5]), t([3.0, 1.5, 2.0]))
    want = ((KA[1:] - 1) / (KA[1:] * KB[1:] - 1)) ** (1 / KA[1:])
    np.testing.assert_allclose(d.mode[:2].numpy(), want, rtol=1e-12)
    assert math.isnan(d.mode[2].item())


def test_kumaraswamy_samples_and_gradient():
    torch.manual_seed(0)
    a, b = 2.0, 3.0
    x = Kumaraswamy(t([a]), t([b])).sample((40000,)).squeeze(-1).numpy()
    assert x.min() > 0 and x.max() < 1
    cdf = lambda x: 1 - (1 - x**a) ** b  # noqa: E731
    assert st.kstest(x, cdf).pvalue > 1e-3
    fd_gradients(lambda a, b: Kumaraswamy(a, b), [[0.7, 2.0], [1.3, 4.0]])


def test_kumaraswamy_expand_and_validation():
    d = Kumaraswamy(t([1.0, 2.0]), t(3.0)).expand((4, 2))
    assert d.batch_shape == (4, 2) and d.sample().shape == (4, 2)
    np.testing.assert_allclose(d.log_prob(t(0.3)).numpy()[0], kumaraswamy_logpdf(0.3, np.array([1.0, 2.0]), 3.0))
    with pytest.raises(ValueError, match="concentration1"):
        Kumaraswamy(t([-1.0]), t([1.0]), validate_args=True)
    with pytest.raises(ValueError, match="support"):
        Kumaraswamy(t([1.0]), t([1.0]), validate_args=True).log_prob(t([1.5]))


# --------------------------------------------------------------------------------------------- VonMises


def test_von_mises_density_and_moments():
    loc, k = np.array([0.3, -2.0, 1.0, 3.0]), np.array([0.05, 1.0, 3.7, 30.0])
    d = VonMises(t(loc), t(k))
    assert not d.has_rsample and d.support is constraints.real
    x = np.array([0.1, -2.5, 2.0, 3.1])
    # upstream's Bessel function is a polynomial fit good to about 1e-7
    np.testing.assert_allclose(d.log_prob(t(x)).numpy(), st.vonmises.logpdf(x, k, loc=loc), rtol=1e-6)
    np.testing.assert_allclose(d.variance.numpy(), 1 - sp.i1e(k) / sp.i0e(k), rtol=3e-6)
    assert d.mean.tolist() == loc.tolist() and d.mode.tolist() == loc.tolist()
    # the density is 2 pi periodic in value - loc
    np.testing.assert_allclose(d.log_prob(t(x + 2 * np.pi)).numpy(), d.log_prob(t(x)).numpy(), rtol=1e-12)


@pytest.mark.parametrize("kappa", [0.01, 1.5, 50.0])
def test_von_mises_samples(kappa):
    torch.manual_seed(1)
    x = VonMises(t([1.0]), t([kappa])).sample((20000,)).squeeze(-1).numpy()
    assert x.min() >= -np.pi and x.max() < np.pi
    # about loc, on [-pi, pi): SciPy's von Mises with loc 0 (its support is [loc - pi, loc + pi])
    centered = np.mod(x - 1.0 + np.pi, 2 * np.pi) - np.pi
    assert st.kstest(centered, st.vonmises(kappa).cdf).pvalue > 1e-3
    x32 = VonMises(torch.tensor([0.0]), torch.tensor([kappa])).sample((10,))
    assert x32.dtype == torch.float32 and x32.shape == (10, 1)


def test_von_mises_expand_and_validation():
    d = VonMises(t([0.0, 1.0]), t(2.0)).expand((3, 2))
    assert d.batch_shape == (3, 2) and d.sample((5,)).shape == (5, 3, 2)
    with pytest.raises(ValueError, match="concentration"):
        VonMises(t([0.0]), t([-1.0]), validate_args=True)


# --------------------------------------------------------------------------------- the relaxed Bernoulli


def binary_concrete_logpdf(x, temp, p):
    alpha = p / (1 - p)
    return (
        np.log(temp * alpha)
        + (-temp - 1) * (np.log(x) + np.log1p(-x))
        - 2 * np.log(alpha * x**-temp + (1 - x) ** -temp)
    )


def test_logit_relaxed_bernoulli_is_a_logistic():
    temp, probs = t(0.7), np.array([0.2, 0.5, 0.9])
    d = LogitRelaxedBernoulli(temp, probs=t(probs))
    logits = np.log(probs / (1 - probs))
    x = np.array([-3.0, 0.2, 4.0])
    want = st.logistic.logpdf(x, loc=logits / 0.7, scale=1 / 0.7)
    np.testing.assert_allclose(d.log_prob(t(x)).numpy(), want, rtol=1e-10)
    np.testing.assert_allclose(d.logits.numpy(), logits, rtol=1e-12)
    torch.manual_seed(2)
    s = LogitRelaxedBernoulli(temp, logits=t([logits[0]])).sample((20000,)).squeeze(-1).numpy()
    assert st.kstest(s, st.logistic(loc=logits[0] / 0.7, scale=1 / 0.7).cdf).pvalue > 1e-3


def test_relaxed_bernoulli_density_and_samples():
    temp, probs = 0.6, np.array([0.3, 0.8])
    d = RelaxedBernoulli(t(temp), probs=t(probs))
    assert d.has_rsample and d.support is constraints.unit_interval and d.batch_shape == (2,)
    x = np.array([0.2, 0.7])
    np.testing.assert_allclose(d.log_prob(t(x)).numpy(), binary_concrete_logpdf(x, temp, probs), rtol=1e-9)
    for p in probs:
        one = RelaxedBernoulli(t(temp), probs=t(p))
        total = quad(lambda x, one=one: math.exp(one.log_prob(t(x)).item()), 0, 1)
        np.testing.assert_allclose(total, 1.0, rtol=1e-6)
    torch.manual_seed(3)
    s = d.sample((20000,))
    assert s.shape == (20000, 2) and bool(((s > 0) & (s < 1)).all())
    # P(X > 1/2) = P(logistic > 0) = probs
    np.testing.assert_allclose((s > 0.5).double().mean(0).numpy(), probs, atol=0.015)
    fd_gradients(lambda p: RelaxedBernoulli(t(0.5), probs=p), [[0.3, 0.6]])
    assert torch.equal(d.temperature, t(temp)) and torch.allclose(d.probs, t(probs))


def test_relaxed_bernoulli_expand_and_validation():
    d = RelaxedBernoulli(t(0.5), logits=t([0.0, 1.0])).expand((3, 2))
    assert d.batch_shape == (3, 2) and d.rsample().shape == (3, 2)
    assert d.log_prob(t(0.4)).shape == (3, 2)
    with pytest.raises(ValueError, match="probs"):
        RelaxedBernoulli(t(0.5), probs=t([1.5]), validate_args=True)
    with pytest.raises(ValueError, match="Either `probs` or `logits`"):
        RelaxedBernoulli(t(0.5))


# ----------------------------------------------------------------------------- the relaxed categorical


def concrete_logpdf(x, temp, probs):
    n = len(probs)
    return (
        sp.gammaln(n)
        + (n - 1) * np.log(temp)
        + np.sum(np.log(probs) - (temp + 1) * np.log(x), -1)
        - n * np.log(np.sum(probs * x**-temp, -1))
    )


def test_relaxed_one_hot_categorical_density():
    temp, probs = 0.8, np.array([0.2, 0.3, 0.5])
    d = RelaxedOneHotCategorical(t(temp), probs=t(probs))
    assert d.has_rsample and d.support is constraints.simplex
    assert d.batch_shape == () and d.event_shape == (3,)
    x = np.array([[0.1, 0.6, 0.3], [0.25, 0.25, 0.5]])
    np.testing.assert_allclose(d.log_prob(t(x)).numpy(), concrete_logpdf(x, temp, probs), rtol=1e-9)
    # the log-scale one: the same density less the exp map's log-Jacobian
    e = ExpRelaxedCategorical(t(temp), logits=t(np.log(probs)))
    assert e.support is constraints.real_vector
    np.testing.assert_allclose(
        e.log_prob(t(np.log(x))).numpy(), concrete_logpdf(x, temp, probs) + np.log(x).sum(-1), rtol=1e-9
    )


def test_relaxed_one_hot_categorical_samples():
    torch.manual_seed(4)
    probs = np.array([0.2, 0.3, 0.5])
    s = RelaxedOneHotCategorical(t(0.3), probs=t(probs)).sample((20000,))
    np.testing.assert_allclose(s.sum(-1).numpy(), 1.0, rtol=1e-12)
    # the argmax of a Concrete sample is a Categorical(probs) draw, at any temperature
    counts = np.bincount(s.argmax(-1).numpy(), minlength=3) / 20000
    np.testing.assert_allclose(counts, probs, atol=0.015)
    fd_gradients(lambda lg: RelaxedOneHotCategorical(t(0.7), logits=lg), [[0.1, -0.4, 0.9]])
    x = ExpRelaxedCategorical(t(0.5), probs=t(probs)).rsample((3,))
    np.testing.assert_allclose(x.exp().sum(-1).numpy(), 1.0, rtol=1e-12)


def test_relaxed_one_hot_categorical_expand_and_validation():
    d = RelaxedOneHotCategorical(t(0.5), probs=t([0.2, 0.8])).expand((4,))
    assert d.batch_shape == (4,) and d.event_shape == (2,) and d.rsample().shape == (4, 2)
    assert d.log_prob(t([0.3, 0.7])).shape == (4,)
    with pytest.raises(ValueError):
        RelaxedOneHotCategorical(t(0.5), probs=t([-0.2, 0.8]), validate_args=True)


# --------------------------------------------------------------------------------- ContinuousBernoulli


def cb_logpdf(x, p):
    c = 2.0 if abs(p - 0.5) < 1e-12 else 2 * np.arctanh(1 - 2 * p) / (1 - 2 * p)
    return np.log(c) + x * np.log(p) + (1 - x) * np.log1p(-p)


@pytest.mark.parametrize("p", [0.03, 0.3, 0.4995, 0.5, 0.8, 0.99])
def test_continuous_bernoulli_against_integrals(p):
    d = ContinuousBernoulli(probs=t([p]))
    # inside lims (0.499, 0.501] the normalizer and moments are Taylor expansions and the cdf the identity
    rtol = 1e-3 if 0.499 < p <= 0.501 else 1e-6
    assert d.has_rsample and d.support is constraints.unit_interval
    x = np.array([0.05, 0.5, 0.9])
    np.testing.assert_allclose(
        d.log_prob(t(x).unsqueeze(-1)).squeeze(-1).numpy(), cb_logpdf(x, p), rtol=1e-6, atol=1e-12
    )
    pdf = lambda x: np.exp(cb_logpdf(x, p))  # noqa: E731
    np.testing.assert_allclose(quad(pdf, 0, 1), 1.0, rtol=1e-9)
    mean = quad(lambda x: x * pdf(x), 0, 1)
    np.testing.assert_allclose(d.mean.item(), mean, rtol=1e-6)
    np.testing.assert_allclose(d.variance.item(), quad(lambda x: (x - mean) ** 2 * pdf(x), 0, 1), rtol=1e-5)
    np.testing.assert_allclose(
        d.entropy().item(), quad(lambda x: -pdf(x) * cb_logpdf(x, p), 0, 1), rtol=1e-5, atol=1e-12
    )
    np.testing.assert_allclose(d.cdf(t([0.7])).item(), quad(pdf, 0, 0.7), rtol=rtol)
    u = t([0.1, 0.5, 0.95]).unsqueeze(-1)
    np.testing.assert_allclose(d.cdf(d.icdf(u)).numpy(), u.numpy(), rtol=1e-9)


def test_continuous_bernoulli_samples_and_gradient():
    torch.manual_seed(5)
    p = 0.8
    x = ContinuousBernoulli(probs=t([p])).sample((20000,)).squeeze(-1).numpy()
    assert x.min() >= 0 and x.max() <= 1
    cdf = lambda x: ((p**x) * (1 - p) ** (1 - x) + p - 1) / (2 * p - 1)  # noqa: E731
    assert st.kstest(x, cdf).pvalue > 1e-3
    fd_gradients(lambda lg: ContinuousBernoulli(logits=lg), [[-1.0, 2.0]])


def test_continuous_bernoulli_expand_and_validation():
    d = ContinuousBernoulli(logits=t([0.5, -1.0])).expand((3, 2))
    assert d.batch_shape == (3, 2) and d.sample().shape == (3, 2)
    with pytest.raises(ValueError, match="The parameter probs has invalid values"):
        ContinuousBernoulli(probs=t([1.5]), validate_args=True)
    with pytest.raises(ValueError, match="support"):
        ContinuousBernoulli(probs=t([0.3]), validate_args=True).log_prob(t([1.2]))


# ----------------------------------------------------------------------------------- NegativeBinomial


def test_negative_binomial_against_scipy():
    r, p = np.array([0.5, 3.0, 7.5]), np.array([0.2, 0.6, 0.9])
    d = NegativeBinomial(t(r), probs=t(p))
    assert d.support is constraints.nonnegative_integer and not d.has_rsample
    k = np.array([0.0, 4.0, 30.0])
    # scipy's p is the probability of the event that stops the count: 1 - probs here
    np.testing.assert_allclose(d.log_prob(t(k)).numpy(), st.nbinom.logpmf(k, r, 1 - p), rtol=1e-10)
    np.testing.assert_allclose(d.mean.numpy(), st.nbinom.mean(r, 1 - p), rtol=1e-10)
    np.testing.assert_allclose(d.variance.numpy(), st.nbinom.var(r, 1 - p), rtol=1e-10)
    np.testing.assert_allclose(d.mode.numpy(), np.floor(np.maximum((r - 1) * p / (1 - p), 0)))
    logits = NegativeBinomial(t(r), logits=t(np.log(p / (1 - p))))
    np.testing.assert_allclose(logits.log_prob(t(k)).numpy(), st.nbinom.logpmf(k, r, 1 - p), rtol=1e-9)
    # total_count = 0 puts all its mass on 0
    assert NegativeBinomial(t([0.0]), probs=t([0.3])).log_prob(t([0.0])).item() == 0.0


def test_negative_binomial_samples_expand_and_validation():
    torch.manual_seed(6)
    x = NegativeBinomial(t([4.0]), probs=t([0.3])).sample((40000,)).squeeze(-1).numpy()
    assert np.all(x == np.round(x)) and x.min() >= 0
    np.testing.assert_allclose(x.mean(), st.nbinom.mean(4.0, 0.7), rtol=0.02)
    np.testing.assert_allclose(x.var(), st.nbinom.var(4.0, 0.7), rtol=0.05)
    d = NegativeBinomial(t(2.0), probs=t([0.1, 0.5])).expand((3, 2))
    assert d.batch_shape == (3, 2) and d.sample().shape == (3, 2)
    with pytest.raises(ValueError, match="probs"):
        NegativeBinomial(t([2.0]), probs=t([1.0]), validate_args=True)
    with pytest.raises(ValueError, match="total_count"):
        NegativeBinomial(t([-1.0]), probs=t([0.5]), validate_args=True)


# ---------------------------------------------------------------------------------------- LogisticNormal


def stick_breaking_inverse(y):
    k = y.shape[-1] - 1
    rest = 1 - np.concatenate([[0.0], np.cumsum(y[:-1])])[:-1]
    return np.log(y[:-1]) - np.log(rest - y[:-1]) + np.log(k - np.arange(k))


def test_logistic_normal_density():
    loc, scale = np.array([0.3, -0.5, 1.0]), np.array([0.8, 1.2, 0.5])
    d = LogisticNormal(t(loc), t(scale))
    assert d.has_rsample and d.support is constraints.simplex
    assert d.batch_shape == () and d.event_shape == (4,)
    y = np.array([0.1, 0.4, 0.3, 0.2])
    x = stick_breaking_inverse(y)

    def forward(x):
        return StickBreakingTransform()(t(x)).numpy()[:-1]

    np.testing.assert_allclose(forward(x), y[:-1], rtol=1e-12)
    log_det = np.linalg.slogdet(numerical_jacobian(forward, x))[1]
    want = st.norm.logpdf(x, loc, scale).sum() - log_det
    np.testing.assert_allclose(d.log_prob(t(y)).item(), want, rtol=1e-7)
    assert torch.equal(d.loc, t(loc)) and torch.equal(d.scale, t(scale))


def test_logistic_normal_samples_gradient_expand():
    torch.manual_seed(7)
    s = LogisticNormal(t([0.0, 0.5]), t([1.0, 0.3])).sample((5000,))
    assert s.shape == (5000, 3) and bool(constraints.simplex.check(s).all())
    # the stick-breaking inverse of the samples is the normal draw
    x = StickBreakingTransform().inv(s)
    np.testing.assert_allclose(x.mean(0).numpy(), [0.0, 0.5], atol=0.05)
    np.testing.assert_allclose(x.std(0).numpy(), [1.0, 0.3], rtol=0.05)
    fd_gradients(lambda m, s: LogisticNormal(m, s), [[0.2, -0.3], [0.5, 1.5]])
    scalar = LogisticNormal(0.0, 1.0)
    assert scalar.event_shape == (2,) and scalar.sample().shape == (2,)
    e = LogisticNormal(t([0.0, 0.5]), t([1.0, 0.3])).expand((4,))
    assert e.batch_shape == (4,) and e.event_shape == (3,) and e.sample().shape == (4, 3)
    with pytest.raises(ValueError, match="scale"):
        LogisticNormal(t([0.0]), t([-1.0]), validate_args=True)


# ---------------------------------------------------------------------------------------- the transforms


def test_stick_breaking_transform():
    tr = StickBreakingTransform()
    assert tr.bijective and tr.domain.event_dim == 1 and tr.codomain is constraints.simplex
    x = np.array([[0.3, -1.2, 2.0], [0.0, 0.0, 0.0]])
    y = tr(t(x))
    assert y.shape == (2, 4) and bool(constraints.simplex.check(y).all())
    np.testing.assert_allclose(y[1].numpy(), 0.25, rtol=1e-12)  # zero is the uniform point
    np.testing.assert_allclose(tr.inv(y).numpy(), x, rtol=1e-10, atol=1e-12)
    for row in range(2):
        jac = numerical_jacobian(lambda v: tr(t(v)).numpy()[:-1], x[row])
        np.testing.assert_allclose(tr.log_abs_det_jacobian(t(x[row]), y[row]).item(), np.linalg.slogdet(jac)[1])
    assert tuple(tr.forward_shape((5, 3))) == (5, 4) and tuple(tr.inverse_shape((5, 4))) == (5, 3)
    assert tr == StickBreakingTransform()


def test_softmax_transform():
    tr = SoftmaxTransform()
    assert not tr.bijective and tr.codomain is constraints.simplex and tr.domain.event_dim == 1
    x = t([[1.0, 2.0, -3.0], [1000.0, 0.0, 1000.0]])
    y = tr(x)
    np.testing.assert_allclose(y.numpy(), sp.softmax(x.numpy(), -1), rtol=1e-12)
    np.testing.assert_allclose(tr(tr.inv(y)).numpy(), y.numpy(), rtol=1e-12)
    assert tuple(tr.forward_shape((2, 3))) == (2, 3) and tr == SoftmaxTransform()


def test_corr_cholesky_transform():
    tr = CorrCholeskyTransform()
    assert tr.bijective and tr.domain.event_dim == 1 and tr.codomain.event_dim == 2
    torch.manual_seed(8)
    x = torch.randn(3, 6, dtype=F64)
    y = tr(x)
    assert y.shape == (3, 4, 4) and bool(constraints.corr_cholesky.check(y).all())
    np.testing.assert_allclose((y @ y.mT).diagonal(0, -2, -1).numpy(), 1.0, rtol=1e-12)
    np.testing.assert_allclose(tr.inv(y).numpy(), x.numpy(), rtol=1e-8, atol=1e-10)
    rows, cols = np.tril_indices(4, -1)
    for b in range(3):
        jac = numerical_jacobian(lambda v: tr(t(v)).numpy()[rows, cols], x[b].numpy())
        np.testing.assert_allclose(tr.log_abs_det_jacobian(x[b], y[b]).item(), np.linalg.slogdet(jac)[1], rtol=1e-7)
    assert tuple(tr.forward_shape((2, 6))) == (2, 4, 4) and tuple(tr.inverse_shape((2, 4, 4))) == (2, 6)
    with pytest.raises(ValueError, match="flattened lower-diagonal"):
        tr.forward_shape((5,))


def test_new_constraints():
    eye = torch.eye(3, dtype=F64)
    assert bool(constraints.corr_cholesky.check(eye)) and not bool(constraints.corr_cholesky.check(2 * eye))
    assert constraints.half_open_interval(0.0, 1.0).check(t([0.0, 0.5, 1.0])).tolist() == [True, True, False]
    assert constraints.less_than(1.0).check(t([0.5, 1.0])).tolist() == [True, False]
    assert constraints.positive_integer.check(t([0.0, 1.0, 2.5, 3.0])).tolist() == [False, True, False, True]
    assert bool(constraints.lower_triangular.check(t([[1.0, 0.0], [-2.0, 0.0]])))
    assert not bool(constraints.lower_triangular.check(t([[1.0, 1.0], [0.0, 1.0]])))
    assert bool(constraints.square.check(eye)) and not bool(constraints.square.check(torch.zeros(2, 3)))
    assert not bool(constraints.symmetric.check(t([[1.0, 2.0], [0.0, 1.0]])))
    assert bool(constraints.positive_semidefinite.check(t([[1.0, 1.0], [1.0, 1.0]])))
    assert not bool(constraints.positive_semidefinite.check(t([[1.0, 2.0], [2.0, 1.0]])))
    assert constraints.is_dependent(constraints.dependent) and not constraints.is_dependent(constraints.real)
    with pytest.raises(ValueError, match="dependent"):
        constraints.dependent.check(t([1.0]))
    c = constraints.MixtureSameFamilyConstraint(constraints.positive)
    assert c.check(t([1.0, -1.0])).tolist() == [True, False] and c.event_dim == 0


# ------------------------------------------------------------------------------ LowRankMultivariateNormal


def lowrank_params(seed=9):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(2, 4)), rng.normal(size=(2, 4, 2)), rng.uniform(0.5, 1.5, size=(2, 4))


def test_lowrank_mvn_against_scipy():
    loc, W, D = lowrank_params()
    d = LowRankMultivariateNormal(t(loc), t(W), t(D))
    assert d.batch_shape == (2,) and d.event_shape == (4,) and d.has_rsample
    x = np.random.default_rng(1).normal(size=(3, 2, 4))
    for b in range(2):
        cov = W[b] @ W[b].T + np.diag(D[b])
        mvn = st.multivariate_normal(loc[b], cov)
        np.testing.assert_allclose(d.log_prob(t(x))[:, b].numpy(), mvn.logpdf(x[:, b]), rtol=1e-10)
        np.testing.assert_allclose(d.entropy()[b].item(), mvn.entropy(), rtol=1e-10)
        np.testing.assert_allclose(d.covariance_matrix[b].numpy(), cov, rtol=1e-12)
        np.testing.assert_allclose(d.precision_matrix[b].numpy(), np.linalg.inv(cov), rtol=1e-8, atol=1e-12)
        np.testing.assert_allclose(d.scale_tril[b].numpy(), np.linalg.cholesky(cov), rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(d.variance[b].numpy(), np.diag(cov), rtol=1e-12)
    assert torch.equal(d.mean, t(loc)) and torch.equal(d.mode, t(loc))


def test_lowrank_mvn_samples_gradient_expand_validation():
    loc, W, D = lowrank_params()
    d = LowRankMultivariateNormal(t(loc[0]), t(W[0]), t(D[0]))
    torch.manual_seed(10)
    s = d.sample((40000,)).numpy()
    np.testing.assert_allclose(s.mean(0), loc[0], atol=0.03)
    np.testing.assert_allclose(np.cov(s.T), W[0] @ W[0].T + np.diag(D[0]), rtol=0.03, atol=0.06)
    fd_gradients(lambda m, w, dd: LowRankMultivariateNormal(m, w, dd), [loc[0], W[0], D[0]])
    e = d.expand((3,))
    assert e.batch_shape == (3,) and e.sample().shape == (3, 4)
    np.testing.assert_allclose(e.log_prob(t(loc[0])).numpy(), d.log_prob(t(loc[0])).item(), rtol=1e-12)
    with pytest.raises(ValueError, match="cov_factor must be a batch of matrices with shape 4 x m"):
        LowRankMultivariateNormal(t(loc[0]), t(W[0][:3]), t(D[0]))
    with pytest.raises(ValueError, match="cov_diag must be a batch of vectors with shape"):
        LowRankMultivariateNormal(t(loc[0]), t(W[0]), t(D[0][:3]))
    with pytest.raises(ValueError, match="loc must be at least one-dimensional"):
        LowRankMultivariateNormal(t(1.0), t(W[0]), t(D[0]))
    with pytest.raises(ValueError, match="cov_diag"):
        # (negative, but with a capacitance matrix that still factorizes: upstream factorizes before validating)
        LowRankMultivariateNormal(t(loc[0]), t(W[0]), t(-100 * np.ones(4)), validate_args=True)


def kl_gaussians(m0, S0, m1, S1):
    k = len(m0)
    S1inv = np.linalg.inv(S1)
    d = m1 - m0
    return 0.5 * (np.trace(S1inv @ S0) + d @ S1inv @ d - k + np.linalg.slogdet(S1)[1] - np.linalg.slogdet(S0)[1])


def test_lowrank_mvn_kl_divergences():
    loc, W, D = lowrank_params()
    p = LowRankMultivariateNormal(t(loc[0]), t(W[0]), t(D[0]))
    q = LowRankMultivariateNormal(t(loc[1]), t(W[1]), t(D[1]))
    cov_p, cov_q = W[0] @ W[0].T + np.diag(D[0]), W[1] @ W[1].T + np.diag(D[1])
    want = kl_gaussians(loc[0], cov_p, loc[1], cov_q)
    np.testing.assert_allclose(kl_divergence(p, q).item(), want, rtol=1e-9)
    mp = MultivariateNormal(t(loc[0]), covariance_matrix=t(cov_p))
    mq = MultivariateNormal(t(loc[1]), covariance_matrix=t(cov_q))
    np.testing.assert_allclose(kl_divergence(mp, q).item(), want, rtol=1e-9)
    np.testing.assert_allclose(kl_divergence(p, mq).item(), want, rtol=1e-9)


# ---------------------------------------------------------------------------------------------- Wishart


def wishart_params():
    A = np.array([[1.0, 0.3, -0.2], [0.3, 2.0, 0.5], [-0.2, 0.5, 1.5]])
    return 5.5, A


def test_wishart_against_scipy():
    df, S = wishart_params()
    for kwargs in (
        {"covariance_matrix": t(S)},
        {"precision_matrix": t(np.linalg.inv(S))},
        {"scale_tril": t(np.linalg.cholesky(S))},
    ):
        d = Wishart(t(df), **kwargs)
        assert d.batch_shape == () and d.event_shape == (3, 3) and d.has_rsample
        X = st.wishart.rvs(df, S, size=3, random_state=0)
        np.testing.assert_allclose(d.log_prob(t(X)).numpy(), st.wishart.logpdf(X.transpose(1, 2, 0), df, S), rtol=1e-9)
        np.testing.assert_allclose(d.entropy().item(), st.wishart.entropy(df, S), rtol=1e-9)
        np.testing.assert_allclose(d.mean.numpy(), df * S, rtol=1e-10)
        np.testing.assert_allclose(d.mode.numpy(), (df - 4) * S, rtol=1e-10)
        np.testing.assert_allclose(d.variance.numpy(), st.wishart.var(df, S), rtol=1e-10)
        np.testing.assert_allclose(d.covariance_matrix.numpy(), S, rtol=1e-10)
        np.testing.assert_allclose(d.precision_matrix.numpy(), np.linalg.inv(S), rtol=1e-9)


def test_wishart_samples_gradient_expand_validation():
    df, S = wishart_params()
    L = np.linalg.cholesky(S)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # upstream 2.13 warns "Singular sample detected." on every rsample
        torch.manual_seed(11)
        x = Wishart(t(df), covariance_matrix=t(S)).sample((20000,))
        assert bool(constraints.positive_definite.check(x).all())
        np.testing.assert_allclose(x.mean(0).numpy(), df * S, atol=0.15)
        np.testing.assert_allclose(x.var(0).numpy(), st.wishart.var(df, S), rtol=0.08)
        if not REFERENCE:  # upstream 2.13 redraws every sample in place (see wishart.py): no gradient
            # the gradient along the scale's lower triangle (df fixed: the same Chi2 draws)
            rows, cols = np.tril_indices(3)
            embed = np.zeros((9, 6))
            embed[rows * 3 + cols, np.arange(6)] = 1.0
            tril = lambda v: (t(embed) @ v).reshape(3, 3)  # noqa: E731
            fd_gradients(lambda v: Wishart(t(df), scale_tril=tril(v)), [L[rows, cols]], sample_shape=(2,))
        e = Wishart(t([df, df + 1]), covariance_matrix=t(S)).expand((3, 2))
        assert e.batch_shape == (3, 2) and e.sample().shape == (3, 2, 3, 3)
    assert e.log_prob(t(S)).shape == (3, 2)
    with pytest.raises(ValueError, match="Value of df"):
        Wishart(t(1.5), covariance_matrix=t(S))
    with pytest.raises(ValueError, match="covariance_matrix"):
        Wishart(t(df), covariance_matrix=t(-S), validate_args=True)


# ----------------------------------------------------------------------------------------- LKJCholesky


def test_lkj_cholesky_in_two_dims_is_a_scaled_beta():
    """In 2 x 2 the factor is [[1, 0], [r, sqrt(1 - r^2)]] with the correlation r = 2 B - 1, B ~ Beta(eta, eta)."""
    for eta in (0.5, 1.0, 3.0):
        d = LKJCholesky(2, t(eta))
        assert d.support is constraints.corr_cholesky and d.event_shape == (2, 2) and d.batch_shape == ()
        r = np.array([-0.7, 0.1, 0.9])
        L = torch.zeros(3, 2, 2, dtype=F64)
        L[:, 0, 0], L[:, 1, 0], L[:, 1, 1] = 1.0, t(r), t(np.sqrt(1 - r**2))
        want = st.beta.logpdf((r + 1) / 2, eta, eta) - np.log(2)
        np.testing.assert_allclose(d.log_prob(L).numpy(), want, rtol=1e-9)


@pytest.mark.skipif(REFERENCE, reason="upstream 2.13's onion sampler draws rows past the first from the wrong Beta")
@pytest.mark.parametrize("eta", [0.7, 2.0])
def test_lkj_cholesky_samples(eta):
    torch.manual_seed(12)
    d = LKJCholesky(4, t(eta))
    L = d.sample((10000,))
    assert L.shape == (10000, 4, 4) and bool(constraints.corr_cholesky.check(L).all())
    C = (L @ L.mT).numpy()
    np.testing.assert_allclose(np.diagonal(C, 0, -2, -1), 1.0, rtol=1e-10)
    # every off-diagonal correlation is 2 Beta(eta - 1 + dim / 2, the same) - 1
    a = eta - 1 + 4 / 2
    assert st.kstest((C[:, 2, 0] + 1) / 2, st.beta(a, a).cdf).pvalue > 1e-3
    assert st.kstest((C[:, 3, 1] + 1) / 2, st.beta(a, a).cdf).pvalue > 1e-3


def test_lkj_cholesky_expand_and_validation():
    d = LKJCholesky(3, t([1.0, 2.0])).expand((4, 2))
    assert d.batch_shape == (4, 2) and d.sample().shape == (4, 2, 3, 3)
    assert d.log_prob(torch.eye(3, dtype=F64)).shape == (4, 2)
    with pytest.raises(ValueError, match="Expected dim to be an integer greater than or equal to 2. Found dim=1."):
        LKJCholesky(1)
    with pytest.raises(ValueError, match="concentration"):
        LKJCholesky(3, t(-1.0), validate_args=True)
    with pytest.raises(ValueError, match="support"):
        LKJCholesky(2, t(1.0), validate_args=True).log_prob(2 * torch.eye(2, dtype=F64))


# ------------------------------------------------------------------------------------- MixtureSameFamily


def test_mixture_of_normals():
    w, mu, sd = np.array([0.2, 0.5, 0.3]), np.array([-2.0, 0.0, 3.0]), np.array([0.5, 1.0, 2.0])
    d = MixtureSameFamily(Categorical(probs=t(w)), Normal(t(mu), t(sd)))
    assert d.batch_shape == () and d.event_shape == () and not d.has_rsample
    x = np.array([-2.5, 0.1, 4.0])
    want = np.log((w * st.norm.pdf(x[:, None], mu, sd)).sum(-1))
    np.testing.assert_allclose(d.log_prob(t(x)).numpy(), want, rtol=1e-12)
    np.testing.assert_allclose(d.cdf(t(x)).numpy(), (w * st.norm.cdf(x[:, None], mu, sd)).sum(-1), rtol=1e-12)
    mean = (w * mu).sum()
    np.testing.assert_allclose(d.mean.item(), mean, rtol=1e-12)
    np.testing.assert_allclose(d.variance.item(), (w * (sd**2 + mu**2)).sum() - mean**2, rtol=1e-12)
    torch.manual_seed(13)
    s = d.sample((40000,)).numpy()
    cdf = lambda x: (w * st.norm.cdf(np.asarray(x)[..., None], mu, sd)).sum(-1)  # noqa: E731
    assert st.kstest(s, cdf).pvalue > 1e-3
    assert isinstance(d.support, constraints.MixtureSameFamilyConstraint)
    assert isinstance(d.mixture_distribution, Categorical) and isinstance(d.component_distribution, Normal)


def test_mixture_of_vector_components():
    torch.manual_seed(14)
    loc, W, D = lowrank_params()
    comps = LowRankMultivariateNormal(t(loc), t(W), t(D))  # 2 components over vectors of 4
    d = MixtureSameFamily(Categorical(logits=t([0.3, -0.3])), comps)
    assert d.batch_shape == () and d.event_shape == (4,)
    x = torch.randn(5, 4, dtype=F64)
    w = sp.softmax([0.3, -0.3])
    want = np.log(
        sum(w[b] * st.multivariate_normal(loc[b], W[b] @ W[b].T + np.diag(D[b])).pdf(x.numpy()) for b in range(2))
    )
    np.testing.assert_allclose(d.log_prob(x).numpy(), want, rtol=1e-10)
    np.testing.assert_allclose(d.mean.numpy(), (w[:, None] * loc).sum(0), rtol=1e-12)
    s = d.sample((20000,))
    assert s.shape == (20000, 4)
    np.testing.assert_allclose(s.mean(0).numpy(), d.mean.numpy(), atol=0.05)
    np.testing.assert_allclose(s.var(0).numpy(), d.variance.numpy(), rtol=0.06)
    e = d.expand((3,))
    assert e.batch_shape == (3,) and e.sample((2,)).shape == (2, 3, 4)
    np.testing.assert_allclose(e.log_prob(x[:1]).numpy(), d.log_prob(x[0]).item(), rtol=1e-12)
    ind = MixtureSameFamily(Categorical(probs=t([0.5, 0.5])), Independent(Normal(t(loc), t(D)), 1))
    assert ind.event_shape == (4,) and ind.log_prob(x).shape == (5,)


def test_mixture_validation():
    comps = Normal(t([0.0, 1.0]), t([1.0, 1.0]))
    with pytest.raises(ValueError, match="needs to be an  instance of torch.distributions.Categorical"):
        MixtureSameFamily(comps, comps)
    with pytest.raises(ValueError, match="needs to be an instance of torch.distributions.Distribution"):
        MixtureSameFamily(Categorical(probs=t([0.5, 0.5])), "normal")
    with pytest.raises(ValueError, match="does not equal `component_distribution.batch_shape"):
        MixtureSameFamily(Categorical(probs=t([0.2, 0.3, 0.5])), comps)
    with pytest.raises(ValueError, match="is not compatible with"):
        MixtureSameFamily(Categorical(probs=t([[0.5, 0.5]] * 3)), Normal(torch.zeros(4, 2, dtype=F64), 1.0))
    with pytest.raises(ValueError, match="support"):
        MixtureSameFamily(Categorical(probs=t([0.5, 0.5])), Exponential(t([1.0, 2.0])), validate_args=True).log_prob(
            t([-1.0])
        )


# ------------------------------------------------------------------------------ ContinuousBernoulli KLs


def test_continuous_bernoulli_kl_divergences():
    p, q = 0.2, 0.7
    pdf_p = lambda x: np.exp(cb_logpdf(x, p))  # noqa: E731
    want = quad(lambda x: pdf_p(x) * (cb_logpdf(x, p) - cb_logpdf(x, q)), 0, 1)
    cp, cq = ContinuousBernoulli(probs=t([p])), ContinuousBernoulli(probs=t([q]))
    np.testing.assert_allclose(kl_divergence(cp, cq).item(), want, rtol=1e-6)
    n = Normal(t([0.3]), t([0.8]))
    want = quad(lambda x: pdf_p(x) * (cb_logpdf(x, p) - st.norm.logpdf(x, 0.3, 0.8)), 0, 1)
    np.testing.assert_allclose(kl_divergence(cp, n).item(), want, rtol=1e-6)
    e = Exponential(t([1.7]))
    want = quad(lambda x: pdf_p(x) * (cb_logpdf(x, p) - st.expon.logpdf(x, scale=1 / 1.7)), 0, 1)
    np.testing.assert_allclose(kl_divergence(cp, e).item(), want, rtol=1e-6)
    b = Beta(t([2.0]), t([3.0]))
    want = quad(lambda x: st.beta.pdf(x, 2, 3) * (st.beta.logpdf(x, 2, 3) - cb_logpdf(x, q)), 0, 1)
    np.testing.assert_allclose(kl_divergence(b, cq).item(), want, rtol=1e-6)
    u = Uniform(t([0.2]), t([0.6]))
    want = quad(lambda x: 2.5 * (np.log(2.5) - cb_logpdf(x, q)), 0.2, 0.6)
    np.testing.assert_allclose(kl_divergence(u, cq).item(), want, rtol=1e-6)
    assert kl_divergence(Normal(t([0.0]), t([1.0])), cq).item() == math.inf
    assert kl_divergence(Exponential(t([1.0])), cq).item() == math.inf
    assert kl_divergence(cp, Uniform(t([0.1]), t([2.0]))).item() == math.inf
