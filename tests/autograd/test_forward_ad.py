"""torch.autograd.forward_ad: dual tensors' tangents against float64 central differences and closed forms, the
levels' rules and errors, differentiating through a tangent, complex (J v for holomorphic f)."""

import pytest

import torch
import torch.autograd.forward_ad as fwAD
from torch import nn


def _finite_difference(f, xs, vs, eps=1e-6):
    plus = f(*[x + eps * v for x, v in zip(xs, vs)])
    minus = f(*[x - eps * v for x, v in zip(xs, vs)])
    return (plus - minus) / (2 * eps)


def _jvp(f, xs, vs):
    with fwAD.dual_level():
        duals = [fwAD.make_dual(x, v) for x, v in zip(xs, vs)]
        out = f(*duals)
        primal, tangent = fwAD.unpack_dual(out)
    return primal, tangent


FUNCTIONS = {
    "sin_mul": (lambda x: x.sin() * x, [(5,)]),
    "exp_sum_dim": (lambda x: x.exp().sum(dim=1), [(3, 4)]),
    "mm_tanh": (lambda a, b: (a @ b).tanh(), [(3, 4), (4, 2)]),
    "softmax": (lambda x: torch.softmax(x, dim=-1), [(2, 6)]),
    "broadcast_div": (lambda a, b: a / (b.exp() + 1), [(3, 4), (4,)]),
    "norm_pow": (lambda x: x.norm() ** 3, [(7,)]),
    "transpose_view": (lambda x: x.t()[1:, ::2] * 2, [(4, 5)]),
    "log_softmax_nll": (lambda x: torch.nn.functional.log_softmax(x, dim=1)[:, 0].sum(), [(4, 3)]),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_tangent_equals_central_differences(name):
    f, shapes = FUNCTIONS[name]
    gen = torch.Generator().manual_seed(0)
    xs = [torch.randn(*s, dtype=torch.float64, generator=gen) for s in shapes]
    vs = [torch.randn(*s, dtype=torch.float64, generator=gen) for s in shapes]
    primal, tangent = _jvp(f, xs, vs)
    torch.testing.assert_close(primal, f(*xs))
    torch.testing.assert_close(tangent, _finite_difference(f, xs, vs), rtol=1e-6, atol=1e-7)


def test_module_forward_with_dual_input():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.LayerNorm(8), nn.Linear(8, 2)).double()
    x = torch.randn(3, 4, dtype=torch.float64)
    v = torch.randn(3, 4, dtype=torch.float64)
    primal, tangent = _jvp(net, [x], [v])
    with torch.no_grad():
        expected = _finite_difference(net, [x], [v])
        torch.testing.assert_close(primal, net(x))
    torch.testing.assert_close(tangent, expected, rtol=1e-6, atol=1e-7)


def test_unpacking_the_dual_itself_and_non_duals():
    x = torch.randn(3)
    v = torch.randn(3)
    with fwAD.dual_level():
        dual = fwAD.make_dual(x, v)
        unpacked = fwAD.unpack_dual(dual)
        assert isinstance(unpacked, fwAD.UnpackedDualTensor)
        assert unpacked.tangent is v
        torch.testing.assert_close(unpacked.primal, x)
        assert dual.data_ptr() == x.data_ptr()  # aliases the primal
        assert fwAD.unpack_dual(x).tangent is None
        assert fwAD.unpack_dual(torch.randn(3) * 2).tangent is None
        torch.testing.assert_close(fwAD.unpack_dual(dual + torch.ones(3)).tangent, v)
        torch.testing.assert_close(fwAD.unpack_dual(dual.sign()).tangent, torch.zeros(3))
        assert fwAD.unpack_dual(dual.long()).tangent is None
        out = dual * 3
    # after the level, the tangents are gone
    assert fwAD.unpack_dual(out).tangent is None
    assert fwAD.unpack_dual(out).primal is out


def test_several_duals_add_their_contributions():
    a, b = torch.randn(4, dtype=torch.float64), torch.randn(4, dtype=torch.float64)
    va, vb = torch.randn(4, dtype=torch.float64), torch.randn(4, dtype=torch.float64)
    _, tangent = _jvp(lambda a, b: a * b, [a, b], [va, vb])
    torch.testing.assert_close(tangent, va * b + a * vb)


def test_tangent_is_differentiable_backward():
    x = torch.randn(3, dtype=torch.float64, requires_grad=True)
    v = torch.randn(3, dtype=torch.float64, requires_grad=True)
    with fwAD.dual_level():
        dual = fwAD.make_dual(x, v)
        primal, tangent = fwAD.unpack_dual(dual**2)
    torch.testing.assert_close(tangent, 2 * x * v)
    assert primal.requires_grad and tangent.requires_grad
    gx, gv = torch.autograd.grad(tangent.sum(), (x, v))
    torch.testing.assert_close(gx, 2 * v.detach())
    torch.testing.assert_close(gv, 2 * x.detach())


def test_primal_of_a_result_does_not_require_grad():
    with fwAD.dual_level():
        dual = fwAD.make_dual(torch.randn(3), torch.randn(3))
        primal, _ = fwAD.unpack_dual(dual.exp())
    assert not primal.requires_grad
    primal.numpy()


def test_complex_holomorphic_tangent():
    z = torch.randn(4, dtype=torch.complex128)
    v = torch.randn(4, dtype=torch.complex128)
    _, tangent = _jvp(lambda z: z * z * z, [z], [v])
    torch.testing.assert_close(tangent, 3 * z * z * v)


def test_outer_no_grad_does_not_stop_forward_ad():
    x = torch.randn(5, dtype=torch.float64)
    v = torch.randn(5, dtype=torch.float64)
    with torch.no_grad():
        _, tangent = _jvp(lambda x: x.cos(), [x], [v])
    torch.testing.assert_close(tangent, -x.sin() * v)


def test_decorator_and_levels():
    @fwAD.dual_level()
    def jvp_of_square(x, v):
        return fwAD.unpack_dual(fwAD.make_dual(x, v) ** 2).tangent

    x, v = torch.randn(3), torch.randn(3)
    torch.testing.assert_close(jvp_of_square(x, v), 2 * x * v)
    level = fwAD.enter_dual_level()
    try:
        assert level == 0
        with pytest.raises(RuntimeError, match="Nested forward mode AD is not supported"):
            fwAD.enter_dual_level()
    finally:
        fwAD.exit_dual_level()
    with pytest.raises(RuntimeError, match="no level exists"):
        fwAD.make_dual(x, v)
    assert fwAD.unpack_dual(x).tangent is None


def test_make_dual_errors():
    with fwAD.dual_level():
        with pytest.raises(
            RuntimeError, match=r"Tensor is of size \[3\] while the given forward gradient is of size \[2\]"
        ):
            fwAD.make_dual(torch.randn(3), torch.randn(2))
        with pytest.raises(ValueError, match="Expected primal to be floating point or complex, but got: torch.int64"):
            fwAD.make_dual(torch.arange(3), torch.randn(3))
        with pytest.raises(ValueError, match="Expected tangent to be floating point or complex, but got: torch.int64"):
            fwAD.make_dual(torch.randn(3), torch.arange(3))


def test_outer_no_grad_keeps_results_out_of_the_callers_graph():
    w = torch.ones(3, requires_grad=True)
    with torch.no_grad(), fwAD.dual_level():
        primal, tangent = fwAD.unpack_dual(fwAD.make_dual(torch.ones(3), torch.full((3,), 2.0)) * w)
    assert not primal.requires_grad and not tangent.requires_grad
    torch.testing.assert_close(tangent, torch.full((3,), 2.0))


def test_exit_without_a_level_raises():
    with pytest.raises(RuntimeError, match="Dual level must be a positive number"):
        fwAD.exit_dual_level()
