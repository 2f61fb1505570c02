"""Laplace(loc, scale)."""

from __future__ import annotations

import math

import torch
from torch.distributions._location_scale import LocationScale


class Laplace(LocationScale):
    """The Laplace (double exponential) distribution: density exp(-abs(x - loc) / scale) / (2 scale)."""

    def expand(self, batch_shape, _instance=None):
        """This distribution with loc and scale expanded to batch_shape."""
        return self._expand_parameters(Laplace, ("loc", "scale"), batch_shape, _instance)

    @property
    def mean(self):
        return self.loc

    @property
    def variance(self):
        return 2 * self.scale.pow(2)

    @property
    def stddev(self):
        return math.sqrt(2) * self.scale

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        finfo = torch.finfo(self.loc.dtype)
        u = torch.rand(shape, dtype=self.loc.dtype, device=self.loc.device) * 2 - 1
        u = u.clamp(finfo.eps - 1, 1)  # log1p(-|u|) stays finite
        return self.loc - self.scale * u.sign() * torch.log1p(-u.abs())

    def log_prob(self, value):
        """log density at value."""
        if self._validate_args:
            self._validate_sample(value)
        return -torch.log(2 * self.scale) - torch.abs(value - self.loc) / self.scale

    def cdf(self, value):
        """P(X <= value)."""
        if self._validate_args:
            self._validate_sample(value)
        z = (value - self.loc) / self.scale
        return 0.5 - 0.5 * z.sign() * torch.expm1(-z.abs())

    def icdf(self, value):
        """The value below which the probability is `value`."""
        term = value - 0.5
        return self.loc - self.scale * term.sign() * torch.log1p(-2 * term.abs())

    def entropy(self):
        return 1 + torch.log(2 * self.scale)
