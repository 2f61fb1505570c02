"""ExponentialFamily: the base of the distributions of density exp(<t(x), theta> - F(theta) + k(x)), with
their entropy (and KL divergences between two of one family) from the log normalizer F by autograd, as Bregman
divergences (Nielsen and Nock, Entropies and Cross-entropies of Exponential Families)."""

from __future__ import annotations

import torch
from torch.distributions.distribution import Distribution

__all__ = ["ExponentialFamily"]


class ExponentialFamily(Distribution):
    """A distribution of density p(x; theta) = exp(<t(x), theta> - F(theta) + k(x)): subclasses give the natural
    parameters theta (`_natural_params`), the log normalizer F (`_log_normalizer(*theta)`) and the expected
    carrier measure E[k(X)] (`_mean_carrier_measure`)."""

    @property
    def _natural_params(self) -> tuple:
        """The natural parameters theta, a tuple of tensors."""
        raise NotImplementedError

    def _log_normalizer(self, *natural_params):
        """The log normalizer F at the given natural parameters."""
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self) -> float:
        """E[k(X)], the expected carrier measure."""
        raise NotImplementedError

    def entropy(self):
        """-E[k(X)] + F(theta) - <theta, grad F(theta)>, the gradient by autograd."""
        result = -self._mean_carrier_measure
        nparams = [p.detach().requires_grad_() for p in self._natural_params]
        lg_normal = self._log_normalizer(*nparams)
        gradients = torch.autograd.grad(lg_normal.sum(), nparams, create_graph=True)
        result = result + lg_normal
        for p, g in zip(nparams, gradients):
            result = result - (p * g).reshape(self._batch_shape + (-1,)).sum(-1)
        return result
