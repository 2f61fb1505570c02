"""The Transform base (PyTorch's torch.distributions.transforms.Transform): an invertible map with its domain and
codomain constraints, the log abs det of its Jacobian, an optional one-value cache, and its inverse
(`.inv`); and the transforms built from other transforms: ComposeTransform (a chain, `identity_transform` the
empty one) and IndependentTransform (more rightmost dims read as one event)."""

from __future__ import annotations

import functools
import operator

import torch
from torch.distributions import constraints
from torch.distributions.utils import _sum_rightmost, lazy_property

__all__ = ["ComposeTransform", "IndependentTransform", "Transform", "identity_transform"]


class Transform:
    """An invertible map y = f(x) from `domain` onto `codomain` (constraints whose event_dim says how many
    rightmost dims one value spans), with log_abs_det_jacobian(x, y) = log |det dy/dx| per event, `inv` (the
    inverse transform: t.inv.inv is t), `bijective`, and `sign` (+1 or -1 for monotone univariate maps).

    With cache_size=1 the last (x, y) pair is kept: calling on the same x object again (or the inverse on the
    same y) returns the other one without recomputing. Subclasses implement _call and/or _inverse."""

    bijective = False
    domain: constraints.Constraint
    codomain: constraints.Constraint

    def __init__(self, cache_size: int = 0):
        self._cache_size = cache_size
        self._inv = None
        if cache_size == 1:
            self._cached_x_y = None, None
        elif cache_size != 0:
            raise ValueError("cache_size must be 0 or 1")

    def __getstate__(self):
        state = self.__dict__.copy()
        state["_inv"] = None
        return state

    @property
    def event_dim(self) -> int:
        """The event dim of domain and codomain, where they agree."""
        if self.domain.event_dim == self.codomain.event_dim:
            return self.domain.event_dim
        raise ValueError("Please use either .domain.event_dim or .codomain.event_dim")

    @property
    def inv(self) -> Transform:
        """The inverse transform (x = f^-1(y)), made once and kept."""
        if self._inv is None:
            self._inv = _InverseTransform(self)
        return self._inv

    @property
    def sign(self):
        """The sign of the Jacobian's determinant (for bijective univariate transforms)."""
        raise NotImplementedError

    def with_cache(self, cache_size: int = 1) -> Transform:
        """This transform with the given cache size (itself if it has it already)."""
        if self._cache_size == cache_size:
            return self
        if type(self).__init__ is Transform.__init__:
            return type(self)(cache_size=cache_size)
        raise NotImplementedError(f"{type(self)}.with_cache is not implemented")

    def __eq__(self, other):
        """Transforms with parameters compare by identity unless they say otherwise."""
        return self is other

    def __ne__(self, other):
        return not self.__eq__(other)

    def __call__(self, x):
        """f(x) (the cached value when x is the last input)."""
        return self._through_cache(x, 0, self._call)

    def _inv_call(self, y):
        """f^-1(y) (the cached value when y is the last output)."""
        return self._through_cache(y, 1, self._inverse)

    def _through_cache(self, value, side: int, compute):
        """compute(value), value being side 0 (x) or 1 (y) of the cached pair: the pair's other side when
        value is the cached one, and the new pair cached."""
        if self._cache_size == 0:
            return compute(value)
        if value is self._cached_x_y[side]:
            return self._cached_x_y[1 - side]
        result = compute(value)
        self._cached_x_y = (value, result) if side == 0 else (result, value)
        return result

    def _call(self, x):
        raise NotImplementedError

    def _inverse(self, y):
        raise NotImplementedError

    def log_abs_det_jacobian(self, x, y):
        """log |det dy/dx| at x (y = f(x)), one value per event of the domain."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return type(self).__name__ + "()"

    def forward_shape(self, shape):
        """The shape of f(x) for x of this shape (the same, unless the transform says otherwise)."""
        return shape

    def inverse_shape(self, shape):
        """The shape of f^-1(y) for y of this shape."""
        return shape


class _InverseTransform(Transform):
    """f^-1 of a transform f (what f.inv gives): its domain is f's codomain, and it shares f's cache."""

    def __init__(self, transform: Transform):
        super().__init__(cache_size=transform._cache_size)
        self._inv = transform

    @constraints.dependent_property(is_discrete=False)
    def domain(self):
        return self._inv.codomain

    @constraints.dependent_property(is_discrete=False)
    def codomain(self):
        return self._inv.domain

    @property
    def bijective(self) -> bool:
        return self._inv.bijective

    @property
    def sign(self):
        return self._inv.sign

    @property
    def inv(self) -> Transform:
        return self._inv

    def with_cache(self, cache_size: int = 1) -> Transform:
        return self.inv.with_cache(cache_size).inv

    def __eq__(self, other):
        return isinstance(other, _InverseTransform) and self._inv == other._inv

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._inv!r})"

    def __call__(self, x):
        return self._inv._inv_call(x)

    def log_abs_det_jacobian(self, x, y):
        return -self._inv.log_abs_det_jacobian(y, x)

    def forward_shape(self, shape):
        return self._inv.inverse_shape(shape)

    def inverse_shape(self, shape):
        return self._inv.forward_shape(shape)


def _composed_constraint(parts, first, last, outer, inner):
    """The domain (or, reading the chain backwards, codomain) of a chain of transforms: that of the end part,
    made Independent over the extra dims the other parts work on."""
    constraint = getattr(first, outer)
    event_dim = getattr(last, inner).event_dim
    for part in parts:
        event_dim += getattr(part, outer).event_dim - getattr(part, inner).event_dim
        event_dim = max(event_dim, getattr(part, outer).event_dim)
    if event_dim < constraint.event_dim:
        raise AssertionError(f"event_dim {event_dim} must be >= {outer}.event_dim {constraint.event_dim}")
    if event_dim > constraint.event_dim:
        constraint = constraints.independent(constraint, event_dim - constraint.event_dim)
    return constraint


class ComposeTransform(Transform):
    """The transforms `parts` applied in order, y = parts[-1](... parts[0](x)); its domain and codomain span the
    largest event any part works on. The parts do the caching (cache_size gives each part that cache)."""

    def __init__(self, parts, cache_size: int = 0):
        if cache_size:
            parts = [part.with_cache(cache_size) for part in parts]
        super().__init__(cache_size=cache_size)
        self.parts = parts

    def __eq__(self, other):
        return isinstance(other, ComposeTransform) and self.parts == other.parts

    @constraints.dependent_property(is_discrete=False)
    def domain(self):
        if not self.parts:
            return constraints.real
        return _composed_constraint(reversed(self.parts), self.parts[0], self.parts[-1], "domain", "codomain")

    @constraints.dependent_property(is_discrete=False)
    def codomain(self):
        if not self.parts:
            return constraints.real
        return _composed_constraint(self.parts, self.parts[-1], self.parts[0], "codomain", "domain")

    @lazy_property
    def bijective(self) -> bool:
        return all(p.bijective for p in self.parts)

    @lazy_property
    def sign(self):
        sign = 1
        for p in self.parts:
            sign = sign * p.sign
        return sign

    @property
    def inv(self) -> Transform:
        if self._inv is None:
            self._inv = ComposeTransform([p.inv for p in reversed(self.parts)])
            self._inv._inv = self
        return self._inv

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return ComposeTransform(self.parts, cache_size=cache_size)

    def __call__(self, x):
        for part in self.parts:
            x = part(x)
        return x

    def log_abs_det_jacobian(self, x, y):
        """The parts' log-Jacobians at the intermediate values (free where the parts cache them), each summed
        over the event dims it works elementwise on."""
        if not self.parts:
            return torch.zeros_like(x)
        xs = [x]
        for part in self.parts[:-1]:
            xs.append(part(xs[-1]))
        xs.append(y)
        terms = []
        event_dim = self.domain.event_dim
        for part, x, y in zip(self.parts, xs[:-1], xs[1:]):
            terms.append(_sum_rightmost(part.log_abs_det_jacobian(x, y), event_dim - part.domain.event_dim))
            event_dim += part.codomain.event_dim - part.domain.event_dim
        return functools.reduce(operator.add, terms)

    def forward_shape(self, shape):
        for part in self.parts:
            shape = part.forward_shape(shape)
        return shape

    def inverse_shape(self, shape):
        for part in reversed(self.parts):
            shape = part.inverse_shape(shape)
        return shape

    def __repr__(self) -> str:
        return type(self).__name__ + "(\n    " + ",\n    ".join(repr(p) for p in self.parts) + "\n)"


identity_transform = ComposeTransform([])


class IndependentTransform(Transform):
    """base_transform with its `reinterpreted_batch_ndims` rightmost batch dims read as part of the event: the
    same map, its log_abs_det_jacobian summed over those dims."""

    def __init__(self, base_transform: Transform, reinterpreted_batch_ndims: int, cache_size: int = 0):
        super().__init__(cache_size=cache_size)
        self.base_transform = base_transform.with_cache(cache_size)
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return IndependentTransform(self.base_transform, self.reinterpreted_batch_ndims, cache_size=cache_size)

    @constraints.dependent_property(is_discrete=False)
    def domain(self):
        return constraints.independent(self.base_transform.domain, self.reinterpreted_batch_ndims)

    @constraints.dependent_property(is_discrete=False)
    def codomain(self):
        return constraints.independent(self.base_transform.codomain, self.reinterpreted_batch_ndims)

    @property
    def bijective(self) -> bool:
        return self.base_transform.bijective

    @property
    def sign(self):
        return self.base_transform.sign

    def _call(self, x):
        if x.dim() < self.domain.event_dim:
            raise ValueError("Too few dimensions on input")
        return self.base_transform(x)

    def _inverse(self, y):
        if y.dim() < self.codomain.event_dim:
            raise ValueError("Too few dimensions on input")
        return self.base_transform.inv(y)

    def log_abs_det_jacobian(self, x, y):
        return _sum_rightmost(self.base_transform.log_abs_det_jacobian(x, y), self.reinterpreted_batch_ndims)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.base_transform!r}, {self.reinterpreted_batch_ndims})"

    def forward_shape(self, shape):
        return self.base_transform.forward_shape(shape)

    def inverse_shape(self, shape):
        return self.base_transform.inverse_shape(shape)
