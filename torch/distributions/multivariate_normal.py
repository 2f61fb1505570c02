"""MultivariateNormal(loc, covariance_matrix | precision_matrix | scale_tril), on torch.linalg's Cholesky
factor and triangular solves."""

from __future__ import annotations

import math

import torch
from torch.distributions import constraints
from torch.distributions.distribution import Distribution
from torch.distributions.utils import lazy_property


def _batch_mahalanobis(L, x):
    """|L^-1 x|^2 per batch: the squared Mahalanobis distance of x under L L^T."""
    z = torch.linalg.solve_triangular(L, x.unsqueeze(-1), upper=False).squeeze(-1)
    return (z * z).sum(-1)


class MultivariateNormal(Distribution):
    """The normal distribution over vectors with mean loc and a covariance given by exactly one of
    covariance_matrix, precision_matrix or scale_tril (its lower Cholesky factor), batched by broadcasting."""

    arg_constraints = {
        "loc": constraints.real_vector,
        "covariance_matrix": constraints.positive_definite,
        "precision_matrix": constraints.positive_definite,
        "scale_tril": constraints.lower_cholesky,
    }
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None, validate_args=None):
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        if (covariance_matrix is not None) + (scale_tril is not None) + (precision_matrix is not None) != 1:
            raise ValueError("Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified.")
        given = next(m for m in (scale_tril, covariance_matrix, precision_matrix) if m is not None)
        if given.dim() < 2:
            name = (
                "scale_tril"
                if scale_tril is not None
                else ("covariance_matrix" if covariance_matrix is not None else "precision_matrix")
            )
            raise ValueError(f"{name} matrix must be at least two-dimensional, with optional leading batch dimensions")
        batch_shape = torch.broadcast_shapes(given.shape[:-2], loc.shape[:-1])
        event = loc.shape[-1:]
        if scale_tril is not None:
            self.scale_tril = scale_tril.expand(batch_shape + (-1, -1))
        elif covariance_matrix is not None:
            self.covariance_matrix = covariance_matrix.expand(batch_shape + (-1, -1))
        else:
            self.precision_matrix = precision_matrix.expand(batch_shape + (-1, -1))
        self.loc = loc.expand(batch_shape + (-1,))
        super().__init__(batch_shape, event, validate_args=validate_args)  # validates before factorizing
        if scale_tril is not None:
            self._unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self._unbroadcasted_scale_tril = torch.linalg.cholesky(covariance_matrix)
        else:
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(precision_matrix)

    # the matrices not given are computed from the Cholesky factor on first use
    @lazy_property
    def scale_tril(self):
        return self._unbroadcasted_scale_tril.expand(self._batch_shape + self._event_shape + self._event_shape)

    @lazy_property
    def covariance_matrix(self):
        L = self._unbroadcasted_scale_tril
        return (L @ L.mT).expand(self._batch_shape + self._event_shape + self._event_shape)

    @lazy_property
    def precision_matrix(self):
        L = self._unbroadcasted_scale_tril
        return torch.cholesky_inverse(L).expand(self._batch_shape + self._event_shape + self._event_shape)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to batch_shape."""
        names = [
            name for name in ("loc", "scale_tril", "covariance_matrix", "precision_matrix") if name in self.__dict__
        ]
        new = self._expand_parameters(MultivariateNormal, names, batch_shape, _instance)
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril
        return new

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return (self._unbroadcasted_scale_tril**2).sum(-1).expand(self._batch_shape + self._event_shape)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        eps = torch.randn(shape, dtype=self.loc.dtype, device=self.loc.device)
        return self.loc + (self._unbroadcasted_scale_tril @ eps.unsqueeze(-1)).squeeze(-1)

    def log_prob(self, value):
        """log density at value."""
        if self._validate_args:
            self._validate_sample(value)
        diff = value - self.loc
        L = self._unbroadcasted_scale_tril
        shape = torch.broadcast_shapes(L.shape[:-2], diff.shape[:-1])
        M = _batch_mahalanobis(L.expand(shape + L.shape[-2:]), diff.expand(shape + diff.shape[-1:]))
        half_log_det = L.diagonal(0, -2, -1).log().sum(-1)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + M) - half_log_det

    def entropy(self):
        half_log_det = self._unbroadcasted_scale_tril.diagonal(0, -2, -1).log().sum(-1)
        H = 0.5 * self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + half_log_det
        return H.expand(self._batch_shape) if len(self._batch_shape) else H


def _precision_to_scale_tril(P):
    """The lower Cholesky factor of P^-1, by way of the Cholesky factor of P flipped (PyTorch's way)."""
    Lf = torch.linalg.cholesky(torch.flip(P, (-2, -1)))
    L_inv = torch.transpose(torch.flip(Lf, (-2, -1)), -2, -1)
    eye = torch.eye(P.shape[-1], dtype=P.dtype, device=P.device)
    return torch.linalg.solve_triangular(L_inv, eye, upper=False)
