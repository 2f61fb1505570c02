"""Transforms: invertible maps y = f(x) with the log abs det of their Jacobian, for TransformedDistribution
(PyTorch's torch.distributions.transforms): Exp, Affine, Sigmoid, Tanh, Power, Abs, Softplus, their inverses
(`.inv`) and compositions."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch.distributions import constraints

__all__ = [
    "AbsTransform",
    "AffineTransform",
    "ComposeTransform",
    "ExpTransform",
    "PowerTransform",
    "SigmoidTransform",
    "SoftplusTransform",
    "TanhTransform",
    "Transform",
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

    def log_abs_det_jacobian(self, x, y):
        return -self._inv.log_abs_det_jacobian(y, x)

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
