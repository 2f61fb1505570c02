"""TransformedDistribution(base_distribution, transforms)."""

from __future__ import annotations

import torch
from torch.distributions.distribution import Distribution
from torch.distributions.independent import Independent
from torch.distributions.transforms import ComposeTransform, Transform
from torch.distributions.utils import _sum_rightmost


def _event_dims(t: Transform):
    """The event dims of a transform's input and output (its event_dim, or more where its domain or
    codomain is a constraint over vectors or matrices)."""
    return max(t.event_dim, t.domain.event_dim), max(t.event_dim, t.codomain.event_dim)


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
        # the event dims, walking the transforms forward: a transform that works on more dims than the event
        # has so far reads the base as Independent over the difference (Affine with event_dim=1 over a batch of
        # Normals, StickBreaking over one), and one whose codomain has more or fewer dims than its domain
        # (CorrCholesky: vectors to matrices) changes the event's rank; forward_shape gives the shape
        shape = base_distribution.batch_shape + base_distribution.event_shape
        base_event_dim = len(base_distribution.event_shape)
        event_dim, reinterpreted = base_event_dim, 0
        for t in self.transforms:
            domain_dim, codomain_dim = _event_dims(t)
            if event_dim < domain_dim:
                reinterpreted += domain_dim - event_dim
                event_dim = domain_dim
            event_dim += codomain_dim - domain_dim
            shape = t.forward_shape(shape)
        if reinterpreted:
            base_distribution = Independent(base_distribution, reinterpreted)
        self.base_dist = base_distribution
        self._event_dim = event_dim
        cut = len(shape) - event_dim
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
        event_dim = len(self._event_shape)
        log_prob = 0.0
        y = value
        for t in reversed(self.transforms):
            x = t.inv(y)
            domain_dim, codomain_dim = _event_dims(t)
            event_dim += domain_dim - codomain_dim
            # summed over the event dims this transform works elementwise over
            log_prob = log_prob - _sum_rightmost(t.log_abs_det_jacobian(x, y), event_dim - domain_dim)
            y = x
        return log_prob + _sum_rightmost(self.base_dist.log_prob(y), event_dim - len(self.base_dist.event_shape))

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
