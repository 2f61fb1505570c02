"""Poisson(rate)."""

from __future__ import annotations

import torch
from torch.distributions import constraints
from torch.distributions.distribution import broadcast_all
from torch.distributions.exp_family import ExponentialFamily


class Poisson(ExponentialFamily):
    """The Poisson distribution of rate `rate` (>= 0): P(k) = rate^k e^(-rate) / k! on the non-negative
    integers. Samples come from torch.poisson (no reparameterization)."""

    arg_constraints = {"rate": constraints.nonnegative}
    support = constraints.nonnegative_integer

    def __init__(self, rate, validate_args=None):
        (self.rate,) = broadcast_all(rate)
        super().__init__(self.rate.shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to batch_shape."""
        return self._expand_parameters(Poisson, ("rate",), batch_shape, _instance)

    @property
    def mean(self):
        return self.rate

    @property
    def mode(self):
        return self.rate.floor()

    @property
    def variance(self):
        return self.rate

    def sample(self, sample_shape=()):
        with torch.no_grad():
            return torch.poisson(self.rate.expand(self._extended_shape(sample_shape)))

    def log_prob(self, value):
        """log P(value)."""
        if self._validate_args:
            self._validate_sample(value)
        rate, value = broadcast_all(self.rate, value)
        return value.xlogy(rate) - rate - (value + 1).lgamma()

    @property
    def _natural_params(self):
        return (torch.log(self.rate),)

    def _log_normalizer(self, x):
        return torch.exp(x)
