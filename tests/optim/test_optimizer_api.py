"""The Optimizer API: state_dict format and exact resumption, param groups, zero_grad, closures, hooks,
repr, and the errors PyTorch raises for bad parameters and options."""

from __future__ import annotations

import copy
import io
import warnings

import numpy as np
import pytest

import torch
from torch.optim.optimizer import required

ALL = [
    (torch.optim.SGD, {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01}),
    (torch.optim.Adam, {"lr": 0.05, "amsgrad": True, "weight_decay": 0.1}),
    (torch.optim.AdamW, {"lr": 0.05, "amsgrad": True}),
    (torch.optim.RMSprop, {"lr": 0.01, "momentum": 0.5, "centered": True}),
    (torch.optim.Adagrad, {"lr": 0.1, "lr_decay": 0.1, "initial_accumulator_value": 0.2}),
    (torch.optim.Adadelta, {"lr": 0.5}),
    (torch.optim.Adamax, {"lr": 0.05}),
    (torch.optim.NAdam, {"lr": 0.05, "momentum_decay": 0.1}),
    (torch.optim.RAdam, {"lr": 0.05, "betas": (0.8, 0.9)}),
]
IDS = [cls.__name__ for cls, _ in ALL]


def _params(seed=0):
    rng = np.random.default_rng(seed)
    return [
        torch.tensor(rng.standard_normal(3), requires_grad=True),
        torch.tensor(rng.standard_normal((2, 2)), requires_grad=True),
    ]


def _grads(k):
    rng = np.random.default_rng(100 + k)
    return [torch.tensor(rng.standard_normal(3)), torch.tensor(rng.standard_normal((2, 2)))]


def _steps(opt, params, ks):
    for k in ks:
        for p, g in zip(params, _grads(k)):
            p.grad = g
        opt.step()


@pytest.mark.parametrize(("opt_cls", "options"), ALL, ids=IDS)
def test_state_dict_resumes_exactly(opt_cls, options):
    """3 steps, state_dict, a fresh optimizer on copies of the parameters, load, 3 more steps: the same
    parameters, bit for bit, as 6 uninterrupted steps."""
    params = _params()
    opt = opt_cls([{"params": params[:1]}, {"params": params[1:], "lr": 0.02}], **options)
    _steps(opt, params, range(3))
    saved = copy.deepcopy(opt.state_dict())
    copies = [p.detach().clone().requires_grad_(True) for p in params]
    _steps(opt, params, range(3, 6))

    resumed = opt_cls([{"params": copies[:1]}, {"params": copies[1:], "lr": 0.5}], **options)
    resumed.load_state_dict(saved)
    assert resumed.param_groups[1]["lr"] == 0.02  # the options come from the state dict
    assert resumed.param_groups[0]["params"][0] is copies[0]
    _steps(resumed, copies, range(3, 6))
    for p, q in zip(params, copies):
        if opt_cls is torch.optim.NAdam:
            # as in PyTorch: loading casts the float32 `mu_product` to the float64 parameter's dtype
            np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), rtol=1e-6)
        else:
            assert torch.equal(p, q)


@pytest.mark.parametrize(("opt_cls", "options"), ALL, ids=IDS)
def test_older_state_dict_loads(opt_cls, options):
    """A state dict saved before the newer options existed (no maximize, foreach, differentiable in its
    groups) and with the step count as a Python number loads: the options take their old defaults, the
    step becomes a tensor, and the run resumes exactly."""
    params = _params()
    opt = opt_cls(params, **options)
    _steps(opt, params, range(3))
    saved = copy.deepcopy(opt.state_dict())
    for group in saved["param_groups"]:
        for key in ("maximize", "foreach", "differentiable"):
            del group[key]
    for state in saved["state"].values():
        if "step" in state:
            state["step"] = float(state["step"])
    copies = [p.detach().clone().requires_grad_(True) for p in params]
    _steps(opt, params, range(3, 6))

    resumed = opt_cls(copies, **options)
    resumed.load_state_dict(saved)
    group = resumed.param_groups[0]
    assert (group["maximize"], group["foreach"], group["differentiable"]) == (False, None, False)
    for state in resumed.state.values():
        if "step" in state:
            assert torch.is_tensor(state["step"]) and float(state["step"]) == 3.0
    _steps(resumed, copies, range(3, 6))
    for p, q in zip(params, copies):
        np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), rtol=1e-6)


@pytest.mark.parametrize(("opt_cls", "options"), ALL, ids=IDS)
def test_state_dict_format(opt_cls, options):
    params = _params()
    opt = opt_cls([{"params": [params[0]]}, {"params": [params[1]]}], **options)
    _steps(opt, params, range(2))
    sd = opt.state_dict()
    assert set(sd) == {"state", "param_groups"}
    assert sorted(sd["state"]) == [0, 1]
    assert [g["params"] for g in sd["param_groups"]] == [[0], [1]]
    for group in sd["param_groups"]:
        assert set(group) == set(opt.defaults) | {"params"}
    for key, value in sd["state"][1].items():
        if isinstance(value, torch.Tensor) and key not in ("step", "mu_product"):
            assert value.shape == params[1].shape


def test_state_keys_and_step_counter():
    p = _params()[0]
    opt = torch.optim.Adam([p], amsgrad=True)
    _steps(opt, [p, _params()[1]], range(2))
    state = opt.state[p]
    assert sorted(state) == ["exp_avg", "exp_avg_sq", "max_exp_avg_sq", "step"]
    assert isinstance(state["step"], torch.Tensor) and state["step"].dim() == 0
    assert float(state["step"]) == 2.0 and state["step"].dtype == torch.float32
    sgd = torch.optim.SGD([p], lr=0.1, momentum=0.9)
    sgd.step()
    assert sorted(sgd.state[p]) == ["momentum_buffer"]


def test_state_dict_survives_save_and_load():
    params = _params()
    opt = torch.optim.Adam(params, lr=0.1)
    _steps(opt, params, range(2))
    buffer = io.BytesIO()
    torch.save(opt.state_dict(), buffer)
    buffer.seek(0)
    loaded = torch.load(buffer)
    fresh = torch.optim.Adam([p.detach().clone().requires_grad_(True) for p in params], lr=0.1)
    fresh.load_state_dict(loaded)
    assert torch.equal(fresh.state[fresh.param_groups[0]["params"][1]]["exp_avg"], opt.state[params[1]]["exp_avg"])


def test_load_state_dict_errors():
    params = _params()
    opt = torch.optim.SGD(params, lr=0.1)
    two_groups = torch.optim.SGD([{"params": [params[0]]}, {"params": [params[1]]}], lr=0.1)
    with pytest.raises(ValueError, match="loaded state dict has a different number of parameter groups"):
        opt.load_state_dict(two_groups.state_dict())
    one = torch.optim.SGD([params[0]], lr=0.1)
    with pytest.raises(ValueError, match="loaded state dict contains a parameter group that doesn't match the size"):
        opt.load_state_dict(one.state_dict())


@pytest.mark.parametrize("set_to_none", [True, False])
def test_zero_grad(set_to_none):
    params = _params()
    opt = torch.optim.SGD(params, lr=0.1)
    for p, g in zip(params, _grads(0)):
        p.grad = g
    opt.zero_grad(set_to_none=set_to_none)
    for p in params:
        if set_to_none:
            assert p.grad is None
        else:
            assert p.grad is not None and not p.grad.any()


def test_zero_grad_defaults_to_none():
    p = _params()[0]
    (p * p).sum().backward()
    opt = torch.optim.SGD([p])
    opt.zero_grad()
    assert p.grad is None


def test_closure_is_called_with_grad_enabled_and_its_loss_returned():
    p = torch.tensor([3.0], requires_grad=True)
    opt = torch.optim.SGD([p], lr=0.25)
    seen = []

    def closure():
        opt.zero_grad()
        seen.append(torch.is_grad_enabled())
        loss = (p * p).sum()
        loss.backward()
        return loss

    with torch.no_grad():
        loss = opt.step(closure)
    assert seen == [True]
    assert float(loss.detach()) == 9.0
    assert p.tolist() == [1.5]  # 3 - 0.25 * 6
    assert opt.step() is None


def test_add_param_group():
    a, b = _params()
    opt = torch.optim.SGD([a], lr=0.1, momentum=0.9)
    opt.add_param_group({"params": b, "lr": 0.01})
    assert len(opt.param_groups) == 2
    assert opt.param_groups[1]["params"] == [b]
    assert opt.param_groups[1]["lr"] == 0.01 and opt.param_groups[1]["momentum"] == 0.9
    with pytest.raises(ValueError, match="some parameters appear in more than one parameter group"):
        opt.add_param_group({"params": [a]})
    with pytest.raises(TypeError, match="param_group must be a dict"):
        opt.add_param_group([a])
    with pytest.raises(TypeError, match="optimizer parameters need to be organized in ordered collections"):
        opt.add_param_group({"params": {torch.zeros(1, requires_grad=True)}})


def test_duplicate_parameters_in_a_group_warn():
    a = _params()[0]
    with pytest.warns(UserWarning, match="optimizer contains a parameter group with duplicate parameters"):
        torch.optim.SGD([a, a], lr=0.1)


def test_named_parameters():
    a, b = _params()
    opt = torch.optim.SGD([("a", a), ("b", b)], lr=0.1)
    assert opt.param_groups[0]["param_names"] == ["a", "b"]
    assert opt.state_dict()["param_groups"][0]["param_names"] == ["a", "b"]
    with pytest.raises(ValueError, match="all optimizer param groups should be with/without names"):
        opt.add_param_group({"params": [torch.zeros(1, requires_grad=True)]})


def test_bad_params():
    p = torch.zeros(3, requires_grad=True)
    with pytest.raises(
        TypeError, match="params argument given to the optimizer should be an iterable of Tensors or dicts"
    ):
        torch.optim.SGD(p)
    with pytest.raises(TypeError, match="optimizer can only optimize Tensors, but one of the params is float"):
        torch.optim.SGD([1.0])
    with pytest.raises(TypeError, match="optimizer can only optimize Tensors, but one of the params is list"):
        torch.optim.SGD([p, [1]])
    with pytest.raises(ValueError, match="can't optimize a non-leaf Tensor"):
        torch.optim.SGD([p * 2])
    with pytest.raises(ValueError, match="optimizer got an empty parameter list"):
        torch.optim.Adam([])


def test_required_option():
    p = torch.zeros(3, requires_grad=True)
    with pytest.raises(
        ValueError, match="parameter group didn't specify a value of required optimization parameter lr"
    ):
        torch.optim.Optimizer([p], {"lr": required})
    opt = torch.optim.Optimizer([{"params": [p], "lr": 0.1}], {"lr": required})
    assert opt.param_groups[0]["lr"] == 0.1
    with pytest.raises(NotImplementedError):
        opt.step()


@pytest.mark.parametrize(
    ("make", "exc", "message"),
    [
        (lambda p: torch.optim.SGD(p, lr=-0.1), ValueError, "Invalid learning rate: -0.1"),
        (lambda p: torch.optim.SGD(p, momentum=-0.5), ValueError, "Invalid momentum value: -0.5"),
        (lambda p: torch.optim.SGD(p, weight_decay=-1), ValueError, "Invalid weight_decay value: -1"),
        (
            lambda p: torch.optim.SGD(p, nesterov=True),
            ValueError,
            "Nesterov momentum requires a momentum and zero dampening",
        ),
        (
            lambda p: torch.optim.SGD(p, momentum=0.9, dampening=0.1, nesterov=True),
            ValueError,
            "Nesterov momentum requires a momentum and zero dampening",
        ),
        (lambda p: torch.optim.SGD(p, lr=torch.tensor([0.1, 0.2])), ValueError, "Tensor lr must be 1-element"),
        (lambda p: torch.optim.Adam(p, lr=-1.0), ValueError, "Invalid learning rate: -1.0"),
        (lambda p: torch.optim.Adam(p, eps=-1.0), ValueError, "Invalid epsilon value: -1.0"),
        (lambda p: torch.optim.Adam(p, betas=(1.0, 0.999)), ValueError, "Invalid beta parameter at index 0: 1.0"),
        (lambda p: torch.optim.Adam(p, betas=(0.9, -0.1)), ValueError, "Invalid beta parameter at index 1: -0.1"),
        (lambda p: torch.optim.Adam(p, weight_decay=-0.1), ValueError, "Invalid weight_decay value: -0.1"),
        (lambda p: torch.optim.AdamW(p, betas=(0.9, 1.5)), ValueError, "Invalid beta parameter at index 1: 1.5"),
        (
            lambda p: torch.optim.Adam(p, fused=True, foreach=True),
            RuntimeError,
            "`fused` and `foreach` cannot be `True` together.",
        ),
        (
            lambda p: torch.optim.Adam(p, fused=True, differentiable=True),
            RuntimeError,
            "`fused` does not support `differentiable`",
        ),
        (lambda p: torch.optim.RMSprop(p, alpha=-0.1), ValueError, "Invalid alpha value: -0.1"),
        (lambda p: torch.optim.RMSprop(p, momentum=-0.1), ValueError, "Invalid momentum value: -0.1"),
        (lambda p: torch.optim.Adagrad(p, lr_decay=-0.1), ValueError, "Invalid lr_decay value: -0.1"),
        (
            lambda p: torch.optim.Adagrad(p, initial_accumulator_value=-0.1),
            ValueError,
            "Invalid initial_accumulator_value value: -0.1",
        ),
        (lambda p: torch.optim.Adadelta(p, rho=1.1), ValueError, "Invalid rho value: 1.1"),
        (lambda p: torch.optim.Adamax(p, betas=(0.9, 1.0)), ValueError, "Invalid beta parameter at index 1: 1.0"),
        (lambda p: torch.optim.NAdam(p, momentum_decay=-0.1), ValueError, "Invalid momentum_decay value: -0.1"),
        (lambda p: torch.optim.RAdam(p, eps=-1e-8), ValueError, "Invalid epsilon value: -1e-08"),
        (lambda p: torch.optim.LBFGS(p, lr=-1), ValueError, "Invalid learning rate: -1"),
    ],
)
def test_invalid_options(make, exc, message):
    p = [torch.zeros(2, requires_grad=True)]
    with pytest.raises(exc) as info:
        make(p)
    assert str(info.value) == message


def test_defaults_match_pytorch():
    p = [torch.zeros(2, requires_grad=True)]
    expected = {
        torch.optim.SGD: {"lr": 1e-3, "momentum": 0, "dampening": 0, "weight_decay": 0, "nesterov": False},
        torch.optim.Adam: {"lr": 1e-3, "betas": (0.9, 0.999), "eps": 1e-8, "weight_decay": 0, "amsgrad": False},
        torch.optim.AdamW: {"lr": 1e-3, "betas": (0.9, 0.999), "eps": 1e-8, "weight_decay": 1e-2, "amsgrad": False},
        torch.optim.RMSprop: {"lr": 1e-2, "alpha": 0.99, "eps": 1e-8, "momentum": 0, "centered": False},
        torch.optim.Adagrad: {"lr": 1e-2, "lr_decay": 0, "eps": 1e-10, "initial_accumulator_value": 0},
        torch.optim.Adadelta: {"lr": 1.0, "rho": 0.9, "eps": 1e-6, "weight_decay": 0},
        torch.optim.Adamax: {"lr": 2e-3, "betas": (0.9, 0.999), "eps": 1e-8},
        torch.optim.NAdam: {"lr": 2e-3, "momentum_decay": 4e-3, "decoupled_weight_decay": False},
        torch.optim.RAdam: {"lr": 1e-3, "eps": 1e-8, "decoupled_weight_decay": False},
        torch.optim.LBFGS: {
            "lr": 1,
            "max_iter": 20,
            "max_eval": 25,
            "tolerance_grad": 1e-7,
            "tolerance_change": 1e-9,
            "history_size": 100,
            "line_search_fn": None,
        },
    }
    for cls, values in expected.items():
        group = cls(p).param_groups[0]
        for key, value in values.items():
            assert group[key] == value, (cls.__name__, key)


def test_repr():
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1, momentum=0.9)
    text = repr(opt)
    assert text.startswith("SGD (\nParameter Group 0\n")
    assert "    lr: 0.1\n" in text and "    momentum: 0.9\n" in text and text.endswith(")")


def test_step_hooks():
    p = torch.zeros(1, requires_grad=True)
    opt = torch.optim.SGD([p], lr=0.1)
    calls = []
    pre = opt.register_step_pre_hook(lambda o, args, kwargs: calls.append("pre"))
    opt.register_step_post_hook(lambda o, args, kwargs: calls.append("post"))
    p.grad = torch.ones(1)
    opt.step()
    assert calls == ["pre", "post"]
    pre.remove()
    opt.step()
    assert calls == ["pre", "post", "post"]


def test_no_warning_for_a_plain_step():
    p = torch.zeros(1, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        opt = torch.optim.Adam([p])
        p.grad = torch.ones(1)
        opt.step()


def test_global_step_hooks_and_state_dict_hooks():
    from torch.optim.optimizer import register_optimizer_step_post_hook, register_optimizer_step_pre_hook

    p = torch.nn.Parameter(torch.ones(2))
    opt = torch.optim.SGD([p], lr=0.1, momentum=0.9)
    order = []
    hs = [
        register_optimizer_step_pre_hook(lambda o, a, k: order.append("global pre")),
        register_optimizer_step_post_hook(lambda o, a, k: order.append("global post")),
        opt.register_step_pre_hook(lambda o, a, k: order.append("pre")),
        opt.register_step_post_hook(lambda o, a, k: order.append("post")),
    ]
    try:
        p.grad = torch.ones(2)
        opt.step()
    finally:
        for h in hs:
            h.remove()
    assert order == ["global pre", "pre", "post", "global post"]
    events = []
    opt.register_state_dict_pre_hook(lambda o: events.append("sd pre"))
    opt.register_state_dict_post_hook(lambda o, sd: {**sd, "extra": 1})
    sd = opt.state_dict()
    assert sd["extra"] == 1 and events == ["sd pre"]

    def drop_extra(o, sd):
        events.append("load pre")
        return {k: v for k, v in sd.items() if k != "extra"}

    opt.register_load_state_dict_pre_hook(drop_extra)
    opt.register_load_state_dict_post_hook(lambda o: events.append("load post"), prepend=True)
    opt.load_state_dict(sd)
    assert events == ["sd pre", "load pre", "load post"]
