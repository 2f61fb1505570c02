"""Dirichlet(concentration) and Beta(concentration1, concentration0), a Dirichlet over two categories."""

from __future__ import annotations

import torch
from torch.distributions import constraints
from torch.distributions.distribution import broadcast_all
from torch.distributions.exp_family import ExponentialFamily
from torch.distributions.gamma import _standard_gamma


class Dirichlet(ExponentialFamily):
    """The Dirichlet distribution over the simplex of its last dim, of concentration (> 0, at least 1-D):
    samples are independent Gamma(concentration_k, 1) draws normalized to sum to 1 (reparameterized)."""

    arg_constraints = {"concentration": constraints.independent(constraints.positive, 1)}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration, validate_args=None):
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        super().__init__(concentration.shape[:-1], concentration.shape[-1:], validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to batch_shape."""
        return self._expand_parameters(Dirichlet, ("concentration",), batch_shape, _instance)

    @property
    def mean(self):
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self):
        mode = (self.concentration - 1).clamp(min=0.0)
        mode = mode / mode.sum(-1, True)
        below_one = (self.concentration < 1).all(-1)
        one_hot = torch.nn.functional.one_hot(self.concentration.argmax(-1), self.concentration.shape[-1])
        return torch.where(below_one.unsqueeze(-1), one_hot.to(mode.dtype), mode)

    @property
    def variance(self):
        total = self.concentration.sum(-1, True)
        return self.concentration * (total - self.concentration) / (total.pow(2) * (total + 1))

    def rsample(self, sample_shape=()):
        # the Gamma draws in double: a small concentration's float32 draws underflow, and normalizing what is
        # left would give the uniform point (as PyTorch, which also samples in double)
        shape = self._extended_shape(sample_shape)
        gammas = _standard_gamma(self.concentration.double().expand(shape))
        return (gammas / gammas.sum(-1, True)).to(self.concentration.dtype)

    def log_prob(self, value):
        """log density at a point of the simplex."""
        if self._validate_args:
            self._validate_sample(value)
        a = self.concentration
        return torch.xlogy(a - 1.0, value).sum(-1) + torch.lgamma(a.sum(-1)) - torch.lgamma(a).sum(-1)

    def entropy(self):
        a = self.concentration
        k, total = a.size(-1), a.sum(-1)
        return (
            torch.lgamma(a).sum(-1)
            - torch.lgamma(total)
            - (k - total) * torch.digamma(total)
            - ((a - 1.0) * torch.digamma(a)).sum(-1)
        )

    @property
    def _natural_params(self):
        return (self.concentration,)

    def _log_normalizer(self, x):
        return x.lgamma().sum(-1) - torch.lgamma(x.sum(-1))


class Beta(ExponentialFamily):
    """The beta distribution on [0, 1] with concentrations concentration1 (alpha) and concentration0 (beta),
    both > 0: the first coordinate of a Dirichlet over two categories."""

    arg_constraints = {"concentration1": constraints.positive, "concentration0": constraints.positive}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1, concentration0, validate_args=None):
        concentration1, concentration0 = broadcast_all(concentration1, concentration0)
        self._dirichlet = Dirichlet(torch.stack([concentration1, concentration0], -1), validate_args=validate_args)
        super().__init__(concentration1.shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to batch_shape."""
        return self._expand_parameters(Beta, ("_dirichlet",), batch_shape, _instance)

    @property
    def concentration1(self):
        return self._dirichlet.concentration[..., 0]

    @property
    def concentration0(self):
        return self._dirichlet.concentration[..., 1]

    @property
    def mean(self):
        return self.concentration1 / (self.concentration1 + self.concentration0)

    @property
    def mode(self):
        return self._dirichlet.mode[..., 0]

    @property
    def variance(self):
        total = self.concentration1 + self.concentration0
        return self.concentration1 * self.concentration0 / (total.pow(2) * (total + 1))

    def rsample(self, sample_shape=()):
        return self._dirichlet.rsample(sample_shape).select(-1, 0)

    def log_prob(self, value):
        """log density at value in [0, 1]."""
        if self._validate_args:
            self._validate_sample(value)
        if not isinstance(value, torch.Tensor):
            value = torch.as_tensor(value, dtype=self.concentration1.dtype, device=self.concentration1.device)
        return self._dirichlet.log_prob(torch.stack([value, 1.0 - value], -1))

    def entropy(self):
        return self._dirichlet.entropy()

    @property
    def _natural_params(self):
        return (self.concentration1, self.concentration0)

    def _log_normalizer(self, x, y):
        return torch.lgamma(x) + torch.lgamma(y) - torch.lgamma(x + y)
