"""Bernoulli(probs | logits)."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch.distributions import constraints
from torch.distributions.distribution import Distribution, broadcast_all


def _probs_and_logits(cls: str, probs, logits):
    if (probs is None) == (logits is None):
        raise ValueError("Either `probs` or `logits` must be specified, but not both.")
    return probs, logits


def binary_parameter(dist, name: str):
    """The success parameter that was not given (probs or logits), computed from the other on first use and
    kept (a binary distribution's __getattr__: Bernoulli, Geometric)."""
    if name == "probs":
        dist.probs = torch.sigmoid(dist.__dict__["logits"])
        return dist.probs
    if name == "logits":
        p = dist.__dict__["probs"]
        eps = torch.finfo(p.dtype).eps
        pc = p.clamp(eps, 1 - eps)
        dist.logits = torch.log(pc) - torch.log1p(-pc)
        return dist.logits
    raise AttributeError(name)


class Bernoulli(Distribution):
    """1 with probability probs (or sigmoid(logits)), else 0."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.boolean

    def __init__(self, probs=None, logits=None, validate_args=None):
        probs, logits = _probs_and_logits("Bernoulli", probs, logits)
        if probs is not None:
            (self.probs,) = broadcast_all(probs)
            shape = self.probs.shape
        else:
            (self.logits,) = broadcast_all(logits)
            shape = self.logits.shape
        super().__init__(shape, validate_args=validate_args)

    def __getattr__(self, name):
        return binary_parameter(self, name)

    @property
    def mean(self):
        return self.probs

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        with torch.no_grad():
            return torch.bernoulli(self.probs.expand(self._extended_shape(sample_shape)))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = torch.broadcast_tensors(self.logits, value)
        return -F.binary_cross_entropy_with_logits(logits, value, reduction="none")

    def entropy(self):
        return F.binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")
