"""torch.optim.Muon step for step against its formula (momentum, nesterov, bfloat16 Newton-Schulz, decoupled
weight decay, shape-scaled learning rate), the orthogonalizing effect, and its argument errors. Runs against
upstream PyTorch too (TORCH_REFERENCE)."""

from __future__ import annotations

import math

import pytest

import torch


def _newton_schulz(g, steps=5, eps=1e-7, coefficients=(3.4445, -4.7750, 2.0315)):
    a, b, c = coefficients
    x = g.bfloat16()
    tall = g.size(0) > g.size(1)
    if tall:
        x = x.T
    x = x / x.norm().clamp(min=eps)
    for _ in range(steps):
        gram = x @ x.T
        x = torch.addmm(x, torch.addmm(gram, gram, gram, beta=b, alpha=c), x, beta=a)
    return x.T if tall else x


@pytest.mark.parametrize("nesterov", [True, False])
@pytest.mark.parametrize("adjust", [None, "match_rms_adamw"])
@pytest.mark.parametrize("shape", [(6, 4), (3, 8)])
def test_steps_follow_the_formula(nesterov, adjust, shape):
    torch.manual_seed(0)
    p = torch.nn.Parameter(torch.randn(shape))
    ref = p.detach().clone()
    buf = torch.zeros_like(ref)
    lr, wd, mom = 0.02, 0.1, 0.9
    opt = torch.optim.Muon([p], lr=lr, weight_decay=wd, momentum=mom, nesterov=nesterov, adjust_lr_fn=adjust)
    rows, cols = shape
    ratio = math.sqrt(max(1, rows / cols)) if adjust is None else 0.2 * math.sqrt(max(rows, cols))
    for _ in range(3):
        g = torch.randn(shape)
        p.grad = g.clone()
        opt.step()
        buf = buf.lerp(g, 1 - mom)
        update = g.lerp(buf, mom) if nesterov else buf
        ref = (ref * (1 - lr * wd)).add(_newton_schulz(update), alpha=-lr * ratio)
        torch.testing.assert_close(p.detach(), ref, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(opt.state[p]["momentum_buffer"], buf)


def test_update_is_nearly_orthogonal():
    torch.manual_seed(1)
    o = _newton_schulz(torch.randn(8, 16)).float()
    singular = torch.linalg.svdvals(o)
    assert singular.min() > 0.4 and singular.max() < 1.6  # S' ~ Uniform(0.5, 1.5), not the raw spread


def test_argument_errors():
    with pytest.raises(ValueError, match="Muon only supports 2D parameters"):
        torch.optim.Muon([torch.nn.Parameter(torch.randn(3))])
    with pytest.raises(ValueError, match="Learning rate should be >= 0"):
        torch.optim.Muon([torch.nn.Parameter(torch.randn(2, 2))], lr=-1.0)
    with pytest.raises(ValueError, match="Adjust learning rate function nope is not supported"):
        torch.optim.Muon([torch.nn.Parameter(torch.randn(2, 2))], adjust_lr_fn="nope")


def test_state_dict_round_trip():
    p = torch.nn.Parameter(torch.randn(4, 4))
    opt = torch.optim.Muon([p], lr=0.01)
    p.grad = torch.randn(4, 4)
    opt.step()
    sd = opt.state_dict()
    q = torch.nn.Parameter(p.detach().clone())
    opt2 = torch.optim.Muon([q], lr=0.01)
    opt2.load_state_dict(sd)
    torch.testing.assert_close(opt2.state[q]["momentum_buffer"], opt.state[p]["momentum_buffer"])
