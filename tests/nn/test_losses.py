"""The elementwise losses (l1, mse, huber, smooth_l1, binary_cross_entropy and its with_logits form, kl_div) on
their kernel (torch._pointwise_loss): every reduction against a float64 NumPy formula, weights, a broadcast
target, the clamps and zero cases, 16-bit input, and gradcheck with respect to input and target."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import torch
import torch.nn.functional as F


def _np_loss(name, x, t, **kw):
    """Elementwise loss in float64, PyTorch's definitions."""
    x, t = np.asarray(x, np.float64), np.asarray(t, np.float64)
    d = x - t
    if name == "l1":
        return np.abs(d)
    if name == "mse":
        return d * d
    if name == "huber":
        delta = kw.get("delta", 1.0)
        return np.where(np.abs(d) < delta, 0.5 * d * d, delta * (np.abs(d) - 0.5 * delta))
    if name == "smooth_l1":
        beta = kw.get("beta", 1.0)
        return np.abs(d) if beta == 0 else np.where(np.abs(d) < beta, 0.5 * d * d / beta, np.abs(d) - 0.5 * beta)
    if name == "bce":
        with np.errstate(divide="ignore"):
            return -(t * np.maximum(np.log(x), -100) + (1 - t) * np.maximum(np.log1p(-x), -100))
    if name == "bce_logits":
        return (1 - t) * x + np.maximum(-x, 0) + np.log1p(np.exp(-np.abs(x)))
    if name == "kl_div":
        if kw.get("log_target"):
            return np.exp(t) * (t - x)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(t > 0, t * np.log(np.where(t > 0, t, 1)), 0) - t * x
    raise AssertionError(name)


CALLS = {
    "l1": lambda x, t, **kw: F.l1_loss(x, t, **kw),
    "mse": lambda x, t, **kw: F.mse_loss(x, t, **kw),
    "huber": lambda x, t, **kw: F.huber_loss(x, t, delta=0.7, **kw),
    "smooth_l1": lambda x, t, **kw: F.smooth_l1_loss(x, t, beta=0.6, **kw),
    "smooth_l1_beta0": lambda x, t, **kw: F.smooth_l1_loss(x, t, beta=0.0, **kw),
    "bce": lambda x, t, **kw: F.binary_cross_entropy(x, t, **kw),
    "bce_logits": lambda x, t, **kw: F.binary_cross_entropy_with_logits(x, t, **kw),
    "kl_div": lambda x, t, **kw: F.kl_div(x, t, **kw),
    "kl_div_log_target": lambda x, t, **kw: F.kl_div(x, t, log_target=True, **kw),
}
PARAMS = {"huber": dict(delta=0.7), "smooth_l1": dict(beta=0.6), "smooth_l1_beta0": dict(beta=0.0)}
NP_NAME = {"smooth_l1_beta0": "smooth_l1", "kl_div_log_target": "kl_div"}


def _inputs(name, device, dtype=torch.float64, shape=(4, 5), zero_targets=True):
    g = torch.Generator().manual_seed(0)
    if name == "bce":
        x, t = torch.rand(shape, generator=g) * 0.9 + 0.05, torch.rand(shape, generator=g)
    elif name.startswith("kl_div"):
        x = torch.log_softmax(torch.randn(shape, generator=g), -1)
        t = torch.softmax(torch.randn(shape, generator=g), -1)
        if name == "kl_div_log_target":
            t = t.log()
        elif zero_targets:
            t[:, 0] = 0.0  # kl_div's 0 * log 0 = 0
    else:
        x, t = torch.randn(shape, generator=g), torch.randn(shape, generator=g)
    return x.to(device=device, dtype=dtype), t.to(device=device, dtype=dtype)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("name", list(CALLS))
def test_loss_against_numpy(device, name, reduction):
    x, t = _inputs(name, device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # kl_div's 'mean' warning
        got = CALLS[name](x, t, reduction=reduction)
    kw = dict(PARAMS.get(name, {}), log_target=name == "kl_div_log_target")
    want = _np_loss(NP_NAME.get(name, name), x.cpu().numpy(), t.cpu().numpy(), **kw)
    want = {"none": want, "mean": want.mean(), "sum": want.sum()}[reduction]
    np.testing.assert_allclose(got.cpu().numpy(), want, rtol=1e-10, atol=1e-12)
    got32 = CALLS[name](x.float(), t.float(), reduction="sum")
    np.testing.assert_allclose(
        got32.item(), np.sum(_np_loss(NP_NAME.get(name, name), x.cpu().numpy(), t.cpu().numpy(), **kw)), rtol=1e-5
    )


@pytest.mark.parametrize("name", [n for n in CALLS if n != "smooth_l1_beta0"])
def test_loss_gradients(device, name):
    x, t = _inputs(name, device, zero_targets=False)  # a zero target has no derivative (log 0)
    x.requires_grad_()
    with_target = name not in ("bce",)  # upstream differentiates bce's target too; gradcheck's steps leave [0, 1]
    if with_target:
        t.requires_grad_()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert torch.autograd.gradcheck(lambda x, t: CALLS[name](x, t, reduction="mean"), (x, t))
        assert torch.autograd.gradcheck(lambda x, t: CALLS[name](x, t, reduction="none"), (x, t))


def test_weighted_broadcast_and_16bit(device):
    x, t = torch.randn(3, 4, device=device), torch.randn(4, device=device)
    w = torch.rand(3, 4, device=device)
    with pytest.warns(UserWarning, match="Using a target size"):
        got = F.mse_loss(x, t, weight=w, reduction="sum")
    want = ((x.cpu().double().numpy() - t.cpu().double().numpy()) ** 2 * w.cpu().double().numpy()).sum()
    np.testing.assert_allclose(got.item(), want, rtol=1e-5)
    xw = x.clone().requires_grad_()
    with pytest.warns(UserWarning):
        F.l1_loss(xw, t).backward()
    assert xw.grad.shape == x.shape
    h = torch.rand(8, device=device).half()
    torch.testing.assert_close(
        F.binary_cross_entropy(h, h).float(), F.binary_cross_entropy(h.float(), h.float()), atol=2e-3, rtol=2e-3
    )


def test_bce_clamps_its_logs_at_minus_100(device):
    x = torch.tensor([0.0, 1.0, 0.0, 1.0], device=device, requires_grad=True)
    t = torch.tensor([0.0, 1.0, 1.0, 0.0], device=device)
    loss = F.binary_cross_entropy(x, t, reduction="none")
    assert loss.tolist() == [0.0, 0.0, 100.0, 100.0]
    (g,) = torch.autograd.grad(loss.sum(), x)
    assert torch.isfinite(g).all()
    with pytest.raises(RuntimeError, match="all elements of input should be between 0 and 1"):
        F.binary_cross_entropy(torch.tensor([1.5], device=device), torch.tensor([1.0], device=device))


def test_target_gradients_at_the_edges(device):
    """Upstream's values: kl_div's target gradient is xlogy's (NaN at a zero target); bce's is unclamped."""
    x = torch.tensor([[-1.2, -0.3]], dtype=torch.float64, device=device, requires_grad=True)
    t = torch.tensor([[0.0, 0.4]], dtype=torch.float64, device=device, requires_grad=True)
    F.kl_div(x, t, reduction="sum").backward()
    assert torch.isnan(t.grad[0, 0]) and abs(t.grad[0, 1].item() - (np.log(0.4) + 1 + 0.3)) < 1e-12
    p = torch.tensor([0.2, 1.0], dtype=torch.float64, device=device, requires_grad=True)
    q = torch.tensor([0.3, 1.0], dtype=torch.float64, device=device, requires_grad=True)
    F.binary_cross_entropy(p, q, reduction="sum").backward()
    assert q.grad[1].item() == -np.inf and abs(q.grad[0].item() - (np.log(0.8) - np.log(0.2))) < 1e-12
