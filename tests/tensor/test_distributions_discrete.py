"""Geometric, OneHotCategorical and Multinomial against scipy.stats (pmf, moments, entropy) and their samples'
frequencies."""

from __future__ import annotations

import numpy as np
import pytest

import torch
from torch.distributions import Geometric, Multinomial, OneHotCategorical

st = pytest.importorskip("scipy.stats")
F64 = torch.float64


def test_geometric_against_scipy():
    p = np.array([0.2, 0.5, 0.9])
    g = Geometric(torch.tensor(p))
    k = np.array([0.0, 3.0, 1.0])
    np.testing.assert_allclose(g.log_prob(torch.tensor(k)).numpy(), st.geom.logpmf(k + 1, p), rtol=1e-12)
    np.testing.assert_allclose(g.mean.numpy(), st.geom.mean(p) - 1, rtol=1e-12)
    np.testing.assert_allclose(g.variance.numpy(), st.geom.var(p), rtol=1e-12)
    np.testing.assert_allclose(g.entropy().numpy(), st.geom.entropy(p), rtol=1e-12)
    logits = torch.tensor([0.3, -1.0], dtype=F64)
    torch.testing.assert_close(Geometric(logits=logits).probs, torch.sigmoid(logits))
    torch.manual_seed(0)
    s = Geometric(torch.tensor([0.3], dtype=F64)).sample((50000,)).squeeze(-1).numpy()
    np.testing.assert_allclose(s.mean(), 0.7 / 0.3, rtol=0.03)
    with pytest.raises(ValueError, match="Either `probs` or `logits`"):
        Geometric()


def test_one_hot_categorical_and_multinomial():
    probs = torch.tensor([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]], dtype=F64)
    o = OneHotCategorical(probs)
    assert o.batch_shape == (2,) and o.event_shape == (3,)
    np.testing.assert_allclose(o.log_prob(torch.tensor([0.0, 0.0, 1.0], dtype=F64)).numpy(), np.log([0.5, 0.1]))
    torch.manual_seed(1)
    draws = o.sample((20000,))
    assert draws.shape == (20000, 2, 3) and torch.equal(draws.sum(-1), torch.ones(20000, 2, dtype=F64))
    np.testing.assert_allclose(draws.mean(0).numpy(), probs.numpy(), atol=0.015)
    m = Multinomial(5, torch.tensor([0.2, 0.3, 0.5], dtype=F64))
    x = np.array([1.0, 1.0, 3.0])
    np.testing.assert_allclose(m.log_prob(torch.tensor(x)).item(), st.multinomial.logpmf(x, 5, [0.2, 0.3, 0.5]))
    np.testing.assert_allclose(m.mean.numpy(), [1.0, 1.5, 2.5])
    np.testing.assert_allclose(m.variance.numpy(), 5 * np.array([0.2, 0.3, 0.5]) * np.array([0.8, 0.7, 0.5]))
    counts = m.sample((4000,))
    assert counts.shape == (4000, 3) and torch.equal(counts.sum(-1), torch.full((4000,), 5.0, dtype=F64))
    np.testing.assert_allclose(counts.mean(0).numpy(), [1.0, 1.5, 2.5], atol=0.08)


def test_batched_values_and_supports():
    m = Multinomial(5, torch.tensor([0.2, 0.3, 0.5]))
    np.testing.assert_allclose(
        m.log_prob(torch.tensor([[1.0, 1.0, 3.0], [0.0, 0.0, 5.0]])).numpy(),
        st.multinomial.logpmf([[1, 1, 3], [0, 0, 5]], 5, [0.2, 0.3, 0.5]),
        rtol=1e-5,
    )
    with pytest.raises(ValueError):
        OneHotCategorical(torch.tensor([0.5, 0.5]), validate_args=True).log_prob(torch.tensor([0.5, 0.5]))
    with pytest.raises(ValueError):
        Multinomial(2, torch.tensor([0.5, 0.5]), validate_args=True).log_prob(torch.tensor([1.0, 2.0]))
    with pytest.raises(ValueError, match="positive"):
        Geometric(torch.tensor([0.0]), validate_args=True)
