"""Gumbel, Weibull, Pareto, HalfCauchy and FisherSnedecor against scipy.stats: log_prob, cdf/icdf, entropy,
moments and their samples (Kolmogorov-Smirnov)."""

from __future__ import annotations

import numpy as np
import pytest

import torch
from torch.distributions import FisherSnedecor, Gumbel, HalfCauchy, Pareto, Weibull

st = pytest.importorskip("scipy.stats")

A, B = np.array([0.5, 2.0]), np.array([2.0, 3.5])  # two parameter sets, positive
X, P = np.array([1.7, 2.5]), np.array([0.3, 0.8])

CASES = {
    "Gumbel": (lambda: Gumbel(torch.tensor(A), torch.tensor(B)), st.gumbel_r(A, B), True),
    "Weibull": (lambda: Weibull(torch.tensor(B), torch.tensor(A + 1)), st.weibull_min(A + 1, scale=B), True),
    "Pareto": (lambda: Pareto(torch.tensor(A + 0.5), torch.tensor(B + 1)), st.pareto(B + 1, scale=A + 0.5), True),
    "HalfCauchy": (lambda: HalfCauchy(torch.tensor(B)), st.halfcauchy(scale=B), True),
    "FisherSnedecor": (lambda: FisherSnedecor(torch.tensor(B), torch.tensor(A + 5)), st.f(B, A + 5), False),
}


@pytest.mark.parametrize("name", CASES)
def test_against_scipy(name):
    make, ref, has_cdf = CASES[name]
    d = make()
    np.testing.assert_allclose(d.log_prob(torch.tensor(X)).numpy(), ref.logpdf(X), rtol=1e-10)
    finite = np.isfinite(ref.mean())
    np.testing.assert_allclose(d.mean.numpy()[finite], ref.mean()[finite], rtol=1e-10)
    finite = np.isfinite(ref.var())
    np.testing.assert_allclose(d.variance.numpy()[finite], ref.var()[finite], rtol=1e-10)
    if has_cdf:
        np.testing.assert_allclose(d.cdf(torch.tensor(X)).numpy(), ref.cdf(X), rtol=1e-10)
        np.testing.assert_allclose(d.icdf(torch.tensor(P)).numpy(), ref.ppf(P), rtol=1e-10)
        np.testing.assert_allclose(d.entropy().numpy(), ref.entropy(), rtol=1e-10)


@pytest.mark.parametrize("name", CASES)
def test_samples(name):
    torch.manual_seed(0)
    make, ref, _ = CASES[name]
    s = make().rsample((20000,))
    assert s.shape == (20000, 2)
    for k in range(2):
        frozen = ref.dist(*[np.asarray(a)[k] for a in ref.args], **{n: np.asarray(v)[k] for n, v in ref.kwds.items()})
        assert st.kstest(s[:, k].numpy(), frozen.cdf).pvalue > 1e-3
