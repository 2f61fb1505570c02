"""Registries from constraints to the transforms onto them (PyTorch's torch.distributions.constraint_registry).

- ``biject_to(constraint)``: a bijective Transform from the reals (``constraints.real``, or real vectors or
  matrices) onto the constraint, with log_abs_det_jacobian: for HMC-like algorithms that move in the
  unconstrained space, e.g. ``biject_to(Exponential(rate).support)(unconstrained)``.
- ``transform_to(constraint)``: a Transform onto the constraint that need not be bijective (softmax for the
  simplex, which over-parameterizes it): for unconstrained optimization of constrained parameters, e.g.
  ``transform_to(Normal.arg_constraints["scale"])(unconstrained)``.

Both are keyed on the constraint's class; ``register(constraint, factory)`` adds one (as a decorator too), the
constraint given as a Constraint subclass or a singleton instance of one."""

from __future__ import annotations

from torch.distributions import constraints, transforms

__all__ = ["ConstraintRegistry", "biject_to", "transform_to"]


class ConstraintRegistry:
    """A table from Constraint subclasses to factories: factory(constraint) gives the transform onto it."""

    def __init__(self):
        self._registry = {}

    def register(self, constraint, factory=None):
        """Registers factory for constraint (a Constraint subclass, or an instance standing for its class);
        without factory, a decorator that registers the function it decorates."""
        if factory is None:
            return lambda factory: self.register(constraint, factory)
        if isinstance(constraint, constraints.Constraint):
            constraint = type(constraint)
        if not isinstance(constraint, type) or not issubclass(constraint, constraints.Constraint):
            raise TypeError(f"Expected constraint to be either a Constraint subclass or instance, but got {constraint}")
        self._registry[constraint] = factory
        return factory

    def __call__(self, constraint):
        """The transform onto constraint (NotImplementedError where none is registered for its class)."""
        try:
            factory = self._registry[type(constraint)]
        except KeyError:
            raise NotImplementedError(f"Cannot transform {type(constraint).__name__} constraints") from None
        return factory(constraint)


biject_to = ConstraintRegistry()
transform_to = ConstraintRegistry()


def _is_number(value) -> bool:
    return isinstance(value, (int, float, bool))


@biject_to.register(constraints.real)
@transform_to.register(constraints.real)
def _transform_to_real(constraint):
    return transforms.identity_transform


# positive and nonnegative are greater_than(0) and greater_than_eq(0): exp then a shift by 0, as upstream
@biject_to.register(constraints.greater_than)
@biject_to.register(constraints.greater_than_eq)
@transform_to.register(constraints.greater_than)
@transform_to.register(constraints.greater_than_eq)
def _transform_to_greater_than(constraint):
    return transforms.ComposeTransform(
        [transforms.ExpTransform(), transforms.AffineTransform(constraint.lower_bound, 1)]
    )


@biject_to.register(constraints.less_than)
@transform_to.register(constraints.less_than)
def _transform_to_less_than(constraint):
    return transforms.ComposeTransform(
        [transforms.ExpTransform(), transforms.AffineTransform(constraint.upper_bound, -1)]
    )


@biject_to.register(constraints.interval)
@biject_to.register(constraints.half_open_interval)
@transform_to.register(constraints.interval)
@transform_to.register(constraints.half_open_interval)
def _transform_to_interval(constraint):
    if _is_number(constraint.lower_bound) and constraint.lower_bound == 0:
        if _is_number(constraint.upper_bound) and constraint.upper_bound == 1:
            return transforms.SigmoidTransform()
    loc = constraint.lower_bound
    scale = constraint.upper_bound - constraint.lower_bound
    return transforms.ComposeTransform([transforms.SigmoidTransform(), transforms.AffineTransform(loc, scale)])


@biject_to.register(constraints.simplex)
def _biject_to_simplex(constraint):
    return transforms.StickBreakingTransform()


@transform_to.register(constraints.simplex)
def _transform_to_simplex(constraint):
    return transforms.SoftmaxTransform()


@transform_to.register(constraints.lower_cholesky)
def _transform_to_lower_cholesky(constraint):
    return transforms.LowerCholeskyTransform()


@transform_to.register(constraints.positive_definite)
@transform_to.register(constraints.positive_semidefinite)
def _transform_to_positive_definite(constraint):
    return transforms.PositiveDefiniteTransform()


@biject_to.register(constraints.corr_cholesky)
@transform_to.register(constraints.corr_cholesky)
def _transform_to_corr_cholesky(constraint):
    return transforms.CorrCholeskyTransform()


def _independent(registry):
    """The factory for independent constraints: registry's transform onto the base constraint, over more dims."""

    def factory(constraint):
        base_transform = registry(constraint.base_constraint)
        return transforms.IndependentTransform(base_transform, constraint.reinterpreted_batch_ndims)

    return factory


def _cat(registry):
    """The factory for cat constraints: registry's transforms onto each part, on their slices."""

    def factory(constraint):
        return transforms.CatTransform([registry(c) for c in constraint.cseq], constraint.dim, constraint.lengths)

    return factory


def _stack(registry):
    """The factory for stack constraints: registry's transforms onto each part, on their indices."""

    def factory(constraint):
        return transforms.StackTransform([registry(c) for c in constraint.cseq], constraint.dim)

    return factory


for _registry in (biject_to, transform_to):
    _registry.register(constraints.independent, _independent(_registry))
    _registry.register(constraints.cat, _cat(_registry))
    _registry.register(constraints.stack, _stack(_registry))
del _registry
