"""torch.distributions: log_prob, cdf/icdf and entropy against their formulas (math and NumPy), sample shapes
and moments, reparameterized gradients, KL divergences against their closed forms and Monte Carlo, and
PyTorch's argument and sample validation. Also run on upstream 2.13."""

from __future__ import annotations

import math

import numpy as np
import pytest

import torch
from torch.distributions import Bernoulli, Categorical, Exponential, Normal, Uniform, kl_divergence


def test_normal():
    d = Normal(torch.tensor([0.0, 1.0], dtype=torch.float64), torch.tensor([1.0, 2.0], dtype=torch.float64))
    x = torch.tensor([0.5, -0.3], dtype=torch.float64)
    want = [-((v - m) ** 2) / (2 * s * s) - math.log(s) - 0.5 * math.log(2 * math.pi) for v, m, s in
            zip([0.5, -0.3], [0.0, 1.0], [1.0, 2.0])]  # fmt: skip
    np.testing.assert_allclose(d.log_prob(x).numpy(), want)
    np.testing.assert_allclose(d.cdf(x).numpy(), [0.5 * math.erfc(-(v - m) / (s * math.sqrt(2))) for v, m, s in
                                                  zip([0.5, -0.3], [0.0, 1.0], [1.0, 2.0])])  # fmt: skip
    np.testing.assert_allclose(d.icdf(d.cdf(x)).numpy(), x.numpy(), rtol=1e-9)
    np.testing.assert_allclose(d.entropy().numpy(), 0.5 * np.log(2 * np.pi * np.e * np.array([1.0, 4.0])))
    assert d.batch_shape == (2,) and d.event_shape == () and d.sample((3, 4)).shape == (3, 4, 2)
    torch.manual_seed(0)
    s = Normal(2.0, 3.0).sample((100_000,))
    assert abs(s.mean().item() - 2) < 0.05 and abs(s.std().item() - 3) < 0.05
    loc = torch.tensor([0.5], requires_grad=True)
    Normal(loc, 1.0).rsample((10,)).sum().backward()
    assert loc.grad.tolist() == [10.0]


def test_discrete():
    c = Categorical(probs=torch.tensor([0.2, 0.3, 0.5]))
    assert c.log_prob(torch.tensor(2)).item() == pytest.approx(math.log(0.5))
    assert c.entropy().item() == pytest.approx(-sum(p * math.log(p) for p in (0.2, 0.3, 0.5)))
    torch.manual_seed(1)
    counts = torch.bincount(c.sample((50_000,)), minlength=3).double() / 50_000
    np.testing.assert_allclose(counts.numpy(), [0.2, 0.3, 0.5], atol=0.01)
    c2 = Categorical(logits=torch.tensor([[1.0, 2, 3], [0, 0, 0]]))
    assert c2.batch_shape == (2,) and c2.sample((5,)).shape == (5, 2)
    b = Bernoulli(logits=torch.tensor([0.0, 2.0]))
    p = 1 / (1 + math.exp(-2))
    np.testing.assert_allclose(b.probs.numpy(), [0.5, p], rtol=1e-6)
    np.testing.assert_allclose(
        b.log_prob(torch.tensor([1.0, 0.0])).numpy(), [math.log(0.5), math.log(1 - p)], rtol=1e-5
    )
    np.testing.assert_allclose(b.entropy().numpy(), [math.log(2), -(p * math.log(p) + (1 - p) * math.log(1 - p))],
                               rtol=1e-5)  # fmt: skip


def test_continuous():
    u = Uniform(0.0, 2.0)
    assert (
        u.log_prob(torch.tensor(1.0)).item() == pytest.approx(-math.log(2)) and u.cdf(torch.tensor(0.5)).item() == 0.25
    )
    e = Exponential(torch.tensor([2.0]))
    assert e.log_prob(torch.tensor([1.0])).item() == pytest.approx(math.log(2) - 2)
    assert e.entropy().item() == pytest.approx(1 - math.log(2)) and e.mean.item() == 0.5


def test_kl_divergence():
    assert kl_divergence(Normal(0.0, 1.0), Normal(1.0, 2.0)).item() == pytest.approx(math.log(2) + 2 / 8 - 0.5)
    p, q = 0.3, 0.6
    want = p * math.log(p / q) + (1 - p) * math.log((1 - p) / (1 - q))
    assert kl_divergence(Bernoulli(torch.tensor([p])), Bernoulli(torch.tensor([q]))).item() == pytest.approx(want)
    a, b = [0.2, 0.3, 0.5], [0.5, 0.25, 0.25]
    got = kl_divergence(Categorical(probs=torch.tensor(a)), Categorical(probs=torch.tensor(b))).item()
    assert got == pytest.approx(sum(x * math.log(x / y) for x, y in zip(a, b)), rel=1e-6)
    assert kl_divergence(Uniform(0.0, 1.0), Uniform(-1.0, 2.0)).item() == pytest.approx(math.log(3))
    assert kl_divergence(Uniform(0.0, 3.0), Uniform(1.0, 2.0)).item() == math.inf
    assert kl_divergence(Exponential(torch.tensor([2.0])), Exponential(torch.tensor([1.0]))).item() == pytest.approx(
        math.log(2) + 0.5 - 1
    )
    torch.manual_seed(2)  # Monte Carlo agrees with the closed form
    pn, qn = Normal(0.3, 1.2), Normal(-0.5, 0.7)
    x = pn.sample((200_000,))
    assert (pn.log_prob(x) - qn.log_prob(x)).mean().item() == pytest.approx(kl_divergence(pn, qn).item(), abs=0.02)
    with pytest.raises(NotImplementedError):
        kl_divergence(Categorical(probs=torch.tensor([0.5, 0.5])), Normal(0.0, 1.0))


def test_validation():
    with pytest.raises(ValueError, match="Expected parameter scale"):
        Normal(torch.tensor([0.0]), torch.tensor([-1.0]))
    with pytest.raises(ValueError, match="Expected parameter probs"):
        Bernoulli(probs=torch.tensor([1.5]))
    with pytest.raises(ValueError, match="Either `probs` or `logits` must be specified, but not both"):
        Categorical()
    with pytest.raises(ValueError, match="to be within the support"):
        Uniform(0.0, 2.0).log_prob(torch.tensor(3.0))
    assert Normal(torch.tensor([0.0]), torch.tensor([-1.0]), validate_args=False).scale.item() == -1.0
