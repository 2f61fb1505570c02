"""torch.autograd.functional: vjp, jvp, jacobian, hessian, vhp and hvp against analytic derivatives and
float64 finite differences, their consistency with each other, the structure of their results (tuples,
nested tuples), create_graph, strict mode, vectorize / strategy, and upstream's errors.

Runs against upstream PyTorch too (nox -s tests-reference), so it encodes PyTorch's behaviour.
"""

from __future__ import annotations

import os
import re

import pytest

import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp

F64 = torch.float64


def rand(*shape, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.rand(*shape, generator=g, dtype=F64) + 0.5


def close(actual, expected, atol=1e-10, rtol=1e-7):
    torch.testing.assert_close(actual, expected, atol=atol, rtol=rtol)


def fd_jacobian(func, inputs, out_index=0, eps=1e-6):
    """Per input: the central-difference Jacobian of output `out_index`, shaped out.shape + input.shape."""
    inputs = tuple(t.detach().clone() for t in inputs)

    def output():
        outs = func(*inputs)
        return (outs if isinstance(outs, tuple) else (outs,))[out_index]

    out_shape = output().shape
    jacs = []
    for x in inputs:
        flat = x.view(-1)
        cols = []
        for k in range(flat.numel()):
            orig = flat[k].item()
            flat[k] = orig + eps
            plus = output().clone()
            flat[k] = orig - eps
            minus = output().clone()
            flat[k] = orig
            cols.append(((plus - minus) / (2 * eps)).reshape(-1))
        jacs.append(torch.stack(cols, dim=1).reshape(tuple(out_shape) + tuple(x.shape)))
    return jacs


def matrix(jac, out_numel, in_numel):
    return jac.reshape(out_numel, in_numel)


def cubic(x):
    """A scalar function with a full, symmetric Hessian."""
    return (x**3).sum() + x.prod() * x.sum()


# upstream's messages
INDEPENDENT = "The output of the user-provided function is independent of input {}. This is not allowed in strict mode."
CONSTANT_JACOBIAN = (
    "The jacobian of the user-provided function is independent of input {}. This is not allowed in strict mode "
    "when create_graph=True."
)
LINEAR_IN_HESSIAN = (
    "While computing the hessian, found that the jacobian of the user-provided function with respect to input {} "
    "is independent of the input."
)
V_NONE_OUTPUT = (
    "The vector v can only be None if the user-provided function returns a single Tensor with a single element."
)
V_NONE_INPUT = (
    "The vector v can only be None if the input to the user-provided function is a single Tensor with a single element."
)
NOT_A_TENSOR = (
    "The inputs given to jacobian must be either a Tensor or a tuple of Tensors but the given inputs has type "
    "<class 'list'>."
)


def raises(exc, text):
    """pytest.raises matching `text` literally."""
    return pytest.raises(exc, match=re.escape(text))


# ---- jacobian -----------------------------------------------------------------------------------


def test_jacobian_of_square_is_diag_2x():
    x = rand(4)
    close(jacobian(lambda t: t**2, x), torch.diag(2 * x))


def test_jacobian_of_multidim_input_and_output_has_concatenated_shape():
    x = rand(2, 3)
    jac = jacobian(lambda t: t.exp().sum(dim=1), x)
    assert jac.shape == (2, 2, 3)
    expected = torch.zeros(2, 2, 3, dtype=F64)
    expected[0, 0] = x[0].exp()
    expected[1, 1] = x[1].exp()
    close(jac, expected)


@pytest.mark.parametrize(
    "func",
    [
        lambda t: t.sin(),
        lambda t: t @ torch.arange(6, dtype=F64).reshape(3, 2).sin(),
        lambda t: (t @ t.t()).tanh(),
    ],
    ids=["sin", "matmul_const", "matmul_self"],
)
def test_jacobian_matches_finite_differences(func):
    x = rand(2, 3)
    close(jacobian(func, x), fd_jacobian(func, (x,))[0], atol=1e-6, rtol=1e-5)


def test_jacobian_of_tuple_inputs_and_outputs_is_a_tuple_of_tuples():
    def func(a, b):
        return a @ b, (a.sin() * 2).sum(), b.exp()

    a, b = rand(2, 3), rand(3, 4, seed=1)
    jac = jacobian(func, (a, b))
    assert isinstance(jac, tuple) and len(jac) == 3
    outs = func(a, b)
    for i, (row, out) in enumerate(zip(jac, outs)):
        assert isinstance(row, tuple) and len(row) == 2
        expected = fd_jacobian(func, (a, b), out_index=i)
        for j, (block, inp) in enumerate(zip(row, (a, b))):
            assert block.shape == out.shape + inp.shape
            close(block, expected[j], atol=1e-6, rtol=1e-5)
    # b.exp() does not depend on a: zeros
    assert torch.equal(jac[2][0], torch.zeros(3, 4, 2, 3, dtype=F64))


def test_jacobian_structure_follows_the_tuples_given():
    x, y = rand(3), rand(2, seed=1)
    assert isinstance(jacobian(lambda t: t * 2, x), torch.Tensor)
    one_in = jacobian(lambda t: t * 2, (x,))
    assert isinstance(one_in, tuple) and len(one_in) == 1 and one_in[0].shape == (3, 3)
    two_out = jacobian(lambda t: (t * 2, t.sum()), x)
    assert isinstance(two_out, tuple) and [j.shape for j in two_out] == [(3, 3), (3,)]
    two_in = jacobian(lambda a, b: a.sum() * b, (x, y))
    assert isinstance(two_in, tuple) and [j.shape for j in two_in] == [(2, 3), (2, 2)]
    nested = jacobian(lambda t: (t * 2,), (x,))
    assert isinstance(nested[0], tuple) and nested[0][0].shape == (3, 3)


def test_jacobian_zeros_for_independent_inputs_and_strict_error():
    x, y = rand(3), rand(2, seed=1)
    jac = jacobian(lambda a, b: a * 2, (x, y))
    close(jac[0], 2 * torch.eye(3, dtype=F64))
    assert torch.equal(jac[1], torch.zeros(3, 2, dtype=F64))
    with raises(RuntimeError, "Output 0 of the user-provided function is independent of input 1"):
        jacobian(lambda a, b: a * 2, (x, y), strict=True)


@pytest.mark.skipif("TORCH_REFERENCE" in os.environ, reason="upstream's torch.stack fails on the empty list of rows")
def test_jacobian_of_an_empty_output_is_empty():
    assert torch.equal(jacobian(lambda t: t[:0] * 2, rand(3)), torch.zeros(0, 3, dtype=F64))


def test_the_module_is_reachable_from_torch():
    assert torch.autograd.functional.jacobian is jacobian


def test_jacobian_of_a_constant_output():
    x = rand(3)
    assert torch.equal(jacobian(lambda t: torch.ones(2, dtype=F64), x), torch.zeros(2, 3, dtype=F64))
    with raises(RuntimeError, "Output 0 of the user-provided function does not require gradients"):
        jacobian(lambda t: torch.ones(2, dtype=F64), x, strict=True)


def test_jacobian_treats_captured_tensors_as_constants():
    x = rand(3).requires_grad_()
    # the function captures x itself: only the argument is differentiated
    close(jacobian(lambda t: t * x, x), torch.diag(x.detach()))


def test_jacobian_follows_input_dtype_and_works_under_no_grad():
    x = rand(3).float()
    with torch.no_grad():
        jac = jacobian(lambda t: t.sin(), x)
    assert jac.dtype == torch.float32 and not jac.requires_grad
    close(jac, torch.diag(x.cos()), atol=1e-6, rtol=1e-5)


def test_jacobian_create_graph_gives_second_derivatives():
    x = rand(3).requires_grad_()
    jac = jacobian(lambda t: t**3, x, create_graph=True)
    assert jac.requires_grad
    (g,) = torch.autograd.grad(jac.sum(), x)
    close(g, 6 * x.detach())
    assert not jacobian(lambda t: t**3, x).requires_grad


def test_jacobian_strict_create_graph_refuses_constant_jacobian():
    x = rand(3)
    with raises(RuntimeError, CONSTANT_JACOBIAN.format(0)):
        jacobian(lambda t: 2 * t, x, create_graph=True, strict=True)


def test_jacobian_vectorize_matches_loop():
    def func(a, b):
        return (a @ b).sin(), a.sum() * 3

    a, b = rand(2, 3), rand(3, 2, seed=1)
    loop = jacobian(func, (a, b))
    vec = jacobian(func, (a, b), vectorize=True)
    for row_l, row_v in zip(loop, vec):
        for l_, v_ in zip(row_l, row_v):
            close(v_, l_)
    with raises(RuntimeError, "`strict=True` and `vectorized=True` are not supported together"):
        jacobian(func, (a, b), vectorize=True, strict=True)


def test_jacobian_forward_mode_strategy():
    x = rand(3)
    close(jacobian(lambda t: t.exp(), x, vectorize=True, strategy="forward-mode"), torch.diag(x.exp()))
    with raises(NotImplementedError, "only implemented for `vectorize=True`"):
        jacobian(lambda t: t.exp(), x, strategy="forward-mode")
    with raises(NotImplementedError, '`create_graph=True` and `strategy="forward-mode"` are not'):
        jacobian(lambda t: t.exp(), x, create_graph=True, vectorize=True, strategy="forward-mode")
    with raises(RuntimeError, '`strict=True` and `strategy="forward-mode"` are not supported'):
        jacobian(lambda t: t.exp(), x, strict=True, vectorize=True, strategy="forward-mode")
    with raises(AssertionError, "Expected strategy to be either"):
        jacobian(lambda t: t.exp(), x, strategy="sideways")


def test_non_tensor_inputs_and_outputs_raise_type_errors():
    x = rand(3)
    with raises(TypeError, NOT_A_TENSOR):
        jacobian(lambda t: t, [x])
    with raises(TypeError, "but the value at index 1 has type <class 'int'>"):
        vjp(lambda a, b: a, (x, 3), x)
    with raises(TypeError, "The outputs of the user-provided function given to jvp must be"):
        jvp(lambda t: 3.0, x, x)


# ---- vjp / jvp ------------------------------------------------------------------------------------


def tuple_func(a, b):
    return (a * b.sum()).cos(), a.exp() @ b.reshape(3, 1)


def basis(shape, k):
    e = torch.zeros(shape, dtype=F64)
    e.view(-1)[k] = 1
    return e


def test_vjp_and_jvp_with_basis_vectors_give_jacobian_rows_and_columns():
    x = rand(2, 3)
    func = lambda t: (t @ t.t()).sin()  # noqa: E731
    jac = matrix(jacobian(func, x), 4, 6)
    for i in range(4):
        out, row = vjp(func, x, basis((2, 2), i))
        close(out, func(x))
        close(row, jac[i].reshape(2, 3))
    for j in range(6):
        out, col = jvp(func, x, basis((2, 3), j))
        close(out, func(x))
        close(col, jac[:, j].reshape(2, 2))


def test_vjp_and_jvp_on_tuples():
    a, b = rand(2, 3), rand(3, seed=1)
    outs = tuple_func(a, b)
    jac = jacobian(tuple_func, (a, b))
    va = (rand(2, 3, seed=2), rand(2, 1, seed=3))
    out, res = vjp(tuple_func, (a, b), va)
    assert isinstance(out, tuple) and isinstance(res, tuple) and [r.shape for r in res] == [(2, 3), (3,)]
    for j, inp in enumerate((a, b)):
        expected = sum(v.reshape(-1) @ matrix(jac[i][j], outs[i].numel(), inp.numel()) for i, v in enumerate(va))
        close(res[j].reshape(-1), expected)
    vb = (rand(2, 3, seed=4), rand(3, seed=5))
    out, res = jvp(tuple_func, (a, b), vb)
    assert isinstance(res, tuple) and [r.shape for r in res] == [o.shape for o in outs]
    for i, o in enumerate(outs):
        expected = sum(matrix(jac[i][j], o.numel(), v.numel()) @ v.reshape(-1) for j, v in enumerate(vb))
        close(res[i].reshape(-1), expected)


def test_vjp_jvp_default_v_for_single_elements():
    x = rand(3)
    out, g = vjp(lambda t: (t**2).sum(), x)
    close(out, (x**2).sum())
    close(g, 2 * x)
    s = rand(1)
    out, d = jvp(lambda t: t.exp() * torch.ones(3, dtype=F64), s)
    close(d, s.exp().expand(3))
    with raises(RuntimeError, V_NONE_OUTPUT):
        vjp(lambda t: t**2, x)
    with raises(RuntimeError, V_NONE_INPUT):
        jvp(lambda t: t.sum(), x)


def test_vjp_jvp_zeros_for_independent_parts():
    x, y = rand(3), rand(2, seed=1)
    _, g = vjp(lambda a, b: a * 2, (x, y), torch.ones(3, dtype=F64))
    assert torch.equal(g[1], torch.zeros(2, dtype=F64))
    _, d = jvp(lambda t: (t * 2, torch.ones(2, dtype=F64)), x, torch.ones(3, dtype=F64))
    close(d[0], 2 * torch.ones(3, dtype=F64))
    assert torch.equal(d[1], torch.zeros(2, dtype=F64))


def test_vjp_jvp_strict_errors():
    x, y = rand(3), rand(2, seed=1)
    v = torch.ones(3, dtype=F64)
    with raises(RuntimeError, INDEPENDENT.format(1)):
        vjp(lambda a, b: a * 2, (x, y), v, strict=True)
    with raises(RuntimeError, INDEPENDENT.format(1)):
        jvp(lambda a, b: a * 2, (x, y), (v, torch.ones(2, dtype=F64)), strict=True)
    with raises(RuntimeError, "Output 0 of the user-provided function does not require gradients"):
        vjp(lambda t: torch.zeros(3, dtype=F64), x, v, strict=True)
    with raises(RuntimeError, CONSTANT_JACOBIAN.format(0)):
        vjp(lambda t: t * 2, x, v, create_graph=True, strict=True)


def test_bad_v_shapes_raise_upstream_errors():
    x, y = rand(3), rand(2, seed=1)
    with raises(RuntimeError, "v has invalid size: should be torch.Size([3]) but got torch.Size([2])."):
        vjp(lambda t: t * 2, x, torch.ones(2, dtype=F64))
    with raises(RuntimeError, "Entry 1 in v has invalid size: should be torch.Size([2]) but got torch.Size([3])."):
        jvp(lambda a, b: a * b.sum(), (x, y), (torch.ones(3, dtype=F64), torch.ones(3, dtype=F64)))
    with raises(RuntimeError, "v is a tuple of invalid length: should be 2 but got 1."):
        vhp(lambda a, b: (a * b.sum()).sum(), (x, y), (torch.ones(3, dtype=F64),))
    with raises(RuntimeError, "The given v should contain a single Tensor."):
        hvp(cubic, x, (torch.ones(3, dtype=F64), torch.ones(3, dtype=F64)))


def test_create_graph_makes_vjp_jvp_differentiable():
    x = rand(3).requires_grad_()
    out, g = vjp(lambda t: (t**3).sum(), x, create_graph=True)
    assert out.requires_grad and g.requires_grad
    (gg,) = torch.autograd.grad(g.sum(), x)
    close(gg, 6 * x.detach())
    v = torch.ones(3, dtype=F64)
    out, d = jvp(lambda t: t.sin(), x, v, create_graph=True)
    assert d.requires_grad
    (dd,) = torch.autograd.grad(d.sum(), x)
    close(dd, -x.detach().sin())
    out, d = jvp(lambda t: t.sin(), x, v)
    assert not out.requires_grad and not d.requires_grad


# ---- hessian / vhp / hvp -------------------------------------------------------------------------


def test_hessian_of_sum_of_cubes_is_diag_6x():
    x = rand(4)
    close(hessian(lambda t: (t**3).sum(), x), torch.diag(6 * x))


def test_hessian_of_multidim_input():
    x = rand(2, 2)
    h = hessian(lambda t: t.pow(3).sum(), x)
    assert h.shape == (2, 2, 2, 2)
    close(h.reshape(4, 4), torch.diag(6 * x.reshape(-1)))


def test_hessian_matches_finite_differences_of_gradient():
    x = rand(4)

    def grad_of(t):
        t = t.detach().requires_grad_()
        return torch.autograd.grad(cubic(t), t)[0]

    h = hessian(cubic, x)
    close(h, fd_jacobian(grad_of, (x,))[0], atol=1e-6, rtol=1e-5)
    close(h, h.t())


def test_hessian_of_tuple_inputs():
    x, y = rand(2), rand(2, seed=1)
    h = hessian(lambda a, b: (2 * a.pow(2) + 3 * b.pow(2)).sum(), (x, y))
    assert isinstance(h, tuple) and all(isinstance(r, tuple) and len(r) == 2 for r in h)
    close(h[0][0], 4 * torch.eye(2, dtype=F64))
    close(h[1][1], 6 * torch.eye(2, dtype=F64))
    assert torch.equal(h[0][1], torch.zeros(2, 2, dtype=F64))
    mixed = hessian(lambda a, b: (a.unsqueeze(1) * b).sum() * 1.0 + (a**2).sum(), (x, rand(3, seed=2)))
    assert [[blk.shape for blk in row] for row in mixed] == [[(2, 2), (2, 3)], [(3, 2), (3, 3)]]
    close(mixed[0][1], torch.ones(2, 3, dtype=F64))
    close(mixed[1][0], torch.ones(3, 2, dtype=F64))


def test_hessian_vectorize_and_forward_mode_match():
    x = rand(3)
    h = hessian(cubic, x)
    close(hessian(cubic, x, vectorize=True), h)
    close(hessian(cubic, x, vectorize=True, outer_jacobian_strategy="forward-mode"), h)
    with raises(NotImplementedError, "only implemented for `vectorize=True`"):
        hessian(cubic, x, outer_jacobian_strategy="forward-mode")
    with raises(AssertionError, "Expected strategy to be either"):
        hessian(cubic, x, outer_jacobian_strategy="sideways")


def test_hessian_create_graph_and_strict():
    x = rand(3).requires_grad_()
    h = hessian(lambda t: (t**3).sum(), x, create_graph=True)
    assert h.requires_grad
    (g,) = torch.autograd.grad(h.sum(), x)
    close(g, 6 * torch.ones(3, dtype=F64))
    with raises(RuntimeError, LINEAR_IN_HESSIAN.format(0)):
        hessian(lambda t: (2 * t).sum(), rand(3), strict=True)
    assert torch.equal(hessian(lambda t: (2 * t).sum(), rand(3)), torch.zeros(3, 3, dtype=F64))


def test_hessian_family_refuses_non_scalar_functions():
    x = rand(3)
    v = torch.ones(3, dtype=F64)
    with raises(RuntimeError, "The function given to hessian should return a single Tensor"):
        hessian(lambda t: (t.sum(), t.sum()), x)
    with raises(RuntimeError, "The Tensor returned by the function given to hessian should contain"):
        hessian(lambda t: t**2, x)
    with raises(RuntimeError, "The function given to vhp should return a single Tensor"):
        vhp(lambda t: (t.sum(),), x, v)
    with raises(RuntimeError, "The Tensor returned by the function given to hvp should contain"):
        hvp(lambda t: t**2, x, v)


def test_hvp_is_hessian_times_v_and_vhp_is_v_times_hessian():
    x = rand(4)
    h = hessian(cubic, x)
    v = rand(4, seed=3)
    out, hv = hvp(cubic, x, v)
    close(out, cubic(x))
    close(hv, h @ v)
    out, vh = vhp(cubic, x, v)
    close(vh, v @ h)
    close(vh, hv)  # the Hessian is symmetric


def test_hvp_vhp_on_tuple_inputs():
    def func(a, b):
        return (a.sin() * b.sum()).sum() + (b**3).sum()

    a, b = rand(2), rand(3, seed=1)
    h = hessian(func, (a, b))
    v = (rand(2, seed=2), rand(3, seed=3))
    _, hv = hvp(func, (a, b), v)
    _, vh = vhp(func, (a, b), v)
    assert isinstance(hv, tuple) and [t.shape for t in hv] == [(2,), (3,)]
    for i in range(2):
        close(hv[i], h[i][0] @ v[0] + h[i][1] @ v[1])
        close(vh[i], v[0] @ h[0][i] + v[1] @ h[1][i])


def test_hvp_vhp_zeros_defaults_and_strict():
    x, y = rand(3), rand(2, seed=1)
    ones = torch.ones(3, dtype=F64), torch.ones(2, dtype=F64)
    for fn in (hvp, vhp):
        _, res = fn(lambda a, b: (a**3).sum(), (x, y), ones)
        close(res[0], 6 * x)
        assert torch.equal(res[1], torch.zeros(2, dtype=F64))
        with raises(RuntimeError, INDEPENDENT.format(1)):
            fn(lambda a, b: (a**3).sum(), (x, y), ones, strict=True)
        with raises(RuntimeError, LINEAR_IN_HESSIAN.format(0)):
            fn(lambda t: (2 * t).sum(), x, torch.ones(3, dtype=F64), strict=True)
        s = rand(1)
        _, res = fn(lambda t: (t**3).sum(), s)
        close(res, 6 * s)


def test_hvp_vhp_strict_create_graph_refuse_constant_hessian():
    for fn in (hvp, vhp):
        with raises(RuntimeError, CONSTANT_JACOBIAN.format(0).replace("jacobian", "hessian")):
            fn(lambda t: (t * t).sum(), rand(3), torch.ones(3, dtype=F64), create_graph=True, strict=True)


def test_hvp_vhp_create_graph():
    x = rand(3).requires_grad_()
    v = torch.ones(3, dtype=F64)
    for fn in (hvp, vhp):
        out, res = fn(lambda t: (t**4).sum(), x, v, create_graph=True)
        assert out.requires_grad and res.requires_grad
        (g,) = torch.autograd.grad(res.sum(), x)
        close(g, 24 * x.detach())
        out, res = fn(lambda t: (t**4).sum(), x, v)
        assert not out.requires_grad and not res.requires_grad


def test_grad_with_batched_grad_outputs():
    # torch.autograd.grad(is_grads_batched=True): one vector-Jacobian product per row of grad_outputs
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = torch.tensor([1.0, 2.0], requires_grad=True)
    (gx,) = torch.autograd.grad(x * 2, x, torch.eye(3), is_grads_batched=True)
    assert torch.equal(gx, 2 * torch.eye(3))
    gx, gy = torch.autograd.grad((x**2).sum() * y, (x, y), torch.eye(2), is_grads_batched=True)
    assert torch.equal(gx, torch.stack([2 * x, 4 * x]).detach())
    assert torch.equal(gy, 14 * torch.eye(2))
