"""torch.nn.attention.sdpa_kernel and torch.backends.cuda's SDPA switches: the backend choice, the same values
whichever backend runs, and upstream's errors when no allowed backend can. Runs against upstream PyTorch too."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel


def _qkv(seed=0, dtype=torch.float64):
    g = torch.Generator().manual_seed(seed)
    return [torch.randn(2, 3, 5, 8, generator=g, dtype=dtype) for _ in range(3)]


def _reference(q, k, v, mask=None, causal=False):
    s = q.numpy() @ np.swapaxes(k.numpy(), -1, -2) / np.sqrt(q.shape[-1])
    if causal:
        s = np.where(np.tril(np.ones(s.shape[-2:], dtype=bool)), s, -np.inf)
    if mask is not None:
        s = np.where(mask.numpy(), s, -np.inf)
    w = np.exp(s - s.max(-1, keepdims=True))
    return (w / w.sum(-1, keepdims=True)) @ v.numpy()


def test_backend_values_are_upstreams():
    names = ["ERROR", "MATH", "FLASH_ATTENTION", "EFFICIENT_ATTENTION", "CUDNN_ATTENTION", "OVERRIDEABLE"]
    assert [int(getattr(SDPBackend, n)) for n in names] == [-1, 0, 1, 2, 3, 4]
    assert SDPBackend.FLASH_ATTENTION.name == "FLASH_ATTENTION"


@pytest.mark.parametrize(
    "backends", [SDPBackend.MATH, SDPBackend.FLASH_ATTENTION, [SDPBackend.MATH, SDPBackend.FLASH_ATTENTION]]
)
@pytest.mark.parametrize("causal", [False, True])
def test_every_allowed_backend_gives_the_same_values(backends, causal):
    q, k, v = _qkv(1)
    with sdpa_kernel(backends):
        out = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    np.testing.assert_allclose(out.numpy(), _reference(q, k, v, causal=causal), rtol=1e-10, atol=1e-12)
    mask = torch.rand(5, 5, generator=torch.Generator().manual_seed(2)) > 0.3
    mask[:, 0] = True
    with sdpa_kernel(backends):
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    np.testing.assert_allclose(out.numpy(), _reference(q, k, v, mask=mask), rtol=1e-10, atol=1e-12)


def test_the_switches_follow_the_context_and_are_restored():
    b = torch.backends.cuda
    before = (b.flash_sdp_enabled(), b.math_sdp_enabled(), b.mem_efficient_sdp_enabled())
    with sdpa_kernel(SDPBackend.MATH):
        assert (b.flash_sdp_enabled(), b.math_sdp_enabled(), b.mem_efficient_sdp_enabled()) == (False, True, False)
    with sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION]):
        assert (b.flash_sdp_enabled(), b.math_sdp_enabled(), b.mem_efficient_sdp_enabled()) == (True, False, True)
    assert (b.flash_sdp_enabled(), b.math_sdp_enabled(), b.mem_efficient_sdp_enabled()) == before
    b.enable_math_sdp(False)
    try:
        assert not b.math_sdp_enabled()
    finally:
        b.enable_math_sdp(True)
    with pytest.warns(FutureWarning, match="sdp_kernel"), b.sdp_kernel(enable_flash=False):
        assert not b.flash_sdp_enabled() and b.math_sdp_enabled()
    assert b.flash_sdp_enabled()


def test_the_fused_backend_alone_refuses_dropout():
    q, k, v = _qkv(3, torch.float32)
    with sdpa_kernel(SDPBackend.FLASH_ATTENTION), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError, match="No available kernel"):
            F.scaled_dot_product_attention(q, k, v, dropout_p=0.5)
    with sdpa_kernel([SDPBackend.MATH, SDPBackend.FLASH_ATTENTION]):
        assert F.scaled_dot_product_attention(q, k, v, dropout_p=0.5).shape == q.shape


@pytest.mark.parametrize("backend", [SDPBackend.CUDNN_ATTENTION, SDPBackend.EFFICIENT_ATTENTION])
def test_no_viable_backend_on_the_cpu(backend):
    q, k, v = _qkv(4, torch.float32)
    with sdpa_kernel(backend), pytest.raises(RuntimeError, match="No viable backend for scaled_dot_product_attention"):
        F.scaled_dot_product_attention(q, k, v)


def test_sdpa_kernel_refuses_what_is_no_backend():
    with pytest.raises(AssertionError, match="Backend must be an instance of SDPBackend"):
        with sdpa_kernel("math"):
            pass
