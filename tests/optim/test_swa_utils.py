"""torch.optim.swa_utils: AveragedModel (SWA and EMA, with and without buffers), the averaging functions,
SWALR's schedule against its formula, and update_bn recomputing BatchNorm statistics over a DataLoader."""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
import pytest

import torch
from torch import nn
from torch.optim.swa_utils import (
    SWALR,
    AveragedModel,
    get_ema_avg_fn,
    get_ema_multi_avg_fn,
    get_swa_avg_fn,
    get_swa_multi_avg_fn,
    update_bn,
)
from torch.utils.data import DataLoader, TensorDataset


def _model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2)).double()


def _perturb(model, rng):
    """New random values for every parameter and float buffer, and a step of num_batches_tracked; returns
    them as NumPy arrays (parameters first, then buffers, in module order)."""
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.tensor(rng.standard_normal(tuple(p.shape))))
        for b in model.buffers():
            if b.dtype.is_floating_point:
                b.copy_(torch.tensor(rng.uniform(0.5, 2.0, tuple(b.shape))))
            else:
                b.add_(3)
    return [p.detach().numpy().copy() for p in model.parameters()], [b.numpy().copy() for b in model.buffers()]


def _averaged(avg):
    return [p.detach().numpy() for p in avg.module.parameters()], [b.numpy() for b in avg.module.buffers()]


def test_swa_average_is_the_mean_of_the_snapshots():
    """Default (equal weights): after k updates each parameter is the mean of the k snapshots; n_averaged
    counts them; buffers (use_buffers=False) are copied from the model."""
    rng = np.random.default_rng(0)
    model = _model()
    avg = AveragedModel(model)
    assert avg.n_averaged.dtype == torch.long and int(avg.n_averaged) == 0
    snapshots = []
    for k in range(1, 5):
        params, buffers = _perturb(model, rng)
        snapshots.append(params)
        avg.update_parameters(model)
        assert int(avg.n_averaged) == k
        got_params, got_buffers = _averaged(avg)
        for i, got in enumerate(got_params):
            np.testing.assert_allclose(got, np.mean([s[i] for s in snapshots], axis=0), rtol=1e-12)
        for got, want in zip(got_buffers, buffers):
            np.testing.assert_array_equal(got, want)
    assert int(avg.module[1].num_batches_tracked) == int(model[1].num_batches_tracked) == 12


def test_averaged_model_is_a_copy_and_forwards():
    model = _model().eval()
    avg = AveragedModel(model, device="cpu")
    assert avg.module is not model and avg.module[0].weight is not model[0].weight
    x = torch.randn(5, 3, dtype=torch.float64)
    torch.testing.assert_close(avg(x), model(x))
    with torch.no_grad():
        model[0].weight.add_(1.0)  # the copy does not follow until update_parameters
    assert not torch.equal(avg.module[0].weight, model[0].weight)
    assert "n_averaged" in avg.state_dict() and "module.0.weight" in avg.state_dict()


@pytest.mark.parametrize("use_buffers", [False, True])
def test_ema_multi_avg_fn(use_buffers):
    """EMA: the first update copies; then W = decay W + (1 - decay) W_model, buffers included with
    use_buffers (num_batches_tracked, an integer, as decay * n + (1 - decay) * m truncated)."""
    decay = 0.75
    rng = np.random.default_rng(1)
    model = _model()
    avg = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(decay), use_buffers=use_buffers)
    want_params = want_buffers = None
    for _ in range(4):
        params, buffers = _perturb(model, rng)
        avg.update_parameters(model)
        if want_params is None:
            want_params, want_buffers = params, buffers
        else:
            want_params = [decay * w + (1 - decay) * p for w, p in zip(want_params, params)]
            if use_buffers:
                want_buffers = [
                    decay * w + (1 - decay) * b if b.dtype.kind == "f" else np.trunc(decay * w + (1 - decay) * b)
                    for w, b in zip(want_buffers, buffers)
                ]
            else:
                want_buffers = buffers
        got_params, got_buffers = _averaged(avg)
        for got, want in zip(got_params, want_params):
            np.testing.assert_allclose(got, want, rtol=1e-12)
        for got, want in zip(got_buffers, want_buffers):
            np.testing.assert_allclose(got, want, rtol=1e-12)
    if use_buffers:  # 3, then trunc(0.75 * 3 + 0.25 * 6) = 3, trunc(0.75 * 3 + 0.25 * 9) = 4, then 6
        assert int(avg.module[1].num_batches_tracked) == 6


def test_ema_avg_fn_per_tensor():
    decay = 0.6
    rng = np.random.default_rng(2)
    model = nn.Linear(2, 3).double()
    avg = AveragedModel(model, avg_fn=get_ema_avg_fn(decay))
    want = None
    for _ in range(3):
        params, _ = _perturb(model, rng)
        avg.update_parameters(model)
        want = params if want is None else [decay * w + (1 - decay) * p for w, p in zip(want, params)]
    for got, w in zip(_averaged(avg)[0], want):
        np.testing.assert_allclose(got, w, rtol=1e-12)


@pytest.mark.parametrize("kind", ["avg_fn", "multi_avg_fn"])
def test_explicit_swa_fns_match_the_default(kind):
    rng = np.random.default_rng(3)
    model = nn.Linear(3, 2).double()
    fn = {"avg_fn": get_swa_avg_fn(), "multi_avg_fn": get_swa_multi_avg_fn()}[kind]
    avg, default = AveragedModel(model, **{kind: fn}), AveragedModel(model)
    snaps = []
    for _ in range(4):
        snaps.append(_perturb(model, rng)[0])
        avg.update_parameters(model)
        default.update_parameters(model)
    for got, ref, i in zip(_averaged(avg)[0], _averaged(default)[0], range(2)):
        # the multi-tensor SWA weight 1 / (n + 1) is a float32 tensor in PyTorch
        np.testing.assert_allclose(got, ref, rtol=1e-6)
        np.testing.assert_allclose(got, np.mean([s[i] for s in snaps], axis=0), rtol=1e-6)


def test_averaging_functions_directly():
    a, b = torch.tensor([1.0, 2.0], dtype=torch.float64), torch.tensor([3.0, 6.0], dtype=torch.float64)
    np.testing.assert_allclose(get_ema_avg_fn(0.9)(a, b, 5).numpy(), [1.2, 2.4], rtol=1e-12)
    np.testing.assert_allclose(get_swa_avg_fn()(a, b, torch.tensor(3)).numpy(), [1.5, 3.0], rtol=1e-12)
    avg = [a.clone()]
    get_swa_multi_avg_fn()(avg, [b], 1)
    np.testing.assert_allclose(avg[0].numpy(), [2.0, 4.0], rtol=1e-12)
    ema = [a.clone()]
    get_ema_multi_avg_fn(0.5)(ema, [b], None)
    np.testing.assert_allclose(ema[0].numpy(), [2.0, 4.0], rtol=1e-12)
    ints = [torch.tensor([10, 20])]
    get_ema_multi_avg_fn(0.5)(ints, [torch.tensor([0, 1])], None)  # not float: no lerp, truncated
    assert ints[0].tolist() == [5, 10] and ints[0].dtype == torch.long
    with pytest.raises(RuntimeError, match="For integral input tensors, argument alpha must not be a floating"):
        get_swa_multi_avg_fn()([torch.tensor([10, 20])], [torch.tensor([20, 40])], 1)  # add_, alpha 1 / (n + 1)


@pytest.mark.parametrize("decay", [-0.1, 1.5])
def test_bad_decay(decay):
    message = f"Invalid decay value {decay} provided. Please provide a value in [0,1] range."
    for fn in (get_ema_avg_fn, get_ema_multi_avg_fn):
        with pytest.raises(ValueError, match=re.escape(message)):
            fn(decay)


def test_avg_fn_and_multi_avg_fn_exclusive():
    with pytest.raises(AssertionError, match="Only one of avg_fn and multi_avg_fn should be provided"):
        AveragedModel(nn.Linear(2, 2), avg_fn=get_swa_avg_fn(), multi_avg_fn=get_swa_multi_avg_fn())


# ---- SWALR


def _swalr_lrs(lr0, swa_lr, epochs, strategy, steps):
    """PyTorch's SWALR recursion: each step recovers the starting lr from the current one and re-anneals."""
    anneal = (lambda t: t) if strategy == "linear" else (lambda t: (1 - math.cos(math.pi * t)) / 2)
    lrs, lr = [], lr0
    for s in range(steps + 1):
        step = max(1, s) if epochs == 0 else s
        prev_alpha = anneal(max(0, min(1, (step - 1) / max(1, epochs))))
        start = swa_lr if prev_alpha == 1 else (lr - prev_alpha * swa_lr) / (1 - prev_alpha)
        alpha = anneal(max(0, min(1, step / max(1, epochs))))
        lr = swa_lr * alpha + start * (1 - alpha)
        lrs.append(lr)
    return lrs


def _schedule(optimizer, scheduler, steps):
    lrs = [[g["lr"] for g in optimizer.param_groups]]
    for _ in range(steps):
        optimizer.step()
        scheduler.step()
        lrs.append([g["lr"] for g in optimizer.param_groups])
    return lrs


def test_swalr_linear_hand_values():
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    sched = SWALR(opt, swa_lr=0.1, anneal_epochs=4, anneal_strategy="linear")
    lrs = [v[0] for v in _schedule(opt, sched, 6)]
    np.testing.assert_allclose(lrs, [1.0, 0.775, 0.55, 0.325, 0.1, 0.1, 0.1], rtol=1e-12)
    assert sched.get_last_lr() == [opt.param_groups[0]["lr"]]
    assert opt.param_groups[0]["swa_lr"] == 0.1


@pytest.mark.parametrize("strategy", ["cos", "linear"])
@pytest.mark.parametrize("epochs", [0, 1, 3, 10])
def test_swalr_schedule(strategy, epochs):
    """Two groups with their own lr and swa_lr: the recursion; it reaches swa_lr after anneal_epochs steps and
    equals the closed form swa_lr + (lr0 - swa_lr) (1 - anneal(min(1, s / epochs)))."""
    params = [torch.zeros(1, requires_grad=True), torch.zeros(1, requires_grad=True)]
    opt = torch.optim.SGD([{"params": params[:1], "lr": 0.5}, {"params": params[1:], "lr": 0.02}])
    sched = SWALR(opt, swa_lr=[0.05, 0.2], anneal_epochs=epochs, anneal_strategy=strategy)
    steps = epochs + 3
    got = np.array(_schedule(opt, sched, steps))
    for i, (lr0, swa) in enumerate([(0.5, 0.05), (0.02, 0.2)]):
        np.testing.assert_allclose(got[:, i], _swalr_lrs(lr0, swa, epochs, strategy, steps), rtol=1e-12)
        anneal = (lambda t: t) if strategy == "linear" else (lambda t: (1 - math.cos(math.pi * t)) / 2)
        closed = [swa + (lr0 - swa) * (1 - anneal(min(1, (max(1, s) if epochs == 0 else s) / max(1, epochs))))
                  for s in range(steps + 1)]  # fmt: skip
        np.testing.assert_allclose(got[:, i], closed, rtol=1e-9, atol=1e-15)
        np.testing.assert_allclose(got[epochs:, i], swa, rtol=1e-12)


def test_swalr_follows_an_lr_changed_by_another_scheduler():
    """The start lr is recovered from the current group lr each step, so a change made between steps (as by
    another scheduler) carries into the annealing."""
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    sched = SWALR(opt, swa_lr=0.0, anneal_epochs=4, anneal_strategy="linear")
    opt.step()
    sched.step()  # 0.75
    opt.param_groups[0]["lr"] = 1.5  # as if the start had been 2.0
    opt.step()
    sched.step()
    np.testing.assert_allclose(opt.param_groups[0]["lr"], 1.0, rtol=1e-12)  # 2.0 * (1 - 0.5)


def test_swalr_state_dict_round_trip():
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    sched = SWALR(opt, swa_lr=0.1, anneal_epochs=5, anneal_strategy="linear")
    _schedule(opt, sched, 2)
    sd = sched.state_dict()
    assert "anneal_func" not in sd and "optimizer" not in sd
    assert sd["_anneal_strategy"] == "linear" and sd["anneal_epochs"] == 5
    opt2 = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    sched2 = SWALR(opt2, swa_lr=0.1, anneal_epochs=2, anneal_strategy="cos")
    sched2.load_state_dict(sd)
    assert sched2.anneal_func(0.3) == pytest.approx(0.3)  # linear again
    assert sched2.anneal_epochs == 5 and sched2.last_epoch == sched.last_epoch


def test_swalr_get_lr_outside_step_warns():
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    sched = SWALR(opt, swa_lr=0.1)
    with pytest.warns(UserWarning, match="please use `get_last_lr\\(\\)`"):
        sched.get_lr()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        opt.step()
        sched.step()


def test_swalr_bad_arguments():
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    with pytest.raises(ValueError, match="anneal_strategy must be one of 'cos' or 'linear', instead got exp"):
        SWALR(opt, swa_lr=0.1, anneal_strategy="exp")
    for epochs in (-1, 2.5):
        with pytest.raises(ValueError, match=re.escape(f"anneal_epochs must be equal or greater than 0, got {epochs}")):
            SWALR(opt, swa_lr=0.1, anneal_epochs=epochs)
    with pytest.raises(ValueError, match="swa_lr must have the same length as optimizer.param_groups"):
        SWALR(opt, swa_lr=[0.1, 0.2])


# ---- update_bn


def _bn_model():
    torch.manual_seed(1)
    return nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4, momentum=0.3), nn.ReLU(), nn.BatchNorm1d(4)).double()


@pytest.mark.parametrize("with_labels", [True, False])
def test_update_bn_recomputes_running_stats(with_labels):
    """One pass over the loader: running_mean / running_var become the plain average over the batches of
    the batch mean / unbiased variance (momentum None); momenta and eval mode are restored."""
    rng = np.random.default_rng(4)
    x = rng.standard_normal((24, 3)) * 2.0 + 1.0
    data = torch.tensor(x)
    dataset = TensorDataset(data, torch.zeros(24)) if with_labels else data
    loader = DataLoader(dataset, batch_size=6)
    model = _bn_model()
    with torch.no_grad():
        model[1].running_mean.fill_(5.0)
        model[1].running_var.fill_(7.0)
    model.eval()
    update_bn(loader, model, device="cpu")
    assert not model.training and model[1].momentum == 0.3 and model[3].momentum == 0.1
    w, b = model[0].weight.detach().numpy(), model[0].bias.detach().numpy()
    gamma, beta = model[1].weight.detach().numpy(), model[1].bias.detach().numpy()
    means1, vars1, means2, vars2 = [], [], [], []
    for i in range(0, 24, 6):
        h = x[i : i + 6] @ w.T + b
        means1.append(h.mean(0))
        vars1.append(h.var(0, ddof=1))
        z = np.maximum((h - h.mean(0)) / np.sqrt(h.var(0) + 1e-5) * gamma + beta, 0)  # training-mode BN, ReLU
        means2.append(z.mean(0))
        vars2.append(z.var(0, ddof=1))
    np.testing.assert_allclose(model[1].running_mean.numpy(), np.mean(means1, 0), rtol=1e-10)
    np.testing.assert_allclose(model[1].running_var.numpy(), np.mean(vars1, 0), rtol=1e-10)
    np.testing.assert_allclose(model[3].running_mean.numpy(), np.mean(means2, 0), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(model[3].running_var.numpy(), np.mean(vars2, 0), rtol=1e-9, atol=1e-12)
    assert int(model[1].num_batches_tracked) == 4


def test_update_bn_keeps_training_mode_and_ignores_models_without_bn():
    model = _bn_model().train()
    update_bn([torch.randn(4, 3, dtype=torch.float64)], model)
    assert model.training and int(model[1].num_batches_tracked) == 1
    plain = nn.Linear(3, 2).double().eval()
    update_bn([torch.randn(4, 3, dtype=torch.float64)], plain)  # no BatchNorm: nothing to do
    assert not plain.training


def test_swa_workflow_with_update_bn():
    """AveragedModel + SWALR + update_bn together: the averaged model's BatchNorm statistics are recomputed
    for its averaged weights."""
    torch.manual_seed(2)
    model = _bn_model()
    data = torch.randn(16, 3, dtype=torch.float64)
    loader = DataLoader(TensorDataset(data, data.sum(1, keepdim=True)), batch_size=8)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    swa_model = AveragedModel(model)
    sched = SWALR(opt, swa_lr=0.05, anneal_epochs=2)
    for _ in range(3):
        for xb, yb in loader:
            opt.zero_grad()
            ((model(xb)[:, :1] - yb) ** 2).mean().backward()
            opt.step()
        swa_model.update_parameters(model)
        sched.step()
    assert int(swa_model.n_averaged) == 3 and opt.param_groups[0]["lr"] == pytest.approx(0.05)
    update_bn(loader, swa_model)
    bn = swa_model.module[1]
    h = swa_model.module[0](data).detach()
    means = [h[:8].mean(0), h[8:].mean(0)]
    torch.testing.assert_close(bn.running_mean, (means[0] + means[1]) / 2)
