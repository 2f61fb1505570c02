"""Every optimizer step for step against a NumPy implementation of its documented update
(optim_reference.py), over several steps and every option combination that changes the math; two
parameters of different shapes in one group, float64, the same gradients fed to both."""

from __future__ import annotations

import itertools

import numpy as np
import optim_reference as ref
import pytest

import torch

STEPS = 6


def _run(opt_cls, ref_fn, options, ref_options=None, steps=STEPS, device="cpu"):
    """Runs `steps` steps of the optimizer and of the reference on the same gradients; checks every step."""
    rng = np.random.default_rng(0)
    values = [rng.standard_normal(3), rng.standard_normal((2, 2))]
    params = [torch.tensor(v, dtype=torch.float64, device=device, requires_grad=True) for v in values]
    opt = opt_cls(params, **options)
    states = [{} for _ in values]
    ref_options = options if ref_options is None else ref_options
    for _ in range(steps):
        grads = [rng.standard_normal(v.shape) for v in values]
        for p, g in zip(params, grads):
            p.grad = torch.tensor(g, dtype=torch.float64, device=device)
        opt.step()
        values = [ref_fn(v, g, s, **ref_options) for v, g, s in zip(values, grads, states)]
        for p, v in zip(params, values):
            np.testing.assert_allclose(p.detach().cpu().numpy(), v, rtol=1e-10, atol=1e-12)


def _combos(**choices):
    keys = list(choices)
    return [dict(zip(keys, vals)) for vals in itertools.product(*choices.values())]


@pytest.mark.parametrize(
    "options",
    [
        o
        for o in _combos(
            momentum=[0, 0.9], dampening=[0, 0.3], weight_decay=[0, 0.1], nesterov=[False, True], maximize=[False, True]
        )
        if not o["nesterov"] or (o["momentum"] > 0 and o["dampening"] == 0)  # else invalid: see test_optimizer_api
    ],
    ids=str,
)
def test_sgd(options, device):
    _run(torch.optim.SGD, ref.sgd, {"lr": 0.1, **options}, device=device)


def test_sgd_defaults():
    _run(torch.optim.SGD, ref.sgd, {})


@pytest.mark.parametrize(
    "options", _combos(weight_decay=[0, 0.1], amsgrad=[False, True], maximize=[False, True]), ids=str
)
def test_adam(options, device):
    _run(torch.optim.Adam, ref.adam, {"lr": 0.05, "betas": (0.8, 0.9), **options}, device=device)


def test_adam_defaults_and_decoupled_flag():
    _run(torch.optim.Adam, ref.adam, {})
    _run(
        torch.optim.Adam,
        ref.adam,
        {"lr": 0.05, "weight_decay": 0.2, "decoupled_weight_decay": True},
        {"lr": 0.05, "weight_decay": 0.2, "decoupled": True},
    )


@pytest.mark.parametrize(
    "options", _combos(weight_decay=[0, 0.1], amsgrad=[False, True], maximize=[False, True]), ids=str
)
def test_adamw(options, device):
    _run(
        torch.optim.AdamW,
        ref.adam,
        {"lr": 0.05, "betas": (0.8, 0.9), **options},
        {"lr": 0.05, "betas": (0.8, 0.9), "decoupled": True, **options},
        device=device,
    )


def test_adamw_default_weight_decay_is_decoupled():
    _run(torch.optim.AdamW, ref.adam, {"lr": 0.1}, {"lr": 0.1, "weight_decay": 1e-2, "decoupled": True})


@pytest.mark.parametrize(
    "options",
    _combos(weight_decay=[0, 0.1], momentum=[0, 0.5], centered=[False, True], maximize=[False, True]),
    ids=str,
)
def test_rmsprop(options, device):
    _run(torch.optim.RMSprop, ref.rmsprop, {"lr": 0.01, "alpha": 0.9, **options}, device=device)


@pytest.mark.parametrize(
    "options",
    _combos(lr_decay=[0, 0.5], weight_decay=[0, 0.1], initial_accumulator_value=[0, 0.3], maximize=[False, True]),
    ids=str,
)
def test_adagrad(options, device):
    _run(torch.optim.Adagrad, ref.adagrad, {"lr": 0.1, **options}, device=device)


@pytest.mark.parametrize("options", _combos(rho=[0.9, 0.5], weight_decay=[0, 0.1], maximize=[False, True]), ids=str)
def test_adadelta(options, device):
    _run(torch.optim.Adadelta, ref.adadelta, {"lr": 0.5, **options}, device=device)


@pytest.mark.parametrize("options", _combos(weight_decay=[0, 0.1], maximize=[False, True]), ids=str)
def test_adamax(options, device):
    _run(torch.optim.Adamax, ref.adamax, {"lr": 0.05, "betas": (0.8, 0.9), **options}, device=device)


@pytest.mark.parametrize(
    "options",
    _combos(
        weight_decay=[0, 0.1], decoupled_weight_decay=[False, True], momentum_decay=[4e-3, 0.5], maximize=[False, True]
    ),
    ids=str,
)
def test_nadam(options, device):
    _run(torch.optim.NAdam, ref.nadam, {"lr": 0.05, "betas": (0.8, 0.9), **options}, device=device)


@pytest.mark.parametrize(
    "options", _combos(weight_decay=[0, 0.1], decoupled_weight_decay=[False, True], maximize=[False, True]), ids=str
)
def test_radam(options, device):
    # beta2=0.9: rho_t crosses 5 at step 6, so both branches of the update run
    _run(torch.optim.RAdam, ref.radam, {"lr": 0.05, "betas": (0.8, 0.9), **options}, steps=9, device=device)


@pytest.mark.parametrize(
    ("opt_cls", "ref_fn"),
    [
        (torch.optim.RMSprop, ref.rmsprop),
        (torch.optim.Adagrad, ref.adagrad),
        (torch.optim.Adadelta, ref.adadelta),
        (torch.optim.Adamax, ref.adamax),
        (torch.optim.NAdam, ref.nadam),
        (torch.optim.RAdam, ref.radam),
    ],
    ids=lambda x: getattr(x, "__name__", str(x)),
)
def test_defaults(opt_cls, ref_fn):
    _run(opt_cls, ref_fn, {})


def test_param_groups_with_different_options():
    """Each group steps with its own lr/momentum; a group's missing options come from the defaults."""
    rng = np.random.default_rng(1)
    a0, b0 = rng.standard_normal(4), rng.standard_normal(2)
    a = torch.tensor(a0, requires_grad=True)
    b = torch.tensor(b0, requires_grad=True)
    opt = torch.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.5, "momentum": 0.9}], lr=0.1)
    assert opt.param_groups[0]["lr"] == 0.1 and opt.param_groups[0]["momentum"] == 0
    assert opt.param_groups[1]["lr"] == 0.5 and opt.param_groups[1]["momentum"] == 0.9
    sa, sb = {}, {}
    for _ in range(4):
        ga, gb = rng.standard_normal(4), rng.standard_normal(2)
        a.grad, b.grad = torch.tensor(ga), torch.tensor(gb)
        opt.step()
        a0 = ref.sgd(a0, ga, sa, lr=0.1)
        b0 = ref.sgd(b0, gb, sb, lr=0.5, momentum=0.9)
        np.testing.assert_allclose(a.detach().numpy(), a0, rtol=1e-12)
        np.testing.assert_allclose(b.detach().numpy(), b0, rtol=1e-12)


def test_params_without_grad_are_skipped():
    a = torch.ones(2, dtype=torch.float64, requires_grad=True)
    b = torch.ones(2, dtype=torch.float64, requires_grad=True)
    opt = torch.optim.Adam([a, b], lr=0.1)
    a.grad = torch.ones(2, dtype=torch.float64)
    opt.step()
    assert b.tolist() == [1.0, 1.0] and len(opt.state[b]) == 0
    assert a.tolist() != [1.0, 1.0] and float(opt.state[a]["step"]) == 1.0


def test_float32_params(device):
    """float32 parameters keep their dtype; the step agrees with the float64 reference to float32 precision."""
    rng = np.random.default_rng(2)
    v = rng.standard_normal(5)
    p = torch.tensor(v, dtype=torch.float32, device=device, requires_grad=True)
    opt = torch.optim.Adam([p], lr=0.01)
    s = {}
    for _ in range(5):
        g = rng.standard_normal(5)
        p.grad = torch.tensor(g, dtype=torch.float32, device=device)
        opt.step()
        v = ref.adam(v, g, s, lr=0.01)
    assert p.dtype == torch.float32
    np.testing.assert_allclose(p.detach().cpu().numpy(), v, rtol=1e-5, atol=1e-6)


def test_tensor_lr():
    p = torch.ones(3, dtype=torch.float64, requires_grad=True)
    opt = torch.optim.SGD([p], lr=torch.tensor(0.5))
    p.grad = torch.ones(3, dtype=torch.float64)
    opt.step()
    np.testing.assert_allclose(p.detach().numpy(), [0.5, 0.5, 0.5])


@pytest.mark.parametrize("opt_cls", [torch.optim.SGD, torch.optim.Adam, torch.optim.AdamW, torch.optim.Adagrad])
def test_fused_flag_on_cpu_steps_like_the_default(opt_cls):
    """fused=True is accepted on CPU (as upstream) and computes the same update."""
    results = []
    for fused in (None, True):
        p = torch.tensor([1.0, -2.0, 3.0], dtype=torch.float64, requires_grad=True)
        opt = opt_cls([p], lr=0.1, fused=fused)
        for k in range(3):
            p.grad = torch.tensor([0.5, k + 1.0, -1.0], dtype=torch.float64)
            opt.step()
        results.append(p.detach().numpy().copy())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-6)


@pytest.mark.parametrize("opt_cls", [torch.optim.SGD, torch.optim.Adam, torch.optim.RMSprop, torch.optim.NAdam])
def test_foreach_flag_steps_like_the_default(opt_cls):
    results = []
    for foreach in (None, False, True):
        p = torch.tensor([1.0, -2.0, 3.0], dtype=torch.float64, requires_grad=True)
        opt = opt_cls([p], lr=0.1, foreach=foreach)
        for k in range(3):
            p.grad = torch.tensor([0.5, k + 1.0, -1.0], dtype=torch.float64)
            opt.step()
        results.append(p.detach().numpy().copy())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-12)
    np.testing.assert_allclose(results[0], results[2], rtol=1e-12)


@pytest.mark.parametrize(
    "opt_cls, options",
    [
        (torch.optim.SGD, dict(lr=0.1, momentum=0.9, weight_decay=0.1)),
        (torch.optim.Adam, dict(lr=0.05, amsgrad=True, weight_decay=0.1)),
        (torch.optim.AdamW, dict(lr=0.05)),
        (torch.optim.RMSprop, dict(lr=0.01, momentum=0.5, centered=True, weight_decay=0.1)),
        (torch.optim.RMSprop, dict(lr=0.01, maximize=True)),
        (torch.optim.Adagrad, dict(lr=0.1, lr_decay=0.5, weight_decay=0.1, initial_accumulator_value=0.3)),
        (torch.optim.Adadelta, dict(lr=0.5, rho=0.5, weight_decay=0.1)),
        (torch.optim.Adamax, dict(lr=0.05, weight_decay=0.1, maximize=True)),
        (torch.optim.NAdam, dict(lr=0.05, weight_decay=0.1, momentum_decay=0.01)),
        (torch.optim.NAdam, dict(lr=0.05, weight_decay=0.1, decoupled_weight_decay=True)),
        (torch.optim.RAdam, dict(lr=0.05, weight_decay=0.1)),
        (torch.optim.RAdam, dict(lr=0.05, weight_decay=0.1, decoupled_weight_decay=True)),
    ],
    ids=lambda v: v.__name__ if isinstance(v, type) else str(v),
)
def test_contiguous_and_strided_parameters_step_alike(opt_cls, options, device):
    """A group of contiguous float32 parameters (one multi-tensor step per step count) and the same values as
    transposed views (a parameter at a time): equal step for step, over steps where RAdam's rectification turns
    on, and with a parameter added to the group later (a second step count)."""
    rng = np.random.default_rng(1)
    values = [rng.standard_normal((4, 3)).astype(np.float32), rng.standard_normal((5, 2)).astype(np.float32)]
    dense = [torch.tensor(v, device=device, requires_grad=True) for v in values]
    strided = [torch.tensor(v.T.copy(), device=device).t().requires_grad_() for v in values]
    assert not strided[0].is_contiguous()
    opts = [opt_cls(dense[:1], **options), opt_cls(strided[:1], **options)]
    for step in range(8):
        if step == 3:  # a parameter joins: its step count differs from the first's
            opts[0].add_param_group({"params": dense[1:]})
            opts[1].add_param_group({"params": strided[1:]})
        grads = [rng.standard_normal(v.shape).astype(np.float32) for v in values]
        for ps, opt in zip((dense, strided), opts):
            for p, g in zip(ps, grads):
                p.grad = torch.tensor(g, device=device)
            opt.step()
        for a, b in zip(dense, strided):
            torch.testing.assert_close(a, b, rtol=2e-6, atol=2e-6)
