"""LogitRelaxedBernoulli and RelaxedBernoulli(temperature, probs | logits): the binary Concrete (Gumbel-softmax)
relaxation of a Bernoulli, on the logits scale and on (0, 1)."""

from __future__ import annotations

import numbers

import torch
from torch.distributions import constraints
from torch.distributions.distribution import Distribution, broadcast_all
from torch.distributions.transformed_distribution import TransformedDistribution
from torch.distributions.transforms import SigmoidTransform
from torch.distributions.utils import (
    BinaryProbsLogits,
    check_probs_or_logits,
    clamp_probs,
)

__all__ = ["LogitRelaxedBernoulli", "RelaxedBernoulli"]


class LogitRelaxedBernoulli(BinaryProbsLogits, Distribution):
    """The logit of a RelaxedBernoulli: (logit(U) + logits) / temperature for U uniform on (0, 1) (Maddison
    et al., 2017), parameterized by a temperature (> 0) and probs or logits."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.real
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        self.temperature = temperature
        check_probs_or_logits(probs, logits)
        if probs is not None:
            is_scalar = isinstance(probs, numbers.Number)
            (self.probs,) = broadcast_all(probs)
        else:
            is_scalar = isinstance(logits, numbers.Number)
            (self.logits,) = broadcast_all(logits)
        self._param = self.probs if probs is not None else self.logits
        batch_shape = torch.Size() if is_scalar else self._param.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its probs (or logits) expanded to batch_shape."""
        new = self._expand_binary(LogitRelaxedBernoulli, batch_shape, _instance)
        new.temperature = self.temperature
        return new

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        probs = clamp_probs(self.probs.expand(shape))
        uniforms = clamp_probs(torch.rand(shape, dtype=probs.dtype, device=probs.device))
        return (uniforms.log() - (-uniforms).log1p() + probs.log() - (-probs).log1p()) / self.temperature

    def log_prob(self, value):
        """log density at the real value."""
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        diff = logits - value.mul(self.temperature)
        return self.temperature.log() + diff - 2 * diff.exp().log1p()


class RelaxedTransformed(TransformedDistribution):
    """A relaxed distribution as a transform of its relaxed base (RelaxedBernoulli, RelaxedOneHotCategorical):
    the base's temperature, logits and probs."""

    @property
    def temperature(self):
        return self.base_dist.temperature

    @property
    def logits(self):
        return self.base_dist.logits

    @property
    def probs(self):
        return self.base_dist.probs


class RelaxedBernoulli(RelaxedTransformed):
    """The binary Concrete (relaxed Bernoulli) distribution on (0, 1): sigmoid of a LogitRelaxedBernoulli
    of the same temperature and probs or logits; reparameterized, and a Bernoulli as temperature -> 0."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        base_dist = LogitRelaxedBernoulli(temperature, probs, logits)
        super().__init__(base_dist, SigmoidTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its probs (or logits) expanded to batch_shape."""
        return super().expand(batch_shape, _instance=self._get_checked_instance(RelaxedBernoulli, _instance))
