"""torch.func (functorch's transforms) and torch.nn.utils.stateless: grad/grad_and_value, vjp, jvp, jacrev,
jacfwd, hessian, linearize against float64 finite differences, torch.autograd.grad loops and
torch.autograd.functional; vmap's in_dims/out_dims/chunk_size/randomness; functional_call (restoring the
module's tensors, tied weights, strict mode); the transforms composed (per-sample gradients, jacrev of
jacrev, grad of grad); and upstream's errors.

Runs against upstream PyTorch too (TORCH_REFERENCE=1), so it encodes PyTorch's behaviour.
"""

from __future__ import annotations

import re
import warnings

import pytest

import torch
from torch import nn
from torch.func import (
    functional_call,
    functionalize,
    grad,
    grad_and_value,
    hessian,
    jacfwd,
    jacrev,
    jvp,
    linearize,
    replace_all_batch_norm_modules_,
    stack_module_state,
    vjp,
    vmap,
)

F64 = torch.float64


def rand(*shape, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.rand(*shape, generator=g, dtype=F64) + 0.5


def close(actual, expected, atol=1e-8, rtol=1e-6):
    torch.testing.assert_close(actual, expected, atol=atol, rtol=rtol)


def fd_jacobian(func, x, eps=1e-6):
    """Central-difference Jacobian of func (tensor -> tensor) at x, shaped out.shape + x.shape."""
    x = x.detach().clone()
    flat = x.view(-1)
    out_shape = func(x).shape
    cols = []
    for k in range(flat.numel()):
        orig = flat[k].item()
        flat[k] = orig + eps
        plus = func(x).clone()
        flat[k] = orig - eps
        minus = func(x).clone()
        flat[k] = orig
        cols.append(((plus - minus) / (2 * eps)).reshape(-1))
    return torch.stack(cols, dim=1).reshape(tuple(out_shape) + tuple(x.shape))


def f_vec(x):
    return torch.stack([x[0] * x[1].sin(), (x**2).sum(), x[2].exp() / x[0]])


def f_scalar(x):
    return (x.sin() * x.pow(3)).sum() + x[0] * x[1]


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 4)
        self.fc2 = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x)))


def mlp():
    torch.manual_seed(0)
    return MLP().double()


# ---- grad / grad_and_value ----


def test_grad_matches_analytic_and_autograd():
    x = rand(4)
    close(grad(lambda x: (x**3).sum())(x), 3 * x**2)
    xr = x.clone().requires_grad_()
    (expected,) = torch.autograd.grad(f_scalar(xr), xr)
    close(grad(f_scalar)(x), expected)


def test_grad_argnums_tuple_negative_and_kwargs():
    x, y = rand(3), rand(3, seed=1)

    def f(x, y, scale=1.0):
        return (scale * x * y.exp()).sum()

    gx, gy = grad(f, argnums=(0, 1))(x, y, scale=2.0)
    close(gx, 2 * y.exp())
    close(gy, 2 * x * y.exp())
    close(grad(f, argnums=-1)(x, y), x * y.exp())


def test_grad_and_value_and_has_aux():
    x = rand(3)
    g, v = grad_and_value(lambda x: (x**2).sum())(x)
    close(g, 2 * x)
    close(v, (x**2).sum())
    g, (v, aux) = grad_and_value(lambda x: ((x**2).sum(), {"double": 2 * x}), has_aux=True)(x)
    close(aux["double"], 2 * x)
    g, aux = grad(lambda x: ((x**2).sum(), x.mean()), has_aux=True)(x)
    close(g, 2 * x)
    close(aux, x.mean())
    assert not aux.requires_grad


def test_grad_pytree_inputs():
    params = {"w": rand(2, 3), "b": [rand(2, seed=1), (rand(2, seed=2),)]}
    x = rand(3, seed=3)

    def f(p, x):
        return ((p["w"] @ x + p["b"][0]) * p["b"][1][0]).sum()

    g = grad(f)(params, x)
    assert set(g) == {"w", "b"} and isinstance(g["b"], list) and isinstance(g["b"][1], tuple)
    close(g["w"], torch.outer(params["b"][1][0], x))
    close(g["b"][0], params["b"][1][0])
    close(g["b"][1][0], params["w"] @ x + params["b"][0])


def test_grad_results_do_not_leak_into_outer_autograd():
    x = rand(3)
    g = grad(lambda x: (x**3).sum())(x)
    assert not g.requires_grad and g.grad_fn is None
    _, v = grad_and_value(lambda x: (x**3).sum())(x)
    assert not v.requires_grad
    assert not x.requires_grad


def test_grad_is_differentiable_by_outer_autograd():
    # an input that requires grad, and a closed-over tensor that requires grad
    x = rand(3).requires_grad_()
    g = grad(lambda x: (x**3).sum())(x)
    (gg,) = torch.autograd.grad(g.sum(), x)
    close(gg, 6 * x.detach())
    w = rand(3, seed=1).requires_grad_()
    g = grad(lambda x: (w * x**2).sum())(rand(3, seed=2))
    g.sum().backward()
    close(w.grad, 2 * rand(3, seed=2))
    with torch.no_grad():
        assert not grad(lambda x: (w * x**2).sum())(x.detach()).requires_grad


def test_grad_respects_no_grad_inside():
    def f(x):
        with torch.no_grad():
            c = x**2
        return (x * c).sum()

    x = rand(3)
    close(grad(f)(x), x**2)  # c is a constant
    with torch.no_grad():  # an outer no_grad does not switch the transform off
        close(grad(lambda x: (x**2).sum())(x), 2 * x)


def test_grad_of_unused_input_is_zero():
    x, y = rand(3), rand(2)
    gx, gy = grad(lambda x, y: x.sum() * 2, argnums=(0, 1))(x, y)
    close(gx, torch.full_like(x, 2.0))
    close(gy, torch.zeros_like(y))
    close(grad(lambda x: torch.tensor(1.0, dtype=F64))(x), torch.zeros_like(x))


def test_grad_errors():
    x = rand(3)
    msg = (
        "grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor with 1 dims. "
        "Maybe you wanted to use the vjp or jacrev APIs instead?"
    )
    with pytest.raises(RuntimeError, match=re.escape(msg)):
        grad(lambda x: x * 2)(x)
    with pytest.raises(RuntimeError, match="Expected f\\(\\*args\\) to return a Tensor, got <class 'float'>"):
        grad(lambda x: 1.0)(x)
    with pytest.raises(RuntimeError, match="output of function f should be a tuple: \\(output, aux\\)"):
        grad(lambda x: x.sum(), has_aux=True)(x)
    with pytest.raises(ValueError, match="Thing passed to transform API must be Tensor, got <class 'float'>"):
        grad(lambda x: x)(3.0)
    with pytest.raises(RuntimeError, match="only Tensors of floating point"):
        grad(lambda x: x.sum())(torch.ones(3, dtype=torch.long))
    with pytest.raises(RuntimeError, match=re.escape("argnums elements must be unique, got (0, 0)")):
        grad(lambda x: x.sum(), argnums=(0, 0))(x)
    with pytest.raises(RuntimeError, match="Got argnum=2, but only 1 positional inputs"):
        grad(lambda x: x.sum(), argnums=2)(x)
    with pytest.raises(RuntimeError, match=re.escape("argnums must be int or Tuple[int, ...], got: <class 'list'>")):
        grad(lambda x: x.sum(), argnums=[0])(x)
    with pytest.raises(RuntimeError, match="argnums must be non-empty"):
        grad(lambda x: x.sum(), argnums=())(x)


# ---- compositions ----


def test_grad_of_grad_and_jacrev_of_jacrev():
    x = rand(3)
    close(grad(lambda x: grad(lambda y: (y**3).sum())(x).sum())(x), 6 * x)
    close(grad(grad(lambda t: t.sin() * t**2))(x[0]), -x[0].sin() * x[0] ** 2 + 4 * x[0] * x[0].cos() + 2 * x[0].sin())
    expected = torch.autograd.functional.hessian(f_scalar, x)
    close(jacrev(jacrev(f_scalar))(x), expected)
    close(jacfwd(jacrev(f_scalar))(x), expected)


def test_grad_through_closure_of_outer_input():
    # the inner grad is w.r.t. y, but its result depends on the outer x
    x0, y0 = rand(3), rand(3, seed=1)
    out = grad(lambda x: grad(lambda y: (x**2 * y).sum())(y0).sum())(x0)
    close(out, 2 * x0)


def test_per_sample_gradients_of_mlp():
    model = mlp()
    params = {k: v.detach() for k, v in model.named_parameters()}
    x, y = rand(5, 3), rand(5, 2, seed=1)

    def loss(p, xi, yi):
        out = functional_call(model, p, (xi.unsqueeze(0),))
        return ((out - yi.unsqueeze(0)) ** 2).sum()

    per_sample = vmap(grad(loss), in_dims=(None, 0, 0))(params, x, y)
    assert set(per_sample) == set(params)
    for i in range(5):
        model.zero_grad()
        out = model(x[i : i + 1])
        expected = torch.autograd.grad(((out - y[i : i + 1]) ** 2).sum(), list(model.parameters()))
        for (name, _), e in zip(model.named_parameters(), expected):
            assert per_sample[name].shape == (5,) + e.shape
            close(per_sample[name][i], e)
    assert all(not g.requires_grad for g in per_sample.values())
    # the module's own parameters are back
    assert all(isinstance(p, nn.Parameter) for p in model.parameters())


def test_vmap_of_jacrev_and_functional_call_in_grad():
    xs = rand(4, 3)
    jac = vmap(jacrev(f_vec))(xs)
    for i in range(4):
        close(jac[i], torch.autograd.functional.jacobian(f_vec, xs[i]))
    model = mlp()
    params = dict(model.named_parameters())
    x = rand(2, 3)
    g = grad(lambda p: functional_call(model, p, x).pow(2).sum())(params)
    model.zero_grad()
    model(x).pow(2).sum().backward()
    for name, p in model.named_parameters():
        close(g[name], p.grad)


def test_grad_of_vmap():
    x = rand(4, 3)
    close(grad(lambda x: vmap(lambda r: (r**2).sum())(x).sum())(x), 2 * x)


# ---- vjp / jvp / linearize ----


def test_vjp():
    x, y = rand(3), rand(3, seed=1)
    out, vjp_fn = vjp(lambda x, y: x * y.sin(), x, y)
    close(out, x * y.sin())
    v = rand(3, seed=2)
    gx, gy = vjp_fn(v)
    close(gx, v * y.sin())
    close(gy, v * x * y.cos())
    gx2, _ = vjp_fn(2 * v)  # the graph is kept for further calls
    close(gx2, 2 * v * y.sin())
    assert not out.requires_grad and not gx.requires_grad


def test_vjp_pytree_has_aux_and_errors():
    x = rand(2)
    out, vjp_fn, aux = vjp(lambda d: ({"a": d["p"] * 2, "b": (d["p"] ** 2,)}, [d["p"].sum()]), {"p": x}, has_aux=True)
    close(aux[0], x.sum())
    assert not aux[0].requires_grad
    (g,) = vjp_fn({"a": torch.ones(2, dtype=F64), "b": (torch.ones(2, dtype=F64),)})
    close(g["p"], 2 + 2 * x)
    with pytest.raises(RuntimeError, match="Expected pytree structure of cotangents to be the same"):
        vjp_fn(torch.ones(2, dtype=F64))
    with pytest.raises(RuntimeError, match="Expected tensors, got unsupported type <class 'str'>"):
        vjp(lambda x: (x, "aux"), x, has_aux=True)
    with pytest.raises(RuntimeError, match="expected f\\(\\*primals\\) to return only tensors"):
        vjp(lambda x: (x, 1), x)
    with pytest.raises(RuntimeError, match="All outputs of f must be floating-point or complex Tensors"):
        vjp(lambda x: x.long(), x)


def test_jvp_matches_jacobian_times_tangent():
    x, t = rand(3), rand(3, seed=1)
    out, jv = jvp(f_vec, (x,), (t,))
    close(out, f_vec(x))
    close(jv, fd_jacobian(f_vec, x) @ t, atol=1e-6)
    close(jv, torch.autograd.functional.jacobian(f_vec, x) @ t)
    assert not jv.requires_grad


def test_jvp_several_inputs_outputs_and_aux():
    x, y = rand(3), rand(3, seed=1)
    tx, ty = rand(3, seed=2), rand(3, seed=3)
    (o1, o2), (j1, j2), aux = jvp(lambda x, y: ((x * y, (x**2).sum()), y.mean()), (x, y), (tx, ty), has_aux=True)
    close(j1, tx * y + x * ty)
    close(j2, (2 * x * tx).sum())
    close(aux, y.mean())
    # an output that does not depend on the inputs has a zero tangent, unless strict
    _, z = jvp(lambda x: torch.ones(2, dtype=F64), (x,), (tx,))
    close(z, torch.zeros(2, dtype=F64))
    msg = "jvp(f, primals, tangents, strict=True): The output of f is independent of the inputs."
    with pytest.raises(RuntimeError, match=re.escape(msg)):
        jvp(lambda x: torch.ones(2, dtype=F64), (x,), (tx,), strict=True)


def test_jvp_errors():
    x = rand(3)
    with pytest.raises(RuntimeError, match="Expected primals to be a tuple"):
        jvp(lambda x: x, x, (x,))
    with pytest.raises(RuntimeError, match="Expected primals and tangents to have the same python structure"):
        jvp(lambda x, y: x, (x, x), (x,))
    with pytest.raises(RuntimeError, match="forward gradient that has a different size"):
        jvp(lambda x: x, (x,), (rand(4),))


def test_jvp_composes_with_grad():
    # d/dx of the directional derivative <grad f(x), t> is H t
    x, t = rand(3), rand(3, seed=1)
    hv = grad(lambda x: jvp(f_scalar, (x,), (t,))[1])(x)
    close(hv, torch.autograd.functional.hessian(f_scalar, x) @ t)


def test_linearize():
    x = rand(3)
    out, jvp_fn = linearize(f_vec, x)
    close(out, f_vec(x))
    J = torch.autograd.functional.jacobian(f_vec, x)
    for seed in (1, 2):
        t = rand(3, seed=seed)
        close(jvp_fn(t), J @ t)
    with pytest.raises(RuntimeError, match="tangent:0 with shape"):
        jvp_fn(rand(4))


# ---- Jacobians and Hessians ----


@pytest.mark.parametrize("jac", [jacrev, jacfwd])
def test_jacobian_against_finite_differences(jac):
    x = rand(3)
    j = jac(f_vec)(x)
    close(j, fd_jacobian(f_vec, x), atol=1e-6, rtol=1e-6)
    close(j, torch.autograd.functional.jacobian(f_vec, x))


@pytest.mark.parametrize("jac", [jacrev, jacfwd])
def test_jacobian_shapes_argnums_and_pytrees(jac):
    x, y = rand(2, 3), rand(3, seed=1)

    def f(x, y):
        return {"prod": x * y, "sum": (x.sum(), y.exp())}

    out = jac(f, argnums=(0, 1))(x, y)
    jx, jy = out["prod"]
    assert jx.shape == (2, 3, 2, 3) and jy.shape == (2, 3, 3)
    ex, ey = torch.autograd.functional.jacobian(lambda x, y: x * y, (x, y))
    close(jx, ex)
    close(jy, ey)
    assert out["sum"][0][0].shape == (2, 3) and out["sum"][1][1].shape == (3, 3)
    close(out["sum"][1][1], torch.diag(y.exp()))
    close(out["sum"][1][0], torch.zeros(3, 2, 3, dtype=F64))
    single = jac(lambda x, y: x * y, argnums=1)(x, y)
    close(single, ey)


@pytest.mark.parametrize("jac", [jacrev, jacfwd])
def test_jacobian_has_aux(jac):
    x = rand(3)
    j, aux = jac(lambda x: (x.sin(), x.sum()), has_aux=True)(x)
    close(j, torch.diag(x.cos()))
    close(aux, x.sum())


def test_jacrev_chunk_size_and_jacfwd_randomness():
    x = rand(4)
    close(jacrev(f_vec, chunk_size=1)(x[:3]), torch.autograd.functional.jacobian(f_vec, x[:3]))
    close(jacrev(lambda x: x**2, chunk_size=3)(x), torch.diag(2 * x))
    with pytest.raises(ValueError, match="jacrev: `chunk_size` should be greater than 0."):
        jacrev(f_vec, chunk_size=0)
    with pytest.raises(RuntimeError, match="vmap: called random operation while in randomness error mode"):
        jacfwd(lambda x: x * torch.rand(4, dtype=F64))(x)
    noise = jacfwd(lambda x: x * torch.rand((), dtype=F64), randomness="same")(x)
    assert noise.shape == (4, 4)


def test_hessian():
    x = rand(3)
    h = hessian(f_scalar)(x)
    close(h, torch.autograd.functional.hessian(f_scalar, x))
    close(h, fd_jacobian(lambda t: jacrev(f_scalar)(t), x), atol=1e-6, rtol=1e-6)
    close(h, h.T)
    hx, hy = hessian(lambda x, y: (x**2 * y).sum(), argnums=(0, 1))(x, rand(3, seed=1))[0]
    assert hx.shape == hy.shape == (3, 3)
    close(hy, torch.diag(2 * x))


def test_hessian_of_mlp_loss_against_autograd_functional():
    model = mlp()
    x = rand(2, 3)
    w = model.fc2.weight.detach()

    def loss(w):
        return functional_call(model, {"fc2.weight": w}, (x,)).tanh().sum()

    close(hessian(loss)(w), torch.autograd.functional.hessian(loss, w))


# ---- vmap ----


def test_vmap_in_dims_out_dims_and_none():
    x, y = rand(2, 3), rand(3, 4, seed=1)
    close(vmap(torch.mv, in_dims=(None, 1))(x, y), (x @ y).T)
    close(vmap(torch.mv, in_dims=(None, 1), out_dims=1)(x, y), x @ y)
    close(vmap(lambda a: a * 2, in_dims=-1, out_dims=-1)(x), x * 2)
    out = vmap(lambda a, b: (a + b, a.sum()), in_dims=(0, None), out_dims=(1, 0))(y, rand(4, seed=2))
    close(out[0], (y + rand(4, seed=2)).T)
    close(out[1], y.sum(1))
    # out_dims None: the output is the same for every entry, returned once
    c = torch.ones(2, dtype=F64)
    res, same = vmap(lambda a: (a * 2, c), out_dims=(0, None))(x)
    assert same is c or torch.equal(same, c)
    res, n = vmap(lambda a: (a, 1), out_dims=(0, None))(x)
    assert n == 1
    # an output independent of the input is broadcast along the mapped dim
    close(vmap(lambda a: c)(x), c.expand(2, 2))


def test_vmap_nested_pytrees_and_kwargs():
    d = {"a": rand(3, 2), "b": (rand(2, seed=1), rand(3, seed=2))}

    def f(d, scale=1.0):
        return {"r": scale * d["a"] * d["b"][0] + d["b"][1]}

    out = vmap(f, in_dims=({"a": 0, "b": (None, 0)},))(d, scale=3.0)
    close(out["r"], 3.0 * d["a"] * d["b"][0] + d["b"][1][:, None])
    nested = vmap(vmap(torch.dot))(rand(2, 3, 4), rand(2, 3, 4, seed=1))
    close(nested, (rand(2, 3, 4) * rand(2, 3, 4, seed=1)).sum(-1))
    outer = vmap(vmap(torch.mul, in_dims=(0, None)), in_dims=(None, 0))(rand(3), rand(2, seed=1))
    close(outer, torch.outer(rand(2, seed=1), rand(3)))


def test_vmap_chunk_size_and_empty_batch():
    x = rand(7, 3)
    for chunk in (1, 3, 7, 10):
        close(vmap(lambda r: r.cumsum(0), chunk_size=chunk, out_dims=1)(x), x.cumsum(1).T)
    with pytest.raises(ValueError, match=re.escape("vmap: chunk_size should be None or greater than 0. (got 0)")):
        vmap(lambda r: r, chunk_size=0)
    empty = vmap(lambda r: r.sum(0, keepdim=True) * 2)(torch.zeros(0, 3, dtype=F64))
    assert empty.shape == (0, 1)


def test_vmap_randomness():
    x = torch.zeros(4, 3)
    with pytest.raises(RuntimeError, match="vmap: called random operation while in randomness error mode"):
        vmap(lambda r: r + torch.rand(3))(x)
    torch.manual_seed(0)
    same = vmap(lambda r: r + torch.rand(3), randomness="same")(x)
    assert all(torch.equal(same[0], row) for row in same)
    torch.manual_seed(0)
    diff = vmap(lambda r: r + torch.rand(3), randomness="different")(x)
    assert diff.shape == (4, 3) and not torch.equal(diff[0], diff[1])
    dropped = vmap(lambda r: torch.nn.functional.dropout(r + 1, 0.5), randomness="different")(x)
    assert set(dropped.unique().tolist()) <= {0.0, 2.0}
    with pytest.raises(
        RuntimeError, match="Only allowed values for randomness are 'error', 'different', or 'same'. Got x"
    ):
        vmap(lambda r: r, randomness="x")


def test_vmap_errors():
    one = torch.ones(2)
    sizes = (
        "vmap: Expected all tensors to have the same size in the mapped dimension, "
        "got sizes [2, 3] for the mapped dimension"
    )
    with pytest.raises(ValueError, match=re.escape(sizes)):
        vmap(torch.add)(torch.ones(2), torch.ones(3))
    with pytest.raises(ValueError, match="vmap: Expected at least one Tensor to vmap over"):
        vmap(lambda a: a, in_dims=(None,))(one)
    with pytest.raises(ValueError, match="expected `in_dims` to be int or a \\(potentially nested\\) tuple"):
        vmap(lambda a: a, in_dims=[0])(one)
    with pytest.raises(ValueError, match="in_dims is not compatible with the structure of `inputs`"):
        vmap(lambda a, b: a, in_dims=(0,))(one, one)
    with pytest.raises(
        ValueError,
        match=re.escape(
            "Got in_dim=2 for some input, but that input is a Tensor of dimensionality 1 "
            "so expected in_dim to satisfy -1 <= in_dim < 1."
        ),
    ):
        vmap(lambda a: a, in_dims=(2,))(one)
    with pytest.raises(
        ValueError, match="Got in_dim=0.5 for an input but in_dim must be either an integer dimension or None."
    ):
        vmap(lambda a: a, in_dims=(0.5,))(one)
    with pytest.raises(
        ValueError, match="We cannot vmap over non-Tensor arguments, please use None as the respective in_dim"
    ):
        vmap(lambda a, b: a)(one, 3)
    with pytest.raises(ValueError, match="got no inputs"):
        vmap(lambda: one)()
    with pytest.raises(ValueError, match="`<lambda>` can not return a BatchedTensor when out_dim is None"):
        vmap(lambda a: a, out_dims=None)(torch.arange(2.0))
    with pytest.raises(ValueError, match="`<lambda>` must only return Tensors, got type <class 'int'>"):
        vmap(lambda a: 3)(one)
    with pytest.raises(ValueError, match="out_dims is not compatible with the structure of `outputs`"):
        vmap(lambda a: (a, a), out_dims=(0, 0, 0))(one)
    with pytest.raises(ValueError, match="`out_dims` must be an int, None or a python collection of ints"):
        vmap(lambda a: a, out_dims="a")(one)
    with pytest.raises(IndexError, match="Dimension out of range"):
        vmap(lambda a: a * 2, out_dims=3)(torch.zeros(2, 3))


# ---- functional_call, stateless, module state ----


class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.foo = nn.Parameter(torch.ones(2, dtype=F64))
        self.foo_tied = self.foo
        self.register_buffer("buf", torch.full((2,), 10.0, dtype=F64))

    def forward(self, x):
        return x + self.foo + self.foo_tied + self.buf


def test_functional_call_swaps_and_restores():
    m = Tied()
    x = torch.zeros(2, dtype=F64)
    z = torch.zeros(2, dtype=F64)
    close(functional_call(m, {"foo": z}, (x,)), torch.full((2,), 10.0, dtype=F64))  # tied: both replaced
    close(functional_call(m, {"foo": z}, x, tie_weights=False), torch.full((2,), 11.0, dtype=F64))
    close(functional_call(m, ({"foo": z}, {"buf": z}), (x,)), z)  # a tuple of dicts; buffers too
    close(functional_call(m, {}, kwargs={"x": x}), torch.full((2,), 12.0, dtype=F64))
    assert isinstance(m.foo, nn.Parameter) and m.foo is m.foo_tied
    close(m.buf, torch.full((2,), 10.0, dtype=F64))


def test_functional_call_restores_after_exception():
    model = mlp()
    before = {k: v for k, v in model.named_parameters()}

    class Boom(Exception):
        pass

    def hook(module, args):
        assert module.weight is replacement
        raise Boom

    replacement = torch.zeros(4, 3, dtype=F64)
    handle = model.fc1.register_forward_pre_hook(hook)
    with pytest.raises(Boom):
        functional_call(model, {"fc1.weight": replacement}, (rand(1, 3),))
    handle.remove()
    after = dict(model.named_parameters())
    assert after.keys() == before.keys() and all(after[k] is before[k] for k in before)


def test_functional_call_errors():
    m = Tied()
    x = torch.zeros(2, dtype=F64)
    with pytest.raises(
        ValueError, match=re.escape("functional_call got multiple values for keys ['foo', 'foo_tied'], which are tied")
    ):
        functional_call(m, {"foo": x, "foo_tied": x + 1}, (x,))
    functional_call(m, {"foo": x, "foo_tied": x}, (x,))  # the same value for both is fine
    msg = "Error(s) in reparametrizing for Tied:\n\tUnexpected key(s): 'nope'.\n\tMissing key(s): 'buf'."
    with pytest.raises(RuntimeError, match=re.escape(msg)):
        functional_call(m, {"foo": x, "nope": x}, (x,), strict=True)
    functional_call(m, {"foo": x, "buf": x}, (x,), strict=True)
    with pytest.raises(ValueError, match=re.escape("['foo'] appeared in multiple dictionaries")):
        functional_call(m, ({"foo": x}, {"foo": x}), (x,))
    with pytest.raises(ValueError, match="Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of dicts"):
        functional_call(m, 3, (x,))


def test_stateless_functional_call_is_deprecated():
    from torch.nn.utils import stateless

    m = Tied()
    x = torch.zeros(2, dtype=F64)
    with pytest.warns(FutureWarning, match="`torch.nn.utils.stateless.functional_call` is deprecated"):
        out = stateless.functional_call(m, {"buf": x}, (x,))
    close(out, torch.full((2,), 2.0, dtype=F64))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        functional_call(m, {"buf": x}, (x,))  # torch.func's does not warn


def test_stack_module_state_ensemble():
    torch.manual_seed(0)
    models = [nn.Linear(3, 2).double() for _ in range(4)]
    params, buffers = stack_module_state(models)
    assert params["weight"].shape == (4, 2, 3) and params["weight"].is_leaf and params["weight"].requires_grad
    assert buffers == {}
    x = rand(5, 3)
    out = vmap(lambda p, b, x: functional_call(models[0], (p, b), (x,)), in_dims=(0, 0, None))(params, buffers, x)
    for i, m in enumerate(models):
        close(out[i], m(x).detach())
    with pytest.raises(RuntimeError, match="stack_module_state: Expected at least one model, got 0."):
        stack_module_state([])
    with pytest.raises(RuntimeError, match="stack_module_state: Expected all models to be of the same class."):
        stack_module_state([nn.Linear(1, 1), nn.Conv1d(1, 1, 1)])


def test_replace_all_batch_norm_modules_():
    net = nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3)).double()
    assert replace_all_batch_norm_modules_(net) is net
    bn = net[1]
    assert bn.running_mean is None and bn.running_var is None and not bn.track_running_stats
    x = rand(4, 3)
    out = net(x)  # batch statistics even in eval mode
    net.eval()
    close(net(x), out)


def test_functionalize():
    def f(x):
        y = x.clone()
        y.add_(1)
        return y * 2

    x = rand(3)
    close(functionalize(f)(x), (x + 1) * 2)
    close(functionalize(f, remove="mutations_and_views")(x), (x + 1) * 2)
    with pytest.raises(RuntimeError, match="received invalid argument for remove=bad"):
        functionalize(f, remove="bad")
