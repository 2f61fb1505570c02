"""torch.poisson (the random family's sampler: products of uniforms below rate 10, PTRS above) against the
Poisson pmf by a chi-square test, its errors and zero gradient; torch.distributions.Poisson against
scipy.stats and its KL divergence against the definition."""

from __future__ import annotations

import numpy as np
import pytest

import torch
from torch.distributions import Poisson, kl_divergence

st = pytest.importorskip("scipy.stats")


@pytest.mark.parametrize("rate", [0.3, 4.0, 9.99, 10.0, 37.5, 800.0])
def test_samples_follow_the_pmf(rate):
    torch.manual_seed(0)
    x = torch.poisson(torch.full((100000,), rate, dtype=torch.float64)).numpy()
    assert x.min() >= 0 and np.all(x == np.floor(x))
    values, counts = np.unique(x, return_counts=True)
    expected = st.poisson.pmf(values, rate) * x.size
    keep = expected > 20
    chi2 = ((counts[keep] - expected[keep]) ** 2 / expected[keep]).sum()
    assert st.chi2.sf(chi2, keep.sum() - 1) > 1e-3
    np.testing.assert_allclose(x.mean(), rate, rtol=0.02, atol=0.01)


def test_values_errors_and_gradient():
    assert torch.poisson(torch.tensor([0.0, 0.0])).tolist() == [0.0, 0.0]
    for bad in ([-1.0], [float("nan")]):
        with pytest.raises(RuntimeError, match="expected rate to be non-negative"):
            torch.poisson(torch.tensor(bad))
    with pytest.raises(NotImplementedError, match="not implemented for 'Long'"):
        torch.poisson(torch.tensor([1, 2]))
    rate = torch.tensor([2.0, 30.0], requires_grad=True)
    torch.poisson(rate).sum().backward()
    assert rate.grad.tolist() == [0.0, 0.0]
    a = torch.poisson(torch.tensor([3.0, 50.0]), generator=torch.Generator().manual_seed(5))
    b = torch.poisson(torch.tensor([3.0, 50.0]), generator=torch.Generator().manual_seed(5))
    assert torch.equal(a, b)


def test_distribution_against_scipy():
    rate = np.array([0.5, 4.0, 12.0])
    d = Poisson(torch.tensor(rate))
    k = np.array([1.0, 3.0, 15.0])
    np.testing.assert_allclose(d.log_prob(torch.tensor(k)).numpy(), st.poisson.logpmf(k, rate), rtol=1e-12)
    assert d.mean.tolist() == rate.tolist() and d.variance.tolist() == rate.tolist()
    assert d.mode.tolist() == [0.0, 4.0, 12.0]
    assert d.sample((7,)).shape == (7, 3) and not d.has_rsample
    assert repr(d.support) == "IntegerGreaterThan(lower_bound=0)"
    with pytest.raises(ValueError):
        Poisson(torch.tensor([1.0]), validate_args=True).log_prob(torch.tensor([0.5]))
    p, q = Poisson(torch.tensor([2.0], dtype=torch.float64)), Poisson(torch.tensor([3.5], dtype=torch.float64))
    ks = np.arange(0, 80)
    want = (st.poisson.pmf(ks, 2.0) * (st.poisson.logpmf(ks, 2.0) - st.poisson.logpmf(ks, 3.5))).sum()
    np.testing.assert_allclose(kl_divergence(p, q).item(), want, rtol=1e-10)
