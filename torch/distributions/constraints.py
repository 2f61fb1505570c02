"""The sets that distribution parameters and samples belong to (torch.distributions.constraints), each with
check(value): a bool tensor of which elements (or events) lie inside."""

from __future__ import annotations

import torch

__all__ = [
    "Constraint",
    "boolean",
    "greater_than",
    "greater_than_eq",
    "multinomial",
    "one_hot",
    "independent",
    "integer_interval",
    "interval",
    "lower_cholesky",
    "nonnegative",
    "nonnegative_integer",
    "positive",
    "positive_definite",
    "real",
    "real_vector",
    "simplex",
    "unit_interval",
]


class Constraint:
    """A set of values; `event_dim` is how many rightmost dims make up one value."""

    is_discrete = False
    event_dim = 0

    def check(self, value):
        """Whether each value lies in the set."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__.lstrip('_')}()"


class _Real(Constraint):
    def check(self, value):
        return value == value  # not NaN


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value):
        return (value == 0) | (value == 1)


class _GreaterThan(Constraint):
    def __init__(self, lower_bound):
        self.lower_bound = lower_bound

    def check(self, value):
        return value > self.lower_bound

    def __repr__(self) -> str:
        return f"GreaterThan(lower_bound={self.lower_bound})"


class _GreaterThanEq(_GreaterThan):
    def check(self, value):
        return value >= self.lower_bound

    def __repr__(self) -> str:
        return f"GreaterThanEq(lower_bound={self.lower_bound})"


class _Interval(Constraint):
    def __init__(self, lower_bound, upper_bound):
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def check(self, value):
        return (value >= self.lower_bound) & (value <= self.upper_bound)

    def __repr__(self) -> str:
        return f"Interval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _IntegerInterval(_Interval):
    is_discrete = True

    def check(self, value):
        return (value % 1 == 0) & super().check(value)

    def __repr__(self) -> str:
        return f"IntegerInterval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _NonnegativeInteger(Constraint):
    """The integers >= 0 (PyTorch's IntegerGreaterThan(lower_bound=0))."""

    is_discrete = True

    def check(self, value):
        return (value % 1 == 0) & (value >= 0)

    def __repr__(self) -> str:
        return "IntegerGreaterThan(lower_bound=0)"


class _OneHot(Constraint):
    """Vectors (the last dim) of 0s with a single 1."""

    is_discrete = True
    event_dim = 1

    def check(self, value):
        return ((value == 0) | (value == 1)).all(-1) & (value.sum(-1) == 1)


class _Multinomial(Constraint):
    """Count vectors (the last dim) of non-negative entries summing to at most upper_bound."""

    is_discrete = True
    event_dim = 1

    def __init__(self, upper_bound):
        self.upper_bound = upper_bound

    def check(self, value):
        return (value >= 0).all(-1) & (value.sum(-1) <= self.upper_bound)

    def __repr__(self) -> str:
        return "Multinomial()"


class _Simplex(Constraint):
    event_dim = 1

    def check(self, value):
        return torch.all(value >= 0, dim=-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class _IndependentConstraint(Constraint):
    """`base` over events of `reinterpreted_batch_ndims` more dims: an event lies inside if all its values do."""

    def __init__(self, base: Constraint, reinterpreted_batch_ndims: int):
        self.base, self.reinterpreted_batch_ndims = base, reinterpreted_batch_ndims
        self.event_dim = base.event_dim + reinterpreted_batch_ndims

    def check(self, value):
        ok = self.base.check(value)
        return ok.reshape(ok.shape[: ok.dim() - self.reinterpreted_batch_ndims] + (-1,)).all(-1)

    def __repr__(self) -> str:
        return f"IndependentConstraint({self.base!r}, {self.reinterpreted_batch_ndims})"


class _LowerCholesky(Constraint):
    """Lower-triangular matrices with a positive diagonal."""

    event_dim = 2

    def check(self, value):
        lower = (value.tril() == value).reshape(value.shape[:-2] + (-1,)).all(-1)
        return lower & (value.diagonal(0, -2, -1) > 0).all(-1)


class _PositiveDefinite(Constraint):
    """Symmetric positive-definite matrices (those with a Cholesky factor)."""

    event_dim = 2

    def check(self, value):
        symmetric = torch.isclose(value, value.mT, atol=1e-6).reshape(value.shape[:-2] + (-1,)).all(-1)
        return symmetric & (torch.linalg.cholesky_ex(value).info == 0)


real = _Real()
real_vector = _IndependentConstraint(real, 1)
lower_cholesky = _LowerCholesky()
positive_definite = _PositiveDefinite()
independent = _IndependentConstraint
boolean = _Boolean()
positive = _GreaterThan(0.0)
nonnegative = _GreaterThanEq(0.0)
unit_interval = _Interval(0.0, 1.0)
simplex = _Simplex()
nonnegative_integer = _NonnegativeInteger()
greater_than = _GreaterThan
greater_than_eq = _GreaterThanEq
one_hot = _OneHot()
multinomial = _Multinomial
interval = _Interval
integer_interval = _IntegerInterval
