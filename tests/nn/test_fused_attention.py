"""The fused attention kernel (torch._fused_attention: an online softmax a query row at a time, the backward
recomputing probabilities from each row's log-sum-exp) against the math of scaled_dot_product_attention in
float64: masks, causal masking with L != S, the mask's gradient, gradcheck, 16-bit input, a fully masked row, and
F.scaled_dot_product_attention / MultiheadAttention routed to it. Ours only: upstream has no such op."""

from __future__ import annotations

import math
import os

import pytest

if "TORCH_REFERENCE" in os.environ:
    pytest.skip("torch._fused_attention is this project's kernel, not upstream's", allow_module_level=True)

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch.nn._functional import attention  # noqa: E402


def _math(q, k, v, mask, causal, scale):
    s = q @ k.transpose(-2, -1) * scale
    if causal:
        s = s.masked_fill(~torch.ones(s.shape[-2:], dtype=torch.bool, device=q.device).tril(), -math.inf)
    if mask is not None:
        s = s + mask
    return torch.softmax(s, -1) @ v


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("mask_shape", [None, (5, 7), (2, 1, 5, 7)])
def test_fused_attention_equals_the_math(device, causal, mask_shape):
    g = torch.Generator().manual_seed(0)
    q, k = torch.randn(2, 3, 5, 4, generator=g), torch.randn(2, 3, 7, 4, generator=g)
    v = torch.randn(2, 3, 7, 6, generator=g)
    mask = torch.randn(mask_shape, generator=g) if mask_shape else None
    ins = [t.to(device=device, dtype=torch.float64).requires_grad_() for t in (q, k, v)]
    m = mask.to(device=device, dtype=torch.float64).requires_grad_() if mask is not None else None
    out, lse = torch._fused_attention(*ins, m, causal, 0.4)
    want = _math(*ins, m, causal, 0.4)
    torch.testing.assert_close(out, want, rtol=1e-12, atol=1e-12)
    assert lse.shape == (2, 3, 5)
    grad = torch.randn(out.shape, generator=g).to(device=device, dtype=torch.float64)
    wrt = ins + ([m] if m is not None else [])
    for got, exp in zip(torch.autograd.grad(out, wrt, grad), torch.autograd.grad(want, wrt, grad)):
        torch.testing.assert_close(got, exp, rtol=1e-10, atol=1e-12)
    assert torch.autograd.gradcheck(
        lambda *t: torch._fused_attention(*t[:3], t[3] if len(t) > 3 else None, causal, 0.4)[0], tuple(wrt)
    )


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_fused_attention_low_precision(device, dtype):
    q, k, v = (torch.randn(3, 9, 8, device=device) for _ in range(3))
    out = torch._fused_attention(q.to(dtype), k.to(dtype), v.to(dtype), None, True, 0.35)[0]
    assert out.dtype == dtype
    tol = {torch.float32: 1e-5, torch.float16: 2e-3, torch.bfloat16: 2e-2}[dtype]
    torch.testing.assert_close(out.float(), _math(q, k, v, None, True, 0.35), rtol=tol, atol=tol)


def test_a_fully_masked_row_attends_to_nothing(device):
    """0, not the NaN of a plain softmax (upstream's attention uses a safe softmax), and 0 gradients there."""
    q, k, v = (torch.randn(1, 2, 3, device=device, dtype=torch.float64, requires_grad=True) for _ in range(3))
    mask = torch.tensor([[-math.inf, -math.inf], [0.0, 0.0]], device=device, dtype=torch.float64)
    out = torch._fused_attention(q, k, v, mask, False, 1.0)[0]
    assert (out[0, 0] == 0).all() and torch.isfinite(out[0, 1]).all()
    out.sum().backward()
    assert all(torch.isfinite(t.grad).all() for t in (q, k, v)) and (q.grad[0, 0] == 0).all()


def test_sdpa_and_multihead_attention_take_the_kernel_past_the_threshold(device, monkeypatch):
    monkeypatch.setattr(attention, "_FUSED_ATTENTION_MIN_SCORES", 0)
    calls = []
    fused = torch._fused_attention
    monkeypatch.setattr(torch, "_fused_attention", lambda *a: calls.append(1) or fused(*a))
    q, k, v = (torch.randn(2, 4, 6, 8, device=device, dtype=torch.float64, requires_grad=True) for _ in range(3))
    mask = torch.rand(6, 6, device=device) > 0.3
    mask[:, 0] = True
    got = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    torch.testing.assert_close(
        got,
        _math(
            q,
            k,
            v,
            torch.zeros(6, 6, dtype=torch.float64, device=device).masked_fill(~mask, -math.inf),
            False,
            1 / math.sqrt(8),
        ),
    )
    mha = torch.nn.MultiheadAttention(8, 2, batch_first=True).to(device).double()
    x = torch.randn(3, 5, 8, device=device, dtype=torch.float64)
    out_fused = mha(x, x, x, need_weights=False)[0]
    out_math = mha(x, x, x, need_weights=True)[0]
    torch.testing.assert_close(out_fused, out_math)
    assert len(calls) == 2


@pytest.mark.parametrize("shape", [(5, 7), (1, 7), (5, 1), (2, 3, 5, 7), (2, 1, 5, 7), (3, 5, 7), (1, 1, 5, 7)])
def test_broadcast_masks_are_read_through_their_strides(device, shape):
    """A mask broadcast over batch-heads, queries or keys is read in place (or copied where its batch dims do not
    flatten, as (2, 1, L, S) against 2 x 3 batch-heads); values and the mask's gradient match the math."""
    g = torch.Generator().manual_seed(3)
    q, k = torch.randn(2, 3, 5, 4, generator=g), torch.randn(2, 3, 7, 4, generator=g)
    v = torch.randn(2, 3, 7, 6, generator=g)
    q, k, v = (t.to(device=device, dtype=torch.float64) for t in (q, k, v))
    m = torch.randn(shape, generator=g).to(device=device, dtype=torch.float64).requires_grad_()
    out = torch._fused_attention(q, k, v, m, False, 0.3)[0]
    want = _math(q, k, v, m, False, 0.3)
    torch.testing.assert_close(out, want, rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(torch.autograd.grad(out.sum(), m)[0], torch.autograd.grad(want.sum(), m)[0])
