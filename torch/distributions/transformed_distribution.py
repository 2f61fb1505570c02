"""TransformedDistribution(base_distribution, transforms)."""

from __future__ import annotations

import torch
from torch.distributions.distribution import Distribution
from torch.distributions.independent import Independent
from torch.distributions.transforms import ComposeTransform, Transform


class TransformedDistribution(Distribution):
    """The distribution of Y = f(X) for X ~ base_distribution and f a Transform or a list of them (applied in
    order): samples are f(base samples); log p(y) = log p_X(f^-1(y)) - log abs(det J_f(f^-1(y)))."""

    arg_constraints: dict = {}

    def __init__(self, base_distribution, transforms, validate_args=None):
        if isinstance(transforms, Transform):
            self.transforms = [transforms]
        elif isinstance(transforms, (list, tuple)) and all(isinstance(t, Transform) for t in transforms):
            self.transforms = list(transforms)
        else:
            raise ValueError(f"transforms must be a Transform or list, but was {transforms}")
        # the event dims: the base's, or more where a transform works on vectors (Affine with event_dim=1): the
        # base is then read as Independent over the difference, and batch/event split the shape anew
        shape = base_distribution.batch_shape + base_distribution.event_shape
        base_event_dim = len(base_distribution.event_shape)
        self._event_dim = max([base_event_dim] + [t.event_dim for t in self.transforms])
        if self._event_dim > base_event_dim:
            base_distribution = Independent(base_distribution, self._event_dim - base_event_dim)
        self.base_dist = base_distribution
        cut = len(shape) - self._event_dim
        super().__init__(shape[:cut], shape[cut:], validate_args=validate_args)

    @property
    def has_rsample(self):
        return self.base_dist.has_rsample

    @property
    def support(self):
        return self.transforms[-1].codomain if self.transforms else self.base_dist.support

    def sample(self, sample_shape=()):
        with torch.no_grad():
            x = self.base_dist.sample(sample_shape)
            for t in self.transforms:
                x = t(x)
            return x

    def rsample(self, sample_shape=()):
        x = self.base_dist.rsample(sample_shape)
        for t in self.transforms:
            x = t(x)
        return x

    def log_prob(self, value):
        """The base's log density at f^-1(value), less each transform's log abs(det J)."""
        if self._validate_args:
            self._validate_sample(value)
        log_prob = 0.0
        y = value
        for t in reversed(self.transforms):
            x = t.inv(y)
            jacobian = t.log_abs_det_jacobian(x, y)
            extra = self._event_dim - t.event_dim  # the event dims this transform works elementwise over
            log_prob = log_prob - (jacobian.sum(tuple(range(-extra, 0))) if extra else jacobian)
            y = x
        return log_prob + self.base_dist.log_prob(y)

    def cdf(self, value):
        """P(Y <= value), for monotone transforms (a decreasing one flips it)."""
        sign = ComposeTransform(self.transforms).sign
        for t in reversed(self.transforms):
            value = t.inv(value)
        value = self.base_dist.cdf(value)
        return value if isinstance(sign, int) and sign == 1 else sign * (value - 0.5) + 0.5

    def icdf(self, value):
        """The value below which the probability is `value` (monotone transforms)."""
        sign = ComposeTransform(self.transforms).sign
        value = value if isinstance(sign, int) and sign == 1 else sign * (value - 0.5) + 0.5
        value = self.base_dist.icdf(value)
        for t in self.transforms:
            value = t(value)
        return value
