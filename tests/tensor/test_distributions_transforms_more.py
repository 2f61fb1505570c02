"""The transforms and constraints that fill the gaps against upstream PyTorch: ReshapeTransform,
IndependentTransform, CatTransform, StackTransform, LowerCholeskyTransform, PositiveDefiniteTransform,
CumulativeDistributionTransform; constraints.cat/stack; the constraint registry (biject_to, transform_to); and
the Transform base's semantics (inverses, caching, with_cache, equality, domain/codomain, sign, event_dim).

Values against NumPy/SciPy, log-Jacobians against the determinant of the Jacobian computed by autograd,
gradients by torch.autograd.gradcheck in float64, round trips through biject_to/transform_to for every
constraint they register, and upstream's error messages. Runs against upstream PyTorch too (TORCH_REFERENCE)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import torch
import torch.distributions as D
from torch.distributions import (
    Independent,
    MultivariateNormal,
    Normal,
    TransformedDistribution,
    biject_to,
    constraints,
    transform_to,
)
from torch.distributions.constraint_registry import ConstraintRegistry
from torch.distributions.transforms import (
    AbsTransform,
    AffineTransform,
    CatTransform,
    ComposeTransform,
    CorrCholeskyTransform,
    CumulativeDistributionTransform,
    ExpTransform,
    IndependentTransform,
    LowerCholeskyTransform,
    PositiveDefiniteTransform,
    PowerTransform,
    ReshapeTransform,
    SigmoidTransform,
    SoftmaxTransform,
    StackTransform,
    StickBreakingTransform,
    TanhTransform,
    Transform,
    identity_transform,
)
from torch.distributions.utils import tril_matrix_to_vec

st = pytest.importorskip("scipy.stats")

F64 = torch.float64


def t(values):
    return torch.tensor(values, dtype=F64)


def randn(*shape, seed=0):
    g = np.random.default_rng(seed)
    return torch.tensor(g.standard_normal(shape), dtype=F64)


def jacobian(f, x):
    """d flatten(f(x)) / d flatten(x), row by row with autograd."""
    x = x.detach().clone().requires_grad_()
    y = f(x).reshape(-1)
    rows = []
    for i in range(y.numel()):
        (g,) = torch.autograd.grad(y[i], x, retain_graph=True, allow_unused=True)
        rows.append(torch.zeros(x.numel(), dtype=F64) if g is None else g.reshape(-1))
    return torch.stack(rows)


def log_abs_det(matrix):
    return torch.linalg.slogdet(matrix)[1].item()


def same_transform(a, b) -> bool:
    """Equal transforms, the ones without an __eq__ of their own (CorrCholesky, Independent, Cat, Stack) by their
    kind and parts."""
    if type(a) is not type(b):
        return False
    if isinstance(a, CorrCholeskyTransform):
        return True
    if isinstance(a, IndependentTransform):
        return a.reinterpreted_batch_ndims == b.reinterpreted_batch_ndims and same_transform(
            a.base_transform, b.base_transform
        )
    if isinstance(a, (CatTransform, StackTransform)):
        return a.dim == b.dim and all(same_transform(p, q) for p, q in zip(a.transforms, b.transforms))
    return a == b


# ------------------------------------------------------------------------------------- the registry

# (constraint, shape of the unconstrained input, which outputs the Jacobian is of: None for all of them)
BIJECTIONS = {
    "real": (constraints.real, (4,), None),
    "positive": (constraints.positive, (4,), None),
    "nonnegative": (constraints.nonnegative, (3,), None),
    "greater_than": (constraints.greater_than(2.0), (3,), None),
    "greater_than_eq": (constraints.greater_than_eq(-1.5), (3,), None),
    "greater_than_tensor": (constraints.greater_than(t([0.5, -2.0, 3.0])), (3,), None),
    "less_than": (constraints.less_than(3.0), (3,), None),
    "unit_interval": (constraints.unit_interval, (4,), None),
    "interval": (constraints.interval(-2.0, 5.0), (4,), None),
    "interval_tensor": (constraints.interval(t([0.0, -1.0]), t([1.0, 4.0])), (2,), None),
    "half_open_interval": (constraints.half_open_interval(0.5, 1.5), (3,), None),
    "real_vector": (constraints.real_vector, (2, 3), None),
    "independent_positive": (constraints.independent(constraints.positive, 2), (2, 2), None),
    "simplex": (constraints.simplex, (2, 3), lambda y: y[..., :-1]),
    "corr_cholesky": (constraints.corr_cholesky, (6,), lambda y: tril_matrix_to_vec(y, diag=-1)),
    "cat": (constraints.cat([constraints.positive, constraints.real, constraints.unit_interval], 0, [2, 1, 2]), (5,),
            None),
    "cat_vectors": (constraints.cat([constraints.real_vector, constraints.independent(constraints.positive, 1)], -1,
                                    [2, 3]), (2, 5), None),
    "stack": (constraints.stack([constraints.positive, constraints.interval(-1.0, 1.0)], -1), (3, 2), None),
}  # fmt: skip


@pytest.mark.parametrize("name", list(BIJECTIONS))
def test_biject_to_round_trips_and_log_det(name):
    constraint, shape, outputs = BIJECTIONS[name]
    tr = biject_to(constraint)
    assert tr.bijective
    assert tr.codomain.event_dim >= constraint.event_dim
    x = randn(*shape, seed=len(name))
    y = tr(x)
    assert bool(constraint.check(y).all()), (name, y)
    torch.testing.assert_close(tr.inv(y), x, rtol=1e-9, atol=1e-9)
    ladj = tr.log_abs_det_jacobian(x, y)
    if name != "stack":  # upstream's StackTransform keeps one log-Jacobian per index, even inside the event
        assert ladj.shape == x.shape[: x.dim() - tr.domain.event_dim]
    J = jacobian(lambda v: (outputs or (lambda y: y))(tr(v)), x)
    assert J.shape[0] == J.shape[1]
    np.testing.assert_allclose(ladj.sum().item(), log_abs_det(J), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("name", [name for name in BIJECTIONS if name != "simplex"])  # simplex: the softmax, below
def test_transform_to_agrees_with_biject_to_where_bijective(name):
    constraint = BIJECTIONS[name][0]
    assert same_transform(transform_to(constraint), biject_to(constraint))


def test_transform_to_the_constraints_without_a_bijection():
    x = randn(2, 4, seed=3)
    softmax = transform_to(constraints.simplex)
    assert softmax == SoftmaxTransform() and not softmax.bijective
    y = softmax(x)
    assert bool(constraints.simplex.check(y).all())
    torch.testing.assert_close(softmax(softmax.inv(y)), y)
    np.testing.assert_allclose(y.numpy(), np.exp(x.numpy()) / np.exp(x.numpy()).sum(-1, keepdims=True), rtol=1e-12)

    m = randn(2, 3, 3, seed=4)
    for constraint, kind in [
        (constraints.lower_cholesky, LowerCholeskyTransform),
        (constraints.positive_definite, PositiveDefiniteTransform),
        (constraints.positive_semidefinite, PositiveDefiniteTransform),
    ]:
        tr = transform_to(constraint)
        assert isinstance(tr, kind) and not tr.bijective
        y = tr(m)
        assert bool(constraint.check(y).all())
        torch.testing.assert_close(tr(tr.inv(y)), y)
        with pytest.raises(NotImplementedError, match=f"Cannot transform {type(constraint).__name__} constraints"):
            biject_to(constraint)

    stacked = transform_to(constraints.stack([constraints.simplex, constraints.positive_definite], 0))
    assert isinstance(stacked, StackTransform)
    assert stacked.transforms == [SoftmaxTransform(), PositiveDefiniteTransform()]


def test_what_the_registry_returns():
    assert biject_to(constraints.real) is identity_transform
    assert biject_to(constraints.unit_interval) == SigmoidTransform()
    assert biject_to(constraints.interval(0, 1)) == SigmoidTransform()
    assert biject_to(constraints.positive) == ComposeTransform([ExpTransform(), AffineTransform(0.0, 1)])
    assert biject_to(constraints.less_than(3.0)) == ComposeTransform([ExpTransform(), AffineTransform(3.0, -1)])
    assert biject_to(constraints.interval(-2.0, 5.0)) == ComposeTransform(
        [SigmoidTransform(), AffineTransform(-2.0, 7.0)]
    )
    assert biject_to(constraints.simplex) == StickBreakingTransform()
    corr = biject_to(constraints.corr_cholesky)
    assert isinstance(corr, CorrCholeskyTransform) and corr != CorrCholeskyTransform()  # no __eq__ upstream
    ind = biject_to(constraints.independent(constraints.positive, 1))
    assert isinstance(ind, IndependentTransform) and ind.reinterpreted_batch_ndims == 1
    assert ind.domain.event_dim == 1 and ind.codomain.event_dim == 1
    cat = biject_to(constraints.cat([constraints.real, constraints.positive], 1, [2, 3]))
    assert isinstance(cat, CatTransform) and cat.dim == 1 and cat.lengths == [2, 3]
    # Normal's scale through transform_to: positive
    scale = transform_to(Normal.arg_constraints["scale"])(t([-3.0, 0.0, 2.0]))
    np.testing.assert_allclose(scale.numpy(), np.exp([-3.0, 0.0, 2.0]), rtol=1e-15)


@pytest.mark.parametrize(
    "constraint",
    [
        constraints.boolean,
        constraints.nonnegative_integer,
        constraints.positive_integer,
        constraints.integer_interval(0, 3),
        constraints.one_hot,
        constraints.lower_triangular,
        constraints.square,
        constraints.symmetric,
        constraints.dependent,
    ],
)
def test_unregistered_constraints(constraint):
    for registry in (biject_to, transform_to):
        with pytest.raises(NotImplementedError, match=f"^Cannot transform {type(constraint).__name__} constraints$"):
            registry(constraint)


def test_a_registry_of_ones_own():
    class Above(constraints.Constraint):
        def __init__(self, low):
            self.low = low

        def check(self, value):
            return value > self.low

    registry = ConstraintRegistry()

    @registry.register(Above)
    def _(constraint):
        return ComposeTransform([ExpTransform(), AffineTransform(constraint.low, 1.0)])

    y = registry(Above(2.0))(t([0.0]))
    assert y.item() == 3.0
    registry.register(constraints.positive, lambda c: ExpTransform())  # an instance stands for its class
    assert registry(constraints.greater_than(7.0)) == ExpTransform()
    with pytest.raises(
        TypeError, match="Expected constraint to be either a Constraint subclass or instance, but got 3"
    ):
        registry.register(3, lambda c: c)
    with pytest.raises(TypeError, match="but got <class 'int'>"):
        registry.register(int, lambda c: c)
    with pytest.raises(NotImplementedError, match="Cannot transform _Real constraints"):
        registry(constraints.real)


# ------------------------------------------------------------------------------------- Transform base


def test_inverses_are_made_once_and_invert_back():
    e = ExpTransform()
    assert e.inv is e.inv and e.inv.inv is e
    assert e.inv == ExpTransform().inv and e.inv != e
    c = ComposeTransform([ExpTransform(), AffineTransform(1.0, 2.0)])
    assert c.inv.inv is c and c.inv.parts[0] == AffineTransform(1.0, 2.0).inv
    assert e.inv.domain is constraints.positive and e.inv.codomain is constraints.real
    assert e.inv.bijective and e.inv.sign == 1
    assert repr(e.inv) == "_InverseTransform(ExpTransform())"
    assert not AbsTransform().inv.bijective


def test_caching():
    x = t([0.5, -1.0])
    cached = ExpTransform(cache_size=1)
    y = cached(x)
    assert cached(x) is y and cached.inv(y) is x
    y2 = t([1.0, 2.0])
    x2 = cached.inv(y2)
    assert cached.inv(y2) is x2 and cached(x2) is y2
    plain = ExpTransform()
    assert plain(x) is not plain(x)
    with pytest.raises(ValueError, match="cache_size must be 0 or 1"):
        ExpTransform(cache_size=2)
    assert plain.with_cache(0) is plain
    assert plain.with_cache()._cache_size == 1 and plain.inv.with_cache(1)._cache_size == 1
    affine = AffineTransform(t([1.0]), 3.0, event_dim=1).with_cache(1)
    assert affine._cache_size == 1 and affine.event_dim == 1 and affine.scale == 3.0
    compose = ComposeTransform([ExpTransform(), TanhTransform()], cache_size=1)
    assert all(p._cache_size == 1 for p in compose.parts)
    z = compose(x)
    assert compose.parts[1](compose.parts[0](x)) is z
    for tr in [
        PowerTransform(2.0),
        ReshapeTransform((2,), (2, 1)),
        IndependentTransform(ExpTransform(), 1),
        CatTransform([ExpTransform()]),
        StackTransform([ExpTransform()]),
        CumulativeDistributionTransform(Normal(0.0, 1.0)),
    ]:
        assert tr.with_cache(1)._cache_size == 1 and tr.with_cache(0) is tr

    class Scale(Transform):
        def __init__(self, s):
            super().__init__()
            self.s = s

    with pytest.raises(NotImplementedError, match=r"\.with_cache is not implemented"):
        Scale(2.0).with_cache(1)


def test_equality_sign_and_event_dim():
    assert ExpTransform() == ExpTransform() and ExpTransform() != SigmoidTransform()
    assert PowerTransform(2.0) == PowerTransform(2.0) and PowerTransform(2.0) != PowerTransform(3.0)
    assert AffineTransform(0.0, t([1.0, 2.0])) == AffineTransform(0.0, t([1.0, 2.0]))
    assert AffineTransform(0.0, 1.0) != AffineTransform(0.0, 2.0)
    assert ComposeTransform([ExpTransform()]) == ComposeTransform([ExpTransform()])
    assert LowerCholeskyTransform() == LowerCholeskyTransform() != PositiveDefiniteTransform()
    r = ReshapeTransform((2,), (2, 1))
    assert r == r and r != ReshapeTransform((2,), (2, 1))  # transforms with parameters: by identity
    with pytest.raises(TypeError):
        hash(ExpTransform())
    assert ExpTransform().sign == 1 and AffineTransform(0.0, -2.0).sign == -1
    assert torch.equal(PowerTransform(t([2.0, -1.0])).sign, t([1.0, -1.0]))
    assert ComposeTransform([AffineTransform(0.0, -1.0), ExpTransform(), AffineTransform(0.0, -3.0)]).sign == 1
    for tr in [AbsTransform(), StickBreakingTransform(), LowerCholeskyTransform(), ReshapeTransform((2,), (2,))]:
        with pytest.raises(NotImplementedError):
            _ = tr.sign
    assert StickBreakingTransform().event_dim == 1 and AffineTransform(0.0, 1.0, event_dim=2).event_dim == 2
    with pytest.raises(ValueError, match=r"^Please use either \.domain\.event_dim or \.codomain\.event_dim$"):
        _ = CorrCholeskyTransform().event_dim
    affine = AffineTransform(0.0, 2.0, event_dim=1)
    assert affine.domain.event_dim == 1 and affine.codomain.event_dim == 1
    assert AffineTransform(0.0, 2.0).domain is constraints.real


def test_compose_domain_and_codomain_span_the_largest_event():
    c = ComposeTransform([ExpTransform(), StickBreakingTransform()])
    assert c.domain.event_dim == 1 and c.codomain.event_dim == 1
    assert repr(c.domain) == "IndependentConstraint(Real(), 1)" and c.codomain is constraints.simplex
    c = ComposeTransform([CorrCholeskyTransform(), ExpTransform()])
    assert c.domain.event_dim == 1 and c.codomain.event_dim == 2
    assert identity_transform.domain is constraints.real and identity_transform.bijective
    x = randn(3, 2, seed=5)
    c = ComposeTransform([AffineTransform(1.0, 2.0), StickBreakingTransform()])
    y = c(x)
    want = (np.log(2.0) * 2) + StickBreakingTransform().log_abs_det_jacobian(1.0 + 2.0 * x, y)
    torch.testing.assert_close(c.log_abs_det_jacobian(x, y), want)
    torch.testing.assert_close(identity_transform.log_abs_det_jacobian(x, x), torch.zeros_like(x))


def test_pickled_transforms_leave_their_inverse_behind():
    e = ExpTransform()
    assert e.inv._inv is e
    e2 = pickle.loads(pickle.dumps(e))
    assert e2._inv is None and e2.inv.inv is e2


# ------------------------------------------------------------------------------------- the new transforms


def test_reshape_transform():
    tr = ReshapeTransform((2, 3), (3, 2))
    assert tr.bijective and tr.domain.event_dim == 2 and tr.codomain.event_dim == 2
    x = randn(4, 2, 3)
    y = tr(x)
    assert y.shape == (4, 3, 2) and torch.equal(y.reshape(-1), x.reshape(-1))
    assert torch.equal(tr.inv(y), x)
    assert torch.equal(tr.log_abs_det_jacobian(x, y), torch.zeros(4, dtype=F64))
    assert tr.forward_shape((5, 2, 3)) == torch.Size((5, 3, 2)) and tr.inverse_shape((3, 2)) == (2, 3)
    flat = ReshapeTransform((2, 3), (6,))
    assert flat.codomain.event_dim == 1 and repr(flat.codomain) == "IndependentConstraint(Real(), 1)"
    with pytest.raises(ValueError, match="^in_shape, out_shape have different numbers of elements$"):
        ReshapeTransform((2, 3), (5,))
    with pytest.raises(ValueError, match=r"^Shape mismatch: expected torch.Size\(\[4\]\) but got torch.Size\(\[6\]\)$"):
        flat.inverse_shape(torch.Size((3, 4)))
    with pytest.raises(ValueError, match="^Too few dimensions on input$"):
        flat.forward_shape((3,))
    # a base over 6 values read as a 2 x 3 event: the density is the base's, summed
    base = Normal(randn(6, seed=1), torch.ones(6, dtype=F64))
    d = TransformedDistribution(base, ReshapeTransform((6,), (2, 3)))
    assert d.batch_shape == () and d.event_shape == (2, 3)
    v = randn(5, 2, 3, seed=2)
    torch.testing.assert_close(d.log_prob(v), base.log_prob(v.reshape(5, 6)).sum(-1))
    torch.manual_seed(0)
    assert d.sample((7,)).shape == (7, 2, 3)


def test_independent_transform():
    tr = IndependentTransform(ExpTransform(), 2)
    assert tr.bijective and tr.sign == 1
    assert repr(tr) == "IndependentTransform(ExpTransform(), 2)"
    assert repr(tr.domain) == "IndependentConstraint(Real(), 2)"
    assert repr(tr.codomain) == "IndependentConstraint(GreaterThan(lower_bound=0.0), 2)"
    x = randn(4, 2, 3)
    y = tr(x)
    torch.testing.assert_close(y, x.exp())
    torch.testing.assert_close(tr.inv(y), x)
    torch.testing.assert_close(tr.log_abs_det_jacobian(x, y), x.sum((-2, -1)))
    with pytest.raises(ValueError, match="^Too few dimensions on input$"):
        tr(t([1.0]))
    with pytest.raises(ValueError, match="^Too few dimensions on input$"):
        tr.inv(t([1.0]))
    assert not IndependentTransform(AbsTransform(), 1).bijective
    assert tr.with_cache(1).base_transform._cache_size == 1
    assert IndependentTransform(StickBreakingTransform(), 1).forward_shape((4, 2, 3)) == (4, 2, 4)


def test_cat_transform_values_and_log_det():
    x = randn(3, 5, seed=7)
    tr = CatTransform([ExpTransform(), identity_transform, SigmoidTransform()], dim=-1, lengths=[2, 1, 2])
    y = tr(x)
    xn = x.numpy()
    want = np.concatenate([np.exp(xn[:, :2]), xn[:, 2:3], 1 / (1 + np.exp(-xn[:, 3:]))], -1)
    np.testing.assert_allclose(y.numpy(), want, rtol=1e-14)
    torch.testing.assert_close(tr.inv(y), x)
    ladj = tr.log_abs_det_jacobian(x, y)
    assert ladj.shape == (3, 5)  # elementwise: the parts' log-Jacobians joined along dim
    sig = want[:, 3:]
    np.testing.assert_allclose(
        ladj.numpy(), np.concatenate([xn[:, :2], np.zeros((3, 1)), np.log(sig * (1 - sig))], -1), rtol=1e-12
    )
    assert tr.event_dim == 0 and tr.length == 5 and tr.bijective
    assert repr(tr.domain) == "Cat()" and tr.codomain.event_dim == 0
    # a part with vector events: the log-Jacobians summed over the event, dim inside it
    tr = CatTransform([AffineTransform(0.0, 2.0, event_dim=1), ExpTransform()], dim=-1, lengths=[2, 3])
    assert tr.event_dim == 1
    y = tr(x)
    np.testing.assert_allclose(tr.log_abs_det_jacobian(x, y).numpy(), 2 * np.log(2.0) + xn[:, 2:].sum(-1), rtol=1e-12)
    # along a batch dim: joined there
    tr = CatTransform([ExpTransform(), TanhTransform()], dim=0, lengths=[1, 2])
    y = tr(x)
    np.testing.assert_allclose(y.numpy(), np.concatenate([np.exp(xn[:1]), np.tanh(xn[1:])]), rtol=1e-14)
    np.testing.assert_allclose(
        tr.log_abs_det_jacobian(x, y).numpy(), np.concatenate([xn[:1], np.log1p(-(np.tanh(xn[1:]) ** 2))]), rtol=1e-9
    )
    default = CatTransform([ExpTransform(), identity_transform])
    assert default.lengths == [1, 1] and default.dim == 0


def test_cat_transform_errors():
    tr = CatTransform([ExpTransform(), identity_transform], dim=0, lengths=[2, 3])
    with pytest.raises(AssertionError, match=r"^x\.size\(0\) = 4 must equal length 5$"):
        tr(randn(4))
    with pytest.raises(AssertionError, match=r"^y\.size\(0\) = 4 must equal length 5$"):
        tr.inv(randn(4))
    with pytest.raises(AssertionError, match="^dim 1 out of range for tensor with 1 dimensions$"):
        CatTransform([ExpTransform()], dim=1)(randn(3))
    with pytest.raises(AssertionError, match="^dim 2 out of range for x with 1 dimensions$"):
        CatTransform([ExpTransform()], dim=2).log_abs_det_jacobian(randn(1), randn(1))
    with pytest.raises(AssertionError, match="^All elements of tseq must be Transform instances$"):
        CatTransform([ExpTransform(), 3])
    with pytest.raises(AssertionError, match=r"^lengths \(1\) must match transforms \(2\)$"):
        CatTransform([ExpTransform(), ExpTransform()], lengths=[1])
    with pytest.raises(AssertionError, match=r"^lengths \(3\) must match cseq \(1\)$"):
        constraints.cat([constraints.real], lengths=[1, 2, 3])


def test_stack_transform():
    x = randn(4, 3, seed=8)
    tr = StackTransform([ExpTransform(), SigmoidTransform(), AffineTransform(1.0, -2.0)], dim=1)
    y = tr(x)
    xn = x.numpy()
    want = np.stack([np.exp(xn[:, 0]), 1 / (1 + np.exp(-xn[:, 1])), 1 - 2 * xn[:, 2]], 1)
    np.testing.assert_allclose(y.numpy(), want, rtol=1e-14)
    torch.testing.assert_close(tr.inv(y), x)
    ladj = tr.log_abs_det_jacobian(x, y)
    s = want[:, 1]
    np.testing.assert_allclose(
        ladj.numpy(), np.stack([xn[:, 0], np.log(s * (1 - s)), np.full(4, np.log(2.0))], 1), rtol=1e-12
    )
    assert tr.bijective and repr(tr.domain) == "Stack()" and tr.domain.event_dim == 0
    assert constraints.stack([constraints.real], -1).event_dim == 1  # the stacked dim is inside the event
    assert constraints.stack([constraints.real_vector], 0).event_dim == 1
    assert not StackTransform([ExpTransform(), AbsTransform()]).bijective
    with pytest.raises(AssertionError, match=r"^x\.size\(1\) = 3 must equal len\(transforms\) 2$"):
        StackTransform([ExpTransform(), ExpTransform()], dim=1)(x)
    with pytest.raises(AssertionError, match=r"^y\.size\(1\) = 4 must equal len\(transforms\) 3$"):
        tr.log_abs_det_jacobian(x, x.mT)
    with pytest.raises(AssertionError, match="^dim -3 out of range for tensor with 2 dimensions$"):
        StackTransform([ExpTransform()], dim=-3).inv(x)
    with pytest.raises(AssertionError, match="^All elements of tseq must be Transform instances$"):
        StackTransform([None])


def test_lower_cholesky_and_positive_definite_transforms():
    m = randn(2, 3, 3, seed=9)
    mn = m.numpy()
    lower = LowerCholeskyTransform()
    L = lower(m)
    want = np.tril(mn, -1) + np.einsum("...i,ij->...ij", np.exp(np.diagonal(mn, 0, -2, -1)), np.eye(3))
    np.testing.assert_allclose(L.numpy(), want, rtol=1e-14)
    torch.testing.assert_close(lower.inv(L), torch.tril(m))  # the upper triangle is lost
    assert repr(lower.domain) == "IndependentConstraint(Real(), 2)" and lower.codomain is constraints.lower_cholesky
    pd = PositiveDefiniteTransform()
    S = pd(m)
    np.testing.assert_allclose(S.numpy(), want @ np.swapaxes(want, -1, -2), rtol=1e-12)
    assert bool(constraints.positive_definite.check(S).all())
    torch.testing.assert_close(pd.inv(S), torch.tril(m))
    np.testing.assert_allclose(np.linalg.cholesky(S.numpy()), want, rtol=1e-10)
    assert pd.codomain is constraints.positive_definite and pd.event_dim == 2


def test_cumulative_distribution_transform_and_a_gaussian_copula():
    normal = Normal(t(0.5), t(2.0))
    tr = CumulativeDistributionTransform(normal)
    assert tr.bijective and tr.sign == 1 and tr.domain is constraints.real
    assert tr.codomain is constraints.unit_interval
    x = t([-1.0, 0.3, 2.5])
    y = tr(x)
    np.testing.assert_allclose(y.numpy(), st.norm.cdf(x.numpy(), 0.5, 2.0), rtol=1e-12)
    np.testing.assert_allclose(tr.inv(y).numpy(), x.numpy(), rtol=1e-10)
    np.testing.assert_allclose(tr.log_abs_det_jacobian(x, y).numpy(), st.norm.logpdf(x.numpy(), 0.5, 2.0), rtol=1e-12)
    assert CumulativeDistributionTransform(Normal(0.0, 1.0)).with_cache(1)._cache_size == 1
    # the copula density: the MVN density at the normal quantiles over the marginal densities there
    cov = np.array([[1.0, 0.6, -0.2], [0.6, 1.5, 0.3], [-0.2, 0.3, 0.8]])
    sd = np.sqrt(np.diag(cov))
    mvn = MultivariateNormal(torch.zeros(3, dtype=F64), t(cov))
    copula = TransformedDistribution(mvn, CumulativeDistributionTransform(Normal(t(0.0), t(sd))))
    assert copula.event_shape == (3,) and copula.batch_shape == ()
    assert repr(copula.support) == "IndependentConstraint(Interval(lower_bound=0.0, upper_bound=1.0), 1)"
    u = np.array([[0.2, 0.7, 0.4], [0.9, 0.95, 0.05]])
    q = st.norm.ppf(u) * sd
    want = st.multivariate_normal.logpdf(q, np.zeros(3), cov) - st.norm.logpdf(q, 0, sd).sum(-1)
    np.testing.assert_allclose(copula.log_prob(t(u)).numpy(), want, rtol=1e-9)
    torch.manual_seed(0)
    s = copula.sample((2000,))
    assert bool(((s > 0) & (s < 1)).all())
    # uniform margins: each has mean 1/2 and variance 1/12 (9 standard errors of slack)
    np.testing.assert_allclose(s.mean(0).numpy(), 0.5, atol=9 * np.sqrt(1 / 12 / 2000))


@pytest.mark.parametrize(
    "make, shape",
    [
        (lambda: CatTransform([ExpTransform(), TanhTransform()], -1, [2, 1]), (2, 3)),
        (lambda: StackTransform([ExpTransform(), SigmoidTransform()], 0), (2, 3)),
        (lambda: ReshapeTransform((3,), (3, 1)), (2, 3)),
        (lambda: IndependentTransform(SigmoidTransform(), 1), (2, 3)),
        (lambda: LowerCholeskyTransform(), (2, 2)),
        (lambda: PositiveDefiniteTransform(), (3, 3)),
        (lambda: CumulativeDistributionTransform(Normal(t(0.2), t(1.5))), (4,)),
    ],
    ids=["cat", "stack", "reshape", "independent", "lower_cholesky", "positive_definite", "cdf"],
)
def test_gradients(make, shape):
    tr = make()
    x = randn(*shape, seed=11).requires_grad_()
    assert torch.autograd.gradcheck(lambda v: tr(v), (x,))
    if tr.bijective:
        assert torch.autograd.gradcheck(lambda v: tr.log_abs_det_jacobian(v, tr(v)), (x,))
        y = tr(x).detach().requires_grad_()
        assert torch.autograd.gradcheck(lambda v: tr.inv(v), (y,))


# ------------------------------------------------------------------------------------- constraints


def test_cat_and_stack_constraints():
    c = constraints.cat([constraints.positive, constraints.unit_interval], 0, [2, 1])
    assert c.check(t([1.0, 2.0, 0.5])).tolist() == [True, True, True]
    assert c.check(t([-1.0, 2.0, 1.5])).tolist() == [False, True, False]
    assert not c.is_discrete and c.event_dim == 0
    assert constraints.cat([constraints.real, constraints.nonnegative_integer]).is_discrete
    assert constraints.cat([constraints.real, constraints.simplex], -1, [1, 2]).event_dim == 1
    s = constraints.stack([constraints.positive, constraints.interval(-1.0, 1.0)], 1)
    assert s.check(t([[1.0, 0.0], [-1.0, 2.0]])).tolist() == [[True, True], [False, False]]
    assert s.event_dim == 0 and not s.is_discrete
    with pytest.raises(AssertionError, match="^dim 1 out of range for value with 1 dimensions$"):
        s.check(t([1.0, 0.0]))
    with pytest.raises(AssertionError, match="^All elements of cseq must be Constraint instances$"):
        constraints.stack([constraints.real, 1])


def test_independent_constraint():
    c = constraints.independent(constraints.positive, 1)
    assert c.base_constraint is constraints.positive and c.reinterpreted_batch_ndims == 1
    assert c.event_dim == 1 and not c.is_discrete
    assert constraints.independent(constraints.nonnegative_integer, 1).is_discrete
    assert c.check(t([[1.0, 2.0], [1.0, -2.0]])).tolist() == [True, False]
    with pytest.raises(ValueError, match="^Expected value.dim\\(\\) >= 3 but got 1$"):
        constraints.independent(constraints.real, 3).check(t([1.0]))
    with pytest.raises(AssertionError, match="^base_constraint must be a Constraint, got int$"):
        constraints.independent(3, 1)
    with pytest.raises(AssertionError, match="^reinterpreted_batch_ndims must be an int, got float$"):
        constraints.independent(constraints.real, 1.0)
    with pytest.raises(AssertionError, match="^reinterpreted_batch_ndims must be >= 0, got -1$"):
        constraints.independent(constraints.real, -1)
    assert repr(constraints.nonnegative_integer) == "IntegerGreaterThan(lower_bound=0)"
    assert type(constraints.nonnegative_integer) is type(constraints.positive_integer)


# ------------------------------------------------------------------------------------- TransformedDistribution


def test_transformed_distribution_support_shapes_and_errors():
    base = Independent(Normal(torch.zeros(4, 3, dtype=F64), torch.ones(4, 3, dtype=F64)), 1)
    d = TransformedDistribution(base, ExpTransform())
    assert repr(d.support) == "IndependentConstraint(GreaterThan(lower_bound=0.0), 1)"
    assert d.batch_shape == (4,) and d.event_shape == (3,)
    d = TransformedDistribution(Normal(t([0.0, 1.0]), t([1.0, 2.0])), [])
    assert d.support is constraints.real
    with pytest.raises(ValueError, match="^transforms must be a Transform or a list of Transforms$"):
        TransformedDistribution(base, [ExpTransform(), "exp"])
    with pytest.raises(ValueError, match=r"^transforms must be a Transform or list, but was \(\)$"):
        TransformedDistribution(base, ())
    with pytest.raises(
        ValueError, match=r"^base_distribution needs to have shape with size at least 2, but got torch.Size\(\[3\]\)\.$"
    ):
        TransformedDistribution(Normal(torch.zeros(3, dtype=F64), 1.0), LowerCholeskyTransform())
    d = TransformedDistribution(Normal(t(0.0), t(1.0)), ExpTransform(), validate_args=True)
    with pytest.raises(ValueError, match="Expected value argument"):
        d.cdf(t(-1.0))
    # a matrix transform reads a batch of normals as one event
    d = TransformedDistribution(Normal(torch.zeros(5, 2, 2, dtype=F64), 1.0), LowerCholeskyTransform())
    assert d.batch_shape == (5,) and d.event_shape == (2, 2)


def test_transformed_distribution_expands_its_base():
    loc = t([1.0, 2.0, 3.0])
    d = TransformedDistribution(Normal(t(0.0), t(1.0)), AffineTransform(loc, 2.0))
    assert d.batch_shape == (3,) and d.base_dist.batch_shape == (3,)
    x = np.array([0.5, 2.5, -1.0])
    np.testing.assert_allclose(d.log_prob(t(x)).numpy(), st.norm.logpdf(x, loc.numpy(), 2.0), rtol=1e-12)
    torch.manual_seed(0)
    n = 4000
    z = ((d.sample((n,)) - loc) / 2).numpy()
    corr = np.corrcoef(z.T)[np.triu_indices(3, 1)]
    assert np.abs(corr).max() < 8 / np.sqrt(n)  # each batch member draws its own noise
    e = d.expand((4, 3))
    assert type(e) is TransformedDistribution and e.batch_shape == (4, 3) and e.base_dist.batch_shape == (4, 3)
    torch.testing.assert_close(e.log_prob(t(x)), d.log_prob(t(x)).expand(4, 3))
    # over an Independent base: the base expanded below its reinterpreted dims
    base = Independent(Normal(torch.zeros(2, dtype=F64), torch.ones(2, dtype=F64)), 1)
    d = TransformedDistribution(base, AffineTransform(t([[0.0, 1.0]] * 3), t([2.0, 3.0]), event_dim=1))
    assert d.batch_shape == (3,) and d.event_shape == (2,) and d.base_dist.batch_shape == (3,)
    assert d.base_dist.base_dist.batch_shape == (3, 2)
    v = t([0.5, -1.0])
    want = st.norm.logpdf([0.5, -1.0], [0.0, 1.0], [2.0, 3.0]).sum()
    np.testing.assert_allclose(d.log_prob(v).numpy(), np.full(3, want), rtol=1e-12)
    for dist in [D.Uniform(t([0.0, 1.0]), t([2.0, 4.0])), D.Exponential(t([0.5, 2.0])), D.Laplace(t(0.0), t(1.0))]:
        e = dist.expand((5, 2))
        assert type(e) is type(dist) and e.batch_shape == (5, 2)
        torch.testing.assert_close(e.log_prob(t(1.5)), dist.log_prob(t(1.5)).expand(5, 2))
