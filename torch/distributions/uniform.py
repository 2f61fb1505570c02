"""Uniform(low, high)."""

from __future__ import annotations

import math

import torch
from torch.distributions import constraints
from torch.distributions.distribution import Distribution, broadcast_all


class Uniform(Distribution):
    """The uniform distribution on [low, high) (low < high), batched by broadcasting."""

    has_rsample = True

    def __init__(self, low, high, validate_args=None):
        self.low, self.high = broadcast_all(low, high)
        super().__init__(self.low.shape, validate_args=validate_args)

    @property
    def arg_constraints(self):
        """low < high, each bounded by the other (as upstream 2.13: validation reports low against LessThan(high),
        so a NaN end fails too)."""
        return {"low": constraints.less_than(self.high), "high": constraints.greater_than(self.low)}

    def expand(self, batch_shape, _instance=None):
        """This distribution with low and high expanded to batch_shape."""
        return self._expand_parameters(Uniform, ("low", "high"), batch_shape, _instance)

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        return constraints.interval(self.low, self.high)

    @property
    def mode(self):
        """NaN: every point of [low, high) is a mode."""
        return math.nan * self.high

    @property
    def mean(self):
        return (self.high + self.low) / 2

    @property
    def variance(self):
        return (self.high - self.low).pow(2) / 12

    def rsample(self, sample_shape=()):
        u = torch.rand(self._extended_shape(sample_shape), dtype=self.low.dtype, device=self.low.device)
        return self.low + u * (self.high - self.low)

    def log_prob(self, value):
        """log density: -log(high - low) inside [low, high), -inf outside."""
        if self._validate_args:
            self._validate_sample(value)
        inside = (self.low <= value).to(self.low.dtype) * (self.high > value).to(self.low.dtype)
        return torch.log(inside) - torch.log(self.high - self.low)

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return ((value - self.low) / (self.high - self.low)).clamp(0, 1)

    def icdf(self, value):
        return self.low + value * (self.high - self.low)

    def entropy(self):
        return torch.log(self.high - self.low)
