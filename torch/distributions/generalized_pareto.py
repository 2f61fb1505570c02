"""GeneralizedPareto(loc, scale, concentration)."""

from __future__ import annotations

import math

import torch
from torch.distributions import constraints
from torch.distributions.distribution import Distribution, broadcast_all

__all__ = ["GeneralizedPareto"]


class GeneralizedPareto(Distribution):
    """The generalized Pareto distribution of location `loc`, scale `scale` (> 0) and shape `concentration`
    (xi, real): survival function (1 + xi z)^(-1 / xi) of z = (x - loc) / scale (exp(-z) at xi = 0), on
    [loc, inf) for xi >= 0 and [loc, loc - scale / xi] for xi < 0. Exponential at loc = 0, xi = 0; Pareto
    at xi > 0, loc = scale / xi; uniform at xi = -1. Reparameterized through its inverse distribution
    function (as TensorFlow Probability's, which PyTorch follows)."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive, "concentration": constraints.real}
    has_rsample = True

    def __init__(self, loc, scale, concentration, validate_args=None):
        self.loc, self.scale, self.concentration = broadcast_all(loc, scale, concentration)
        super().__init__(self.loc.shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to batch_shape."""
        names = ("loc", "scale", "concentration")
        return self._expand_parameters(GeneralizedPareto, names, batch_shape, _instance)

    def rsample(self, sample_shape=()):
        u = torch.rand(self._extended_shape(sample_shape), dtype=self.loc.dtype, device=self.loc.device)
        return self.icdf(u)

    def _safe_concentration(self):
        """Where concentration is (close to) 0, and concentration with 1 there (for the branch not taken)."""
        c = self.concentration
        eq_zero = torch.isclose(c, torch.zeros_like(c))
        return eq_zero, torch.where(eq_zero, torch.ones_like(c), c)

    def log_prob(self, value):
        """log density at value: -log(scale) - (1 + 1 / xi) log1p(xi z), or -log(scale) - z at xi = 0."""
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero, safe_conc = self._safe_concentration()
        y = 1 / safe_conc + torch.ones_like(z)
        where_nonzero = torch.where(y == 0, y, y * torch.log1p(safe_conc * z))
        return -self.scale.log() - torch.where(eq_zero, z, where_nonzero)

    def log_survival_function(self, value):
        """log P(X > value)."""
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero, safe_conc = self._safe_concentration()
        where_nonzero = -torch.log1p(safe_conc * z) / safe_conc
        return torch.where(eq_zero, -z, where_nonzero)

    def log_cdf(self, value):
        """log P(X <= value)."""
        return torch.log1p(-torch.exp(self.log_survival_function(value)))

    def cdf(self, value):
        """P(X <= value)."""
        return torch.exp(self.log_cdf(value))

    def icdf(self, value):
        """The value below which the probability is `value`."""
        eq_zero, safe_conc = self._safe_concentration()
        logu = torch.log1p(-value)
        where_nonzero = self.loc + self.scale / safe_conc * torch.expm1(-safe_conc * logu)
        where_zero = self.loc - self.scale * logu
        return torch.where(eq_zero, where_zero, where_nonzero)

    def _z(self, x):
        return (x - self.loc) / self.scale

    @property
    def mean(self):
        """loc + scale / (1 - xi), NaN for xi >= 1."""
        valid = self.concentration < 1
        safe_conc = torch.where(valid, self.concentration, 0.5)
        return torch.where(valid, self.loc + self.scale / (1 - safe_conc), math.nan)

    @property
    def variance(self):
        """scale^2 / ((1 - xi)^2 (1 - 2 xi)), NaN for xi >= 1/2."""
        valid = self.concentration < 0.5
        safe_conc = torch.where(valid, self.concentration, 0.25)
        return torch.where(valid, self.scale**2 / ((1 - safe_conc) ** 2 * (1 - 2 * safe_conc)), math.nan)

    def entropy(self):
        return torch.broadcast_to(torch.log(self.scale) + self.concentration + 1, self._batch_shape)

    @property
    def mode(self):
        return self.loc

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        lower = self.loc
        upper = torch.where(self.concentration < 0, lower - self.scale / self.concentration, math.inf)
        return constraints.interval(lower, upper)
