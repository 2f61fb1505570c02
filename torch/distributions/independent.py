"""Independent(base_distribution, reinterpreted_batch_ndims)."""

from __future__ import annotations

from torch.distributions import constraints
from torch.distributions.distribution import Distribution


class Independent(Distribution):
    """base_distribution with its last reinterpreted_batch_ndims batch dims read as event dims: a diagonal
    Normal over vectors is Independent(Normal(loc, scale), 1). log_prob and entropy sum over those dims."""

    arg_constraints: dict = {}

    def __init__(self, base_distribution, reinterpreted_batch_ndims: int, validate_args=None):
        batch = base_distribution.batch_shape
        if reinterpreted_batch_ndims > len(batch):
            raise ValueError(
                "Expected reinterpreted_batch_ndims <= len(base_distribution.batch_shape), "
                f"actual {reinterpreted_batch_ndims} vs {len(batch)}"
            )
        self.base_dist = base_distribution
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims
        split = len(batch) - reinterpreted_batch_ndims
        super().__init__(batch[:split], batch[split:] + base_distribution.event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution over batch_shape: the base expanded to it and the reinterpreted dims."""
        new = self._expand_parameters(Independent, ("base_dist",), batch_shape, _instance)
        new.reinterpreted_batch_ndims = self.reinterpreted_batch_ndims
        return new

    @property
    def has_rsample(self):
        return self.base_dist.has_rsample

    @property
    def support(self):
        base = self.base_dist.support
        return constraints.independent(base, self.reinterpreted_batch_ndims) if self.reinterpreted_batch_ndims else base

    @property
    def mean(self):
        return self.base_dist.mean

    @property
    def mode(self):
        return self.base_dist.mode

    @property
    def variance(self):
        return self.base_dist.variance

    def sample(self, sample_shape=()):
        return self.base_dist.sample(sample_shape)

    def rsample(self, sample_shape=()):
        return self.base_dist.rsample(sample_shape)

    def _sum_rightmost(self, value):
        return value.sum(tuple(range(-self.reinterpreted_batch_ndims, 0))) if self.reinterpreted_batch_ndims else value

    def log_prob(self, value):
        """The base's log_prob summed over the reinterpreted dims."""
        return self._sum_rightmost(self.base_dist.log_prob(value))

    def entropy(self):
        return self._sum_rightmost(self.base_dist.entropy())

    def __repr__(self) -> str:
        return f"Independent({self.base_dist!r}, {self.reinterpreted_batch_ndims})"
