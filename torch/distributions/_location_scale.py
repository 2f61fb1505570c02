"""What the location-scale families (Normal, Laplace, Cauchy) share: a real `loc` and a positive `scale`,
batched by broadcasting them; their mode is loc."""

from __future__ import annotations

from torch.distributions import constraints
from torch.distributions.distribution import Distribution, broadcast_all


class LocationScale(Distribution):
    """A distribution of loc + scale * (a standard variate): PyTorch's arguments, validation and shapes."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        super().__init__(self.loc.shape, validate_args=validate_args)

    @property
    def mode(self):
        return self.loc
