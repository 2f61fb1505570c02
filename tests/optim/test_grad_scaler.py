"""torch.amp.GradScaler on "cpu": scaling, unscaling, skipped steps and scale backoff/growth, a training loop
equal to the unscaled one, state_dict/pickle round trips, error messages, the disabled pass-through, the
"cuda"-without-GPU warning, and the two private kernels (torch._amp_foreach_non_finite_check_and_unscale_,
torch._amp_update_scale_) against their ATen semantics."""

from __future__ import annotations

import pickle
import re
import warnings

import numpy as np
import pytest

import torch
from torch import nn
from torch.amp.grad_scaler import GradScaler, OptState

if hasattr(torch, "_amp_update_scale_"):
    _unscale_kernel = torch._amp_foreach_non_finite_check_and_unscale_
    _update_kernel = torch._amp_update_scale_
else:
    from torch.amp._scaling import _amp_foreach_non_finite_check_and_unscale_ as _unscale_kernel
    from torch.amp._scaling import _amp_update_scale_ as _update_kernel

INF = float("inf")
NAN = float("nan")


def _param(values, grad):
    p = nn.Parameter(torch.tensor(values, dtype=torch.float32))
    p.grad = torch.tensor(grad, dtype=torch.float32)
    return p


def _scaled(scaler):
    """Make the scaler's lazy scale tensor (as the first scale(loss) of an iteration does)."""
    scaler.scale(torch.tensor(1.0))
    return scaler


# ---- scale ---------------------------------------------------------------------------------------------


def test_scale_tensor_and_lazy_init():
    scaler = GradScaler("cpu", init_scale=8.0)
    assert scaler.get_scale() == 8.0 and scaler._scale is None
    out = scaler.scale(torch.tensor([1.5, -2.0]))
    np.testing.assert_array_equal(out.numpy(), [12.0, -16.0])
    assert scaler._scale.dtype == torch.float32 and scaler._scale.dim() == 0
    assert scaler._growth_tracker.dtype == torch.int32 and scaler._growth_tracker.item() == 0
    assert scaler.get_scale() == 8.0


def test_scale_keeps_graph():
    scaler = GradScaler("cpu", init_scale=4.0)
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    scaler.scale((x * x).sum()).backward()
    np.testing.assert_array_equal(x.grad.numpy(), [8.0, 16.0])


def test_scale_nested_iterables():
    scaler = GradScaler("cpu", init_scale=2.0)
    a, b, c = torch.tensor(1.0), torch.tensor([2.0, 3.0]), torch.tensor(4.0)
    out = scaler.scale([a, (b, [c])])
    assert isinstance(out, list) and isinstance(out[1], tuple) and isinstance(out[1][1], list)
    assert out[0].item() == 2.0 and out[1][1][0].item() == 8.0
    np.testing.assert_array_equal(out[1][0].numpy(), [4.0, 6.0])
    lazy = scaler.scale(t for t in (a, c))
    assert not isinstance(lazy, (list, tuple))
    assert [t.item() for t in lazy] == [2.0, 8.0]
    with pytest.raises(ValueError, match="outputs must be a Tensor or an iterable of Tensors"):
        scaler.scale([a, 3.0])


# ---- unscale_ / step / update ----------------------------------------------------------------------------


def test_unscale_divides_grads_and_records_no_inf():
    scaler = _scaled(GradScaler("cpu", init_scale=4.0))
    p, q = _param([1.0, 2.0], [4.0, -8.0]), _param([0.0], [2.0])
    q2 = nn.Parameter(torch.zeros(2))  # no grad: skipped
    opt = torch.optim.SGD([{"params": [p, q2]}, {"params": [q]}], lr=1.0)
    scaler.unscale_(opt)
    np.testing.assert_array_equal(p.grad.numpy(), [1.0, -2.0])
    np.testing.assert_array_equal(q.grad.numpy(), [0.5])
    assert q2.grad is None
    found = scaler._found_inf_per_device(opt)
    assert [v.item() for v in found.values()] == [0.0]
    assert scaler._per_optimizer_states[id(opt)]["stage"] is OptState.UNSCALED
    scaler.step(opt)  # does not unscale again
    np.testing.assert_array_equal(p.detach().numpy(), [0.0, 4.0])
    np.testing.assert_array_equal(q.detach().numpy(), [-0.5])


def test_unscale_float64_grads():
    scaler = _scaled(GradScaler("cpu", init_scale=3.0))
    p = nn.Parameter(torch.zeros(2, dtype=torch.float64))
    p.grad = torch.tensor([1.0, 3.0], dtype=torch.float64)
    scaler.unscale_(torch.optim.SGD([p], lr=1.0))
    # inv_scale is float32(1/3); the product is taken in float64.
    inv = float(np.float32(1.0 / 3.0))
    np.testing.assert_array_equal(p.grad.numpy(), [inv, 3.0 * inv])


@pytest.mark.parametrize("bad", [INF, -INF, NAN])
def test_step_skipped_on_non_finite(bad):
    scaler = _scaled(GradScaler("cpu", init_scale=16.0, growth_interval=1))
    p, q = _param([1.0, 2.0], [bad, 4.0]), _param([3.0], [8.0])
    opt = torch.optim.SGD([p, q], lr=1.0)
    assert scaler.step(opt) is None
    np.testing.assert_array_equal(p.detach().numpy(), [1.0, 2.0])
    np.testing.assert_array_equal(q.detach().numpy(), [3.0])
    np.testing.assert_array_equal(q.grad.numpy(), [0.5])  # still unscaled
    scaler.update()
    assert scaler.get_scale() == 8.0 and scaler._get_growth_tracker() == 0


def test_one_skipped_optimizer_backs_off_shared_scale():
    scaler = _scaled(GradScaler("cpu", init_scale=16.0))
    p, q = _param([1.0], [INF]), _param([1.0], [16.0])
    opt_p, opt_q = torch.optim.SGD([p], lr=1.0), torch.optim.SGD([q], lr=1.0)
    scaler.step(opt_p)
    scaler.step(opt_q)
    assert p.item() == 1.0 and q.item() == 0.0  # only opt_p's step is skipped
    scaler.update()
    assert scaler.get_scale() == 8.0


def test_growth_after_interval_and_tracker():
    scaler = _scaled(GradScaler("cpu", init_scale=4.0, growth_factor=3.0, growth_interval=3))
    p = _param([0.0], [0.0])
    opt = torch.optim.SGD([p], lr=1.0)
    scales, trackers = [], []
    for grad in [1.0, 1.0, 1.0, 1.0, INF, 1.0, 1.0, 1.0]:
        p.grad = torch.tensor([grad])
        scaler.step(opt)
        scaler.update()
        scales.append(scaler.get_scale())
        trackers.append(scaler._get_growth_tracker())
    assert scales == [4.0, 4.0, 12.0, 12.0, 6.0, 6.0, 6.0, 18.0]
    assert trackers == [1, 2, 0, 1, 0, 1, 2, 0]


def test_step_returns_optimizer_step_value_and_forwards_args():
    class Opt(torch.optim.SGD):
        def step(self, closure=None, *, tag=None):
            super().step()
            return ("stepped", tag)

    scaler = _scaled(GradScaler("cpu", init_scale=2.0))
    p = _param([1.0], [2.0])
    assert scaler.step(Opt([p], lr=1.0), tag=7) == ("stepped", 7)
    assert p.item() == 0.0


def test_update_new_scale():
    scaler = _scaled(GradScaler("cpu", init_scale=4.0))
    scaler.update(32.0)
    assert scaler.get_scale() == 32.0
    t = torch.tensor(64.0)
    scaler.update(t)
    t.fill_(1.0)  # copied, not aliased
    assert scaler.get_scale() == 64.0
    reason = "new_scale should be a float or a 1-element"
    with pytest.raises(AssertionError, match=reason):
        scaler.update(torch.ones(2))
    with pytest.raises(AssertionError, match=reason):
        scaler.update(torch.tensor(2.0, requires_grad=True))


def test_training_loop_matches_unscaled():
    """Power-of-two scales make the unscaled gradients exact, so both loops agree bit for bit, including a
    step skipped (and not taken by the reference) when a gradient is poisoned with inf."""
    torch.manual_seed(0)
    ref = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 1))
    amp = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 1))
    amp.load_state_dict(ref.state_dict())
    opt_ref = torch.optim.SGD(ref.parameters(), lr=0.1, momentum=0.9)
    opt_amp = torch.optim.SGD(amp.parameters(), lr=0.1, momentum=0.9)
    scaler = GradScaler("cpu", init_scale=2.0**10, growth_interval=2)
    rng = np.random.default_rng(0)
    poisoned = 4
    for it in range(8):
        x = torch.tensor(rng.standard_normal((6, 3)), dtype=torch.float32)
        y = torch.tensor(rng.standard_normal((6, 1)), dtype=torch.float32)
        if it != poisoned:
            opt_ref.zero_grad()
            nn.functional.mse_loss(ref(x), y).backward()
            opt_ref.step()
        opt_amp.zero_grad()
        scaler.scale(nn.functional.mse_loss(amp(x), y)).backward()
        if it == poisoned:
            with torch.no_grad():
                amp[0].weight.grad[0, 0] = INF
        scaler.step(opt_amp)
        scaler.update()
    for a, b in zip(amp.parameters(), ref.parameters()):
        np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy())
    # growth at it 1 and 3, backoff at 4, growth at 6: 2**10 * 2 * 2 / 2 * 2.
    assert scaler.get_scale() == 2.0**12 and scaler._get_growth_tracker() == 1


# ---- custom optimizers with _step_supports_amp_scaling ---------------------------------------------------


def test_step_supports_amp_scaling_attributes():
    seen = {}

    class Fused(torch.optim.SGD):
        _step_supports_amp_scaling = True

        def step(self, closure=None):
            seen["grad_scale"] = self.grad_scale.item()
            seen["found_inf"] = self.found_inf.item()
            return "fused"

    scaler = _scaled(GradScaler("cpu", init_scale=8.0))
    p = _param([1.0], [INF])
    opt = Fused([p], lr=1.0)
    assert scaler.step(opt) == "fused"
    assert seen == {"grad_scale": 8.0, "found_inf": 1.0}
    assert p.grad.item() == INF  # grads are checked, not unscaled
    assert not hasattr(opt, "grad_scale") and not hasattr(opt, "found_inf")
    scaler.update()
    assert scaler.get_scale() == 4.0


def test_step_supports_amp_scaling_grad_scaler_kwarg():
    class Legacy(torch.optim.SGD):
        _step_supports_amp_scaling = True

        def step(self, closure=None, grad_scaler=None):
            return grad_scaler

    scaler = _scaled(GradScaler("cpu"))
    with pytest.warns(FutureWarning, match="GradScaler is going to stop passing itself"):
        assert scaler.step(Legacy([_param([1.0], [1.0])], lr=1.0)) is scaler


# ---- errors ----------------------------------------------------------------------------------------------


def test_error_messages():
    scaler = _scaled(GradScaler("cpu"))
    opt = torch.optim.SGD([_param([1.0], [1.0])], lr=1.0)
    scaler.unscale_(opt)
    with pytest.raises(RuntimeError, match=r"unscale_\(\) has already been called on this optimizer since the last"):
        scaler.unscale_(opt)
    with pytest.raises(RuntimeError, match="Closure use is not currently supported if GradScaler is enabled."):
        scaler.step(opt, closure=lambda: 0.0)
    scaler.step(opt)
    with pytest.raises(RuntimeError, match=r"step\(\) has already been called since the last update\(\)."):
        scaler.step(opt)
    with pytest.raises(RuntimeError, match=r"unscale_\(\) is being called after step\(\)."):
        scaler.unscale_(opt)
    with pytest.raises(AssertionError, match="may only be pickled at the beginning"):
        pickle.dumps(scaler)
    scaler.update()
    with pytest.raises(AssertionError, match="No inf checks were recorded prior to update."):
        scaler.update()
    scaler.unscale_(opt)  # a new iteration after update()


def test_fp16_grads_refused():
    scaler = _scaled(GradScaler("cpu"))
    p = nn.Parameter(torch.zeros(2, dtype=torch.float16))
    p.grad = torch.ones(2, dtype=torch.float16)
    with pytest.raises(ValueError, match="Attempting to unscale FP16 gradients."):
        scaler.unscale_(torch.optim.SGD([p], lr=1.0))


def test_errors_before_scale_and_bad_factors():
    scaler = GradScaler("cpu")
    opt = torch.optim.SGD([_param([1.0], [1.0])], lr=1.0)
    for call, name in [(lambda: scaler.unscale_(opt), "unscale_"), (lambda: scaler.step(opt), "step")]:
        with pytest.raises(AssertionError, match=f"Attempted {name} but _scale is None"):
            call()
    with pytest.raises(AssertionError, match="Attempted update but _scale is None"):
        scaler.update()
    with pytest.raises(AssertionError, match="The growth factor must be > 1.0."):
        GradScaler("cpu", growth_factor=1.0)
    with pytest.raises(AssertionError, match="The backoff factor must be < 1.0."):
        GradScaler("cpu", backoff_factor=1.0)


# ---- state ---------------------------------------------------------------------------------------------


def test_getters_setters():
    scaler = GradScaler("cpu", growth_factor=3.0, backoff_factor=0.25, growth_interval=7)
    assert (scaler.get_growth_factor(), scaler.get_backoff_factor(), scaler.get_growth_interval()) == (3.0, 0.25, 7)
    scaler.set_growth_factor(4.0)
    scaler.set_backoff_factor(0.125)
    scaler.set_growth_interval(1)
    assert (scaler.get_growth_factor(), scaler.get_backoff_factor(), scaler.get_growth_interval()) == (4.0, 0.125, 1)
    assert scaler.is_enabled()
    _scaled(scaler)
    p = _param([0.0], [1.0])
    scaler.step(torch.optim.SGD([p], lr=1.0))
    scaler.update()
    assert scaler.get_scale() == 4.0 * 2.0**16


def test_state_dict_round_trip():
    scaler = _scaled(GradScaler("cpu", init_scale=32.0, growth_factor=4.0, backoff_factor=0.25, growth_interval=5))
    p = _param([0.0], [1.0])
    opt = torch.optim.SGD([p], lr=1.0)
    for _ in range(2):
        scaler.step(opt)
        scaler.update()
    sd = scaler.state_dict()
    assert sd == {
        "scale": 32.0,
        "growth_factor": 4.0,
        "backoff_factor": 0.25,
        "growth_interval": 5,
        "_growth_tracker": 2,
    }
    assert type(sd["scale"]) is float and type(sd["_growth_tracker"]) is int
    fresh = GradScaler("cpu")
    fresh.load_state_dict(sd)  # before the lazy init
    assert fresh.state_dict() == sd
    assert fresh.scale(torch.tensor(1.0)).item() == 32.0 and fresh._growth_tracker.item() == 2
    live = _scaled(GradScaler("cpu"))
    live.load_state_dict(sd)  # after it: the tensors are filled
    assert live._scale.item() == 32.0 and live._growth_tracker.item() == 2
    with pytest.raises(RuntimeError, match="The source state dict is empty"):
        live.load_state_dict({})


def test_pickle_round_trip():
    scaler = _scaled(GradScaler("cpu", init_scale=8.0, growth_interval=3))
    p = _param([0.0], [1.0])
    scaler.step(torch.optim.SGD([p], lr=1.0))
    scaler.update()
    clone = pickle.loads(pickle.dumps(scaler))
    assert clone._scale is None and clone._growth_tracker is None
    assert (
        clone.state_dict()
        == scaler.state_dict()
        == {
            "scale": 8.0,
            "growth_factor": 2.0,
            "backoff_factor": 0.5,
            "growth_interval": 3,
            "_growth_tracker": 1,
        }
    )
    assert scaler._scale is not None  # the original keeps its tensors


# ---- disabled ------------------------------------------------------------------------------------------


def test_disabled_is_pass_through():
    scaler = GradScaler("cpu", enabled=False, growth_factor=0.5)  # factors are not checked when disabled
    assert not scaler.is_enabled()
    loss = torch.tensor(3.0)
    assert scaler.scale(loss) is loss
    outs = [loss]
    assert scaler.scale(outs) is outs
    p = _param([1.0], [INF])
    opt = torch.optim.SGD([p], lr=1.0)
    scaler.unscale_(opt)
    assert p.grad.item() == INF
    calls = []

    def closure():
        calls.append(1)
        return 5.0

    assert scaler.step(opt, closure=closure) == 5.0 and calls == [1]
    assert p.item() == -INF  # the step was not skipped
    scaler.update()
    scaler.update(4.0)
    assert scaler.get_scale() == 1.0 and scaler.state_dict() == {} and scaler._get_growth_tracker() == 0
    scaler.load_state_dict({})
    assert pickle.loads(pickle.dumps(scaler)).is_enabled() is False


@pytest.mark.skipif(torch.cuda.is_available(), reason="needs a machine without a GPU")
def test_cuda_without_gpu_warns_and_disables():
    msg = "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling."
    with pytest.warns(UserWarning, match=re.escape(msg)):
        scaler = GradScaler()
    assert not scaler.is_enabled()
    loss = torch.tensor(2.0)
    assert scaler.scale(loss) is loss
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert not GradScaler("cuda", enabled=False).is_enabled()  # no warning when disabled anyway
        assert GradScaler("cpu").is_enabled()


# ---- the kernels ---------------------------------------------------------------------------------------


def test_unscale_kernel():
    grads = [torch.tensor([1.0, INF]), torch.tensor([2.0, 4.0]), torch.ones(4)[::2] * 6.0]
    found, inv = torch.zeros(()), torch.tensor(0.5)
    assert _unscale_kernel(grads, found, inv) is None
    np.testing.assert_array_equal(grads[0].numpy(), [0.5, INF])  # non-finite grads are unscaled too
    np.testing.assert_array_equal(grads[1].numpy(), [1.0, 2.0])
    np.testing.assert_array_equal(grads[2].numpy(), [3.0, 3.0])
    assert found.item() == 1.0
    clean = [torch.tensor([2.0], dtype=torch.float64), torch.tensor([NAN], dtype=torch.float16)]
    found = torch.zeros(())
    _unscale_kernel(clean[:1], found, inv)
    assert found.item() == 0.0 and clean[0].item() == 1.0
    _unscale_kernel(clean[1:], found, inv)
    assert found.item() == 1.0
    _unscale_kernel([torch.tensor([1.0])], found, inv)
    assert found.item() == 1.0  # set, never cleared
    _unscale_kernel([], torch.zeros(1), torch.ones(1))
    bf = torch.tensor([4.0], dtype=torch.bfloat16)
    _unscale_kernel([bf], torch.zeros(()), inv)
    assert bf.item() == 2.0


def test_unscale_kernel_errors():
    g, fi, inv = [torch.ones(2)], torch.zeros(()), torch.tensor(1.0)
    for args, msg in [
        ((g, torch.zeros(2), inv), "found_inf must be a 1-element tensor."),
        ((g, fi, torch.ones(2)), "inv_scale must be a 1-element tensor."),
        ((g, fi.double(), inv), "found_inf must be a float tensor."),
        ((g, fi, inv.double()), "inv_scale must be a float tensor."),
    ]:
        with pytest.raises(RuntimeError, match=msg):
            _unscale_kernel(*args)
    with pytest.raises(NotImplementedError, match="not implemented for 'Int'"):
        _unscale_kernel([torch.ones(2, dtype=torch.int32)], fi, inv)


def test_update_kernel():
    def run(scale, tracker, found, growth=2.0, backoff=0.5, interval=2):
        s, t = torch.tensor(scale), torch.tensor(tracker, dtype=torch.int32)
        assert _update_kernel(s, t, torch.tensor(found), growth, backoff, interval) is s
        return s.item(), t.item()

    assert run(4.0, 0, 0.0) == (4.0, 1)
    assert run(4.0, 1, 0.0) == (8.0, 0)
    assert run(4.0, 1, 1.0) == (2.0, 0)
    assert run(4.0, 1, 2.0) == (2.0, 0)  # any nonzero found_inf
    assert run(4.0, 1, NAN) == (2.0, 0)  # NaN is nonzero
    assert run(3e38, 0, 0.0, interval=1) == (float(np.float32(3e38)), 0)  # growth would overflow: kept
    assert run(4.0, 5, 0.0, interval=3) == (4.0, 6)  # only equality grows
    assert run(4.0, 0, 0.0, interval=0) == (4.0, 1)
    # the product is rounded from float64 to float32, as ATen's kernel
    assert run(4.0, 0, 1.0, backoff=0.3)[0] == float(np.float32(4.0 * 0.3))
    assert run(5.0, 0, 0.0, growth=1.1, interval=1)[0] == float(np.float32(5.0 * 1.1))
    s = torch.tensor([4.0])
    _update_kernel(s, torch.zeros(1, dtype=torch.int32), torch.zeros(1), 2.0, 0.5, 1)
    assert s.tolist() == [8.0]


def test_update_kernel_errors():
    s, t, f = torch.tensor(4.0), torch.tensor(0, dtype=torch.int32), torch.tensor(0.0)
    for args, msg in [
        ((torch.ones(2), t, f), "current_scale must be a 1-element tensor."),
        ((s, torch.zeros(2, dtype=torch.int32), f), "growth_tracker must be a 1-element tensor."),
        ((s, t, torch.zeros(2)), "found_inf must be a 1-element tensor."),
        ((s, torch.tensor(0), f), "growth_tracker must be an int tensor."),
        ((s.double(), t, f), "current_scale must be a float tensor."),
        ((s, t, f.double()), "found_inf must be a float tensor."),
    ]:
        with pytest.raises(RuntimeError, match=msg):
            _update_kernel(*args, 2.0, 0.5, 1)
