"""Attention masks mean what PyTorch says they mean: in nn.MultiheadAttention a bool attn_mask is True where
attending is NOT allowed (as key_padding_mask), in scaled_dot_product_attention True where it is allowed."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F


def test_multihead_attention_bool_mask_is_true_where_masked_out():
    torch.manual_seed(0)
    mha = torch.nn.MultiheadAttention(8, 2, batch_first=True).eval()
    x = torch.randn(2, 5, 8)
    banned = torch.triu(torch.ones(5, 5, dtype=torch.bool), diagonal=1)  # causal: the future is masked out
    additive = torch.zeros(5, 5).masked_fill(banned, -math.inf)
    with torch.no_grad():
        a, _ = mha(x, x, x, attn_mask=banned)
        b, _ = mha(x, x, x, attn_mask=additive)
        c, _ = mha(x, x, x, is_causal=True, attn_mask=additive)
    assert torch.allclose(a, b, atol=1e-6) and torch.allclose(a, c, atol=1e-6)
    # the first position sees only itself: its output does not depend on later positions
    y = x.clone()
    y[:, 1:] = torch.randn(2, 4, 8)
    with torch.no_grad():
        d, _ = mha(y, y, y, attn_mask=banned)
    assert torch.allclose(a[:, 0], d[:, 0], atol=1e-6)


def test_sdpa_bool_mask_is_true_where_allowed():
    torch.manual_seed(0)
    q, k, v = (torch.randn(1, 2, 4, 8) for _ in range(3))
    allowed = torch.tril(torch.ones(4, 4, dtype=torch.bool))
    a = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
    b = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    assert torch.allclose(a, b, atol=1e-6)


def _both_paths(monkeypatch, fn):
    """fn() on the composite path and on the fused kernel's (skipped under upstream, which has no such switch)."""
    results = [fn()]
    try:
        from torch.nn._functional import attention
    except ImportError:  # upstream
        return results
    monkeypatch.setattr(attention, "_FUSED_ATTENTION_MIN_SCORES", 1)
    results.append(fn())
    return results


def test_a_fully_masked_query_attends_to_nothing(monkeypatch):
    """Upstream's attention uses a safe softmax: a query whose every key is masked gets 0, and no NaN reaches
    the gradients."""
    g = torch.Generator().manual_seed(0)
    q = torch.randn(1, 2, 3, 8, generator=g, dtype=torch.float64)
    allowed = torch.tensor([[True, False, True], [False, False, False], [True, True, True]])

    def run():
        x = q.clone().requires_grad_()
        out = F.scaled_dot_product_attention(x, x, x, attn_mask=allowed)
        out.sum().backward()
        return out.detach(), x.grad

    for out, grad in _both_paths(monkeypatch, run):
        assert out[:, :, 1].abs().max() == 0  # the row that sees no key
        assert torch.isfinite(out).all() and torch.isfinite(grad).all()
    additive = torch.zeros(2, 3).masked_fill(torch.tensor([[True] * 3, [False] * 3]), -math.inf)
    out = F.scaled_dot_product_attention(torch.ones(1, 2, 4), torch.ones(1, 3, 4), torch.ones(1, 3, 4), additive)
    assert out[0, 0].tolist() == [0.0] * 4 and out[0, 1].tolist() == [1.0] * 4


def test_scores_are_scaled_before_they_can_overflow():
    """(q * sqrt(scale)) @ (k * sqrt(scale))^T, as upstream: a float16 score of 40s over 64 dims is 102400
    unscaled (past float16's largest), 12800 scaled."""
    q = torch.full((1, 1, 64), 40.0, dtype=torch.float16)
    k = torch.full((1, 2, 64), 40.0, dtype=torch.float16)
    out = F.scaled_dot_product_attention(q, k, torch.ones(1, 2, 64, dtype=torch.float16))
    assert out.tolist() == [[[1.0] * 64]]
