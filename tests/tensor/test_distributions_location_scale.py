"""Laplace, Cauchy, LogNormal, HalfNormal and StudentT against scipy.stats (log_prob, cdf, icdf, entropy,
moments), their samples (Kolmogorov-Smirnov), Independent's event dims, and the Laplace KL against its
integral."""

from __future__ import annotations

import numpy as np
import pytest

import torch
from torch.distributions import Cauchy, HalfNormal, Independent, Laplace, LogNormal, Normal, StudentT, kl_divergence

st = pytest.importorskip("scipy.stats")

F64 = torch.float64
LOC, SCALE = np.array([0.5, -1.0, 2.0]), np.array([1.5, 0.7, 3.0])
X, P = np.array([0.3, 1.7, 2.2]), np.array([0.1, 0.5, 0.9])
DF = np.array([0.8, 2.5, 7.0])

CASES = {
    "Laplace": (lambda: Laplace(torch.tensor(LOC), torch.tensor(SCALE)), st.laplace(LOC, SCALE)),
    "Cauchy": (lambda: Cauchy(torch.tensor(LOC), torch.tensor(SCALE)), st.cauchy(LOC, SCALE)),
    "LogNormal": (lambda: LogNormal(torch.tensor(LOC), torch.tensor(SCALE)), st.lognorm(SCALE, scale=np.exp(LOC))),
    "HalfNormal": (lambda: HalfNormal(torch.tensor(SCALE)), st.halfnorm(scale=SCALE)),
    "StudentT": (lambda: StudentT(torch.tensor(DF), torch.tensor(LOC), torch.tensor(SCALE)), st.t(DF, LOC, SCALE)),
}


@pytest.mark.parametrize("name", CASES)
def test_against_scipy(name):
    make, ref = CASES[name]
    d = make()
    np.testing.assert_allclose(d.log_prob(torch.tensor(X)).numpy(), ref.logpdf(X), rtol=1e-10)
    np.testing.assert_allclose(d.entropy().numpy(), ref.entropy(), rtol=1e-10)
    if name != "StudentT":  # PyTorch has no cdf/icdf for StudentT
        np.testing.assert_allclose(d.cdf(torch.tensor(X)).numpy(), ref.cdf(X), rtol=1e-10)
        np.testing.assert_allclose(d.icdf(torch.tensor(P)).numpy(), ref.ppf(P), rtol=1e-10)
    else:
        with pytest.raises(NotImplementedError):
            d.cdf(torch.tensor(X))
    finite = np.isfinite(ref.mean())
    np.testing.assert_allclose(d.mean.numpy()[finite], ref.mean()[finite], rtol=1e-12)
    finite = np.isfinite(ref.var())
    np.testing.assert_allclose(d.variance.numpy()[finite], ref.var()[finite], rtol=1e-12)


@pytest.mark.parametrize("name", CASES)
def test_samples(name):
    torch.manual_seed(0)
    make, ref = CASES[name]
    d = make()
    s = d.sample((20000,))
    assert s.shape == (20000, 3) and s.dtype == F64
    for k in range(3):
        args = {"Laplace": st.laplace(LOC[k], SCALE[k]), "Cauchy": st.cauchy(LOC[k], SCALE[k]),
                "LogNormal": st.lognorm(SCALE[k], scale=np.exp(LOC[k])), "HalfNormal": st.halfnorm(scale=SCALE[k]),
                "StudentT": st.t(DF[k], LOC[k], SCALE[k])}[name]  # fmt: skip
        assert st.kstest(s[:, k].numpy(), args.cdf).pvalue > 1e-3


def test_rsample_gradients_reach_the_parameters():
    df = torch.tensor([4.0], dtype=F64, requires_grad=True)
    scale = torch.tensor([2.0], dtype=F64, requires_grad=True)
    StudentT(df, 0.0, scale).rsample((100,)).square().mean().backward()
    assert df.grad is not None and torch.isfinite(df.grad).all() and scale.grad.item() > 0


def test_independent():
    base = Normal(torch.zeros(2, 3, dtype=F64), torch.ones(2, 3, dtype=F64))
    d = Independent(base, 1)
    assert d.batch_shape == (2,) and d.event_shape == (3,)
    x = torch.randn(2, 3, dtype=F64)
    torch.testing.assert_close(d.log_prob(x), base.log_prob(x).sum(-1))
    torch.testing.assert_close(d.entropy(), base.entropy().sum(-1))
    q = Independent(Normal(torch.ones(2, 3, dtype=F64), torch.ones(2, 3, dtype=F64)), 1)
    torch.testing.assert_close(kl_divergence(d, q), torch.full((2,), 1.5, dtype=F64))
    with pytest.raises(ValueError, match="reinterpreted_batch_ndims"):
        Independent(Normal(0.0, 1.0), 1)


def test_laplace_kl_against_its_integral():
    p, q = (
        Laplace(torch.tensor([0.3], dtype=F64), torch.tensor([1.2], dtype=F64)),
        Laplace(torch.tensor([-0.5], dtype=F64), torch.tensor([2.0], dtype=F64)),
    )
    x = np.linspace(-60, 60, 400001)
    integrand = st.laplace.pdf(x, 0.3, 1.2) * (st.laplace.logpdf(x, 0.3, 1.2) - st.laplace.logpdf(x, -0.5, 2.0))
    np.testing.assert_allclose(kl_divergence(p, q).item(), np.trapezoid(integrand, x), rtol=1e-6)
