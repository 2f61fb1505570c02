"""LogNormal(loc, scale) and HalfNormal(scale): a normal variable through exp and abs."""

from __future__ import annotations

import math

import torch
from torch.distributions import constraints
from torch.distributions._folded import Folded
from torch.distributions.distribution import Distribution
from torch.distributions.normal import Normal


class LogNormal(Distribution):
    """exp(X) for X ~ Normal(loc, scale): log density log N(log x) - log x on x > 0."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.base_dist = Normal(loc, scale, validate_args=validate_args)
        super().__init__(self.base_dist.batch_shape, validate_args=validate_args)

    @property
    def loc(self):
        return self.base_dist.loc

    @property
    def scale(self):
        return self.base_dist.scale

    @property
    def mean(self):
        return (self.loc + self.scale.pow(2) / 2).exp()

    @property
    def mode(self):
        return (self.loc - self.scale.square()).exp()

    @property
    def variance(self):
        s2 = self.scale.pow(2)
        return s2.expm1() * (2 * self.loc + s2).exp()

    def rsample(self, sample_shape=()):
        return self.base_dist.rsample(sample_shape).exp()

    def log_prob(self, value):
        """log density at value > 0."""
        if self._validate_args:
            self._validate_sample(value)
        log_value = torch.log(value)
        return self.base_dist.log_prob(log_value) - log_value

    def cdf(self, value):
        """P(X <= value)."""
        return self.base_dist.cdf(torch.log(value))

    def icdf(self, value):
        """The value below which the probability is `value`."""
        return self.base_dist.icdf(value).exp()

    def entropy(self):
        return self.base_dist.entropy() + self.loc


class HalfNormal(Folded, Distribution):
    """abs(X) for X ~ Normal(0, scale): density 2 N(x; 0, scale) on x >= 0."""

    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, scale, validate_args=None):
        self.base_dist = Normal(0, scale, validate_args=False)
        super().__init__(self.base_dist.batch_shape, validate_args=validate_args)
        self._check_scale()

    @property
    def mean(self):
        return self.scale * math.sqrt(2 / math.pi)

    @property
    def variance(self):
        return self.scale.pow(2) * (1 - 2 / math.pi)

    def rsample(self, sample_shape=()):
        return self.base_dist.rsample(sample_shape).abs()
