"""2-D max and average pooling against a float64 NumPy reference over the window shapes the CPU kernels take
apart: windows inside the input (a row of outputs at a time, in blocks) and windows at padded or ceil_mode
edges, with strides, dilations, rows wider than a block, non-contiguous input, NaNs and 16-bit dtypes; the
max's indices point at the max (the first one on ties, a NaN if any)."""

from __future__ import annotations

import numpy as np
import pytest

import torch
import torch.nn.functional as F

rng = np.random.default_rng(7)


def np_pool2d(x, k, s, d, p, reduce, pad_value):
    """Pooling of x [N, C, H, W] with kernel k, stride s, dilation d and padding p (all pairs), no ceil_mode."""
    x = np.pad(x, ((0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])), constant_values=pad_value)
    h, w = x.shape[2:]
    oh, ow = (h - d[0] * (k[0] - 1) - 1) // s[0] + 1, (w - d[1] * (k[1] - 1) - 1) // s[1] + 1
    out = np.empty(x.shape[:2] + (oh, ow))
    for i in range(oh):
        for j in range(ow):
            window = x[
                :,
                :,
                i * s[0] : i * s[0] + d[0] * (k[0] - 1) + 1 : d[0],
                j * s[1] : j * s[1] + d[1] * (k[1] - 1) + 1 : d[1],
            ]
            out[:, :, i, j] = reduce(window, axis=(2, 3))
    return out


CASES = [  # (shape, kernel, stride, dilation, padding)
    ((2, 3, 28, 28), (2, 2), (2, 2), (1, 1), (0, 0)),
    ((1, 2, 9, 150), (3, 2), (1, 2), (1, 1), (0, 0)),  # 75 outputs a row: more than one block
    ((2, 2, 11, 13), (3, 3), (2, 3), (2, 1), (0, 0)),
    ((1, 3, 8, 70), (2, 3), (1, 1), (1, 2), (1, 1)),  # padded: the edge windows take the general path
    ((3, 1, 5, 5), (5, 5), (1, 1), (1, 1), (0, 0)),
]


@pytest.mark.parametrize(("shape", "k", "s", "d", "p"), CASES)
def test_max_pool2d_windows(shape, k, s, d, p):
    x = rng.normal(size=shape)
    out, idx = F.max_pool2d(torch.tensor(x), k, s, p, d, return_indices=True)
    np.testing.assert_array_equal(out.numpy(), np_pool2d(x, k, s, d, p, np.max, -np.inf))
    flat = torch.tensor(x).reshape(shape[0], shape[1], -1)
    picked = torch.gather(flat, 2, idx.reshape(shape[0], shape[1], -1)).reshape(out.shape)
    np.testing.assert_array_equal(picked.numpy(), out.numpy())


@pytest.mark.parametrize(("shape", "k", "s", "d", "p"), [c for c in CASES if c[3] == (1, 1)])
@pytest.mark.parametrize("divisor_override", [None, 3])
def test_avg_pool2d_windows(shape, k, s, d, p, divisor_override):
    x = rng.normal(size=shape)
    out = F.avg_pool2d(torch.tensor(x), k, s, p, divisor_override=divisor_override)
    ref = np_pool2d(x, k, s, d, p, np.sum, 0.0) / (divisor_override or k[0] * k[1])
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-12, atol=1e-12)


def test_pooling_non_contiguous_input():
    x = rng.normal(size=(2, 20, 30, 4))
    xt = torch.tensor(x).permute(0, 3, 1, 2)  # [2, 4, 20, 30], channels last in memory
    xn = x.transpose(0, 3, 1, 2)
    np.testing.assert_array_equal(F.max_pool2d(xt, 2).numpy(), np_pool2d(xn, (2, 2), (2, 2), (1, 1), (0, 0), np.max, 0))
    np.testing.assert_allclose(
        F.avg_pool2d(xt, 3, 2).numpy(), np_pool2d(xn, (3, 3), (2, 2), (1, 1), (0, 0), np.mean, 0), rtol=1e-12
    )


def test_max_pool2d_nan_and_ties():
    x = torch.zeros(1, 1, 4, 6)
    x[0, 0, 1, 1] = float("nan")
    out, idx = F.max_pool2d(x, 2, return_indices=True)
    assert torch.isnan(out[0, 0, 0, 0]) and idx[0, 0, 0, 0].item() == 7
    assert out[0, 0, 0, 1].item() == 0 and idx[0, 0, 0, 1].item() == 2  # a window of zeros: its first element
    assert idx[0, 0, 1, 2].item() == 16


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32])
def test_pooling_low_precision(dtype):
    x = torch.randn(2, 3, 12, 66)
    for fn in (lambda t: F.max_pool2d(t, 2), lambda t: F.avg_pool2d(t, (3, 2), (1, 2))):
        got = fn(x.to(dtype))
        assert got.dtype == dtype
        torch.testing.assert_close(got.float(), fn(x.to(dtype).float()), rtol=1e-2, atol=1e-2)
