"""torch.distributions: log_prob, cdf/icdf and entropy against their formulas (math and NumPy), sample shapes
and moments, reparameterized gradients, KL divergences against their closed forms and Monte Carlo, and
PyTorch's argument and sample validation. Also run on upstream 2.13."""

from __future__ import annotations

import math

import numpy as np
import pytest

import torch
from torch.distributions import Bernoulli, Categorical, Exponential, MultivariateNormal, Normal, Uniform, kl_divergence


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


def _mvn_case():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((2, 3, 3))
    C = X @ X.transpose(0, 2, 1) + np.eye(3)
    return torch.from_numpy(rng.standard_normal((2, 3))), torch.from_numpy(C), rng


@pytest.mark.parametrize("given", ["covariance_matrix", "precision_matrix", "scale_tril"])
def test_multivariate_normal_against_the_density_formula(given):
    mu, C, rng = _mvn_case()
    arg = {"covariance_matrix": C, "precision_matrix": torch.linalg.inv(C), "scale_tril": torch.linalg.cholesky(C)}
    d = MultivariateNormal(mu, **{given: arg[given]})
    assert d.batch_shape == (2,) and d.event_shape == (3,)
    x = rng.standard_normal((4, 2, 3))
    diff = x - mu.numpy()
    maha = np.einsum("...i,...ij,...j->...", diff, np.linalg.inv(C.numpy()), diff)
    want = -0.5 * (3 * math.log(2 * math.pi) + np.linalg.slogdet(C.numpy())[1] + maha)
    np.testing.assert_allclose(d.log_prob(torch.from_numpy(x)).numpy(), want, rtol=1e-10)
    np.testing.assert_allclose(d.covariance_matrix.numpy(), C.numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(d.variance.numpy(), np.diagonal(C.numpy(), 0, -2, -1), rtol=1e-10)
    entropy = 0.5 * (3 * (1 + math.log(2 * math.pi)) + np.linalg.slogdet(C.numpy())[1])
    np.testing.assert_allclose(d.entropy().numpy(), entropy, rtol=1e-10)


def test_multivariate_normal_sampling_kl_and_validation():
    mu, C, _ = _mvn_case()
    torch.manual_seed(0)
    d = MultivariateNormal(mu[0], C[0])
    s = d.sample((40000,))
    assert s.shape == (40000, 3)
    np.testing.assert_allclose(s.mean(0).numpy(), mu[0].numpy(), atol=0.05 * C[0].diagonal().max().sqrt().item())
    np.testing.assert_allclose(np.cov(s.numpy().T), C[0].numpy(), rtol=0.08, atol=0.08)
    loc = mu[0].clone().requires_grad_()
    MultivariateNormal(loc, C[0]).rsample((5,)).sum().backward()
    np.testing.assert_allclose(loc.grad.numpy(), [5.0, 5.0, 5.0])  # d(loc + L eps)/d loc
    p, q = MultivariateNormal(mu, C), MultivariateNormal(mu.flip(-1), C.flip(0))
    Cp, Cq, dm = C.numpy(), C.flip(0).numpy(), (mu.flip(-1) - mu).numpy()
    Cq_inv = np.linalg.inv(Cq)
    want = 0.5 * (
        np.trace(Cq_inv @ Cp, axis1=-2, axis2=-1)
        + np.einsum("...i,...ij,...j->...", dm, Cq_inv, dm)
        - 3
        + np.linalg.slogdet(Cq)[1]
        - np.linalg.slogdet(Cp)[1]
    )
    np.testing.assert_allclose(kl_divergence(p, q).numpy(), want, rtol=1e-9)
    with pytest.raises(ValueError, match="Exactly one of covariance_matrix or precision_matrix or scale_tril"):
        MultivariateNormal(mu, C, scale_tril=C)
    with pytest.raises(ValueError, match="to satisfy the constraint PositiveDefinite"):
        MultivariateNormal(mu, -C, validate_args=True)
    with pytest.raises(ValueError, match="to satisfy the constraint LowerCholesky"):
        MultivariateNormal(mu, scale_tril=C, validate_args=True)
