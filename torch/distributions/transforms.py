"""Transforms: invertible maps y = f(x) with the log abs det of their Jacobian, for TransformedDistribution
(PyTorch's torch.distributions.transforms): Exp, Affine, Sigmoid, Tanh, Power, Abs, Softplus, their inverses
(`.inv`) and compositions; the vector and matrix ones: Softmax and StickBreaking (onto the simplex) and
CorrCholesky (onto Cholesky factors of correlation matrices)."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch.distributions import constraints
from torch.distributions.utils import tril_matrix_to_vec, vec_to_tril_matrix

__all__ = [
    "AbsTransform",
    "AffineTransform",
    "ComposeTransform",
    "CorrCholeskyTransform",
    "ExpTransform",
    "PowerTransform",
    "SigmoidTransform",
    "SoftmaxTransform",
    "SoftplusTransform",
    "StickBreakingTransform",
    "TanhTransform",
    "Transform",
    "identity_transform",
]


class Transform:
    """An elementwise map y = f(x) over `domain` onto `codomain`: __call__, inv (the inverse transform),
    log_abs_det_jacobian(x, y), and `sign` (+1 or -1 for monotone maps)."""

    bijective = False
    domain = constraints.real
    codomain = constraints.real
    sign = 1

    def __init__(self, cache_size: int = 0):
        if cache_size not in (0, 1):
            raise ValueError("cache_size must be 0 or 1")
        self._cache_size = cache_size
        self._cached = None  # (x, y) of the last call, with cache_size=1

    @property
    def event_dim(self) -> int:
        return 0

    @property
    def inv(self):
        """The inverse transform (x = f^-1(y))."""
        return _InverseTransform(self)

    def __call__(self, x):
        if self._cache_size and self._cached is not None and self._cached[0] is x:
            return self._cached[1]
        y = self._call(x)
        if self._cache_size:
            self._cached = (x, y)
        return y

    def _inv_call(self, y):
        if self._cache_size and self._cached is not None and self._cached[1] is y:
            return self._cached[0]
        return self._inverse(y)

    def _call(self, x):
        raise NotImplementedError

    def _inverse(self, y):
        raise NotImplementedError

    def log_abs_det_jacobian(self, x, y):
        """log abs(dy/dx), elementwise."""
        raise NotImplementedError

    def forward_shape(self, shape):
        """The shape of f(x) for x of this shape (the same, for elementwise transforms)."""
        return shape

    def inverse_shape(self, shape):
        """The shape of f^-1(y) for y of this shape."""
        return shape

    def __eq__(self, other):
        """Parameterless transforms of one kind are equal (PyTorch's); the others compare by identity."""
        if self is other:
            return True
        return type(self) is type(other) and not self._parameters() and not other._parameters()

    def __hash__(self):
        return id(self)

    def _parameters(self) -> dict:
        return {k: v for k, v in vars(self).items() if k not in ("_cache_size", "_cached")}

    def __repr__(self) -> str:
        return type(self).__name__ + "()"


class _InverseTransform(Transform):
    """f^-1 of a transform f."""

    def __init__(self, transform: Transform):
        super().__init__(cache_size=transform._cache_size)
        self._inv = transform

    bijective = True

    @property
    def domain(self):
        return self._inv.codomain

    @property
    def codomain(self):
        return self._inv.domain

    @property
    def sign(self):
        return self._inv.sign

    @property
    def inv(self):
        return self._inv

    def __call__(self, x):
        return self._inv._inv_call(x)

    @property
    def event_dim(self) -> int:
        return self._inv.event_dim

    def log_abs_det_jacobian(self, x, y):
        return -self._inv.log_abs_det_jacobian(y, x)

    def forward_shape(self, shape):
        return self._inv.inverse_shape(shape)

    def inverse_shape(self, shape):
        return self._inv.forward_shape(shape)

    def __repr__(self) -> str:
        return f"_InverseTransform({self._inv!r})"


class ComposeTransform(Transform):
    """parts applied in order: y = parts[-1](... parts[0](x))."""

    def __init__(self, parts, cache_size: int = 0):
        super().__init__(cache_size=cache_size)
        self.parts = list(parts)

    @property
    def bijective(self):
        return all(p.bijective for p in self.parts)

    @property
    def domain(self):
        return self.parts[0].domain if self.parts else constraints.real

    @property
    def codomain(self):
        return self.parts[-1].codomain if self.parts else constraints.real

    @property
    def sign(self):
        s = 1
        for p in self.parts:
            s = s * p.sign
        return s

    @property
    def inv(self):
        return ComposeTransform([p.inv for p in reversed(self.parts)])

    def _call(self, x):
        for p in self.parts:
            x = p(x)
        return x

    def log_abs_det_jacobian(self, x, y):
        if not self.parts:
            return torch.zeros_like(x)
        total = 0
        for p in self.parts:
            y_part = p(x)
            total = total + p.log_abs_det_jacobian(x, y_part)
            x = y_part
        return total

    def forward_shape(self, shape):
        for p in self.parts:
            shape = p.forward_shape(shape)
        return shape

    def inverse_shape(self, shape):
        for p in reversed(self.parts):
            shape = p.inverse_shape(shape)
        return shape

    def __repr__(self) -> str:
        return "ComposeTransform(\n    " + ",\n    ".join(repr(p) for p in self.parts) + "\n)"


class ExpTransform(Transform):
    """y = exp(x)."""

    bijective = True
    codomain = constraints.positive

    def _call(self, x):
        return x.exp()

    def _inverse(self, y):
        return y.log()

    def log_abs_det_jacobian(self, x, y):
        return x


class AffineTransform(Transform):
    """y = loc + scale * x (scale may be negative; event_dim sums the log-Jacobian over that many dims)."""

    bijective = True

    def __init__(self, loc, scale, event_dim: int = 0, cache_size: int = 0):
        super().__init__(cache_size=cache_size)
        self.loc, self.scale, self._event_dim = loc, scale, event_dim

    @property
    def event_dim(self) -> int:
        return self._event_dim

    def __eq__(self, other):
        """Equal where loc, scale and event_dim are (PyTorch's)."""
        if not isinstance(other, AffineTransform) or self._event_dim != other._event_dim:
            return False

        def same(a, b):
            if isinstance(a, (int, float)) and isinstance(b, (int, float)):
                return a == b
            return bool(torch.all(torch.as_tensor(a) == torch.as_tensor(b)))

        return same(self.loc, other.loc) and same(self.scale, other.scale)

    __hash__ = Transform.__hash__

    @property
    def sign(self):
        if isinstance(self.scale, (int, float)):
            return 1 if self.scale > 0 else -1 if self.scale < 0 else 0
        return self.scale.sign()

    def _call(self, x):
        return self.loc + self.scale * x

    def _inverse(self, y):
        return (y - self.loc) / self.scale

    def log_abs_det_jacobian(self, x, y):
        scale = self.scale
        if isinstance(scale, (int, float)):
            result = torch.full_like(x, math.log(abs(scale)))
        else:
            result = torch.abs(scale).log().expand(x.shape) if scale.shape != x.shape else torch.abs(scale).log()
        if self._event_dim:
            result = result.reshape(result.shape[: result.dim() - self._event_dim] + (-1,)).sum(-1)
        return result


class SigmoidTransform(Transform):
    """y = 1 / (1 + exp(-x))."""

    bijective = True
    codomain = constraints.unit_interval

    def _call(self, x):
        finfo = torch.finfo(x.dtype)
        return torch.clamp(torch.sigmoid(x), min=finfo.tiny, max=1.0 - finfo.eps)

    def _inverse(self, y):
        finfo = torch.finfo(y.dtype)
        y = y.clamp(min=finfo.tiny, max=1.0 - finfo.eps)
        return y.log() - (-y).log1p()

    def log_abs_det_jacobian(self, x, y):
        return -F.softplus(-x) - F.softplus(x)


class TanhTransform(Transform):
    """y = tanh(x), onto (-1, 1)."""

    bijective = True
    codomain = constraints.interval(-1.0, 1.0)

    def _call(self, x):
        return x.tanh()

    def _inverse(self, y):
        return torch.atanh(y)

    def log_abs_det_jacobian(self, x, y):
        # log(1 - tanh(x)^2), in the form that stays accurate for large |x|
        return 2.0 * (math.log(2.0) - x - F.softplus(-2.0 * x))


class PowerTransform(Transform):
    """y = x ** exponent on x > 0."""

    bijective = True
    domain = constraints.positive
    codomain = constraints.positive

    def __init__(self, exponent, cache_size: int = 0):
        super().__init__(cache_size=cache_size)
        self.exponent = exponent

    @property
    def sign(self):
        e = self.exponent
        return (1 if e > 0 else -1) if isinstance(e, (int, float)) else e.sign()

    def _call(self, x):
        return x.pow(self.exponent)

    def _inverse(self, y):
        return y.pow(1 / self.exponent)

    def log_abs_det_jacobian(self, x, y):
        e = self.exponent
        return (e * y / x).abs().log() if not isinstance(e, (int, float)) else (abs(e) * y / x).abs().log()


class AbsTransform(Transform):
    """y = abs(x) (not bijective: its inverse is the non-negative branch)."""

    codomain = constraints.nonnegative

    def _call(self, x):
        return x.abs()

    def _inverse(self, y):
        return y


class SoftplusTransform(Transform):
    """y = log(1 + exp(x)), onto the positive reals."""

    bijective = True
    codomain = constraints.positive

    def _call(self, x):
        return F.softplus(x)

    def _inverse(self, y):
        return (-y).expm1().neg().log() + y

    def log_abs_det_jacobian(self, x, y):
        return -F.softplus(-x)


identity_transform = ComposeTransform([])


def _clipped_sigmoid(x):
    finfo = torch.finfo(x.dtype)
    return torch.clamp(torch.sigmoid(x), min=finfo.tiny, max=1.0 - finfo.eps)


def _vector_shape(shape):
    if len(shape) < 1:
        raise ValueError("Too few dimensions on input")
    return shape


class SoftmaxTransform(Transform):
    """y = softmax(x) over the last dim, from the real vectors onto the simplex. Not bijective (adding a
    constant to x leaves y alone): its inverse log(y) is one preimage, and it has no log_abs_det_jacobian."""

    domain = constraints.real_vector
    codomain = constraints.simplex

    @property
    def event_dim(self) -> int:
        return 1

    def __eq__(self, other):
        return isinstance(other, SoftmaxTransform)

    __hash__ = Transform.__hash__

    def _call(self, x):
        probs = (x - x.max(-1, True)[0]).exp()
        return probs / probs.sum(-1, True)

    def _inverse(self, y):
        return y.log()

    def forward_shape(self, shape):
        return _vector_shape(shape)

    def inverse_shape(self, shape):
        return _vector_shape(shape)


class StickBreakingTransform(Transform):
    """A bijection from the real vectors of length K onto the simplex of K + 1 entries by stick breaking:
    entry k takes the fraction sigmoid(x_k - log(K - k)) of what the earlier ones left (so x = 0 gives the
    uniform point)."""

    domain = constraints.real_vector
    codomain = constraints.simplex
    bijective = True

    @property
    def event_dim(self) -> int:
        return 1

    def __eq__(self, other):
        return isinstance(other, StickBreakingTransform)

    __hash__ = Transform.__hash__

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

    @property
    def event_dim(self) -> int:
        return 1

    def __eq__(self, other):
        return isinstance(other, CorrCholeskyTransform)

    __hash__ = Transform.__hash__

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
