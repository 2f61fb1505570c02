"""ASGD, Rprop and Adafactor step for step against NumPy implementations of their documented updates (over
several steps and the options that change the math, state included), plus state_dict round trips, parameter
groups, flags, complex parameters and PyTorch's argument errors."""

from __future__ import annotations

import copy
import itertools
import re

import numpy as np
import pytest

import torch
from torch.optim._adafactor import Adafactor
from torch.optim.asgd import ASGD
from torch.optim.rprop import Rprop

STEPS = 8


# NumPy references: each takes a parameter, its gradient and its state dict (mutated); returns the new parameter.


def ref_asgd(p, g, s, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, maximize=False):
    """ASGD: p = p (1 - lambd eta) - eta g; ax averages p with weight mu; eta, mu follow the step count.
    eta and mu are kept in float32 (0-d tensors of the default dtype): emulate their rounding."""
    s["step"] = t = s.get("step", 0) + 1
    eta, mu = float(s.get("eta", np.float32(lr))), float(s.get("mu", np.float32(1.0)))
    g = -g if maximize else g
    if weight_decay:
        g = g + weight_decay * p
    p = p * (1 - lambd * eta) - eta * g
    ax = s.get("ax", np.zeros_like(p))
    s["ax"] = ax + (p - ax) * mu if mu != 1 else p.copy()
    s["eta"] = np.float32(lr / (1 + lambd * lr * t) ** alpha)
    s["mu"] = np.float32(1 / max(1, t - t0))
    return p


def ref_rprop(p, g, s, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), maximize=False):
    """Rprop: sizes grow by etaplus where the gradient kept its sign, shrink by etaminus where it flipped
    (that gradient then counts as 0), clipped to step_sizes; p -= size * sign(g)."""
    s["step"] = s.get("step", 0) + 1
    g = -g if maximize else g
    prev = s.get("prev", np.zeros_like(p))
    size = s.get("step_size", np.full_like(p, lr))
    prod = g * prev
    factor = np.where(prod > 0, etas[1], np.where(prod < 0, etas[0], 1.0))
    s["step_size"] = size = np.clip(size * factor, *step_sizes)
    g = np.where(prod < 0, 0.0, g)
    s["prev"] = g
    return p - size * np.sign(g)


def ref_adafactor(p, g, s, lr=1e-2, beta2_decay=-0.8, eps=(None, 1e-3), d=1.0, weight_decay=0.0, maximize=False):
    """Adafactor as documented: factored second moments (row means R, column means C) for 2+ dims."""
    eps1, eps2 = eps
    eps1 = np.finfo(p.dtype).eps if eps1 is None else eps1
    s["step"] = t = s.get("step", 0) + 1
    g = -g if maximize else g
    w = t**beta2_decay  # 1 - beta2_t
    rho = min(lr, 1 / np.sqrt(t))
    alpha = max(eps2, np.sqrt(np.mean(p * p))) * rho
    p = p * (1 - lr * weight_decay)
    if g.ndim > 1:
        r = s.get("row_var", np.zeros(g.shape[:-1] + (1,)))
        c = s.get("col_var", np.zeros(g.shape[:-2] + (1, g.shape[-1])))
        s["row_var"] = r = r + w * (np.mean(g * g, axis=-1, keepdims=True) - r)
        s["col_var"] = c = c + w * (np.mean(g * g, axis=-2, keepdims=True) - c)
        v = (r @ c) / np.maximum(np.mean(r, axis=-2, keepdims=True), eps1)
    else:
        v = s.get("variance", np.zeros_like(g))
        s["variance"] = v = v + w * (g * g - v)
    u = g / np.maximum(np.sqrt(v), eps1)
    return p - alpha / max(1.0, np.sqrt(np.mean(u * u)) / d) * u


SHAPES = [(3,), (2, 2)]


def _run(
    opt_cls, ref_fn, options, ref_options=None, shapes=SHAPES, steps=STEPS, state_names=(), device="cpu", scale=1.0
):
    """Runs the optimizer and the reference on the same gradients, checking parameters and the named state
    (where the reference keeps it) after every step; gradients are standard normal times `scale`. Returns the
    optimizer and its parameters."""
    rng = np.random.default_rng(0)
    values = [rng.standard_normal(shape) for shape in shapes]
    params = [torch.tensor(v, dtype=torch.float64, device=device, requires_grad=True) for v in values]
    opt = opt_cls(params, **options)
    states = [{} for _ in values]
    ref_options = options if ref_options is None else ref_options
    for _ in range(steps):
        grads = [rng.standard_normal(v.shape) * scale for v in values]
        for p, g in zip(params, grads):
            p.grad = torch.tensor(g, dtype=torch.float64, device=device)
        opt.step()
        values = [ref_fn(v, g, s, **ref_options) for v, g, s in zip(values, grads, states)]
        for p, v, s in zip(params, values, states):
            np.testing.assert_allclose(p.detach().cpu().numpy(), v, rtol=1e-10, atol=1e-12)
            for name in (n for n in state_names if n in s):
                got = opt.state[p][name]
                np.testing.assert_allclose(got.detach().cpu().numpy(), s[name], rtol=1e-10, atol=1e-12, err_msg=name)
    return opt, params


def _combos(**choices):
    keys = list(choices)
    return [dict(zip(keys, vals)) for vals in itertools.product(*choices.values())]


# ---- ASGD


@pytest.mark.parametrize("options", _combos(weight_decay=[0, 0.1], t0=[1e6, 2.0], maximize=[False, True]), ids=str)
def test_asgd(options, device):
    """lambd and lr large enough that the decay term and eta's schedule show; t0=2 starts the averaging
    (mu < 1) within the run."""
    _run(
        ASGD,
        ref_asgd,
        {"lr": 0.1, "lambd": 0.1, "alpha": 0.6, **options},
        state_names=("step", "eta", "mu", "ax"),
        device=device,
    )


def test_asgd_defaults():
    _run(ASGD, ref_asgd, {}, state_names=("step", "eta", "mu", "ax"))


def test_asgd_state_layout():
    """State names and 0-d tensors as PyTorch's: step, eta, mu (default dtype) and ax."""
    p = torch.ones(3, dtype=torch.float64, requires_grad=True)
    opt = ASGD([p], lr=0.05)
    p.grad = torch.ones(3, dtype=torch.float64)
    opt.step()
    state = opt.state[p]
    assert list(state) == ["step", "eta", "mu", "ax"]
    for name in ("step", "eta", "mu"):
        assert state[name].dim() == 0 and state[name].dtype == torch.float32
    assert state["ax"].dtype == torch.float64 and state["ax"].shape == (3,)
    assert float(state["step"]) == 1.0 and float(state["mu"]) == 1.0
    np.testing.assert_allclose(float(state["eta"]), 0.05 / (1 + 1e-4 * 0.05) ** 0.75, rtol=1e-6)


def test_asgd_tensor_lr_steps_like_a_float():
    results = []
    for lr in (0.1, torch.tensor(0.1)):
        p = torch.tensor([1.0, -2.0, 3.0], dtype=torch.float64, requires_grad=True)
        opt = ASGD([p], lr=lr, lambd=0.1, t0=1)
        for k in range(4):
            p.grad = torch.tensor([0.5, k + 1.0, -1.0], dtype=torch.float64)
            opt.step()
        results.append((p.detach().numpy().copy(), opt.state[p]["ax"].numpy().copy()))
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-7)
    np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-7)


# ---- Rprop


@pytest.mark.parametrize(
    "options",
    _combos(etas=[(0.5, 1.2), (0.3, 1.7)], step_sizes=[(1e-6, 50), (0.005, 0.015)], maximize=[False, True]),
    ids=str,
)
def test_rprop(options, device):
    """step_sizes=(0.005, 0.015): the clipping binds within the run (lr 0.01 grows past 0.015 in 3 steps)."""
    _run(Rprop, ref_rprop, {"lr": 0.01, **options}, state_names=("step", "prev", "step_size"), device=device)


def test_rprop_clipping_reaches_both_bounds():
    """A coordinate whose gradient keeps its sign grows to the maximum step size; one that flips every step
    shrinks to the minimum (and, after a flip, does not move)."""
    p = torch.zeros(2, dtype=torch.float64, requires_grad=True)
    opt = Rprop([p], lr=0.01, step_sizes=(0.004, 0.02))
    values, s, v = [], {}, np.zeros(2)
    for k in range(8):
        g = np.array([1.0, (-1.0) ** k])
        p.grad = torch.tensor(g)
        opt.step()
        v = ref_rprop(v, g, s, lr=0.01, step_sizes=(0.004, 0.02))
        values.append(p.detach().numpy().copy())
        np.testing.assert_allclose(values[-1], v, rtol=1e-12)
    assert opt.state[p]["step_size"].tolist() == pytest.approx([0.02, 0.004])
    # sizes for the steady coordinate: 0.01, 0.012, 0.0144, 0.01728, 0.02 (clipped), ...
    np.testing.assert_allclose(values[3][0], -(0.01 + 0.012 + 0.0144 + 0.01728), rtol=1e-12)


def test_rprop_defaults():
    _run(Rprop, ref_rprop, {}, state_names=("step", "prev", "step_size"))


def test_rprop_state_layout():
    p = torch.ones(3, dtype=torch.float64, requires_grad=True)
    opt = Rprop([p], lr=0.03)
    p.grad = torch.ones(3, dtype=torch.float64)
    opt.step()
    assert list(opt.state[p]) == ["step", "prev", "step_size"]
    assert opt.state[p]["step"].dim() == 0 and opt.state[p]["step"].device.type == "cpu"
    assert opt.state[p]["step_size"].tolist() == pytest.approx([0.03] * 3)  # the first step: no sign history


# ---- Adafactor


ADAFACTOR_SHAPES = [(3,), (3, 4), (2, 3, 4), ()]


@pytest.mark.parametrize(
    "options",
    _combos(eps=[(None, 1e-3), (0.3, 2.0)], weight_decay=[0.0, 0.1], beta2_decay=[-0.8, -0.5], maximize=[False, True]),
    ids=str,
)
def test_adafactor(options, device):
    """Vectors, matrices, a 3-d parameter (factored over its last 2 dims) and a 0-d one; lr=0.5 so that
    rho_t = min(lr, 1/sqrt(t)) switches branch at t=4; eps=(0.3, 2.0) makes both epsilons bind."""
    _run(
        Adafactor,
        ref_adafactor,
        {"lr": 0.5, **options},
        shapes=ADAFACTOR_SHAPES,
        state_names=("step", "row_var", "col_var", "variance"),
        device=device,
    )


@pytest.mark.parametrize("d", [1.0, 4.0])
def test_adafactor_state_and_clipping_threshold(d):
    """The factored state (row_var (..., n, 1), col_var (..., 1, m)) and a vector's variance follow the
    reference; d=1 clips the update (RMS(U) is about 1), d=4 leaves it."""
    names = ("step", "variance", "row_var", "col_var")
    opt, params = _run(Adafactor, ref_adafactor, {"lr": 0.5, "d": d}, shapes=[(3,), (2, 3, 4)], state_names=names)
    state_vec, state_mat = opt.state[params[0]], opt.state[params[1]]
    assert list(state_vec) == ["step", "variance"] and list(state_mat) == ["step", "row_var", "col_var"]
    assert state_mat["row_var"].shape == (2, 3, 1) and state_mat["col_var"].shape == (2, 1, 4)


@pytest.mark.parametrize(("scale", "eps"), [(1e-3, (1e-5, 1e-3)), (1e-9, (None, 1e-3))], ids=["eps1=1e-5", "eps1=None"])
def test_adafactor_small_gradients_bind_eps1(scale, eps):
    """Gradients so small that mean(R) < eps1: the clamp of the factored denominator binds (with eps1=None,
    float64's machine epsilon, 2.2e-16, against squares of about 1e-18)."""
    names = ("step", "variance", "row_var", "col_var")
    _run(Adafactor, ref_adafactor, {"lr": 0.5, "eps": eps}, shapes=ADAFACTOR_SHAPES, state_names=names, scale=scale)


def test_adafactor_defaults():
    _run(Adafactor, ref_adafactor, {}, shapes=ADAFACTOR_SHAPES)


def test_adafactor_float32_eps1_is_float32_machine_epsilon():
    """eps1=None takes finfo(param.dtype).eps: float32 parameters agree with the reference in float32."""
    rng = np.random.default_rng(3)
    v = rng.standard_normal((3, 4)).astype(np.float32)
    p = torch.tensor(v, requires_grad=True)
    opt = Adafactor([p], lr=0.2)
    s, ref_v = {}, v.astype(np.float64)
    for _ in range(4):
        g = rng.standard_normal((3, 4)).astype(np.float32)
        p.grad = torch.tensor(g)
        opt.step()
        ref_v = ref_adafactor(ref_v, g.astype(np.float64), s, lr=0.2, eps=(float(np.finfo(np.float32).eps), 1e-3))
    assert p.dtype == torch.float32
    np.testing.assert_allclose(p.detach().numpy(), ref_v, rtol=1e-5, atol=1e-6)


def test_adafactor_tiny_gradient_is_bounded_by_eps1():
    """A zero gradient row: V = 0 there, U = G / eps1 = 0, the parameter only decays."""
    p = torch.ones(2, 3, dtype=torch.float64, requires_grad=True)
    opt = Adafactor([p], lr=0.1, weight_decay=0.5)
    p.grad = torch.tensor([[0.0, 0.0, 0.0], [1.0, -2.0, 3.0]], dtype=torch.float64)
    opt.step()
    np.testing.assert_allclose(p[0].detach().numpy(), [1 - 0.1 * 0.5] * 3, rtol=1e-14)
    assert torch.isfinite(p).all()


def test_adafactor_rejects_complex():
    p = torch.zeros(2, dtype=torch.complex128, requires_grad=True)
    p.grad = torch.ones(2, dtype=torch.complex128)
    with pytest.raises(RuntimeError, match="Adafactor does not support complex parameters"):
        Adafactor([p]).step()


def test_adafactor_has_no_differentiable_option():
    p = torch.ones(2, requires_grad=True)
    opt = Adafactor([p])
    assert "differentiable" not in opt.defaults
    assert set(opt.param_groups[0]) == {"params", "lr", "beta2_decay", "eps", "d", "weight_decay", "foreach",
                                        "maximize"}  # fmt: skip
    with pytest.raises(TypeError):
        Adafactor([p], differentiable=True)


# ---- shared behaviour


CASES = [
    (ASGD, {"lr": 0.1, "lambd": 0.1, "t0": 2, "weight_decay": 0.1}),
    (Rprop, {"lr": 0.01, "etas": (0.4, 1.5), "step_sizes": (1e-3, 0.05)}),
    (Adafactor, {"lr": 0.5, "weight_decay": 0.1}),
]
CASE_IDS = ["ASGD", "Rprop", "Adafactor"]


def _grads(rng, params):
    return [torch.tensor(rng.standard_normal(tuple(p.shape)), dtype=p.dtype) for p in params]


@pytest.mark.parametrize(("opt_cls", "options"), CASES, ids=CASE_IDS)
def test_state_dict_round_trip(opt_cls, options):
    """A fresh optimizer loading the state dict after 3 steps continues exactly like the original."""
    rng = np.random.default_rng(4)
    init = [rng.standard_normal(3), rng.standard_normal((2, 3))]
    # float32: the state PyTorch casts to the parameter's dtype on loading (ASGD's eta and mu) is float32 already
    a = [torch.tensor(v, dtype=torch.float32, requires_grad=True) for v in init]
    opt_a = opt_cls(a, **options)
    for _ in range(3):
        for p, g in zip(a, _grads(rng, a)):
            p.grad = g
        opt_a.step()
    b = [p.detach().clone().requires_grad_() for p in a]
    opt_b = opt_cls(b, **options)
    sd = copy.deepcopy(opt_a.state_dict())  # as saved: state_dict() shares the step tensors (as PyTorch's)
    assert set(sd["state"]) == {0, 1} and sd["param_groups"][0]["params"] == [0, 1]
    opt_b.load_state_dict(sd)
    assert opt_b.state_dict()["param_groups"] == sd["param_groups"]
    for _ in range(3):
        grads = _grads(rng, a)
        for pa, pb, g in zip(a, b, grads):
            pa.grad, pb.grad = g, g.clone()
        opt_a.step()
        opt_b.step()
    for pa, pb in zip(a, b):
        torch.testing.assert_close(pa, pb, rtol=0, atol=0)
    for pa, pb in zip(a, b):
        for name, value in opt_a.state[pa].items():
            torch.testing.assert_close(value, opt_b.state[pb][name], rtol=0, atol=0)


EXPECTED_STATE = {
    "ASGD": [["step", "eta", "mu", "ax"]] * 2,
    "Rprop": [["step", "prev", "step_size"]] * 2,
    "Adafactor": [["step", "variance"], ["step", "row_var", "col_var"]],
}


@pytest.mark.parametrize(("opt_cls", "options"), CASES, ids=CASE_IDS)
def test_state_dict_names(opt_cls, options):
    """PyTorch's state names (a state dict saved by one loads into the other) and group options."""
    a = [torch.ones(3, requires_grad=True), torch.ones(2, 3, requires_grad=True)]
    opt = opt_cls(a, **options)
    for p in a:
        p.grad = torch.ones_like(p)
    opt.step()
    sd = opt.state_dict()
    assert [list(sd["state"][i]) for i in (0, 1)] == EXPECTED_STATE[opt_cls.__name__]
    for key, value in options.items():
        assert sd["param_groups"][0][key] == value


@pytest.mark.parametrize(("opt_cls", "options"), CASES, ids=CASE_IDS)
def test_foreach_flag_steps_like_the_default(opt_cls, options):
    results = []
    for foreach in (None, False, True):
        rng = np.random.default_rng(5)
        ps = [torch.tensor(rng.standard_normal(3), requires_grad=True), torch.tensor(rng.standard_normal((2, 2)),
                                                                                    requires_grad=True)]  # fmt: skip
        opt = opt_cls(ps, foreach=foreach, **options)
        assert opt.param_groups[0]["foreach"] is foreach
        for _ in range(4):
            for p, g in zip(ps, _grads(rng, ps)):
                p.grad = g
            opt.step()
        results.append(torch.cat([p.detach().reshape(-1) for p in ps]).numpy())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-12)
    np.testing.assert_allclose(results[0], results[2], rtol=1e-6)  # PyTorch's foreach ASGD rounds eta in float32


def test_param_groups_with_different_options():
    """Each group steps with its own options; a group's missing options come from the defaults."""
    rng = np.random.default_rng(6)
    a0, b0 = rng.standard_normal(4), rng.standard_normal(2)
    a, b = torch.tensor(a0, requires_grad=True), torch.tensor(b0, requires_grad=True)
    opt = ASGD([{"params": [a]}, {"params": [b], "lr": 0.3, "t0": 1, "maximize": True}], lr=0.1, lambd=0.05)
    assert opt.param_groups[0]["t0"] == 1e6 and opt.param_groups[1]["lambd"] == 0.05
    c0, d0 = rng.standard_normal(3), rng.standard_normal((2, 2))
    c, d = torch.tensor(c0, requires_grad=True), torch.tensor(d0, requires_grad=True)
    opt_r = Rprop([{"params": [c], "etas": (0.2, 2.0)}, {"params": [d], "step_sizes": (0.001, 0.02)}], lr=0.01)
    sa, sb, sc, sd = {}, {}, {}, {}
    for _ in range(5):
        ga, gb, gc, gd = (rng.standard_normal(t.shape) for t in (a0, b0, c0, d0))
        a.grad, b.grad, c.grad, d.grad = (torch.tensor(g) for g in (ga, gb, gc, gd))
        opt.step()
        opt_r.step()
        a0 = ref_asgd(a0, ga, sa, lr=0.1, lambd=0.05)
        b0 = ref_asgd(b0, gb, sb, lr=0.3, lambd=0.05, t0=1, maximize=True)
        c0 = ref_rprop(c0, gc, sc, lr=0.01, etas=(0.2, 2.0))
        d0 = ref_rprop(d0, gd, sd, lr=0.01, step_sizes=(0.001, 0.02))
        for t, v in ((a, a0), (b, b0), (c, c0), (d, d0)):
            np.testing.assert_allclose(t.detach().numpy(), v, rtol=1e-10)
    np.testing.assert_allclose(opt.state[b]["ax"].numpy(), sb["ax"], rtol=1e-10)


def test_adafactor_param_groups():
    rng = np.random.default_rng(7)
    a0, b0 = rng.standard_normal((2, 3)), rng.standard_normal(4)
    a, b = torch.tensor(a0, requires_grad=True), torch.tensor(b0, requires_grad=True)
    opt = Adafactor([{"params": [a], "lr": 0.3, "d": 2.0}, {"params": [b], "eps": (0.1, 1e-3)}], weight_decay=0.2)
    sa, sb = {}, {}
    for _ in range(5):
        ga, gb = rng.standard_normal(a0.shape), rng.standard_normal(b0.shape)
        a.grad, b.grad = torch.tensor(ga), torch.tensor(gb)
        opt.step()
        a0 = ref_adafactor(a0, ga, sa, lr=0.3, d=2.0, weight_decay=0.2)
        b0 = ref_adafactor(b0, gb, sb, eps=(0.1, 1e-3), weight_decay=0.2)
        np.testing.assert_allclose(a.detach().numpy(), a0, rtol=1e-10)
        np.testing.assert_allclose(b.detach().numpy(), b0, rtol=1e-10)


@pytest.mark.parametrize(("opt_cls", "options"), CASES[:2], ids=CASE_IDS[:2])
def test_complex_params_step_as_pairs_of_reals(opt_cls, options):
    """A complex parameter steps like the real parameter of its (real, imaginary) pairs."""
    rng = np.random.default_rng(8)
    v = rng.standard_normal((3, 2))
    pc = torch.view_as_complex(torch.tensor(v)).clone().requires_grad_()
    pr = torch.tensor(v, requires_grad=True)
    opt_c, opt_r = opt_cls([pc], **options), opt_cls([pr], **options)
    for _ in range(5):
        g = rng.standard_normal((3, 2))
        pc.grad = torch.view_as_complex(torch.tensor(g)).clone()
        pr.grad = torch.tensor(g)
        opt_c.step()
        opt_r.step()
        np.testing.assert_allclose(torch.view_as_real(pc.detach()).numpy(), pr.detach().numpy(), rtol=1e-12)


@pytest.mark.parametrize(("opt_cls", "options"), CASES, ids=CASE_IDS)
def test_params_without_grad_are_skipped_and_closure_runs(opt_cls, options):
    a = torch.ones(2, 2, dtype=torch.float64, requires_grad=True)
    b = torch.ones(2, dtype=torch.float64, requires_grad=True)
    opt = opt_cls([a, b], **options)

    def closure():
        opt.zero_grad()
        loss = (a * a).sum()
        loss.backward()
        return loss

    loss = opt.step(closure)
    assert float(loss.detach()) == 4.0
    assert b.tolist() == [1.0, 1.0] and len(opt.state[b]) == 0
    assert (a.detach() != 1.0).all() and float(opt.state[a]["step"]) == 1.0


def test_differentiable_asgd_step():
    """differentiable=True: two ASGD steps are part of the graph; the new parameter's gradient with respect to
    the old one and to the gradient matches finite differences (float64)."""

    def step(p0, g):
        p = p0.clone()
        p.grad = g
        opt = ASGD([p], differentiable=True, lr=0.1, lambd=0.1, t0=2, weight_decay=0.1)
        opt.step()
        p.grad = g * 0.7 - 0.1
        opt.step()
        return p, opt.state[p]["ax"]

    p0 = torch.tensor([0.3, -1.2, 2.0], dtype=torch.float64, requires_grad=True)
    g = torch.tensor([0.5, 1.0, -0.4], dtype=torch.float64, requires_grad=True)
    assert step(p0, g)[0].requires_grad
    assert torch.autograd.gradcheck(step, (p0, g))


def test_differentiable_rprop_step():
    """differentiable=True: one Rprop step from a given state (signs kept, flipped and zero) is part of the
    graph, through the step sizes; checked against finite differences (float64)."""
    prev = torch.tensor([1.0, -2.0, 0.0, 0.5], dtype=torch.float64)

    def step(p0, g, size):
        p = p0.clone()
        p.grad = g
        opt = Rprop([p], differentiable=True, lr=0.01, step_sizes=(1e-4, 1.0))
        opt.state[p] = {"step": torch.tensor(1.0), "prev": prev.clone(), "step_size": size.clone()}
        opt.step()
        return p, opt.state[p]["step_size"]

    p0 = torch.tensor([0.3, -1.2, 2.0, 0.1], dtype=torch.float64, requires_grad=True)
    g = torch.tensor([0.5, 1.0, -0.4, 0.2], dtype=torch.float64, requires_grad=True)
    size = torch.tensor([0.02, 0.03, 0.05, 0.01], dtype=torch.float64, requires_grad=True)
    p, new_size = step(p0, g, size)
    np.testing.assert_allclose(new_size.detach().numpy(), [0.024, 0.015, 0.05, 0.012], rtol=1e-12)
    np.testing.assert_allclose(p.detach().numpy(), [0.3 - 0.024, -1.2, 2.0 + 0.05, 0.1 - 0.012], rtol=1e-12)
    assert torch.autograd.gradcheck(step, (p0, g, size))


# ---- argument errors (PyTorch's messages)


@pytest.mark.parametrize(
    ("opt_cls", "kwargs", "message"),
    [
        (ASGD, {"lr": -1.0}, "Invalid learning rate: -1.0"),
        (ASGD, {"lr": torch.tensor([0.1, 0.2])}, "Tensor lr must be 1-element"),
        (ASGD, {"weight_decay": -0.5}, "Invalid weight_decay value: -0.5"),
        (Rprop, {"lr": -0.1}, "Invalid learning rate: -0.1"),
        (Rprop, {"etas": (1.0, 1.2)}, "Invalid eta values: 1.0, 1.2"),
        (Rprop, {"etas": (0.5, 1.0)}, "Invalid eta values: 0.5, 1.0"),
        (Rprop, {"etas": (0.0, 1.5)}, "Invalid eta values: 0.0, 1.5"),
        (Adafactor, {"lr": -0.1}, "Learning rate should be >= 0 but is: -0.1"),
        (Adafactor, {"lr": torch.tensor([0.1, 0.2])}, "Tensor lr must be 1-element"),
        (Adafactor, {"beta2_decay": 0.5}, "beta2_decay should be <= 0 but is: 0.5"),
        (Adafactor, {"eps": (-1.0, 1e-3)}, "epsilon1 should be >= 0 but is: -1.0"),
        (Adafactor, {"eps": (None, -1e-3)}, "epsilon2 should be >= 0 but is: -0.001"),
        (Adafactor, {"d": 0.5}, "Clipping threshold d should be >= 1 but is: 0.5"),
        (Adafactor, {"weight_decay": -0.1}, "weight_decay should be >= 0 but is: -0.1"),
    ],
)
def test_bad_arguments(opt_cls, kwargs, message):
    p = torch.ones(2, requires_grad=True)
    with pytest.raises(ValueError, match=re.escape(message)):
        opt_cls([p], **kwargs)


@pytest.mark.parametrize("opt_cls", [ASGD, Rprop, Adafactor])
def test_base_class_errors(opt_cls):
    with pytest.raises(ValueError, match="optimizer got an empty parameter list"):
        opt_cls([])
    with pytest.raises(TypeError, match="params argument given to the optimizer should be an iterable"):
        opt_cls(torch.ones(2, requires_grad=True))


@pytest.mark.parametrize(
    ("opt_cls", "defaults"),
    [
        (ASGD, {"lr": 1e-2, "lambd": 1e-4, "alpha": 0.75, "t0": 1e6, "weight_decay": 0, "foreach": None,
                "maximize": False, "differentiable": False, "capturable": False}),
        (Rprop, {"lr": 1e-2, "etas": (0.5, 1.2), "step_sizes": (1e-6, 50), "foreach": None, "maximize": False,
                 "differentiable": False, "capturable": False}),
        (Adafactor, {"lr": 1e-2, "beta2_decay": -0.8, "eps": (None, 1e-3), "d": 1.0, "weight_decay": 0.0,
                     "foreach": None, "maximize": False}),
    ],
    ids=CASE_IDS,
)  # fmt: skip
def test_defaults_as_pytorch(opt_cls, defaults):
    opt = opt_cls([torch.ones(2, requires_grad=True)])
    assert opt.defaults == defaults
