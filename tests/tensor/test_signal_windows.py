"""torch.signal.windows against scipy.signal.windows, with upstream's argument errors."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.signal.windows as sw

import torch
import torch.signal.windows as W

# (name, our keyword arguments, scipy's positional parameters after M)
WINDOWS = [
    ("bartlett", {}, ()),
    ("blackman", {}, ()),
    ("cosine", {}, ()),
    ("exponential", {"tau": 2.5}, (None, 2.5)),
    ("gaussian", {"std": 1.7}, (1.7,)),
    ("general_cosine", {"a": [0.5, 0.3, 0.2]}, ([0.5, 0.3, 0.2],)),
    ("general_hamming", {"alpha": 0.6}, (0.6,)),
    ("hamming", {}, ()),
    ("hann", {}, ()),
    ("kaiser", {"beta": 5.0}, (5.0,)),
    ("nuttall", {}, ()),
]


@pytest.mark.parametrize("name,kwargs,params", WINDOWS, ids=[w[0] for w in WINDOWS])
@pytest.mark.parametrize("sym", [True, False])
def test_matches_scipy(name, kwargs, params, sym):
    for M in (0, 1, 2, 5, 8, 13):
        w = getattr(W, name)(M, sym=sym, dtype=torch.float64, **kwargs)
        ref = getattr(sw, name)(M, *params, sym=sym)
        assert w.dtype == torch.float64 and tuple(w.shape) == (M,)
        np.testing.assert_allclose(w.numpy(), ref, rtol=1e-10, atol=1e-12)


def test_exponential_center_and_defaults():
    np.testing.assert_allclose(
        W.exponential(7, center=2.0, tau=3.0, sym=False, dtype=torch.float64).numpy(),
        sw.exponential(7, 2.0, 3.0, sym=False),
        rtol=1e-12,
    )
    w = W.hann(6)
    assert w.dtype == torch.get_default_dtype() and not w.requires_grad
    n = np.arange(6)
    np.testing.assert_allclose(w.numpy(), 0.5 - 0.5 * np.cos(2 * np.pi * n / 5), atol=1e-6)


def test_factory_arguments(device):
    w = W.kaiser(5, dtype=torch.float32, device=device, requires_grad=True)
    assert w.device.type == device and w.dtype == torch.float32 and w.requires_grad
    np.testing.assert_allclose(w.detach().cpu().numpy(), sw.kaiser(5, 12.0), rtol=1e-5)
    assert W.gaussian(0, requires_grad=True).requires_grad


@pytest.mark.parametrize(
    "call,exc,msg",
    [
        (lambda: W.hann(-1), ValueError, "general_cosine requires non-negative window length, got M=-1"),
        (lambda: W.blackman(-2), ValueError, "blackman requires non-negative window length, got M=-2"),
        (lambda: W.cosine(3, dtype=torch.int64), ValueError, "cosine expects float32 or float64 dtypes, got"),
        (lambda: W.bartlett(3, layout="sparse"), ValueError, "bartlett is implemented for strided tensors only"),
        (lambda: W.exponential(3, tau=0.0), ValueError, "Tau must be positive, got: 0.0 instead."),
        (lambda: W.exponential(3, center=1.0), ValueError, "Center must be None for symmetric windows"),
        (lambda: W.gaussian(3, std=-1.0), ValueError, "Standard deviation must be positive, got: -1.0 instead."),
        (lambda: W.kaiser(3, beta=-1.0), ValueError, "beta must be non-negative, got: -1.0 instead."),
        (lambda: W.general_cosine(3, a=[]), ValueError, "Coefficients cannot be empty"),
        (lambda: W.general_cosine(3, a=1.0), TypeError, "Coefficients must be a list/tuple"),
    ],
)
def test_errors(call, exc, msg):
    with pytest.raises(exc, match=msg.replace("(", r"\(").replace(")", r"\)")):
        call()


def test_signal_namespace():
    import torch.signal

    assert torch.signal.windows is W
    assert sorted(W.__all__) == sorted(w[0] for w in WINDOWS)
