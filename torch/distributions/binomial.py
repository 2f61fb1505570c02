"""Binomial(total_count, probs | logits)."""

from __future__ import annotations

import torch
from torch.distributions import constraints
from torch.distributions.distribution import Distribution
from torch.distributions.utils import BinaryProbsLogits


class Binomial(BinaryProbsLogits, Distribution):
    """The number of successes in total_count independent trials of success probability probs (or
    sigmoid(logits)); sampled by torch.binomial."""

    arg_constraints = {
        "total_count": constraints.nonnegative_integer,
        "probs": constraints.unit_interval,
        "logits": constraints.real,
    }
    has_enumerate_support = True

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        self._init_count_and_param(total_count, probs, logits)
        super().__init__(self._param.shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to batch_shape."""
        return self._expand_binary(Binomial, batch_shape, _instance, ("total_count",))

    @property
    def support(self):
        return constraints.integer_interval(0, self.total_count)

    @property
    def mean(self):
        return self.total_count * self.probs

    @property
    def mode(self):
        return ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count)

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            return torch.binomial(self.total_count.expand(shape), self.probs.expand(shape))

    def log_prob(self, value):
        """log C(n, k) + k log p + (n - k) log(1 - p), in the logits' stable form."""
        if self._validate_args:
            self._validate_sample(value)
        n, logits = self.total_count, self.logits
        log_comb = torch.lgamma(n + 1) - torch.lgamma(value + 1) - torch.lgamma(n - value + 1)
        # k log p + (n - k) log(1 - p) = k logits - n log(1 + exp(logits)), written without overflow
        normalize = n * torch.clamp(logits, min=0) + n * torch.log1p(torch.exp(-logits.abs()))
        # at logits = -inf (p = 0) and k = 0 the product 0 * -inf is 0
        term = torch.where((value == 0) & (logits == -float("inf")), torch.zeros_like(logits), value * logits)
        return log_comb + term - normalize

    def _single_count(self, fn: str) -> int:
        """total_count as one number (entropy and enumerate_support need the same support everywhere)."""
        n = self.total_count.reshape(-1)
        if not bool((n == n[0]).all()):
            raise NotImplementedError(f"Inhomogeneous total count not supported by `{fn}`.")
        return int(n[0].item())

    def entropy(self):
        """The sum over the support of -P log P (total_count must be one number)."""
        self._single_count("entropy")
        support = self.enumerate_support(expand=False)
        log_p = self.log_prob(support)
        return -(log_p.exp() * log_p).sum(0)

    def enumerate_support(self, expand: bool = True):
        """0, 1, ..., total_count along a new first dim (total_count must be one number)."""
        n = self.total_count
        values = torch.arange(1 + self._single_count("enumerate_support"), dtype=n.dtype, device=n.device)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + self._batch_shape) if expand else values
