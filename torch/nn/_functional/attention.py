"""Attention: scaled_dot_product_attention and multi_head_attention_forward (MultiheadAttention's math)."""

from __future__ import annotations

import math
import warnings

import torch
import torch.backends.cuda as _cuda_backends
from torch.amp.autocast_mode import autocast_policy
from torch.nn._functional.dropout import dropout
from torch.nn._functional.linear import linear

__all__ = ["multi_head_attention_forward", "scaled_dot_product_attention"]


def _mask_to_float(mask, dtype):
    """A boolean mask (True = attend) as an additive float mask (0 / -inf); float masks pass through."""
    if mask is None:
        return None
    if mask.dtype == torch.bool:
        return torch.zeros(mask.shape, dtype=dtype, device=mask.device).masked_fill(mask.logical_not(), -math.inf)
    return mask.to(dtype)


def _safe_softmax(scores):
    """softmax over the last dim, 0 (not NaN) for a row that is all -inf (every key masked): upstream's
    _safe_softmax, which its attention uses so that a fully masked query attends to nothing."""
    dead = (scores == -math.inf).all(-1, keepdim=True)
    # the dead rows go through softmax as zeros, so neither the weights nor their gradients see a NaN
    return torch.softmax(scores.masked_fill(dead, 0.0), -1).masked_fill(dead, 0.0)


def _scaled_scores(query, key, scale: float):
    """query @ key^T * scale, computed as (query * sqrt|scale|) @ (key * sqrt|scale|)^T (negated for a negative
    scale), as upstream's math path does, so that the products of large queries and keys do not overflow
    before they are scaled (a float16 score of 40s over 64 dims is 102400 unscaled)."""
    root = math.sqrt(abs(scale))
    return torch.matmul(query * (root if scale >= 0 else -root), key.transpose(-2, -1) * root)


# Scores above this many elements (256 MiB of float32) go to the fused kernel, which keeps no [..., L, S] matrix;
# below it the composite's batched gemms are faster on the CPU (the fused kernel's row-at-a-time loops are about
# 7x slower than OpenBLAS at L = S = 256, E = 64).
_FUSED_ATTENTION_MIN_SCORES = 1 << 26


def _use_fused(query, key, value, attn_mask, dropout_p: float, is_causal: bool) -> bool:
    """Whether scaled_dot_product_attention takes torch._fused_attention: among the backends allowed
    (torch.nn.attention.sdpa_kernel; the fused kernel is flash attention, and on a GPU memory-efficient attention
    too), the fused kernel where it can run (no dropout, equal batch dims) and the score matrix is big enough that
    not storing it matters, the math composite otherwise; upstream's errors when no allowed backend can run."""
    enabled = _cuda_backends._sdp_enabled
    fused_allowed = enabled["flash"] or (enabled["mem_efficient"] and query.is_cuda)
    if not fused_allowed and not enabled["math"]:
        raise RuntimeError(
            "No viable backend for scaled_dot_product_attention was found. This is likely due to turning off both "
            "the math kernel and the fused kernels."
        )
    params = _cuda_backends.SDPAParams(query, key, value, attn_mask, dropout_p, is_causal)
    reasons = _cuda_backends._fused_reasons(params) if fused_allowed else ["the fused kernels are turned off"]
    if not enabled["math"]:
        if reasons:
            warnings.warn("Flash attention kernel not used because:", stacklevel=3)
            for r in reasons:
                warnings.warn(r, stacklevel=3)
            raise RuntimeError("No available kernel.  Aborting execution.")
        return True
    return not reasons and query.numel() // query.shape[-1] * key.shape[-2] >= _FUSED_ATTENTION_MIN_SCORES


@autocast_policy(cpu="lower_precision_fp", cuda="lower_precision_fp")
def scaled_dot_product_attention(
    query, key, value, attn_mask=None, dropout_p: float = 0.0, is_causal: bool = False, scale=None,
    enable_gqa: bool = False,
):  # fmt: skip
    """softmax(Q K^T * scale + mask) V over (..., L, E) queries and (..., S, E) keys/values: batched gemms and a
    softmax, or the fused kernel (torch._fused_attention) where the score matrix would be too big to keep."""
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
    L, S = query.shape[-2], key.shape[-2]
    scale_factor = 1 / math.sqrt(query.shape[-1]) if scale is None else scale
    if enable_gqa and query.dim() >= 3 and key.shape[-3] != query.shape[-3]:
        rep = query.shape[-3] // key.shape[-3]
        key = (
            key.unsqueeze(-3)
            .expand(*key.shape[:-2], rep, *key.shape[-2:])
            .reshape(*key.shape[:-3], key.shape[-3] * rep, *key.shape[-2:])
        )
        value = (
            value.unsqueeze(-3)
            .expand(*value.shape[:-2], rep, *value.shape[-2:])
            .reshape(*value.shape[:-3], value.shape[-3] * rep, *value.shape[-2:])
        )
    if _use_fused(query, key, value, attn_mask, dropout_p, is_causal):
        mask = _mask_to_float(attn_mask, query.dtype)
        return torch._fused_attention(query, key, value, mask, is_causal, scale_factor)[0]
    scores = _scaled_scores(query, key, scale_factor)
    if is_causal:
        keep = torch.ones(L, S, dtype=torch.bool, device=query.device).tril()
        scores = scores.masked_fill(keep.logical_not(), -math.inf)
    if attn_mask is not None:
        scores = scores + _mask_to_float(attn_mask, scores.dtype)
    weights = _safe_softmax(scores) if attn_mask is not None or is_causal else torch.softmax(scores, -1)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p, training=True)
    return torch.matmul(weights, value)


def multi_head_attention_forward(
    query, key, value, embed_dim_to_check: int, num_heads: int, in_proj_weight, in_proj_bias, bias_k, bias_v,
    add_zero_attn: bool, dropout_p: float, out_proj_weight, out_proj_bias, training: bool = True,
    key_padding_mask=None, need_weights: bool = True, attn_mask=None, use_separate_proj_weight: bool = False,
    q_proj_weight=None, k_proj_weight=None, v_proj_weight=None, static_k=None, static_v=None,
    average_attn_weights: bool = True, is_causal: bool = False,
):  # fmt: skip
    """Multi-head attention on (L, N, E) query and (S, N, E) key/value (or unbatched (L, E), (S, E)).
    Returns (attn_output, attn_weights or None)."""
    batched = query.dim() == 3
    if not batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if is_causal and attn_mask is None:
        raise RuntimeError(
            "Need attn_mask if specifying the is_causal hint. You may use the Transformer module method "
            "`generate_square_subsequent_mask` to create this mask."
        )
    if not use_separate_proj_weight:
        w_q, w_k, w_v = in_proj_weight.chunk(3)
    else:
        w_q, w_k, w_v = q_proj_weight, k_proj_weight, v_proj_weight
    b_q = b_k = b_v = None
    if in_proj_bias is not None:
        b_q, b_k, b_v = in_proj_bias.chunk(3)
    q = linear(query, w_q, b_q)
    k = linear(key, w_k, b_k)
    v = linear(value, w_v, b_v)
    # nn.MultiheadAttention's bool attn_mask marks what may NOT be attended (True = masked out), the opposite
    # of scaled_dot_product_attention's
    if attn_mask is not None and attn_mask.dtype == torch.bool:
        attn_mask = attn_mask.logical_not()
    attn_mask = _mask_to_float(attn_mask, q.dtype)
    if attn_mask is not None and attn_mask.dim() == 2:
        if list(attn_mask.shape) != [tgt_len, src_len]:
            raise RuntimeError(
                f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be {(tgt_len, src_len)}."
            )
        attn_mask = attn_mask.unsqueeze(0)
    elif attn_mask is not None and attn_mask.dim() == 3:
        if list(attn_mask.shape) != [bsz * num_heads, tgt_len, src_len]:
            raise RuntimeError(
                f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                f"{(bsz * num_heads, tgt_len, src_len)}."
            )
    if bias_k is not None and bias_v is not None:
        k = torch.cat([k, bias_k.reshape(1, 1, embed_dim).expand(1, bsz, embed_dim)])
        v = torch.cat([v, bias_v.reshape(1, 1, embed_dim).expand(1, bsz, embed_dim)])
        if attn_mask is not None:
            attn_mask = torch.cat([attn_mask, attn_mask.new_zeros(attn_mask.shape[:-1] + (1,))], -1)
        if key_padding_mask is not None:
            key_padding_mask = torch.cat(
                [key_padding_mask, key_padding_mask.new_zeros((key_padding_mask.shape[0], 1))], -1
            )
    q = q.reshape(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = static_k if static_k is not None else k.reshape(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    v = static_v if static_v is not None else v.reshape(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    if add_zero_attn:
        k = torch.cat([k, k.new_zeros((bsz * num_heads, 1, head_dim))], 1)
        v = torch.cat([v, v.new_zeros((bsz * num_heads, 1, head_dim))], 1)
        if attn_mask is not None:
            attn_mask = torch.cat([attn_mask, attn_mask.new_zeros(attn_mask.shape[:-1] + (1,))], -1)
        if key_padding_mask is not None:
            key_padding_mask = torch.cat(
                [key_padding_mask, key_padding_mask.new_zeros((key_padding_mask.shape[0], 1))], -1
            )
    s = k.shape[1]
    if key_padding_mask is not None:
        kpm = _mask_to_float(
            key_padding_mask.logical_not() if key_padding_mask.dtype == torch.bool else key_padding_mask, q.dtype
        )
        kpm = kpm.reshape(bsz, 1, 1, s).expand(bsz, num_heads, 1, s).reshape(bsz * num_heads, 1, s)
        attn_mask = kpm if attn_mask is None else attn_mask + kpm
    # without weights to return, the fused kernel where scaled_dot_product_attention would take it
    if not need_weights and _use_fused(q, k, v, attn_mask, dropout_p if training else 0.0, False):
        out = torch._fused_attention(q, k, v, attn_mask, False, 1.0 / math.sqrt(head_dim))[0]
    else:
        scores = torch.matmul(q * (1.0 / math.sqrt(head_dim)), k.transpose(-2, -1))
        if attn_mask is not None:
            scores = scores + attn_mask
        # without weights to return upstream runs scaled_dot_product_attention (a fully masked query gives
        # 0); the weights it returns come from a plain softmax (NaN there)
        weights = torch.softmax(scores, -1) if need_weights or attn_mask is None else _safe_softmax(scores)
        if dropout_p > 0.0 and training:
            weights = dropout(weights, dropout_p, training=True)
        out = torch.matmul(weights, v)  # (B*H, L, hd)
    out = out.transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
    out = linear(out, out_proj_weight, out_proj_bias).reshape(tgt_len, bsz, embed_dim)
    if not need_weights:
        return (out if batched else out.squeeze(1)), None
    weights = weights.reshape(bsz, num_heads, tgt_len, s)
    if average_attn_weights:
        weights = weights.mean(1)
    if not batched:
        return out.squeeze(1), weights.squeeze(0)
    return out, weights
