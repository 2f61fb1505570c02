"""Helpers the distributions share (PyTorch's torch.distributions.utils): broadcasting parameters, probs and
logits conversions, lazily computed attributes, and packing the lower triangle of a matrix into a vector."""

from __future__ import annotations

import functools

import torch
from torch.distributions.distribution import broadcast_all

__all__ = [
    "broadcast_all",
    "clamp_probs",
    "lazy_property",
    "logits_to_probs",
    "probs_to_logits",
    "tril_matrix_to_vec",
    "vec_to_tril_matrix",
]

euler_constant = 0.57721566490153286061  # Euler-Mascheroni constant


def _sum_rightmost(value, dim: int):
    """value summed over its `dim` rightmost dims."""
    if dim == 0:
        return value
    return value.reshape(value.shape[: value.dim() - dim] + (-1,)).sum(-1)


def _standard_normal(shape, dtype=None, device=None):
    """Standard normal draws of the given shape."""
    return torch.randn(shape, dtype=dtype, device=device)


def logits_to_probs(logits, is_binary: bool = False):
    """Probabilities from logits: sigmoid for binary ones, else a softmax over the last dim."""
    if is_binary:
        return torch.sigmoid(logits)
    return torch.softmax(logits, dim=-1)


def clamp_probs(probs):
    """probs clamped into [eps, 1 - eps] of their dtype (so that their logs and logits are finite)."""
    eps = torch.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary: bool = False):
    """Logits from probabilities (clamped first): log(p) - log1p(-p) for binary ones, else log(p)."""
    ps_clamped = clamp_probs(probs)
    if is_binary:
        return torch.log(ps_clamped) - torch.log1p(-ps_clamped)
    return torch.log(ps_clamped)


class lazy_property:
    """A property computed on first use (with gradients enabled) and then kept on the instance."""

    _lazy = True  # what Distribution's validation looks for (it cannot import this module: a cycle)

    def __init__(self, wrapped):
        self.wrapped = wrapped
        functools.update_wrapper(self, wrapped)

    def __get__(self, instance, obj_type=None):
        if instance is None:  # on the class: a property, so that documentation tools see one (as upstream)
            return _lazy_property_and_property(self.wrapped)
        with torch.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


def check_probs_or_logits(probs, logits) -> None:
    """The distributions parameterized by probs or logits take exactly one of them."""
    if (probs is None) == (logits is None):
        raise ValueError("Either `probs` or `logits` must be specified, but not both.")


class BinaryProbsLogits:
    """The success parameter of the binary distributions (Bernoulli, Binomial, Geometric, NegativeBinomial,
    ContinuousBernoulli, LogitRelaxedBernoulli): probs or logits, whichever was given (also as `_param`),
    the other computed on first use and kept."""

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits, is_binary=True)

    @property
    def param_shape(self):
        return self._param.size()

    def _init_count_and_param(self, total_count, probs, logits) -> None:
        """Binomial's and NegativeBinomial's parameters: total_count broadcast with probs or logits (one of them,
        checked) and cast to its dtype; the given one is `_param`."""
        check_probs_or_logits(probs, logits)
        name, value = ("probs", probs) if probs is not None else ("logits", logits)
        count, param = broadcast_all(total_count, value)
        self.total_count = count.type_as(param)
        setattr(self, name, param)
        self._param = param

    def _expand_binary(self, cls, batch_shape, _instance=None, names=()):
        """expand() of these distributions: a cls with the probs and/or logits this one holds (whichever were
        given or computed; the given one its `_param`) and the parameters `names` expanded to batch_shape."""
        new = self._expand_parameters(cls, names, batch_shape, _instance)
        for name in ("probs", "logits"):
            if name in self.__dict__:
                setattr(new, name, self.__dict__[name].expand(batch_shape))
                if self._param is self.__dict__[name]:
                    new._param = new.__dict__[name]
        return new


class _lazy_property_and_property(lazy_property, property):
    """What a lazy_property is on its class: both, for introspection."""

    def __init__(self, wrapped):
        property.__init__(self, wrapped)


def _tril_mask(n: int, diag: int, device):
    arange = torch.arange(n, device=device)
    return arange < arange.view(-1, 1) + (diag + 1)


def tril_matrix_to_vec(mat, diag: int = 0):
    """The entries of a (batch of) D x D matrix on and below diagonal `diag`, row by row, as a vector."""
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    return mat[..., _tril_mask(n, diag, mat.device)]


def vec_to_tril_matrix(vec, diag: int = 0):
    """The inverse of tril_matrix_to_vec: a (batch of) D x D matrix, zero above diagonal `diag`."""
    n = (-(1 + 2 * diag) + ((1 + 2 * diag) ** 2 + 8 * vec.shape[-1] + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2
    eps = torch.finfo(vec.dtype).eps
    if round(n) - n > eps:
        raise ValueError(
            f"The size of last dimension is {vec.shape[-1]} which cannot be expressed as "
            "the lower triangular part of a square D x D matrix."
        )
    n = round(n)
    mat = vec.new_zeros(vec.shape[:-1] + torch.Size((n, n)))
    mat[..., _tril_mask(n, diag, vec.device)] = vec
    return mat
