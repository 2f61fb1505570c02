"""torch.nn.grad's convolution gradients against autograd's gradients of the same convolution (float64), with
strides that leave a remainder, padding, dilation and groups. Runs against upstream PyTorch too (TORCH_REFERENCE)."""

from __future__ import annotations

import pytest

import torch
import torch.nn.functional as F
import torch.nn.grad

CASES = [
    dict(stride=1, padding=0, dilation=1, groups=1),
    dict(stride=2, padding=1, dilation=1, groups=1),
    dict(stride=3, padding=2, dilation=2, groups=2),
]


@pytest.mark.parametrize("dims", [1, 2, 3])
@pytest.mark.parametrize("case", CASES)
def test_conv_input_and_weight_gradients_match_autograd(dims, case):
    torch.manual_seed(dims)
    spatial = (7, 6, 5)[:dims]
    x = torch.randn(2, 4, *spatial, dtype=torch.float64, requires_grad=True)
    w = torch.randn(6, 4 // case["groups"], *([3] * dims), dtype=torch.float64, requires_grad=True)
    conv = getattr(F, f"conv{dims}d")
    out = conv(x, w, None, **case)
    go = torch.randn_like(out)
    gx, gw = torch.autograd.grad(out, (x, w), go)
    got_x = getattr(torch.nn.grad, f"conv{dims}d_input")(x.shape, w.detach(), go, **case)
    got_w = getattr(torch.nn.grad, f"conv{dims}d_weight")(x.detach(), w.shape, go, **case)
    torch.testing.assert_close(got_x, gx)
    torch.testing.assert_close(got_w, gw)
