"""Cauchy(loc, scale)."""

from __future__ import annotations

import math

import torch
from torch.distributions._location_scale import LocationScale


class Cauchy(LocationScale):
    """The Cauchy (Lorentz) distribution: density 1 / (pi scale (1 + ((x - loc) / scale)^2)); no mean or
    variance (inf/NaN, as PyTorch)."""

    def expand(self, batch_shape, _instance=None):
        """This distribution with loc and scale expanded to batch_shape."""
        return self._expand_parameters(Cauchy, ("loc", "scale"), batch_shape, _instance)

    @property
    def mean(self):
        return torch.full(self._extended_shape(), math.nan, dtype=self.loc.dtype, device=self.loc.device)

    @property
    def variance(self):
        return torch.full(self._extended_shape(), math.inf, dtype=self.loc.dtype, device=self.loc.device)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        u = torch.rand(shape, dtype=self.loc.dtype, device=self.loc.device)
        return self.loc + self.scale * torch.tan(math.pi * (u - 0.5))

    def log_prob(self, value):
        """log density at value."""
        if self._validate_args:
            self._validate_sample(value)
        return -math.log(math.pi) - self.scale.log() - (((value - self.loc) / self.scale) ** 2).log1p()

    def cdf(self, value):
        """P(X <= value)."""
        if self._validate_args:
            self._validate_sample(value)
        return torch.atan((value - self.loc) / self.scale) / math.pi + 0.5

    def icdf(self, value):
        """The value below which the probability is `value`."""
        return torch.tan(math.pi * (value - 0.5)) * self.scale + self.loc

    def entropy(self):
        return math.log(4 * math.pi) + self.scale.log()
