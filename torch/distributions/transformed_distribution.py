"""TransformedDistribution(base_distribution, transforms)."""

from __future__ import annotations

import torch
from torch.distributions import constraints
from torch.distributions.distribution import Distribution
from torch.distributions.independent import Independent
from torch.distributions.transforms import ComposeTransform, Transform
from torch.distributions.utils import _sum_rightmost


class TransformedDistribution(Distribution):
    """The distribution of Y = f(X) for X ~ base_distribution and f a Transform or a list of them (applied in
    order): samples are f(base samples); log p(y) = log p_X(f^-1(y)) - log abs(det J_f(f^-1(y)))."""

    arg_constraints: dict = {}

    def __init__(self, base_distribution, transforms, validate_args=None):
        if isinstance(transforms, Transform):
            self.transforms = [transforms]
        elif isinstance(transforms, list):
            if not all(isinstance(t, Transform) for t in transforms):
                raise ValueError("transforms must be a Transform or a list of Transforms")
            self.transforms = transforms
        else:
            raise ValueError(f"transforms must be a Transform or list, but was {transforms}")
        # the base is expanded to the batch shape the transforms broadcast it to (an Affine with a batch of
        # scales over a single Normal), and read as Independent over the dims the transforms work on beyond its
        # event (Affine with event_dim=1 over a batch of Normals, StickBreaking over one); the event spans what
        # the transforms couple or what the base couples, moved by the change of rank (CorrCholesky: vectors
        # to matrices)
        shape = torch.Size(base_distribution.batch_shape + base_distribution.event_shape)
        base_event_dim = len(base_distribution.event_shape)
        transform = ComposeTransform(self.transforms)
        domain_dim, codomain_dim = transform.domain.event_dim, transform.codomain.event_dim
        if len(shape) < domain_dim:
            raise ValueError(f"base_distribution needs to have shape with size at least {domain_dim}, but got {shape}.")
        forward_shape = transform.forward_shape(shape)
        expanded_base_shape = transform.inverse_shape(forward_shape)
        if shape != expanded_base_shape:
            base_distribution = base_distribution.expand(
                expanded_base_shape[: len(expanded_base_shape) - base_event_dim]
            )
        if domain_dim > base_event_dim:
            base_distribution = Independent(base_distribution, domain_dim - base_event_dim)
        self.base_dist = base_distribution
        event_dim = max(codomain_dim, base_event_dim + codomain_dim - domain_dim)
        cut = len(forward_shape) - event_dim
        super().__init__(forward_shape[:cut], forward_shape[cut:], validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution over batch_shape (the base expanded to what the transforms take back to it)."""
        new = self._get_checked_instance(TransformedDistribution, _instance)
        batch_shape = torch.Size(batch_shape)
        shape = batch_shape + self.event_shape
        for t in reversed(self.transforms):
            shape = t.inverse_shape(shape)
        new.base_dist = self.base_dist.expand(shape[: len(shape) - len(self.base_dist.event_shape)])
        new.transforms = self.transforms
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @constraints.dependent_property(is_discrete=False)
    def support(self):
        if not self.transforms:
            return self.base_dist.support
        support = self.transforms[-1].codomain
        if len(self.event_shape) > support.event_dim:
            support = constraints.independent(support, len(self.event_shape) - support.event_dim)
        return support

    @property
    def has_rsample(self):
        return self.base_dist.has_rsample

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
            event_dim += t.domain.event_dim - t.codomain.event_dim
            # summed over the event dims this transform works elementwise over
            log_prob = log_prob - _sum_rightmost(t.log_abs_det_jacobian(x, y), event_dim - t.domain.event_dim)
            y = x
        return log_prob + _sum_rightmost(self.base_dist.log_prob(y), event_dim - len(self.base_dist.event_shape))

    def _monotonize_cdf(self, value):
        """value, or 1 - value where the transforms' composition decreases (flipped where its sign is -1)."""
        sign = 1
        for t in self.transforms:
            sign = sign * t.sign
        if isinstance(sign, int) and sign == 1:
            return value
        return sign * (value - 0.5) + 0.5

    def cdf(self, value):
        """P(Y <= value), for monotone transforms."""
        for t in reversed(self.transforms):
            value = t.inv(value)
        if self._validate_args:
            self.base_dist._validate_sample(value)
        return self._monotonize_cdf(self.base_dist.cdf(value))

    def icdf(self, value):
        """The value below which the probability is `value` (monotone transforms)."""
        value = self.base_dist.icdf(self._monotonize_cdf(value))
        for t in self.transforms:
            value = t(value)
        return value
