"""StudentT(df, loc, scale)."""

from __future__ import annotations

import math

import torch
from torch.distributions import constraints
from torch.distributions.distribution import Distribution, broadcast_all
from torch.distributions.gamma import Chi2


class StudentT(Distribution):
    """Student's t distribution with df (> 0) degrees of freedom, location loc and scale scale: samples are
    loc + scale * Z / sqrt(V / df) with Z normal and V ~ Chi2(df) (reparameterized through Gamma's)."""

    arg_constraints = {"df": constraints.positive, "loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, df, loc=0.0, scale=1.0, validate_args=None):
        self.df, self.loc, self.scale = broadcast_all(df, loc, scale)
        self._chi2 = Chi2(self.df)
        super().__init__(self.df.shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to batch_shape."""
        return self._expand_parameters(StudentT, ("df", "loc", "scale", "_chi2"), batch_shape, _instance)

    @property
    def mean(self):
        m = self.loc.clone()
        m[self.df <= 1] = math.nan
        return m

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        v = self.df.clone()
        v[self.df > 2] = self.scale[self.df > 2].pow(2) * self.df[self.df > 2] / (self.df[self.df > 2] - 2)
        v[(self.df <= 2) & (self.df > 1)] = math.inf
        v[self.df <= 1] = math.nan
        return v

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        z = torch.randn(shape, dtype=self.df.dtype, device=self.df.device)
        chi2 = self._chi2.rsample(sample_shape)
        return self.loc + self.scale * z * torch.rsqrt(chi2 / self.df)

    def log_prob(self, value):
        """log density at value."""
        if self._validate_args:
            self._validate_sample(value)
        y = (value - self.loc) / self.scale
        z = self.scale.log() + 0.5 * self.df.log() + 0.5 * math.log(math.pi) + torch.lgamma(0.5 * self.df)
        z = z - torch.lgamma(0.5 * (self.df + 1.0))
        return -0.5 * (self.df + 1.0) * torch.log1p(y**2.0 / self.df) - z

    def entropy(self):
        lbeta = torch.lgamma(0.5 * self.df) + math.lgamma(0.5) - torch.lgamma(0.5 * (self.df + 1))
        return (
            self.scale.log()
            + 0.5 * (self.df + 1) * (torch.digamma(0.5 * (self.df + 1)) - torch.digamma(0.5 * self.df))
            + 0.5 * self.df.log()
            + lbeta
        )
