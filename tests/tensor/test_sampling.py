"""Random sampling (torch/_refs/sampling.py): each distribution's moments or frequencies on 200,000 draws, within
a tolerance that a correct sampler misses with negligible probability, its support, dtypes and PyTorch's errors.
Statistical, so also valid on upstream 2.13 (whose generator draws other numbers)."""

from __future__ import annotations

import math

import pytest

import torch

N = 200_000


def test_bernoulli():
    torch.manual_seed(0)
    p = torch.full((N,), 0.3)
    x = torch.bernoulli(p)
    assert x.dtype == torch.float32 and set(x.unique().tolist()) <= {0.0, 1.0}
    assert abs(x.mean().item() - 0.3) < 0.005
    assert torch.bernoulli(torch.zeros(100)).sum().item() == 0 and torch.bernoulli(torch.ones(100)).sum().item() == 100
    y = torch.empty(N).bernoulli_(0.8)
    assert abs(y.mean().item() - 0.8) < 0.005
    with pytest.raises(RuntimeError):
        torch.bernoulli(torch.tensor([1.5]))


def test_multinomial():
    torch.manual_seed(1)
    w = torch.tensor([1.0, 0.0, 3.0, 6.0])
    draws = torch.multinomial(w, N, replacement=True)
    assert draws.dtype == torch.int64 and draws.shape == (N,)
    freq = torch.bincount(draws, minlength=4).double() / N
    assert freq[1].item() == 0 and all(abs(f - e) < 0.005 for f, e in zip(freq.tolist(), [0.1, 0.0, 0.3, 0.6]))
    rows = torch.multinomial(w.expand(N // 10, 4), 3)  # without replacement: 3 distinct non-zero categories
    assert rows.shape == (N // 10, 3) and bool((rows != 1).all())
    assert bool((rows.sort(1).values[:, 1:] != rows.sort(1).values[:, :-1]).all())
    first = torch.bincount(rows[:, 0], minlength=4).double() / rows.shape[0]
    assert all(abs(f - e) < 0.01 for f, e in zip(first.tolist(), [0.1, 0.0, 0.3, 0.6]))
    with pytest.raises(RuntimeError, match="cannot sample n_sample > prob_dist.size"):
        torch.multinomial(w, 5)
    with pytest.raises(RuntimeError, match="probability tensor contains either `inf`, `nan` or element < 0"):
        torch.multinomial(torch.tensor([1.0, -1.0]), 1)
    with pytest.raises(RuntimeError, match="sum of probabilities <= 0"):
        torch.multinomial(torch.zeros(3), 1, True)


def test_normal_forms():
    torch.manual_seed(2)
    x = torch.normal(torch.full((N,), 3.0), 2.0)
    assert abs(x.mean().item() - 3) < 0.03 and abs(x.std().item() - 2) < 0.03
    y = torch.normal(0.0, torch.full((N,), 0.5))
    assert abs(y.std().item() - 0.5) < 0.01
    z = torch.normal(1.0, 3.0, size=(N,))
    assert z.shape == (N,) and abs(z.mean().item() - 1) < 0.05
    b = torch.normal(torch.zeros(3, 1), torch.ones(1, 4))
    assert b.shape == (3, 4)


def test_in_place_distributions():
    torch.manual_seed(3)
    e = torch.empty(N, dtype=torch.float64).exponential_(2.0)
    assert e.min().item() >= 0 and abs(e.mean().item() - 0.5) < 0.01
    c = torch.empty(N, dtype=torch.float64).cauchy_(1.0, 2.0)
    assert abs(c.median().item() - 1.0) < 0.05
    ln = torch.empty(N, dtype=torch.float64).log_normal_(0.5, 0.25)
    assert ln.min().item() > 0 and abs(ln.log().mean().item() - 0.5) < 0.01
    g = torch.empty(N, dtype=torch.float64).geometric_(0.25)
    assert g.min().item() >= 1 and bool((g == g.floor()).all()) and abs(g.mean().item() - 4) < 0.1
    r = torch.empty(N, dtype=torch.int64).random_(3, 7)
    assert set(r.unique().tolist()) == {3, 4, 5, 6}
    r = torch.empty(N).random_(10)
    assert set(r.unique().tolist()) == set(map(float, range(10)))
    u = torch.empty(1000, dtype=torch.int16).random_()
    assert u.min().item() >= 0
    for bad in (lambda: torch.empty(3).exponential_(-1.0), lambda: torch.empty(3).geometric_(1.5)):
        with pytest.raises(RuntimeError):
            bad()
    assert not math.isnan(torch.empty(10).cauchy_().sum().item())
