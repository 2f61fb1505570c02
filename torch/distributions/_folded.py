"""What HalfNormal and HalfCauchy share: the distribution of abs(X) for X = self.base_dist, symmetric about 0
with a positive `scale`."""

from __future__ import annotations

import math

import torch
from torch.distributions import constraints


class Folded:
    """log_prob, cdf, icdf and entropy of abs(X), X symmetric about 0 (a mixin before the Distribution base)."""

    # log_prob casts its value to the parameters' dtype (upstream's HalfCauchy does, its HalfNormal promotes)
    _cast_value = False

    def _check_scale(self) -> None:
        """PyTorch's validation of scale (the base is built without it)."""
        if self._validate_args and not bool(constraints.positive.check(self.scale).all()):
            raise ValueError(
                f"Expected parameter scale (Tensor of shape {tuple(self.scale.shape)}) of distribution {self!r} "
                f"to satisfy the constraint GreaterThan(lower_bound=0.0), but found invalid values:\n{self.scale}"
            )

    @property
    def scale(self):
        return self.base_dist.scale

    @property
    def mode(self):
        return torch.zeros_like(self.scale)

    def log_prob(self, value):
        """log density at value >= 0 (twice the base's; -inf below 0)."""
        if self._validate_args:
            self._validate_sample(value)
        if self._cast_value or not isinstance(value, torch.Tensor):
            value = torch.as_tensor(value, dtype=self.scale.dtype, device=self.scale.device)
        log_prob = self.base_dist.log_prob(value) + math.log(2)
        return torch.where(value >= 0, log_prob, torch.full_like(log_prob, -math.inf))

    def cdf(self, value):
        """P(abs(X) <= value) = 2 P(X <= value) - 1."""
        if self._validate_args:
            self._validate_sample(value)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, prob):
        """The value below which the probability is `prob`."""
        return self.base_dist.icdf((prob + 1) / 2)

    def entropy(self):
        return self.base_dist.entropy() - math.log(2)
