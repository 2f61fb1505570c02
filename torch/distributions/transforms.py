"""Transforms: invertible maps y = f(x) with the log abs det of their Jacobian, for TransformedDistribution and
the constraint registry (PyTorch's torch.distributions.transforms): the base Transform, ComposeTransform,
IndependentTransform and ReshapeTransform; the elementwise Exp, Affine, Sigmoid, Tanh, Power, Abs, Softplus and
CumulativeDistribution (a distribution's cdf); the vector and matrix ones: Softmax and StickBreaking (onto the
simplex), CorrCholesky (onto Cholesky factors of correlation matrices), LowerCholesky and PositiveDefinite; Cat
and Stack (transforms applied to slices)."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch.distributions import constraints
from torch.distributions._sliced_transforms import CatTransform, StackTransform
from torch.distributions._transform import ComposeTransform, IndependentTransform, Transform, identity_transform
from torch.distributions.distribution import broadcast_all
from torch.distributions.utils import lazy_property, tril_matrix_to_vec, vec_to_tril_matrix

__all__ = [
    "AbsTransform",
    "AffineTransform",
    "CatTransform",
    "ComposeTransform",
    "CorrCholeskyTransform",
    "CumulativeDistributionTransform",
    "ExpTransform",
    "IndependentTransform",
    "LowerCholeskyTransform",
    "PositiveDefiniteTransform",
    "PowerTransform",
    "ReshapeTransform",
    "SigmoidTransform",
    "SoftmaxTransform",
    "SoftplusTransform",
    "StackTransform",
    "StickBreakingTransform",
    "TanhTransform",
    "Transform",
    "identity_transform",
]


class ReshapeTransform(Transform):
    """Reshapes the rightmost dims from in_shape to out_shape (the same number of elements): unit Jacobian."""

    bijective = True

    def __init__(self, in_shape, out_shape, cache_size: int = 0):
        self.in_shape, self.out_shape = torch.Size(in_shape), torch.Size(out_shape)
        if self.in_shape.numel() != self.out_shape.numel():
            raise ValueError("in_shape, out_shape have different numbers of elements")
        super().__init__(cache_size=cache_size)

    @constraints.dependent_property
    def domain(self):
        return constraints.independent(constraints.real, len(self.in_shape))

    @constraints.dependent_property
    def codomain(self):
        return constraints.independent(constraints.real, len(self.out_shape))

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return ReshapeTransform(self.in_shape, self.out_shape, cache_size=cache_size)

    def _call(self, x):
        return x.reshape(x.shape[: x.dim() - len(self.in_shape)] + self.out_shape)

    def _inverse(self, y):
        return y.reshape(y.shape[: y.dim() - len(self.out_shape)] + self.in_shape)

    def log_abs_det_jacobian(self, x, y):
        return x.new_zeros(x.shape[: x.dim() - len(self.in_shape)])

    @staticmethod
    def _reshaped(shape, src, dst):
        if len(shape) < len(src):
            raise ValueError("Too few dimensions on input")
        cut = len(shape) - len(src)
        if shape[cut:] != src:
            raise ValueError(f"Shape mismatch: expected {shape[cut:]} but got {src}")
        return torch.Size(shape[:cut] + dst)

    def forward_shape(self, shape):
        return self._reshaped(shape, self.in_shape, self.out_shape)

    def inverse_shape(self, shape):
        return self._reshaped(shape, self.out_shape, self.in_shape)


def _real_or_independent(event_dim: int):
    return constraints.real if event_dim == 0 else constraints.independent(constraints.real, event_dim)


def _same_number_or_tensor(a, b) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return bool((a == b).all())


class _Parameterless(Transform):
    """A transform without parameters: equal to every instance of its kind (the first public class below this
    one, so a subclass of ExpTransform equals ExpTransform())."""

    def __eq__(self, other):
        kind = next(c for c in reversed(type(self).__mro__) if issubclass(c, _Parameterless) and c.__name__[0] != "_")
        return isinstance(other, kind)


class _Increasing(_Parameterless):
    """What the increasing bijections of the reals without parameters share (Exp, Sigmoid, Softplus, Tanh)."""

    domain = constraints.real
    bijective = True
    sign = +1


class ExpTransform(_Increasing):
    """y = exp(x)."""

    codomain = constraints.positive

    def _call(self, x):
        return x.exp()

    def _inverse(self, y):
        return y.log()

    def log_abs_det_jacobian(self, x, y):
        return x


class PowerTransform(Transform):
    """y = x ** exponent on x > 0 (exponent a number or a tensor broadcast against x)."""

    domain = constraints.positive
    codomain = constraints.positive
    bijective = True

    def __init__(self, exponent, cache_size: int = 0):
        super().__init__(cache_size=cache_size)
        (self.exponent,) = broadcast_all(exponent)

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return PowerTransform(self.exponent, cache_size=cache_size)

    @lazy_property
    def sign(self):
        return self.exponent.sign()

    def __eq__(self, other):
        return isinstance(other, PowerTransform) and self.exponent.eq(other.exponent).all().item()

    def _call(self, x):
        return x.pow(self.exponent)

    def _inverse(self, y):
        return y.pow(1 / self.exponent)

    def log_abs_det_jacobian(self, x, y):
        return (self.exponent * y / x).abs().log()

    def forward_shape(self, shape):
        return torch.broadcast_shapes(shape, getattr(self.exponent, "shape", ()))

    def inverse_shape(self, shape):
        return torch.broadcast_shapes(shape, getattr(self.exponent, "shape", ()))


def _clipped_sigmoid(x):
    finfo = torch.finfo(x.dtype)
    return torch.clamp(torch.sigmoid(x), min=finfo.tiny, max=1.0 - finfo.eps)


class SigmoidTransform(_Increasing):
    """y = 1 / (1 + exp(-x)), clipped into (0, 1) of the dtype; its inverse is logit(y)."""

    codomain = constraints.unit_interval

    def _call(self, x):
        return _clipped_sigmoid(x)

    def _inverse(self, y):
        finfo = torch.finfo(y.dtype)
        y = y.clamp(min=finfo.tiny, max=1.0 - finfo.eps)
        return y.log() - (-y).log1p()

    def log_abs_det_jacobian(self, x, y):
        return -F.softplus(-x) - F.softplus(x)


class SoftplusTransform(_Increasing):
    """y = log(1 + exp(x)), onto the positive reals (linear above x = 20)."""

    codomain = constraints.positive

    def _call(self, x):
        return F.softplus(x)

    def _inverse(self, y):
        return (-y).expm1().neg().log() + y

    def log_abs_det_jacobian(self, x, y):
        return -F.softplus(-x)


class TanhTransform(_Increasing):
    """y = tanh(x), onto (-1, 1) (its inverse is not clamped at the ends: use cache_size=1 there)."""

    codomain = constraints.interval(-1.0, 1.0)

    def _call(self, x):
        return x.tanh()

    def _inverse(self, y):
        return torch.atanh(y)

    def log_abs_det_jacobian(self, x, y):
        # log(1 - tanh(x)^2), in the form that stays accurate for large |x|
        return 2.0 * (math.log(2.0) - x - F.softplus(-2.0 * x))


class AbsTransform(_Parameterless):
    """y = abs(x) (not bijective: its inverse is the non-negative branch)."""

    domain = constraints.real
    codomain = constraints.positive

    def _call(self, x):
        return x.abs()

    def _inverse(self, y):
        return y


class AffineTransform(Transform):
    """y = loc + scale * x, loc and scale numbers or tensors broadcast against x (scale may be negative);
    event_dim is the number of rightmost dims of one event (its log-Jacobian is summed over them)."""

    bijective = True

    def __init__(self, loc, scale, event_dim: int = 0, cache_size: int = 0):
        super().__init__(cache_size=cache_size)
        self.loc, self.scale, self._event_dim = loc, scale, event_dim

    @property
    def event_dim(self) -> int:
        return self._event_dim

    @constraints.dependent_property(is_discrete=False)
    def domain(self):
        return _real_or_independent(self.event_dim)

    @constraints.dependent_property(is_discrete=False)
    def codomain(self):
        return _real_or_independent(self.event_dim)

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return AffineTransform(self.loc, self.scale, self.event_dim, cache_size=cache_size)

    def __eq__(self, other):
        """Equal where loc, scale and event_dim are."""
        return (
            isinstance(other, AffineTransform)
            and self._event_dim == other._event_dim
            and _same_number_or_tensor(self.loc, other.loc)
            and _same_number_or_tensor(self.scale, other.scale)
        )

    @property
    def sign(self):
        if isinstance(self.scale, (int, float)):
            return 1 if float(self.scale) > 0 else -1 if float(self.scale) < 0 else 0
        return self.scale.sign()

    def _call(self, x):
        return self.loc + self.scale * x

    def _inverse(self, y):
        return (y - self.loc) / self.scale

    def log_abs_det_jacobian(self, x, y):
        """log abs(scale) at each element (summed over the event's dims), for x broadcast against scale."""
        scale = self.scale
        if isinstance(scale, (int, float)):
            result = torch.full_like(x, math.log(abs(scale)))
        else:
            result = torch.abs(scale).log()
            result = result.expand(torch.broadcast_shapes(x.shape, result.shape))
        if self._event_dim:
            result = result.reshape(result.shape[: result.dim() - self._event_dim] + (-1,)).sum(-1)
        return result

    def forward_shape(self, shape):
        return torch.broadcast_shapes(shape, getattr(self.loc, "shape", ()), getattr(self.scale, "shape", ()))

    def inverse_shape(self, shape):
        return self.forward_shape(shape)


class CumulativeDistributionTransform(Transform):
    """y = distribution.cdf(x), from the distribution's support onto the unit interval (a Gaussian copula is
    TransformedDistribution(MultivariateNormal(...), CumulativeDistributionTransform(Normal(0, 1))));
    its log-Jacobian is the distribution's log density."""

    bijective = True
    codomain = constraints.unit_interval
    sign = +1

    def __init__(self, distribution, cache_size: int = 0):
        super().__init__(cache_size=cache_size)
        self.distribution = distribution

    @property
    def domain(self):
        return self.distribution.support

    def _call(self, x):
        return self.distribution.cdf(x)

    def _inverse(self, y):
        return self.distribution.icdf(y)

    def log_abs_det_jacobian(self, x, y):
        return self.distribution.log_prob(x)

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return CumulativeDistributionTransform(self.distribution, cache_size=cache_size)


def _vector_shape(shape):
    if len(shape) < 1:
        raise ValueError("Too few dimensions on input")
    return shape


class SoftmaxTransform(_Parameterless):
    """y = softmax(x) over the last dim, from the real vectors onto the simplex. Not bijective (adding a
    constant to x leaves y alone): its inverse log(y) is one preimage, and it has no log_abs_det_jacobian."""

    domain = constraints.real_vector
    codomain = constraints.simplex

    def _call(self, x):
        probs = (x - x.max(-1, True)[0]).exp()
        return probs / probs.sum(-1, True)

    def _inverse(self, y):
        return y.log()

    def forward_shape(self, shape):
        return _vector_shape(shape)

    def inverse_shape(self, shape):
        return _vector_shape(shape)


class StickBreakingTransform(_Parameterless):
    """A bijection from the real vectors of length K onto the simplex of K + 1 entries by stick breaking:
    entry k takes the fraction sigmoid(x_k - log(K - k)) of what the earlier ones left (so x = 0 gives the
    uniform point)."""

    domain = constraints.real_vector
    codomain = constraints.simplex
    bijective = True

    def _call(self, x):
        offset = x.shape[-1] + 1 - x.new_ones(x.shape[-1]).cumsum(-1)
        z = _clipped_sigmoid(x - offset.log())
        z_cumprod = (1 - z).cumprod(-1)
        return F.pad(z, [0, 1], value=1) * F.pad(z_cumprod, [1, 0], value=1)

    def _inverse(self, y):
        y_crop = y[..., :-1]
        offset = y.shape[-1] - y.new_ones(y_crop.shape[-1]).cumsum(-1)
        sf = torch.clamp(1 - y_crop.cumsum(-1), min=torch.finfo(y.dtype).tiny)  # what is left of the stick
        return y_crop.log() - sf.log() + offset.log()

    def log_abs_det_jacobian(self, x, y):
        """log abs det of the Jacobian of the first K outputs (the last is 1 minus their sum), per vector."""
        offset = x.shape[-1] + 1 - x.new_ones(x.shape[-1]).cumsum(-1)
        x = x - offset.log()
        return (-x + F.logsigmoid(x) + y[..., :-1].log()).sum(-1)

    def forward_shape(self, shape):
        shape = _vector_shape(shape)
        return shape[:-1] + (shape[-1] + 1,)

    def inverse_shape(self, shape):
        shape = _vector_shape(shape)
        return shape[:-1] + (shape[-1] - 1,)


class CorrCholeskyTransform(Transform):
    """A bijection from real vectors of length D (D - 1) / 2 onto the lower Cholesky factors of D x D
    correlation matrices (lower-triangular, positive diagonal, rows of unit norm): tanh maps the vector to
    partial correlations in (-1, 1) filling the strict lower triangle row by row, and each row is completed by
    stick breaking on the squared norm."""

    domain = constraints.real_vector
    codomain = constraints.corr_cholesky
    bijective = True

    def _call(self, x):
        x = torch.tanh(x)
        eps = torch.finfo(x.dtype).eps
        x = x.clamp(min=-1 + eps, max=1 - eps)
        r = vec_to_tril_matrix(x, diag=-1)
        z1m_cumprod_sqrt = (1 - r**2).sqrt().cumprod(-1)
        r = r + torch.eye(r.shape[-1], dtype=r.dtype, device=r.device)
        return r * F.pad(z1m_cumprod_sqrt[..., :-1], [1, 0], value=1)

    def _inverse(self, y):
        y_cumsum = 1 - torch.cumsum(y * y, dim=-1)
        y_cumsum_shifted = F.pad(y_cumsum[..., :-1], [1, 0], value=1)
        y_vec = tril_matrix_to_vec(y, diag=-1)
        y_cumsum_vec = tril_matrix_to_vec(y_cumsum_shifted, diag=-1)
        t = y_vec / y_cumsum_vec.sqrt()
        return (t.log1p() - t.neg().log1p()) / 2  # atanh

    def log_abs_det_jacobian(self, x, y, intermediates=None):
        """log abs det of the map from x to the strict lower triangle of y, per vector."""
        y1m_cumsum = 1 - (y * y).cumsum(dim=-1)
        stick_breaking_logdet = 0.5 * tril_matrix_to_vec(y1m_cumsum, diag=-2).log().sum(-1)
        tanh_logdet = -2 * (x + F.softplus(-2 * x) - math.log(2.0)).sum(dim=-1)
        return stick_breaking_logdet + tanh_logdet

    def forward_shape(self, shape):
        if len(shape) < 1:
            raise ValueError("Too few dimensions on input")
        N = shape[-1]
        D = round((0.25 + 2 * N) ** 0.5 + 0.5)
        if D * (D - 1) // 2 != N:
            raise ValueError("Input is not a flattened lower-diagonal number")
        return shape[:-1] + (D, D)

    def inverse_shape(self, shape):
        if len(shape) < 2:
            raise ValueError("Too few dimensions on input")
        if shape[-2] != shape[-1]:
            raise ValueError("Input is not square")
        D = shape[-1]
        return shape[:-2] + (D * (D - 1) // 2,)


class LowerCholeskyTransform(_Parameterless):
    """From unconstrained square matrices onto lower-triangular ones with a positive diagonal: the strict lower
    triangle kept, the diagonal exponentiated (the upper triangle dropped, so not bijective)."""

    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.lower_cholesky

    def _call(self, x):
        return x.tril(-1) + x.diagonal(dim1=-2, dim2=-1).exp().diag_embed()

    def _inverse(self, y):
        return y.tril(-1) + y.diagonal(dim1=-2, dim2=-1).log().diag_embed()


class PositiveDefiniteTransform(_Parameterless):
    """From unconstrained square matrices onto positive-definite ones: L L^T for L = LowerCholeskyTransform(x);
    its inverse goes through the Cholesky factor."""

    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.positive_definite

    def _call(self, x):
        x = LowerCholeskyTransform()(x)
        return x @ x.mT

    def _inverse(self, y):
        return LowerCholeskyTransform().inv(torch.linalg.cholesky(y))
