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
