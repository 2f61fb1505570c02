"""Gamma(concentration, rate) and Chi2(df) = Gamma(df / 2, 1 / 2)."""

from __future__ import annotations

import torch
from torch.distributions import constraints
from torch.distributions.distribution import broadcast_all
from torch.distributions.exp_family import ExponentialFamily


def _standard_gamma(concentration):
    """Gamma(concentration, 1) samples, reparameterized (torch._standard_gamma's gradient), never exactly 0
    (a concentration near 0 underflows: the smallest normal number instead, as PyTorch)."""
    return torch._standard_gamma(concentration).clamp(min=torch.finfo(concentration.dtype).tiny)


class Gamma(ExponentialFamily):
    """The gamma distribution of shape `concentration` (> 0) and inverse scale `rate` (> 0): density
    rate^a x^(a-1) e^(-rate x) / Gamma(a) on x > 0."""

    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, concentration, rate, validate_args=None):
        self.concentration, self.rate = broadcast_all(concentration, rate)
        super().__init__(self.concentration.shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with concentration and rate expanded to batch_shape."""
        return self._expand_parameters(Gamma, ("concentration", "rate"), batch_shape, _instance)

    @property
    def mean(self):
        return self.concentration / self.rate

    @property
    def mode(self):
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self):
        return self.concentration / self.rate.pow(2)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        value = _standard_gamma(self.concentration.expand(shape)) / self.rate.expand(shape)
        return value.clamp(min=torch.finfo(value.dtype).tiny)

    def log_prob(self, value):
        """log density at value."""
        if self._validate_args:
            self._validate_sample(value)
        a, b = self.concentration, self.rate
        value = torch.as_tensor(value, dtype=b.dtype, device=b.device)
        return torch.xlogy(a, b) + torch.xlogy(a - 1, value) - b * value - torch.lgamma(a)

    def cdf(self, value):
        """P(X <= value): the regularized lower incomplete gamma function."""
        if self._validate_args:
            self._validate_sample(value)
        return torch.special.gammainc(self.concentration, self.rate * value)

    def entropy(self):
        a = self.concentration
        return a - torch.log(self.rate) + torch.lgamma(a) + (1.0 - a) * torch.digamma(a)

    @property
    def _natural_params(self):
        return (self.concentration - 1, -self.rate)

    def _log_normalizer(self, x, y):
        return torch.lgamma(x + 1) + (x + 1) * torch.log(-y.reciprocal())


class Chi2(Gamma):
    """The chi-squared distribution with `df` (> 0) degrees of freedom: Gamma(df / 2, 1 / 2)."""

    arg_constraints = {"df": constraints.positive}

    def __init__(self, df, validate_args=None):
        (df,) = broadcast_all(df)
        super().__init__(0.5 * df, torch.full_like(df, 0.5), validate_args=validate_args)

    @property
    def df(self):
        return self.concentration * 2

    def expand(self, batch_shape, _instance=None):
        """This distribution with df expanded to batch_shape."""
        return super().expand(batch_shape, self._get_checked_instance(Chi2, _instance))
