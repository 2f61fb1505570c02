"""Dropout (torch.native_dropout, the THNN/THCUNN kernel under F.dropout and nn.Dropout): the mask's rate,
the scaling, the gradient, eval mode, edge probabilities, NaN, layouts and dtypes, on every device."""

from __future__ import annotations

import pytest

import torch
import torch.nn.functional as F


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16])
def test_native_dropout_rate_scale_and_gradient(device, dtype):
    torch.manual_seed(0)
    x = (torch.rand(64, 300, device=device) + 0.5).to(dtype).requires_grad_()
    out, mask = torch.native_dropout(x, 0.3, True)
    assert out.dtype == dtype and mask.dtype == torch.bool and mask.shape == x.shape
    assert abs(mask.float().mean().item() - 0.7) < 0.02
    want = x.detach() * mask * (1 / 0.7)
    torch.testing.assert_close(out.detach(), want.to(dtype))
    g = torch.randn(x.shape, device=device).to(dtype)
    (gx,) = torch.autograd.grad(out, x, g)
    torch.testing.assert_close(gx, (g * mask * (1 / 0.7)).to(dtype))


def test_functional_dropout_matches_its_mask_and_modes(device):
    x = torch.randn(6, 7, device=device)
    assert F.dropout(x, 0.4, training=False) is x
    assert F.dropout(x, 0.0) is x
    assert torch.equal(F.dropout(x, 1.0), torch.zeros_like(x))
    y = F.dropout(x, 0.4)
    kept = y != 0
    torch.testing.assert_close(y[kept], x[kept] / 0.6)
    z = x.clone()
    assert F.dropout(z, 0.4, inplace=True) is z
    m = torch.nn.Dropout(0.25).eval()
    assert torch.equal(m(x), x)


def test_dropout_of_a_strided_input_and_nan(device):
    torch.manual_seed(1)
    x = torch.randn(40, 50, device=device).t()[::2]  # non-contiguous
    out, mask = torch.native_dropout(x, 0.5, True)
    torch.testing.assert_close(out, x * mask * 2.0)
    nan = torch.full((1000,), float("nan"), device=device)
    assert torch.isnan(F.dropout(nan, 0.5)).all(), "a dropped NaN stays NaN, as (x * mask) * scale"


def test_native_dropout_eval_and_seeded(device):
    x = torch.randn(5, 5, device=device, requires_grad=True)
    out, mask = torch.native_dropout(x, 0.5, False)
    assert torch.equal(out, x) and mask.all()
    torch.manual_seed(7)
    a = torch.native_dropout(x, 0.5, True)[1]
    torch.manual_seed(7)
    b = torch.native_dropout(x, 0.5, True)[1]
    assert torch.equal(a, b), "manual_seed makes the mask reproducible"


def test_dropout_probability_errors():
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1, but got 1.5"):
        F.dropout(torch.ones(3), 1.5)
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1"):
        torch.nn.Dropout(-0.1)
