"""torch.distributions as upstream's API has it, found missing or different by the differential fuzz's
`distributions` family (python -m tools.fuzz --families distributions): the base class's defaults (mean, mode,
variance, enumerate_support, perplexity), the discrete families' modes and supports, Multinomial's entropy,
value checks in cdf, Chi2's parameter check, Categorical's clamped logits, dtype promotion of a float64 value
against Python-number parameters. Oracles: brute-force enumeration and closed forms in float64."""

from __future__ import annotations

import itertools
import math

import pytest

import torch
import torch.distributions as D
import torch.nn.functional as F


class _Bare(D.Distribution):
    """A family that defines nothing beyond its shapes (the base class's defaults)."""

    arg_constraints: dict = {}

    def __init__(self):
        super().__init__(torch.Size([2]), validate_args=False)

    def entropy(self):
        return torch.tensor([0.0, math.log(3.0)])


def test_base_class_defaults():
    d = _Bare()
    assert d.has_enumerate_support is False and D.Normal.has_enumerate_support is False
    for name in ("mean", "mode", "variance", "stddev"):
        with pytest.raises(NotImplementedError):
            getattr(d, name)
    with pytest.raises(NotImplementedError):
        d.enumerate_support()
    torch.testing.assert_close(d.perplexity(), torch.tensor([1.0, 3.0]))
    n = D.Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
    torch.testing.assert_close(n.perplexity(), n.entropy().exp())


def test_bernoulli_mode_and_support():
    b = D.Bernoulli(probs=torch.tensor([[0.2, 0.5, 0.7]]))
    mode = b.mode
    assert mode[0, 0] == 0 and mode[0, 2] == 1 and math.isnan(mode[0, 1])
    assert D.Bernoulli.has_enumerate_support
    s = b.enumerate_support()
    assert s.shape == (2, 1, 3) and s.dtype == torch.float32 and s[:, 0, 1].tolist() == [0.0, 1.0]
    assert b.enumerate_support(expand=False).shape == (2, 1, 1)
    assert D.Bernoulli(logits=torch.tensor(3.0, dtype=torch.float64)).mode.dtype == torch.float64


def test_categorical_mode_and_support():
    c = D.Categorical(probs=torch.tensor([[0.1, 0.6, 0.3], [0.5, 0.2, 0.3]]))
    assert c.mode.tolist() == [1, 0] and c.has_enumerate_support
    s = c.enumerate_support()
    assert s.dtype == torch.int64 and s.shape == (3, 2) and s[:, 1].tolist() == [0, 1, 2]
    assert c.enumerate_support(expand=False).shape == (3, 1)
    e = c.expand((4, 2))
    assert e.enumerate_support().shape == (3, 4, 2) and e.mode.shape == (4, 2)


def test_one_hot_categorical_support_and_param_shape():
    o = D.OneHotCategorical(logits=torch.zeros(2, 3, dtype=torch.float64))
    assert o.has_enumerate_support and o.param_shape == (2, 3)
    s = o.enumerate_support()
    assert s.shape == (3, 2, 3) and s.dtype == torch.float64
    torch.testing.assert_close(s[:, 1], torch.eye(3, dtype=torch.float64))
    assert o.enumerate_support(expand=False).shape == (3, 1, 3)
    assert D.Multinomial(2, probs=torch.ones(5, 4)).param_shape == (5, 4)


def _multinomial_entropy(n: int, p: list[float]) -> float:
    """-sum P(x) log P(x) over every count vector x of n draws (float64 brute force)."""
    h = 0.0
    for x in itertools.product(range(n + 1), repeat=len(p)):
        if sum(x) != n:
            continue
        logp = math.lgamma(n + 1) + sum(xi * math.log(pi) - math.lgamma(xi + 1) for xi, pi in zip(x, p))
        h -= math.exp(logp) * logp
    return h


@pytest.mark.parametrize("n", [0, 1, 3, 5])
def test_multinomial_entropy_is_the_sum_over_outcomes(n):
    probs = torch.tensor([[0.2, 0.3, 0.5], [0.25, 0.25, 0.5], [0.9, 0.05, 0.05]], dtype=torch.float64)
    h = D.Multinomial(n, probs=probs).entropy()
    assert h.shape == (3,) and h.dtype == torch.float64
    expected = torch.tensor([_multinomial_entropy(n, row) for row in probs.tolist()], dtype=torch.float64)
    # upstream takes lgamma(n + 1) of an int64 tensor, a float32 result: 1e-7 of slack, as it has
    torch.testing.assert_close(h, expected, atol=1e-6, rtol=1e-7)


def test_exponential_mode():
    torch.testing.assert_close(D.Exponential(torch.tensor([0.5, 2.0])).mode, torch.zeros(2))


@pytest.mark.parametrize(
    "dist, bad",
    [
        (D.Normal(0.0, 1.0), float("nan")),
        (D.Laplace(0.0, 1.0), float("nan")),
        (D.Cauchy(0.0, 1.0), float("nan")),
        (D.Exponential(2.0), -1.0),
        (D.Uniform(0.0, 1.0), 2.0),
        (D.HalfNormal(1.0), -1.0),
    ],
    ids=lambda v: type(v).__name__ if isinstance(v, D.Distribution) else str(v),
)
def test_cdf_checks_its_value(dist, bad):
    value = torch.tensor([0.5, bad])
    with pytest.raises(ValueError, match="to be within the support"):
        dist.cdf(value)
    unchecked = type(dist).__new__(type(dist))
    unchecked.__dict__.update(dist.__dict__)
    unchecked._validate_args = False
    assert unchecked.cdf(value).shape == (2,)  # without validation: a number (or nan), never an error


def test_chi2_checks_df():
    with pytest.raises(ValueError, match="Expected parameter df"):
        D.Chi2(torch.tensor([1.0, -1.0]))
    with pytest.raises(ValueError, match="Expected parameter df"):
        D.Chi2(torch.tensor([float("nan")]))
    assert D.Chi2(torch.tensor([-1.0]), validate_args=False).mean.item() == -1.0
    torch.testing.assert_close(D.Chi2(torch.tensor([3.0])).variance, torch.tensor([6.0]))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_categorical_logits_clamp_probs_to_eps(dtype):
    eps = torch.finfo(dtype).eps
    c = D.Categorical(probs=torch.tensor([0.5, 0.5, 0.0, 1e-9], dtype=dtype))
    expected = torch.tensor([0.5, 0.5, eps, max(1e-9, eps)], dtype=dtype).log()
    torch.testing.assert_close(c.logits, expected)
    assert torch.isfinite(D.Categorical(probs=torch.tensor([1.0, 0.0], dtype=dtype)).logits).all()


def test_a_float64_value_promotes_python_number_parameters():
    value = torch.tensor([0.25, 0.5], dtype=torch.float64)
    assert D.Beta(5.0, 3.0).log_prob(value).dtype == torch.float64
    assert D.HalfNormal(2.5).log_prob(value).dtype == torch.float64
    assert D.HalfCauchy(2.5).log_prob(value).dtype == torch.float32  # upstream's HalfCauchy casts the value
    assert D.Normal(0.0, 1.0).log_prob(value).dtype == torch.float64


def test_one_hot_is_contiguous_for_any_layout():
    x = torch.arange(6).reshape(2, 3).t() % 3
    y = F.one_hot(x, 3)
    assert y.is_contiguous() and y.shape == (3, 2, 3) and y.dtype == torch.int64
    assert y.argmax(-1).tolist() == x.tolist()
    assert F.one_hot(torch.zeros(0, dtype=torch.int64), 4).shape == (0, 4)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_bce_with_logits_rounds_as_one_minus_target_times_x_minus_log_sigmoid(dtype):
    x = torch.tensor([-30.0, -13.8155, -2.5, -0.0, 0.75, 4.0, 20.0], dtype=dtype)
    t = torch.tensor([1e-6, 1e-6, 0.3, 0.5, 1.0, 0.0, 0.9], dtype=dtype)
    loss = F.binary_cross_entropy_with_logits(x, t, reduction="none")
    assert torch.equal(loss, (1 - t) * x - F.logsigmoid(x))
