"""OneHotCategorical(probs | logits), OneHotCategoricalStraightThrough (its straight-through reparameterization)
and Multinomial(total_count, probs | logits): Categorical draws as one-hot vectors, and their counts over
total_count draws."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch.distributions import constraints
from torch.distributions.categorical import Categorical
from torch.distributions.distribution import Distribution


class _OverCategories(Distribution):
    """A distribution of vectors over a Categorical's K categories (event_shape = (K,)), its parameters the
    Categorical's probs or logits."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}

    def __init__(self, probs=None, logits=None, validate_args=None):
        self._categorical = Categorical(probs, logits)
        param = self._categorical.param_shape
        super().__init__(param[:-1], param[-1:], validate_args=validate_args)

    @property
    def probs(self):
        return self._categorical.probs

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def _param(self):
        return self._categorical._param

    @property
    def param_shape(self):
        """The shape of probs (or logits): the batch shape and K."""
        return self._categorical.param_shape


class OneHotCategorical(_OverCategories):
    """A Categorical draw as a one-hot vector over the last dim (event_shape = (K,))."""

    support = constraints.one_hot
    has_enumerate_support = True

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to batch_shape."""
        return self._expand_parameters(OneHotCategorical, ("_categorical",), batch_shape, _instance)

    @property
    def mean(self):
        return self.probs

    @property
    def mode(self):
        return F.one_hot(self.probs.argmax(-1), self.event_shape[-1]).to(self.probs.dtype)

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        indices = self._categorical.sample(sample_shape)
        return F.one_hot(indices, self.event_shape[-1]).to(self.probs.dtype)

    def log_prob(self, value):
        """log P(value) of a one-hot value."""
        if self._validate_args:
            self._validate_sample(value)
        return self._categorical.log_prob(value.max(-1)[1])

    def entropy(self):
        return self._categorical.entropy()

    def enumerate_support(self, expand=True):
        """The K one-hot vectors along a new first dim (expanded over the batch unless expand=False)."""
        n = self.event_shape[0]
        values = torch.eye(n, dtype=self._param.dtype, device=self._param.device)
        values = values.view((n,) + (1,) * len(self.batch_shape) + (n,))
        return values.expand((n,) + tuple(self.batch_shape) + (n,)) if expand else values


class OneHotCategoricalStraightThrough(OneHotCategorical):
    """A OneHotCategorical with rsample by the straight-through gradient estimator (Bengio et al., 2013,
    Estimating or Propagating Gradients Through Stochastic Neurons for Conditional Computation): the one-hot
    sample in the forward pass, the gradient of probs in the backward one."""

    has_rsample = True

    def rsample(self, sample_shape=()):
        samples = self.sample(sample_shape)
        probs = self._categorical.probs
        return samples + (probs - probs.detach())


class Multinomial(_OverCategories):
    """The counts of each of K categories in total_count independent Categorical draws (event_shape = (K,))."""

    def __init__(self, total_count: int = 1, probs=None, logits=None, validate_args=None):
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        super().__init__(probs, logits, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to batch_shape."""
        new = self._expand_parameters(Multinomial, ("_categorical",), batch_shape, _instance)
        new.total_count = self.total_count
        return new

    @property
    def support(self):
        return constraints.multinomial(self.total_count)

    @property
    def mean(self):
        return self.probs * self.total_count

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        sample_shape = torch.Size(sample_shape)
        draws = self._categorical.sample(torch.Size((self.total_count,)) + sample_shape)
        counts = F.one_hot(draws, self.event_shape[-1]).to(self.probs.dtype).sum(0)
        return counts

    def log_prob(self, value):
        """log P(counts)."""
        if self._validate_args:
            self._validate_sample(value)
        logits, value = torch.broadcast_tensors(self.logits, value)
        logits = logits.clone()
        logits[(value == 0) & (logits == -float("inf"))] = 0
        log_factorial_n = torch.lgamma(value.sum(-1) + 1)
        log_factorial_xs = torch.lgamma(value + 1).sum(-1)
        return log_factorial_n - log_factorial_xs + (logits * value).sum(-1)

    def entropy(self):
        """n H(categorical) - log n! + E[sum_k log x_k!], each count x_k Binomial(n, p_k)."""
        from torch.distributions.binomial import Binomial

        n = torch.tensor(self.total_count)
        term1 = n * self._categorical.entropy() - torch.lgamma(n + 1)
        binomial = Binomial(total_count=self.total_count, probs=self.probs)
        support = binomial.enumerate_support(expand=False)[1:]
        weights = torch.lgamma(support + 1)
        return term1 + (torch.exp(binomial.log_prob(support)) * weights).sum([0, -1])
