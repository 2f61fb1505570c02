"""Convolutions of batches that the CPU kernels take in several chunks (a chunk's columns stay in cache), with
groups, 1x1 kernels and the gradients asked for one at a time: each sample of the batch must come out as it
does on its own, and the batch as NumPy's float64 convolution."""

from __future__ import annotations

import numpy as np
import pytest
from opinfo import _np_conv2d

import torch
import torch.nn.functional as F

CASES = {
    # (N, C, H, W), (O, C / groups, kh, kw), keyword arguments
    "3x3 groups, several chunks": ((6, 64, 32, 32), (8, 32, 3, 3), dict(padding=1, groups=2)),
    "strided dilated": ((5, 16, 40, 40), (12, 16, 3, 3), dict(stride=2, padding=2, dilation=2)),
    "1x1": ((9, 48, 24, 24), (32, 48, 1, 1), {}),
    "1x1 groups": ((3, 24, 48, 48), (12, 8, 1, 1), dict(groups=3)),
    "small samples, many per chunk": ((70, 3, 12, 12), (5, 3, 3, 3), dict(padding=1)),
}


def _conv(x, w, b, kw):
    return F.conv2d(x, w, b, **kw)


def _np_grouped(x, w, b, kw):
    """NumPy's float64 convolution, a group at a time."""
    groups, c, o = kw.get("groups", 1), w.shape[1], w.shape[0] // kw.get("groups", 1)
    args = [(kw.get(k, d),) * 2 for k, d in (("stride", 1), ("padding", 0), ("dilation", 1))]
    parts = [_np_conv2d(x[:, k * c : (k + 1) * c], w[k * o : (k + 1) * o], None, *args) for k in range(groups)]
    return np.concatenate(parts, axis=1) + b[None, :, None, None]


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_batch_equals_numpy_and_each_sample_alone(case):
    xs, ws, kw = CASES[case]
    g = torch.Generator().manual_seed(0)
    x = torch.randn(xs, generator=g).requires_grad_()
    w = torch.randn(ws, generator=g).requires_grad_()
    b = torch.randn(ws[0], generator=g).requires_grad_()
    out = _conv(x, w, b, kw)
    ref = _np_grouped(x.detach().numpy(), w.detach().numpy(), b.detach().numpy(), kw)
    np.testing.assert_allclose(out.detach().numpy(), ref, rtol=1e-4, atol=1e-3)
    grad = torch.randn(out.shape, generator=g)
    gx, gw, gb = torch.autograd.grad(out, (x, w, b), grad)
    sum_gw, sum_gb = torch.zeros_like(w), torch.zeros_like(b)
    for n in range(xs[0]):
        xn = x[n : n + 1].detach().requires_grad_()
        on = _conv(xn, w, b, kw)
        torch.testing.assert_close(on, out[n : n + 1], rtol=1e-4, atol=1e-4)
        gxn, gwn, gbn = torch.autograd.grad(on, (xn, w, b), grad[n : n + 1])
        torch.testing.assert_close(gxn, gx[n : n + 1], rtol=1e-4, atol=1e-4)
        sum_gw += gwn
        sum_gb += gbn
    torch.testing.assert_close(gw, sum_gw, rtol=1e-4, atol=1e-3)
    torch.testing.assert_close(gb, sum_gb, rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("wanted", ["input", "weight", "bias"])
def test_one_gradient_asked_for(wanted):
    g = torch.Generator().manual_seed(1)
    x, w, b = torch.randn(4, 6, 10, 10, generator=g), torch.randn(4, 3, 3, 3, generator=g), torch.randn(4, generator=g)
    full = [t.clone().requires_grad_() for t in (x, w, b)]
    grad = torch.randn(4, 4, 10, 10, generator=g)
    want = torch.autograd.grad(F.conv2d(*full, padding=1, groups=2), full, grad)
    one = [t.clone().requires_grad_(name == wanted) for name, t in zip(("input", "weight", "bias"), (x, w, b))]
    i = ("input", "weight", "bias").index(wanted)
    (got,) = torch.autograd.grad(F.conv2d(*one, padding=1, groups=2), [one[i]], grad)
    torch.testing.assert_close(got, want[i])


@pytest.mark.parametrize("groups", [1, 2])
def test_16bit_batch_adds_the_bias_before_rounding(groups):
    """A 16-bit convolution of several samples rounds each output once, its bias inside the float32 sum:
    32768 + 32752 - 2 = 65518 is 65504 in float16, not the inf of rounding 65520 before adding (fuzz seed 606)."""
    x = torch.tensor([32768.0, 32752.0] * groups, dtype=torch.float16).reshape(1, 2 * groups, 1, 1).repeat(3, 1, 2, 3)
    w = torch.ones(groups, 2, 1, 1, dtype=torch.float16)
    b = torch.full((groups,), -2.0, dtype=torch.float16)
    got = F.conv2d(x, w, b, groups=groups)
    assert got.shape == (3, groups, 2, 3)
    np.testing.assert_array_equal(got.float().numpy(), 65504.0)
    np.testing.assert_array_equal(F.conv2d(x[:1], w, b, groups=groups).float().numpy(), 65504.0)  # one sample


def _np_conv_transpose(x, w, b, stride, padding, output_padding, dilation, groups):
    """A float64 NumPy transposed convolution by scattering: each input element times the kernel, added at
    i * stride + k * dilation, then `padding` cropped from both ends (output_padding extends the end)."""
    x, w = np.asarray(x, np.float64), np.asarray(w, np.float64)
    n, cin = x.shape[:2]
    spatial = x.shape[2:]
    cin_g, cout_g, kernel = cin // groups, w.shape[1], w.shape[2:]
    full = [
        (spatial[i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1 + output_padding[i]
        for i in range(len(spatial))
    ]
    out = np.zeros((n, cout_g * groups, *full))
    for kk in np.ndindex(*kernel):
        where = tuple(
            slice(kk[i] * dilation[i], kk[i] * dilation[i] + (spatial[i] - 1) * stride[i] + 1, stride[i])
            for i in range(len(spatial))
        )
        for gi in range(groups):
            xs = x[:, gi * cin_g : (gi + 1) * cin_g]
            ws = w[gi * cin_g : (gi + 1) * cin_g][(slice(None), slice(None), *kk)]
            out[(slice(None), slice(gi * cout_g, (gi + 1) * cout_g), *where)] += np.einsum("nc...,co->no...", xs, ws)
    crop = tuple(slice(padding[i], full[i] - padding[i]) for i in range(len(spatial)))
    out = out[(slice(None), slice(None), *crop)]
    return out + (b.reshape([1, -1] + [1] * len(spatial)) if b is not None else 0)


TRANSPOSED = {
    # (N, C_in, *S), (C_in, C_out / groups, *k), stride, padding, output_padding, dilation, groups
    "1d": ((3, 4, 9), (4, 3, 3), (2,), (1,), (1,), (1,), 1),
    "2d groups": ((2, 6, 5, 7), (6, 2, 3, 2), (2, 1), (1, 0), (1, 0), (1, 1), 3),
    "2d dilated, output_padding < dilation": ((2, 3, 6, 5), (3, 4, 3, 3), (1, 2), (2, 1), (1, 1), (2, 2), 1),
    "3d": ((2, 2, 3, 4, 3), (2, 3, 2, 3, 2), (2, 1, 2), (0, 1, 1), (1, 0, 0), (1, 1, 1), 1),
    "2d many samples": ((40, 8, 12, 12), (8, 8, 3, 3), (2, 2), (1, 1), (1, 1), (1, 1), 1),
}


@pytest.mark.parametrize("case", TRANSPOSED, ids=list(TRANSPOSED))
def test_conv_transpose_against_numpy_and_gradients(case):
    xs, ws, stride, padding, output_padding, dilation, groups = TRANSPOSED[case]
    g = torch.Generator().manual_seed(3)
    x = torch.randn(xs, generator=g, dtype=torch.float64)
    w = torch.randn(ws, generator=g, dtype=torch.float64)
    b = torch.randn(ws[1] * groups, generator=g, dtype=torch.float64)
    fn = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}[len(xs) - 2]
    kw = dict(stride=stride, padding=padding, output_padding=output_padding, groups=groups, dilation=dilation)
    out = fn(x, w, b, **kw)
    want = _np_conv_transpose(x.numpy(), w.numpy(), b.numpy(), stride, padding, output_padding, dilation, groups)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(fn(x.float(), w.float(), b.float(), **kw).numpy(), want, rtol=1e-4, atol=1e-4)
    if xs[0] <= 3:  # gradcheck of every argument (the large batch checks the chunked forward only)
        args = tuple(t.clone().requires_grad_() for t in (x, w, b))
        assert torch.autograd.gradcheck(lambda *a: fn(*a, **kw), args)


@pytest.mark.parametrize(
    "shape, kw",
    [
        ((2, 3, 6, 7), dict(kernel_size=(2, 3))),
        ((1, 2, 7, 7), dict(kernel_size=3, dilation=2, padding=1, stride=2)),
        ((3, 5, 6), dict(kernel_size=2, stride=(1, 2), padding=(1, 0))),  # unbatched
    ],
)
def test_unfold_and_fold_against_numpy(shape, kw):
    g = torch.Generator().manual_seed(4)
    x = torch.randn(shape, generator=g, dtype=torch.float64)
    pair = lambda v: v if isinstance(v, tuple) else (v, v)  # noqa: E731
    (kh, kw_), (dh, dw), (ph, pw), (sh, sw) = (
        pair(kw.get(k, d)) for k, d in (("kernel_size", 1), ("dilation", 1), ("padding", 0), ("stride", 1))
    )
    xb = x.numpy() if len(shape) == 4 else x.numpy()[None]
    xp = np.pad(xb, [(0, 0), (0, 0), (ph, ph), (pw, pw)])
    oh = (xp.shape[2] - dh * (kh - 1) - 1) // sh + 1
    ow = (xp.shape[3] - dw * (kw_ - 1) - 1) // sw + 1
    blocks = [
        xp[:, :, i * dh : i * dh + (oh - 1) * sh + 1 : sh, j * dw : j * dw + (ow - 1) * sw + 1 : sw]
        for i in range(kh)
        for j in range(kw_)
    ]
    want = np.stack(blocks, 2).reshape(xb.shape[0], -1, oh * ow)  # (N, C, kh*kw, L) -> rows c * kh * kw + k
    want = want if len(shape) == 4 else want[0]
    cols = F.unfold(x, **kw)
    np.testing.assert_array_equal(cols.numpy(), want)
    y = torch.randn(cols.shape, generator=g, dtype=torch.float64)
    back = F.fold(y, shape[-2:], **kw)
    assert back.shape == x.shape
    np.testing.assert_allclose((cols * y).sum().item(), (x * back).sum().item(), rtol=1e-12)  # fold is unfold's adjoint
    xr = x.clone().requires_grad_()
    assert torch.autograd.gradcheck(lambda t: F.unfold(t, **kw), (xr,))
    assert torch.autograd.gradgradcheck(lambda t: F.fold(t, shape[-2:], **kw), (y.clone().requires_grad_(),))
