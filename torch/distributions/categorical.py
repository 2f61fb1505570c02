"""Categorical(probs | logits)."""

from __future__ import annotations

import math

import torch
from torch.distributions import constraints
from torch.distributions.distribution import Distribution
from torch.distributions.utils import check_probs_or_logits, lazy_property, probs_to_logits


class Categorical(Distribution):
    """One of K categories, with probabilities probs (normalized along the last dim) or softmax(logits)."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        check_probs_or_logits(probs, logits)
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = probs / probs.sum(-1, keepdim=True)
            param = self.probs
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits - logits.logsumexp(-1, keepdim=True)
            param = self.logits
        self._num_events = param.shape[-1]
        self._param = param
        super().__init__(param.shape[:-1], validate_args=validate_args)

    @lazy_property
    def probs(self):
        return torch.softmax(self.logits, -1)

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs)  # log of probs clamped into [eps, 1 - eps], as upstream

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to batch_shape."""
        names = [name for name in ("probs", "logits") if name in self.__dict__]
        new = self._expand_parameters(Categorical, names, batch_shape, _instance)
        new._num_events = self._num_events
        new._param = getattr(new, names[0])
        return new

    @property
    def support(self):
        return constraints.integer_interval(0, self._num_events - 1)

    @property
    def param_shape(self):
        return self.probs.shape

    @property
    def mean(self):
        return torch.full(self._extended_shape(), math.nan, dtype=self.probs.dtype, device=self.probs.device)

    @property
    def mode(self):
        return self.probs.argmax(-1)

    @property
    def variance(self):
        return torch.full(self._extended_shape(), math.nan, dtype=self.probs.dtype, device=self.probs.device)

    def enumerate_support(self, expand=True):
        """The categories 0 .. K - 1 along a new first dim (expanded over the batch unless expand=False)."""
        values = torch.arange(self._num_events, dtype=torch.long, device=self._param.device)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + tuple(self._batch_shape)) if expand else values

    def sample(self, sample_shape=()):
        sample_shape = torch.Size(sample_shape)
        n = max(1, math.prod(sample_shape))
        flat = self.probs.reshape(-1, self._num_events)
        with torch.no_grad():
            draws = torch.multinomial(flat, n, True).t()  # [n, batch]
        return draws.reshape(tuple(sample_shape) + tuple(self._batch_shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value = value.long().unsqueeze(-1)
        value, log_pmf = torch.broadcast_tensors(value, self.logits)
        return log_pmf.gather(-1, value[..., :1]).squeeze(-1)

    def entropy(self):
        logits = self.logits.clamp(min=torch.finfo(self.logits.dtype).min)
        return -(logits * self.probs).sum(-1)
