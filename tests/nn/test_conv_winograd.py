"""3x3 convolutions of unit stride with enough channels, which the CPU computes as Winograd F(2x2, 3x3) tiles
(and so their input and weight gradients): values and gradients against NumPy's float64 direct convolution
over odd and even planes, every padding, groups, planes narrower or wider than a work item, samples whose
tile rows share an item, non-contiguous and channels_last input; float64 gradcheck; infinities and NaNs as
the direct convolution has them (the transforms would spread them over whole tiles)."""

from __future__ import annotations

import numpy as np
import pytest
from opinfo import _np_conv2d

import torch
import torch.nn.functional as F

CASES = {
    # N, C, H, W, O, padding, groups
    "even plane, padding 1": (2, 16, 8, 10, 8, 1, 1),
    "odd plane, no padding": (3, 8, 9, 7, 12, 0, 1),
    "padding 2": (1, 8, 5, 6, 8, 2, 1),
    "padding 3 (input gradient by im2col)": (2, 8, 6, 5, 8, 3, 1),
    "groups": (2, 32, 7, 7, 16, 1, 2),
    "1x1 plane": (4, 8, 1, 1, 8, 1, 1),
    "2x1 plane, no padding": (2, 8, 3, 4, 8, 0, 1),
    "many small samples per work item": (70, 8, 6, 6, 8, 1, 1),
    "a plane wider than a work item": (1, 8, 3, 600, 8, 1, 1),
    "wide layer (weight gradient by im2col)": (1, 1025, 3, 3, 1025, 1, 1),
}


def _np_reference(x, w, b, padding, groups):
    """NumPy's float64 convolution, a group at a time."""
    c, o = w.shape[1], w.shape[0] // groups
    parts = [
        _np_conv2d(x[:, k * c : (k + 1) * c], w[k * o : (k + 1) * o], None, (1, 1), (padding,) * 2, (1, 1))
        for k in range(groups)
    ]
    return np.concatenate(parts, axis=1) + b[None, :, None, None]


def _np_gradients(x, w, go, padding, groups):
    """float64 (grad_input, grad_weight) of that convolution for the output gradient go, by its definition:
    out[n, o, y, x] = sum_{c, i, j} xpad[n, c, y + i, x + j] w[o, c, i, j]."""
    n, cin, h, wd = x.shape
    c, o = w.shape[1], w.shape[0] // groups
    xp = np.pad(x.astype(np.float64), [(0, 0), (0, 0), (padding,) * 2, (padding,) * 2])
    gxp, gw = np.zeros_like(xp), np.zeros(w.shape)
    ho, wo = go.shape[2:]
    for k in range(groups):
        xs, gs, ws = slice(k * c, (k + 1) * c), slice(k * o, (k + 1) * o), w[k * o : (k + 1) * o].astype(np.float64)
        for i in range(3):
            for j in range(3):
                patch = xp[:, xs, i : i + ho, j : j + wo]
                gw[gs, :, i, j] = np.einsum("nohw,nchw->oc", go[:, gs], patch)
                gxp[:, xs, i : i + ho, j : j + wo] += np.einsum("nohw,oc->nchw", go[:, gs], ws[:, :, i, j])
    return gxp[:, :, padding : padding + h, padding : padding + wd], gw


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_values_and_gradients_against_numpy(case):
    n, c, h, w_, o, padding, groups = CASES[case]
    g = torch.Generator().manual_seed(0)
    x = torch.randn(n, c, h, w_, generator=g).requires_grad_()
    w = torch.randn(o, c // groups, 3, 3, generator=g).requires_grad_()
    b = torch.randn(o, generator=g).requires_grad_()
    out = F.conv2d(x, w, b, padding=padding, groups=groups)
    xn, wn, bn = (t.detach().numpy() for t in (x, w, b))

    def close(got, want, atol):  # float32 sums of many terms: an absolute error that grows with their scale
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=atol + 4e-6 * np.abs(want).max())

    close(out.detach().numpy(), _np_reference(xn, wn, bn, padding, groups), 1e-4)
    go = torch.randn(out.shape, generator=g)
    gx, gw, gb = torch.autograd.grad(out, (x, w, b), go)
    want_gx, want_gw = _np_gradients(xn, wn, go.numpy(), padding, groups)
    close(gx.numpy(), want_gx, 1e-4)
    close(gw.numpy(), want_gw, 1e-3)
    np.testing.assert_allclose(gb.numpy(), go.numpy().sum((0, 2, 3)), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("layout", ["sliced", "channels_last"])
def test_non_contiguous_input(layout):
    g = torch.Generator().manual_seed(1)
    base = torch.randn(2, 16, 9, 20, generator=g)
    x = base[:, :, :, ::2] if layout == "sliced" else base.contiguous(memory_format=torch.channels_last)
    w, b = torch.randn(8, 16, 3, 3, generator=g), torch.randn(8, generator=g)
    want = _np_reference(x.numpy(), w.numpy(), b.numpy(), 1, 1)
    np.testing.assert_allclose(F.conv2d(x, w, b, padding=1).numpy(), want, rtol=1e-4, atol=1e-4)


def test_gradcheck_float64():
    g = torch.Generator().manual_seed(2)
    x = torch.randn(2, 8, 5, 4, dtype=torch.float64, generator=g).requires_grad_()
    w = torch.randn(8, 8, 3, 3, dtype=torch.float64, generator=g).requires_grad_()
    b = torch.randn(8, dtype=torch.float64, generator=g).requires_grad_()
    assert torch.autograd.gradcheck(lambda *a: F.conv2d(*a, padding=1), (x, w, b))


@pytest.mark.parametrize("where", ["input", "weight", "output gradient"])
def test_non_finite_values_as_the_direct_convolution(where):
    g = torch.Generator().manual_seed(3)
    x = torch.randn(2, 8, 8, 8, generator=g)
    w = torch.randn(8, 8, 3, 3, generator=g)
    go = torch.randn(2, 8, 8, 8, generator=g)
    if where == "input":
        x[0, 3, 4, 4], x[1, 0, 0, 7] = float("inf"), float("nan")
    elif where == "weight":
        w[2, 5, 1, 1] = float("inf")
    else:
        go[1, 2, 3, 3] = float("-inf")
    xr, wr = x.clone().requires_grad_(), w.clone().requires_grad_()
    out = F.conv2d(xr, wr, padding=1)
    with np.errstate(invalid="ignore"):
        want = _np_reference(x.numpy(), w.numpy(), np.zeros(8, np.float32), 1, 1)
        want_gx, want_gw = _np_gradients(x.numpy(), w.numpy(), go.numpy(), 1, 1)
    np.testing.assert_allclose(out.detach().numpy(), want, rtol=1e-4, atol=1e-4)
    assert np.isfinite(out.detach().numpy()).sum() == np.isfinite(want).sum() > 0
    gx, gw = torch.autograd.grad(out, (xr, wr), go)
    np.testing.assert_allclose(gx.numpy(), want_gx, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(gw.numpy(), want_gw, rtol=1e-4, atol=1e-3)
