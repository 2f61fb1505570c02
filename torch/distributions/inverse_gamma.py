"""InverseGamma(concentration, rate): 1 / X for X ~ Gamma(concentration, rate)."""

from __future__ import annotations

import math

import torch
from torch.distributions import constraints
from torch.distributions.gamma import Gamma
from torch.distributions.transformed_distribution import TransformedDistribution
from torch.distributions.transforms import PowerTransform

__all__ = ["InverseGamma"]


class InverseGamma(TransformedDistribution):
    """The inverse gamma distribution of shape `concentration` (alpha > 0) and `rate` (beta > 0): 1 / X for
    X ~ Gamma(alpha, beta), density beta^alpha x^(-alpha-1) e^(-beta / x) / Gamma(alpha) on x > 0;
    reparameterized."""

    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, concentration, rate, validate_args=None):
        base_dist = Gamma(concentration, rate, validate_args=validate_args)
        neg_one = -base_dist.rate.new_ones(())
        super().__init__(base_dist, PowerTransform(neg_one), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with concentration and rate expanded to batch_shape."""
        return super().expand(batch_shape, _instance=self._get_checked_instance(InverseGamma, _instance))

    @property
    def concentration(self):
        return self.base_dist.concentration

    @property
    def rate(self):
        return self.base_dist.rate

    @property
    def mean(self):
        """rate / (concentration - 1), infinite for concentration <= 1."""
        result = self.rate / (self.concentration - 1)
        return torch.where(self.concentration > 1, result, math.inf)

    @property
    def mode(self):
        return self.rate / (self.concentration + 1)

    @property
    def variance(self):
        """rate^2 / ((concentration - 1)^2 (concentration - 2)), infinite for concentration <= 2."""
        a = self.concentration
        result = self.rate.square() / ((a - 1).square() * (a - 2))
        return torch.where(a > 2, result, math.inf)

    def entropy(self):
        a = self.concentration
        return a + self.rate.log() + a.lgamma() - (1 + a) * a.digamma()
