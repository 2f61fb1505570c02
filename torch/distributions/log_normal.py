"""LogNormal(loc, scale) and HalfNormal(scale): a normal variable through exp and abs (TransformedDistributions,
as PyTorch builds them)."""

from __future__ import annotations

import math

from torch.distributions import constraints
from torch.distributions._folded import Folded
from torch.distributions.normal import Normal
from torch.distributions.transformed_distribution import TransformedDistribution
from torch.distributions.transforms import AbsTransform, ExpTransform


class LogNormal(TransformedDistribution):
    """exp(X) for X ~ Normal(loc, scale): log density log N(log x) - log x on x > 0."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.positive

    def __init__(self, loc, scale, validate_args=None):
        super().__init__(Normal(loc, scale, validate_args=validate_args), ExpTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to batch_shape (through its base)."""
        return super().expand(batch_shape, _instance=self._get_checked_instance(LogNormal, _instance))

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

    def entropy(self):
        return self.base_dist.entropy() + self.loc


class HalfNormal(Folded, TransformedDistribution):
    """abs(X) for X ~ Normal(0, scale): density 2 N(x; 0, scale) on x >= 0."""

    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative

    def __init__(self, scale, validate_args=None):
        super().__init__(Normal(0, scale, validate_args=False), AbsTransform(), validate_args=validate_args)
        self._check_scale()

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to batch_shape (through its base)."""
        return super().expand(batch_shape, _instance=self._get_checked_instance(HalfNormal, _instance))

    @property
    def mean(self):
        return self.scale * math.sqrt(2 / math.pi)

    @property
    def variance(self):
        return self.scale.pow(2) * (1 - 2 / math.pi)
