"""Exponential(rate)."""

from __future__ import annotations

import torch
from torch.distributions import constraints
from torch.distributions.distribution import Distribution, broadcast_all


class Exponential(Distribution):
    """The exponential distribution of rate `rate` (> 0)."""

    arg_constraints = {"rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, rate, validate_args=None):
        (self.rate,) = broadcast_all(rate)
        super().__init__(self.rate.shape, validate_args=validate_args)

    @property
    def mean(self):
        return self.rate.reciprocal()

    @property
    def variance(self):
        return self.rate.pow(-2)

    def rsample(self, sample_shape=()):
        u = torch.rand(self._extended_shape(sample_shape), dtype=self.rate.dtype, device=self.rate.device)
        return -torch.log1p(-u) / self.rate

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self.rate.log() - self.rate * value

    def cdf(self, value):
        return 1 - torch.exp(-self.rate * value)

    def icdf(self, value):
        return -torch.log1p(-value) / self.rate

    def entropy(self):
        return 1.0 - torch.log(self.rate)
