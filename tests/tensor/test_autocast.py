"""torch.autocast on the CPU: which ops lower to the region's dtype, which run in float32, which promote, and
which keep their inputs' dtype (upstream's CPU policy), the values and gradients that gives, the weight cache,
nesting, threads, decorators and custom_fwd/custom_bwd. Runs against upstream PyTorch too (tests-reference)."""

from __future__ import annotations

import threading
import warnings

import numpy as np
import pytest

import torch
import torch.nn.functional as F
from torch import nn

LOW = (torch.bfloat16, torch.float16)


def _x(*shape, seed=0, dtype=torch.float32, requires_grad=False):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=g, dtype=dtype).requires_grad_(requires_grad)


# op, and the dtype its result has in a CPU region of dtype `low` on float32 inputs ("low", "f32" or "keep")
CASES = {
    "mm": (lambda: torch.mm(_x(3, 4), _x(4, 2, seed=1)), "low"),
    "matmul@": (lambda: _x(2, 3, 4) @ _x(4, 5, seed=1), "low"),
    "Tensor.bmm": (lambda: _x(2, 3, 4).bmm(_x(2, 4, 2, seed=1)), "low"),
    "addmm": (lambda: torch.addmm(_x(3, 2), _x(3, 4, seed=1), _x(4, 2, seed=2)), "low"),
    "baddbmm": (lambda: torch.baddbmm(_x(2, 3, 2), _x(2, 3, 4, seed=1), _x(2, 4, 2, seed=2)), "low"),
    "linear": (lambda: F.linear(_x(3, 4), _x(2, 4, seed=1), _x(2, seed=2)), "low"),
    "conv1d": (lambda: F.conv1d(_x(1, 2, 6), _x(3, 2, 3, seed=1)), "low"),
    "conv2d": (lambda: F.conv2d(_x(1, 2, 5, 5), _x(3, 2, 3, 3, seed=1), _x(3, seed=2)), "low"),
    "conv_transpose2d": (lambda: F.conv_transpose2d(_x(1, 2, 4, 4), _x(2, 3, 3, 3, seed=1)), "low"),
    "prelu": (lambda: F.prelu(_x(2, 3), torch.tensor([0.25])), "low"),
    "sdpa": (
        lambda: F.scaled_dot_product_attention(_x(1, 2, 3, 4), _x(1, 2, 3, 4, seed=1), _x(1, 2, 3, 4, seed=2)),
        "low",
    ),  # fmt: skip
    "mse_loss": (lambda: F.mse_loss(_x(3, 4), _x(3, 4, seed=1)), "f32"),
    "l1_loss": (lambda: F.l1_loss(_x(3, 4), _x(3, 4, seed=1)), "f32"),
    "cross_entropy": (lambda: F.cross_entropy(_x(3, 4), torch.tensor([0, 3, 1])), "f32"),
    "nll_loss": (lambda: F.nll_loss(_x(3, 4), torch.tensor([0, 3, 1])), "f32"),
    "bce_with_logits": (lambda: F.binary_cross_entropy_with_logits(_x(3), torch.rand(3)), "f32"),
    "kl_div": (lambda: F.kl_div(_x(3, 4), _x(3, 4, seed=1), reduction="batchmean", log_target=True), "f32"),
    "prod": (lambda: torch.prod(_x(5)), "f32"),
    "cdist": (lambda: torch.cdist(_x(3, 4), _x(2, 4, seed=1)), "f32"),
    "exp": (lambda: torch.exp(_x(3)), "keep"),
    "softmax": (lambda: torch.softmax(_x(2, 3), -1), "keep"),
    "layer_norm": (lambda: F.layer_norm(_x(2, 4), (4,)), "keep"),
    "relu": (lambda: torch.relu(_x(3)), "keep"),
    "sum": (lambda: _x(3).sum(), "keep"),
}


@pytest.mark.parametrize("low", LOW, ids=str)
@pytest.mark.parametrize("name", list(CASES))
def test_cpu_policy_on_float32_inputs(name, low):
    fn, kind = CASES[name]
    with torch.autocast("cpu", dtype=low):
        out = fn()
    assert out.dtype == {"low": low, "f32": torch.float32, "keep": torch.float32}[kind]
    plain = fn()  # outside the region everything is float32 again
    assert plain.dtype == torch.float32


@pytest.mark.parametrize("name", ["mse_loss", "cross_entropy", "prod", "cdist"])
def test_float32_ops_widen_low_precision_inputs(name):
    """An fp32 op given bfloat16 tensors (e.g. a linear layer's output) runs in float32."""
    with torch.autocast("cpu"):
        y = F.linear(_x(3, 4), _x(4, 4, seed=1))
        assert y.dtype == torch.bfloat16
        out = {
            "mse_loss": lambda: F.mse_loss(y, torch.zeros(3, 4)),
            "cross_entropy": lambda: F.cross_entropy(y, torch.tensor([0, 1, 2])),
            "prod": lambda: torch.prod(y),
            "cdist": lambda: torch.cdist(y, y),
        }[name]()
    assert out.dtype == torch.float32


def test_cat_and_stack_promote_to_the_widest_input():
    a, b = _x(2, 3).bfloat16(), _x(2, 3, seed=1)
    with torch.autocast("cpu"):
        assert torch.cat([a, b]).dtype == torch.float32
        assert torch.stack([a, a]).dtype == torch.bfloat16
        assert torch.cat([a, b.double()]).dtype == torch.float64  # float64 is never cast
    with torch.autocast("cpu", dtype=torch.float16):  # bfloat16 inputs in a float16 region: upstream refuses
        with pytest.raises(RuntimeError, match="Unexpected floating ScalarType"):
            torch.stack([a, a])


def test_values_are_the_op_on_inputs_cast_to_the_region_dtype():
    a, b = _x(8, 16), _x(16, 4, seed=1)
    with torch.autocast("cpu"):
        got = torch.mm(a, b)
    want = torch.mm(a.bfloat16(), b.bfloat16())
    np.testing.assert_array_equal(got.float().numpy(), want.float().numpy())
    with torch.autocast("cpu"):
        loss = F.mse_loss(a.bfloat16(), torch.zeros(8, 16))
    np.testing.assert_allclose(loss.item(), (a.bfloat16().float() ** 2).mean().item(), rtol=1e-6)


def test_float64_and_integer_inputs_are_left_alone():
    with torch.autocast("cpu"):
        assert torch.mm(_x(2, 3, dtype=torch.float64), _x(3, 2, seed=1, dtype=torch.float64)).dtype == torch.float64
        assert torch.mm(torch.ones(2, 3, dtype=torch.int64), torch.ones(3, 2, dtype=torch.int64)).dtype == torch.int64


def test_gradients_reach_float32_parameters_in_float32():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 5), nn.ReLU(), nn.Linear(5, 3))
    x, target = _x(4, 6), torch.tensor([0, 2, 1, 0])
    with torch.autocast("cpu"):
        out = model(x)
        loss = F.cross_entropy(out, target)
    assert out.dtype == torch.bfloat16 and loss.dtype == torch.float32
    loss.backward()
    grads = [p.grad for p in model.parameters()]
    assert all(g is not None and g.dtype == torch.float32 for g in grads)
    # the same computation spelled out with explicit casts gives the same gradients
    ref = [p.detach().clone().requires_grad_() for p in model.parameters()]
    h = F.linear(x.bfloat16(), ref[0].bfloat16(), ref[1].bfloat16()).relu()
    out2 = F.linear(h, ref[2].bfloat16(), ref[3].bfloat16())
    F.cross_entropy(out2.float(), target).backward()
    for g, r in zip(grads, ref):
        np.testing.assert_allclose(g.numpy(), r.grad.numpy(), rtol=1e-2, atol=1e-3)


def test_nested_disabled_region_and_state_restored():
    assert not torch.is_autocast_enabled("cpu")
    with torch.autocast("cpu"):
        assert torch.is_autocast_enabled("cpu")
        with torch.autocast("cpu", enabled=False):
            assert torch.mm(_x(2, 2), _x(2, 2)).dtype == torch.float32
        with torch.autocast("cpu", dtype=torch.float16):
            assert torch.mm(_x(2, 2), _x(2, 2)).dtype == torch.float16
        assert torch.get_autocast_dtype("cpu") == torch.bfloat16
        assert torch.mm(_x(2, 2), _x(2, 2)).dtype == torch.bfloat16
    assert not torch.is_autocast_enabled("cpu") and torch.get_autocast_dtype("cpu") == torch.bfloat16


def test_decorator_and_threads():
    @torch.autocast("cpu")
    def f(a, b):
        return a @ b

    assert f(_x(2, 2), _x(2, 2)).dtype == torch.bfloat16
    seen = []
    with torch.autocast("cpu"):
        t = threading.Thread(target=lambda: seen.append(torch.mm(_x(2, 2), _x(2, 2)).dtype))
        t.start()
        t.join()
    assert seen == [torch.float32]  # the state is per thread
    with pytest.raises(TypeError, match="requires a callable"):
        torch.autocast("cpu")(3)


def test_bad_arguments():
    with pytest.raises(
        RuntimeError, match="unsupported autocast device_type 'xyz'|device type at start of device string: xyz"
    ):
        torch.autocast("xyz")
    with pytest.raises(ValueError, match="Expected `device_type` of type `str`"):
        torch.autocast(torch.device("cpu"))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with torch.autocast("cpu", dtype=torch.float64):
            assert torch.mm(_x(2, 2), _x(2, 2)).dtype == torch.float32
    assert any("target dtype is not supported. Disabling autocast" in str(x.message) for x in w)


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the warning given without a GPU")
def test_cuda_region_without_a_gpu_warns_and_does_nothing():
    with pytest.warns(UserWarning, match="CUDA is not available"):
        with torch.autocast("cuda"):
            assert not torch.is_autocast_enabled("cuda")


def test_cache_gives_one_cast_per_parameter_and_is_dropped_on_exit():
    lin = nn.Linear(4, 4)
    x = _x(2, 4)
    with torch.autocast("cpu"):
        y1, y2 = lin(x), lin(x)
        assert y1.grad_fn is not None
        assert torch.equal(y1, y2)
    (y1.float().sum() + y2.float().sum()).backward()
    np.testing.assert_allclose(lin.bias.grad.numpy(), np.full(4, 4.0))
    assert torch.is_autocast_cache_enabled()


def test_custom_fwd_casts_inputs_and_custom_bwd_restores_the_state():
    seen = {}

    class Square(torch.autograd.Function):
        @staticmethod
        @torch.amp.custom_fwd(device_type="cpu", cast_inputs=torch.float32)
        def forward(ctx, x):
            seen["fwd"] = (x.dtype, torch.is_autocast_enabled("cpu"))
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        @torch.amp.custom_bwd(device_type="cpu")
        def backward(ctx, g):
            seen["bwd"] = torch.is_autocast_enabled("cpu")
            (x,) = ctx.saved_tensors
            return 2 * x * g

    x = _x(3, dtype=torch.bfloat16, requires_grad=True)
    with torch.autocast("cpu"):
        y = Square.apply(x)
    y.sum().backward()
    assert seen["fwd"] == (torch.float32, False) and seen["bwd"] is False
    assert y.dtype == torch.float32 and x.grad.dtype == torch.bfloat16


def test_deprecated_device_forms():
    with pytest.warns(FutureWarning, match=r"torch.cpu.amp.autocast\(args...\)` is deprecated"):
        region = torch.cpu.amp.autocast()
    with region:
        assert torch.mm(_x(2, 2), _x(2, 2)).dtype == torch.bfloat16
    with pytest.warns(FutureWarning, match=r"torch.cuda.amp.GradScaler\(args...\)` is deprecated"):
        torch.cuda.amp.GradScaler(enabled=False)
