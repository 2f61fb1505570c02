"""Gumbel, Weibull, Pareto and HalfCauchy: transformed uniform, exponential and Cauchy variables (as PyTorch
builds them), with their closed-form moments, entropies and densities."""

from __future__ import annotations

import math

import torch
from torch.distributions import constraints
from torch.distributions._folded import Folded
from torch.distributions.cauchy import Cauchy
from torch.distributions.distribution import broadcast_all
from torch.distributions.exponential import Exponential
from torch.distributions.transformed_distribution import TransformedDistribution
from torch.distributions.transforms import AbsTransform, AffineTransform, ExpTransform, PowerTransform
from torch.distributions.uniform import Uniform

_EULER = 0.57721566490153286061


class Gumbel(TransformedDistribution):
    """The Gumbel (type-I extreme value) distribution: loc - scale * log(-log U) for U uniform on (0, 1)."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        finfo = torch.finfo(self.loc.dtype)
        base = Uniform(torch.full_like(self.loc, finfo.tiny), torch.full_like(self.loc, 1 - finfo.eps))
        transforms = [
            ExpTransform().inv,
            AffineTransform(0, -1),
            ExpTransform().inv,
            AffineTransform(self.loc, -self.scale),
        ]
        super().__init__(base, transforms, validate_args=validate_args)

    def log_prob(self, value):
        """log density at value."""
        if self._validate_args:
            self._validate_sample(value)
        z = (self.loc - value) / self.scale
        return (z - z.exp()) - self.scale.log()

    def cdf(self, value):
        """P(X <= value) = exp(-exp(-(value - loc) / scale))."""
        return torch.exp(-torch.exp(-(value - self.loc) / self.scale))

    def icdf(self, value):
        """The value below which the probability is `value`."""
        return self.loc - self.scale * torch.log(-torch.log(value))

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to batch_shape (the base expanded, the transforms kept)."""
        new = super().expand(batch_shape, _instance=self._get_checked_instance(Gumbel, _instance))
        for name in ("loc", "scale"):
            setattr(new, name, getattr(self, name).expand(new.batch_shape))
        return new

    @property
    def mean(self):
        return self.loc + self.scale * _EULER

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return (math.pi**2 / 6) * self.scale.pow(2)

    @property
    def stddev(self):
        return (math.pi / math.sqrt(6)) * self.scale

    def entropy(self):
        return self.scale.log() + (1 + _EULER)


class Weibull(TransformedDistribution):
    """The Weibull distribution: scale * E^(1 / concentration) for E standard exponential."""

    arg_constraints = {"scale": constraints.positive, "concentration": constraints.positive}
    support = constraints.positive

    def __init__(self, scale, concentration, validate_args=None):
        self.scale, self.concentration = broadcast_all(scale, concentration)
        self.concentration_reciprocal = self.concentration.reciprocal()
        base = Exponential(torch.ones_like(self.scale))
        transforms = [PowerTransform(self.concentration_reciprocal), AffineTransform(0, self.scale)]
        super().__init__(base, transforms, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to batch_shape (the base expanded, the transforms kept)."""
        new = super().expand(batch_shape, _instance=self._get_checked_instance(Weibull, _instance))
        for name in ("scale", "concentration", "concentration_reciprocal"):
            setattr(new, name, getattr(self, name).expand(new.batch_shape))
        return new

    @property
    def mean(self):
        return self.scale * torch.exp(torch.lgamma(1 + self.concentration_reciprocal))

    @property
    def mode(self):
        k = self.concentration  # NaN for concentration < 1 (where the density has no maximum), as PyTorch
        return self.scale * ((k - 1) / k) ** (1 / k)

    @property
    def variance(self):
        return self.scale.pow(2) * (
            torch.exp(torch.lgamma(1 + 2 * self.concentration_reciprocal))
            - torch.exp(2 * torch.lgamma(1 + self.concentration_reciprocal))
        )

    def entropy(self):
        return _EULER * (1 - self.concentration_reciprocal) + torch.log(self.scale * self.concentration_reciprocal) + 1


class Pareto(TransformedDistribution):
    """The Pareto distribution: scale * exp(E) for E exponential of rate alpha, on [scale, inf)."""

    arg_constraints = {"alpha": constraints.positive, "scale": constraints.positive}

    def __init__(self, scale, alpha, validate_args=None):
        self.scale, self.alpha = broadcast_all(scale, alpha)
        base = Exponential(self.alpha, validate_args=validate_args)
        super().__init__(base, [ExpTransform(), AffineTransform(0, self.scale)], validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to batch_shape (the base expanded, the transforms kept)."""
        new = super().expand(batch_shape, _instance=self._get_checked_instance(Pareto, _instance))
        for name in ("scale", "alpha"):
            setattr(new, name, getattr(self, name).expand(new.batch_shape))
        return new

    @property
    def support(self):
        return constraints.greater_than_eq(self.scale)

    @property
    def mean(self):
        a = self.alpha.clamp(min=1)
        return a * self.scale / (a - 1)

    @property
    def mode(self):
        return self.scale

    @property
    def variance(self):
        a = self.alpha.clamp(min=2)
        return self.scale.pow(2) * a / ((a - 1).pow(2) * (a - 2))

    def entropy(self):
        return (self.scale / self.alpha).log() + (1 + self.alpha.reciprocal())


class HalfCauchy(Folded, TransformedDistribution):
    """abs(X) for X ~ Cauchy(0, scale): density 2 / (pi scale (1 + (x / scale)^2)) on x >= 0."""

    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative
    _cast_value = True

    def __init__(self, scale, validate_args=None):
        base = Cauchy(0, scale, validate_args=False)
        super().__init__(base, AbsTransform(), validate_args=validate_args)
        self._check_scale()

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to batch_shape (through its base)."""
        return super().expand(batch_shape, _instance=self._get_checked_instance(HalfCauchy, _instance))

    @property
    def mean(self):
        return torch.full(self._extended_shape(), math.inf, dtype=self.scale.dtype, device=self.scale.device)

    @property
    def variance(self):
        return self.base_dist.variance
