"""torch.binomial and distributions.Binomial against scipy.stats: sample moments and a chi-square test over
the support for small and large counts (the large ones go through the Beta recursion), edge probabilities,
log_prob/entropy/enumerate_support, and gradients of log_prob. Also run on upstream 2.13."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats

import torch
from torch.distributions import Binomial


@pytest.mark.parametrize("n, p", [(5, 0.3), (40, 0.5), (1000, 0.02), (12345, 0.7)])
def test_samples_follow_the_distribution(n, p):
    torch.manual_seed(0)
    k = torch.binomial(
        torch.full((20000,), float(n), dtype=torch.float64), torch.full((20000,), p, dtype=torch.float64)
    )
    assert k.dtype == torch.float64 and bool((k == k.round()).all()) and 0 <= k.min() and k.max() <= n
    ref = scipy.stats.binom(n, p)
    assert abs(k.mean().item() - ref.mean()) < 5 * ref.std() / np.sqrt(20000)
    assert abs(k.var().item() / ref.var() - 1) < 0.06
    lo, hi = ref.ppf(0.001), ref.ppf(0.999)
    edges = np.unique(np.linspace(lo, hi + 1, 12).round())
    observed = np.histogram(k.numpy(), bins=edges)[0]
    expected = np.diff(ref.cdf(edges - 1)) * 20000
    keep = expected > 20
    chi2 = ((observed[keep] - expected[keep]) ** 2 / expected[keep]).sum()
    assert chi2 < scipy.stats.chi2(keep.sum()).ppf(0.9999)


def test_edges_and_broadcasting():
    n = torch.tensor([0.0, 3.0, 100.0])
    assert torch.binomial(n, torch.tensor([0.5, 0.0, 1.0])).tolist() == [0.0, 0.0, 100.0]
    out = torch.binomial(torch.tensor([[10.0], [20.0]]).expand(2, 3), torch.full((2, 3), 0.5))
    assert out.shape == (2, 3)


def test_distribution():
    d = Binomial(10, probs=torch.tensor([0.2, 0.9], dtype=torch.float64))
    k = torch.tensor([3.0, 10.0], dtype=torch.float64)
    np.testing.assert_allclose(d.log_prob(k).numpy(), scipy.stats.binom(10, [0.2, 0.9]).logpmf([3, 10]), rtol=1e-12)
    np.testing.assert_allclose(d.entropy().numpy(), scipy.stats.binom(10, [0.2, 0.9]).entropy(), rtol=1e-10)
    np.testing.assert_allclose(d.mean.numpy(), [2.0, 9.0])
    np.testing.assert_allclose(d.variance.numpy(), [1.6, 0.9])
    assert d.enumerate_support().shape == (11, 2)
    assert d.sample((4,)).shape == (4, 2)
    logits = Binomial(7, logits=torch.tensor([-1.0, 2.0], dtype=torch.float64))
    want = scipy.stats.binom(7, 1 / (1 + np.exp([1.0, -2.0]))).logpmf([0, 7])
    np.testing.assert_allclose(logits.log_prob(torch.tensor([0.0, 7.0], dtype=torch.float64)).numpy(), want, rtol=1e-12)
    assert abs(Binomial(4, probs=torch.tensor(0.0)).log_prob(torch.tensor(0.0)).item()) < 1e-5  # p clamped to eps
    p = torch.tensor(0.3, dtype=torch.float64, requires_grad=True)
    Binomial(10, probs=p).log_prob(torch.tensor(4.0, dtype=torch.float64)).backward()
    np.testing.assert_allclose(p.grad.item(), 4 / 0.3 - 6 / 0.7, rtol=1e-10)
