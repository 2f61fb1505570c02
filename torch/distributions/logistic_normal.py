"""LogisticNormal(loc, scale): a normal vector mapped onto the simplex by stick breaking."""

from __future__ import annotations

import torch
from torch.distributions import constraints
from torch.distributions.distribution import broadcast_all
from torch.distributions.normal import Normal
from torch.distributions.transformed_distribution import TransformedDistribution
from torch.distributions.transforms import StickBreakingTransform

__all__ = ["LogisticNormal"]


class LogisticNormal(TransformedDistribution):
    """The logistic-normal distribution on the simplex of K + 1 entries: StickBreakingTransform of
    X ~ Normal(loc, scale) over vectors of K (loc and scale broadcast; their last dim is K, and a scalar
    pair is read as K = 1). Reparameterized."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        loc, scale = broadcast_all(loc, scale)
        if loc.dim() == 0:
            loc, scale = loc.reshape(1), scale.reshape(1)
        base_dist = Normal(loc, scale, validate_args=validate_args)
        super().__init__(base_dist, StickBreakingTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with loc and scale expanded to batch_shape (+ their last dim)."""
        new = self._get_checked_instance(LogisticNormal, _instance)
        batch_shape = torch.Size(batch_shape)
        shape = batch_shape + self.loc.shape[-1:]
        TransformedDistribution.__init__(
            new,
            Normal(self.loc.expand(shape), self.scale.expand(shape), validate_args=False),
            self.transforms,
            validate_args=False,
        )
        new._validate_args = self._validate_args
        return new

    @property
    def loc(self):
        return self.base_dist.base_dist.loc

    @property
    def scale(self):
        return self.base_dist.base_dist.scale
