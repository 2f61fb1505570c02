"""Every learning-rate scheduler's sequence over ~20 epochs against its closed form (written out here),
with the usual loop (optimizer.step() then scheduler.step()); ReduceLROnPlateau's modes; SequentialLR and
ChainedScheduler; state dicts; the step-order warning; the errors PyTorch raises."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import torch
from torch.optim import lr_scheduler

EPOCHS = 20


def _optimizer(lr=(0.1, 0.05), cls=torch.optim.SGD, **options):
    groups = [{"params": [torch.zeros(1, requires_grad=True)], "lr": value} for value in lr]
    return cls(groups, **options)


def _sequence(opt, scheduler, epochs=EPOCHS):
    """The lr of each group at epochs 0..epochs-1 (read before each scheduler step), checking that
    get_last_lr() agrees with the groups."""
    out = []
    for _ in range(epochs):
        current = [g["lr"] for g in opt.param_groups]
        assert scheduler.get_last_lr() == current
        out.append(current)
        opt.step()
        scheduler.step()
    return np.array(out, dtype=np.float64)


def _expected(fn, bases=(0.1, 0.05), epochs=EPOCHS):
    return np.array([[fn(base, e) for base in bases] for e in range(epochs)], dtype=np.float64)


def _check(opt, scheduler, fn, bases=(0.1, 0.05), epochs=EPOCHS):
    np.testing.assert_allclose(_sequence(opt, scheduler, epochs), _expected(fn, bases, epochs), rtol=1e-10, atol=1e-14)


def test_lambda_lr():
    opt = _optimizer()
    fns = [lambda e: 0.95**e, lambda e: 1 / (e + 1)]
    sched = lr_scheduler.LambdaLR(opt, fns)
    np.testing.assert_allclose(
        _sequence(opt, sched), [[0.1 * 0.95**e, 0.05 / (e + 1)] for e in range(EPOCHS)], rtol=1e-12
    )


def test_multiplicative_lr():
    opt = _optimizer()
    sched = lr_scheduler.MultiplicativeLR(opt, lambda e: 0.9)
    _check(opt, sched, lambda b, e: b * 0.9**e)


def test_step_lr():
    opt = _optimizer()
    _check(opt, lr_scheduler.StepLR(opt, step_size=3, gamma=0.5), lambda b, e: b * 0.5 ** (e // 3))


def test_multi_step_lr():
    opt = _optimizer()
    sched = lr_scheduler.MultiStepLR(opt, milestones=[2, 5, 5, 11], gamma=0.1)
    _check(opt, sched, lambda b, e: b * 0.1 ** sum(m <= e for m in [2, 5, 5, 11]))


def test_constant_lr():
    opt = _optimizer()
    _check(opt, lr_scheduler.ConstantLR(opt, factor=0.25, total_iters=4), lambda b, e: b * (0.25 if e < 4 else 1.0))


def test_linear_lr():
    opt = _optimizer()
    sched = lr_scheduler.LinearLR(opt, start_factor=0.2, end_factor=0.9, total_iters=6)
    _check(opt, sched, lambda b, e: b * (0.2 + (0.9 - 0.2) * min(e, 6) / 6))


def test_exponential_lr():
    opt = _optimizer()
    _check(opt, lr_scheduler.ExponentialLR(opt, gamma=0.8), lambda b, e: b * 0.8**e)


@pytest.mark.parametrize("power", [1.0, 2.0, 0.5])
def test_polynomial_lr(power):
    opt = _optimizer()
    sched = lr_scheduler.PolynomialLR(opt, total_iters=8, power=power)
    _check(opt, sched, lambda b, e: b * (1 - min(e, 8) / 8) ** power)


@pytest.mark.parametrize("eta_min", [0.0, 0.01])
def test_cosine_annealing_lr(eta_min):
    """The closed form also past T_max: the schedule keeps following the cosine back up."""
    opt = _optimizer()
    sched = lr_scheduler.CosineAnnealingLR(opt, T_max=7, eta_min=eta_min)
    seq = _sequence(opt, sched, 30)
    expected = _expected(lambda b, e: eta_min + (b - eta_min) * (1 + math.cos(math.pi * e / 7)) / 2, epochs=30)
    np.testing.assert_allclose(seq, expected, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("T_mult", [1, 2])
def test_cosine_annealing_warm_restarts(T_mult):
    opt = _optimizer()
    sched = lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=T_mult, eta_min=0.001)

    def closed(b, e):
        t_i, t_cur = 3, e
        while t_cur >= t_i:
            t_cur -= t_i
            t_i *= T_mult
        return 0.001 + (b - 0.001) * (1 + math.cos(math.pi * t_cur / t_i)) / 2

    _check(opt, sched, closed, epochs=25)


def test_cosine_annealing_warm_restarts_fractional_epochs():
    opt = _optimizer(lr=(0.1,))
    sched = lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=4, T_mult=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for epoch in [0.5, 1.5, 5.0, 13.25]:
            opt.step()
            sched.step(epoch)
            t_i, t_cur = 4, epoch
            while t_cur >= t_i:
                t_cur -= t_i
                t_i *= 2
            assert opt.param_groups[0]["lr"] == pytest.approx(
                0.1 * (1 + math.cos(math.pi * t_cur / t_i)) / 2, rel=1e-12
            )


def _triangular(base, peak, e, up, down, scale):
    cycle = math.floor(1 + e / (up + down))
    x = 1 + e / (up + down) - cycle
    ratio = up / (up + down)
    factor = x / ratio if x <= ratio else (x - 1) / (ratio - 1)
    return base + (peak - base) * factor * scale(cycle, e)


@pytest.mark.parametrize(
    ("mode", "scale"),
    [
        ("triangular", lambda cycle, e: 1.0),
        ("triangular2", lambda cycle, e: 1 / 2 ** (cycle - 1)),
        ("exp_range", lambda cycle, e: 0.9**e),
    ],
)
def test_cyclic_lr(mode, scale):
    opt = _optimizer(lr=(0.5, 0.5), momentum=0.9)
    sched = lr_scheduler.CyclicLR(
        opt, base_lr=[0.01, 0.02], max_lr=0.1, step_size_up=4, step_size_down=2, mode=mode, gamma=0.9
    )
    momenta = []
    seq = []
    for _ in range(EPOCHS):
        seq.append([g["lr"] for g in opt.param_groups])
        momenta.append(opt.param_groups[0]["momentum"])
        opt.step()
        sched.step()
    expected = [[_triangular(b, 0.1, e, 4, 2, scale) for b in (0.01, 0.02)] for e in range(EPOCHS)]
    np.testing.assert_allclose(seq, expected, rtol=1e-10)
    # the momentum cycles inversely between max_momentum (0.9) and base_momentum (0.8)
    expected_m = [0.9 - (0.9 - 0.8) * (_triangular(0.0, 1.0, e, 4, 2, scale)) for e in range(EPOCHS)]
    np.testing.assert_allclose(momenta, expected_m, rtol=1e-10)


def test_cyclic_lr_cycles_adam_beta1():
    opt = _optimizer(lr=(0.5,), cls=torch.optim.Adam)
    lr_scheduler.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=2)
    assert opt.param_groups[0]["betas"] == (0.9, 0.999)
    with pytest.raises(
        ValueError, match="optimizer must support momentum or beta1 with `cycle_momentum` option enabled"
    ):
        lr_scheduler.CyclicLR(_optimizer(lr=(0.5,), cls=torch.optim.Adagrad), base_lr=0.01, max_lr=0.1)


@pytest.mark.parametrize("three_phase", [False, True])
@pytest.mark.parametrize("anneal_strategy", ["cos", "linear"])
def test_one_cycle_lr(three_phase, anneal_strategy):
    total = 20
    opt = _optimizer(lr=(0.5,), momentum=0.9)
    sched = lr_scheduler.OneCycleLR(
        opt, max_lr=1.0, total_steps=total, pct_start=0.25, anneal_strategy=anneal_strategy, three_phase=three_phase
    )
    initial, peak = 1.0 / 25, 1.0
    final = initial / 1e4

    def anneal(start, end, pct):
        if anneal_strategy == "cos":
            return end + (start - end) / 2 * (math.cos(math.pi * pct) + 1)
        return (end - start) * pct + start

    if three_phase:
        phases = [
            (0.25 * total - 1, initial, peak, 0.95, 0.85),
            (2 * 0.25 * total - 2, peak, initial, 0.85, 0.95),
            (total - 1, initial, final, 0.95, 0.95),
        ]
    else:
        phases = [(0.25 * total - 1, initial, peak, 0.95, 0.85), (total - 1, peak, final, 0.85, 0.95)]

    def closed(e):
        start = 0.0
        for i, (end, lr0, lr1, m0, m1) in enumerate(phases):
            if e <= end or i == len(phases) - 1:
                pct = (e - start) / (end - start)
                return anneal(lr0, lr1, pct), anneal(m0, m1, pct)
            start = end

    for e in range(total):
        lr, momentum = closed(e)
        assert opt.param_groups[0]["lr"] == pytest.approx(lr, rel=1e-12, abs=1e-15)
        assert opt.param_groups[0]["momentum"] == pytest.approx(momentum, rel=1e-12)
        opt.step()
        if e < total - 1:
            sched.step()
    sched.step()
    with pytest.raises(
        ValueError, match=f"Tried to step {total + 1} times. The specified number of total steps is {total}"
    ):
        sched.step()


def test_one_cycle_lr_errors():
    opt = _optimizer(lr=(0.5,), momentum=0.9)
    with pytest.raises(ValueError, match=r"You must define either total_steps OR \(epochs AND steps_per_epoch\)"):
        lr_scheduler.OneCycleLR(opt, max_lr=1.0)
    with pytest.raises(ValueError, match="Expected positive integer total_steps, but got 0"):
        lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=0)
    with pytest.raises(ValueError, match="Expected float between 0 and 1 pct_start, but got 1.5"):
        lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=10, pct_start=1.5)
    with pytest.raises(ValueError, match="anneal_strategy must be one of 'cos' or 'linear', instead got step"):
        lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=10, anneal_strategy="step")
    sched = lr_scheduler.OneCycleLR(opt, max_lr=1.0, epochs=2, steps_per_epoch=5)
    assert sched.total_steps == 10


def test_sequential_lr():
    opt = _optimizer()
    first = lr_scheduler.ConstantLR(opt, factor=0.1, total_iters=2)
    second = lr_scheduler.ExponentialLR(opt, gamma=0.9)
    sched = lr_scheduler.SequentialLR(opt, schedulers=[first, second], milestones=[2])
    _check(opt, sched, lambda b, e: b * 0.1 if e < 2 else b * 0.9 ** (e - 2))


def test_sequential_lr_three_phases():
    opt = _optimizer()
    warmup = lr_scheduler.LinearLR(opt, start_factor=0.25, total_iters=4)
    hold = lr_scheduler.ConstantLR(opt, factor=1.0, total_iters=1)
    decay = lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
    sched = lr_scheduler.SequentialLR(opt, [warmup, hold, decay], milestones=[4, 8])

    def closed(b, e):
        if e < 4:
            return b * (0.25 + 0.75 * e / 4)
        if e < 8:
            return b
        return b * 0.5 ** ((e - 8) // 3)

    _check(opt, sched, closed)


def test_chained_scheduler():
    opt = _optimizer()
    sched = lr_scheduler.ChainedScheduler(
        [lr_scheduler.ConstantLR(opt, factor=0.1, total_iters=2), lr_scheduler.ExponentialLR(opt, gamma=0.9)]
    )
    _check(opt, sched, lambda b, e: b * 0.9**e * (0.1 if e < 2 else 1.0))


def test_combined_scheduler_errors():
    opt, other = _optimizer(), _optimizer()
    a = lr_scheduler.StepLR(opt, 2)
    b = lr_scheduler.StepLR(other, 2)
    with pytest.raises(ValueError, match="SequentialLR expects at least one scheduler, but got no scheduler."):
        lr_scheduler.SequentialLR(opt, [], [])
    with pytest.raises(ValueError, match="SequentialLR expects all schedulers to belong to the same optimizer"):
        lr_scheduler.SequentialLR(opt, [a, b], [2])
    with pytest.raises(ValueError, match="Sequential Schedulers expects number of schedulers provided to be one more"):
        lr_scheduler.SequentialLR(opt, [a], [2])
    with pytest.raises(ValueError, match="ChainedScheduler does not support `ReduceLROnPlateau` scheduler"):
        lr_scheduler.ChainedScheduler([a, lr_scheduler.ReduceLROnPlateau(opt)])


def _plateau_lrs(sched, opt, metrics):
    out = []
    for m in metrics:
        opt.step()
        sched.step(m)
        out.append(opt.param_groups[0]["lr"])
    return out


def test_reduce_lr_on_plateau_min_rel():
    opt = _optimizer(lr=(1.0,))
    sched = lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=2)
    # improvements at epochs 1..3; 8 again is not one, nor is 7.9999 (rel. threshold 1e-4); the third
    # bad epoch in a row (more than patience=2) halves the lr and resets the count
    lrs = _plateau_lrs(sched, opt, [10, 9, 8, 8, 8, 8, 7.9999, 7.9999, 7.9999, 7.9999, 5])
    assert lrs == [1.0, 1.0, 1.0, 1.0, 1.0, 0.5, 0.5, 0.5, 0.25, 0.25, 0.25]
    assert sched.best == 5 and sched.get_last_lr() == [0.25]


def test_reduce_lr_on_plateau_max_abs_cooldown_min_lr():
    opt = _optimizer(lr=(1.0,))
    sched = lr_scheduler.ReduceLROnPlateau(
        opt, mode="max", factor=0.1, patience=0, threshold=0.5, threshold_mode="abs", cooldown=1, min_lr=0.005
    )
    # +0.4 is not an improvement under the 0.5 absolute threshold, so with patience=0 it reduces at
    # once; the epoch after a reduction is cooldown (no reduction); the lr stops at min_lr
    lrs = _plateau_lrs(sched, opt, [1.0, 1.4, 1.6, 1.7, 3.0, 3.1, 3.2, 3.3, 3.4])
    assert lrs == pytest.approx([1.0, 0.1, 0.1, 0.01, 0.01, 0.005, 0.005, 0.005, 0.005])


def test_reduce_lr_on_plateau_state_dict_and_errors():
    opt = _optimizer(lr=(1.0,))
    sched = lr_scheduler.ReduceLROnPlateau(opt, patience=1)
    _plateau_lrs(sched, opt, [3, 2, 2])
    state = sched.state_dict()
    assert state["best"] == 2 and state["num_bad_epochs"] == 1 and "optimizer" not in state
    fresh = lr_scheduler.ReduceLROnPlateau(opt, patience=1)
    fresh.load_state_dict(state)
    assert _plateau_lrs(fresh, opt, [2]) == [0.1]
    with pytest.raises(ValueError, match=r"Factor should be < 1.0."):
        lr_scheduler.ReduceLROnPlateau(opt, factor=1.0)
    with pytest.raises(ValueError, match="mode avg is unknown!"):
        lr_scheduler.ReduceLROnPlateau(opt, mode="avg")
    with pytest.raises(ValueError, match="threshold mode percent is unknown!"):
        lr_scheduler.ReduceLROnPlateau(opt, threshold_mode="percent")
    with pytest.raises(ValueError, match="expected 1 min_lrs, got 2"):
        lr_scheduler.ReduceLROnPlateau(opt, min_lr=[0.1, 0.2])


def test_warning_when_scheduler_steps_before_optimizer():
    opt = _optimizer()
    sched = lr_scheduler.StepLR(opt, step_size=2)
    with pytest.warns(UserWarning, match=r"Detected call of `lr_scheduler.step\(\)` before `optimizer.step\(\)`"):
        sched.step()


def test_no_warning_in_the_right_order():
    opt = _optimizer()
    sched = lr_scheduler.StepLR(opt, step_size=2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(3):
            opt.step()
            sched.step()


def test_get_lr_outside_step_warns():
    opt = _optimizer()
    sched = lr_scheduler.ExponentialLR(opt, gamma=0.5)
    with pytest.warns(
        UserWarning, match=r"To get the last learning rate computed by the scheduler, please use `get_last_lr\(\)`."
    ):
        sched.get_lr()


def test_initial_lr_and_base_lrs():
    opt = _optimizer()
    sched = lr_scheduler.StepLR(opt, step_size=2)
    assert [g["initial_lr"] for g in opt.param_groups] == [0.1, 0.05]
    assert sched.base_lrs == [0.1, 0.05] and sched.last_epoch == 0
    with pytest.raises(KeyError, match="param 'initial_lr' is not specified in param_groups\\[0\\]"):
        lr_scheduler.StepLR(_optimizer(), step_size=2, last_epoch=3)
    with pytest.raises(TypeError, match="int is not an Optimizer"):
        lr_scheduler.StepLR(3, step_size=2)


def test_scheduler_state_dict_resumes():
    opt = _optimizer()
    sched = lr_scheduler.MultiStepLR(opt, milestones=[3, 6], gamma=0.5)
    _sequence(opt, sched, 4)
    state = sched.state_dict()
    assert "optimizer" not in state and state["last_epoch"] == 4
    opt2 = _optimizer()
    opt2.load_state_dict(opt.state_dict())
    sched2 = lr_scheduler.MultiStepLR(opt2, milestones=[1], gamma=0.1)
    sched2.load_state_dict(state)
    np.testing.assert_allclose(_sequence(opt2, sched2, 6), _sequence(opt, sched, 6))


def test_lambda_lr_state_dict_keeps_callable_objects_state():
    class Decay:
        def __init__(self, rate):
            self.rate = rate

        def __call__(self, epoch):
            return self.rate**epoch

    opt = _optimizer(lr=(1.0,))
    sched = lr_scheduler.LambdaLR(opt, Decay(0.5))
    state = sched.state_dict()
    assert state["lr_lambdas"] == [{"rate": 0.5}]
    other = lr_scheduler.LambdaLR(opt, Decay(0.9))
    other.load_state_dict(state)
    assert other.lr_lambdas[0].rate == 0.5
    with pytest.raises(ValueError, match="Expected 1 lr_lambdas, but got 2"):
        lr_scheduler.LambdaLR(opt, [Decay(0.5), Decay(0.5)])


def test_step_with_epoch_uses_the_closed_form():
    opt = _optimizer()
    sched = lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
    opt.step()
    with pytest.warns(UserWarning, match="The epoch parameter in `scheduler.step\\(\\)` was not necessary"):
        sched.step(7)
    assert [g["lr"] for g in opt.param_groups] == pytest.approx([0.1 * 0.25, 0.05 * 0.25])


def test_scheduler_errors():
    opt = _optimizer()
    with pytest.raises(ValueError, match="Constant multiplicative factor expected to be between 0 and 1."):
        lr_scheduler.ConstantLR(opt, factor=2.0)
    with pytest.raises(
        ValueError, match="Starting multiplicative factor expected to be greater than 0 and less or equal to 1."
    ):
        lr_scheduler.LinearLR(opt, start_factor=0)
    with pytest.raises(ValueError, match="Ending multiplicative factor expected to be between 0 and 1."):
        lr_scheduler.LinearLR(opt, end_factor=1.5)
    with pytest.raises(ValueError, match="Expected positive integer T_0, but got 0"):
        lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=0)
    with pytest.raises(ValueError, match="Expected integer T_mult >= 1, but got 0"):
        lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=0)
    with pytest.raises(ValueError, match="mode is invalid and scale_fn is None"):
        lr_scheduler.CyclicLR(_optimizer(momentum=0.9), base_lr=0.1, max_lr=1.0, mode="square")
    with pytest.raises(ValueError, match="base_lr must have the same length as optimizer.param_groups"):
        lr_scheduler.CyclicLR(_optimizer(momentum=0.9), base_lr=[0.1], max_lr=1.0)
    with pytest.raises(TypeError, match="lr_lambda should be a function, but got float"):
        lr_scheduler.MultiplicativeLR(opt, 0.5)
