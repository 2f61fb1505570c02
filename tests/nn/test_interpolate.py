"""F.interpolate on the upsample kernels (torch._resample_1d, one spatial dim at a time): every mode against a
float64 NumPy model of PyTorch's coordinate rules (area_pixel_compute_source_index; cubic A = -0.75), up and
down, by size or by scale factor, align_corners both ways; gradcheck and gradgradcheck; 16-bit and integer
input; PyTorch's errors. Passing on upstream 2.13 is what shows the NumPy model is PyTorch's."""

from __future__ import annotations

import math

import numpy as np
import pytest

import torch
import torch.nn.functional as F

A = -0.75  # PyTorch's cubic convolution coefficient


def _near(d):  # the cubic kernel for |d| <= 1
    return ((A + 2) * d - (A + 3)) * d * d + 1


def _far(d):  # the cubic kernel for 1 < |d| < 2
    return ((A * d - 5 * A) * d + 8 * A) * d - 4 * A


def _taps(mode, n_in, n_out, scale, align_corners):
    """[(indices, weights)] per output index of one dim, PyTorch's rules in float64."""
    if align_corners and mode in ("linear", "cubic"):
        r = (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
    else:
        r = 1.0 / scale if scale else n_in / n_out
    clamp = lambda i: min(max(i, 0), n_in - 1)  # noqa: E731
    out = []
    for o in range(n_out):
        if mode in ("nearest", "nearest-exact"):
            src = o * r if mode == "nearest" else (o + 0.5) * r
            out.append(([clamp(math.floor(src))], [1.0]))
        elif mode == "linear":
            src = max(r * o if align_corners else r * (o + 0.5) - 0.5, 0.0)
            i0 = clamp(int(src))
            lam = min(src - i0, 1.0)
            out.append(([i0, i0 + 1 if i0 < n_in - 1 else i0], [1 - lam, lam]))
        else:
            src = r * o if align_corners else r * (o + 0.5) - 0.5
            fl = math.floor(src)
            t = src - fl
            out.append(([clamp(fl - 1 + k) for k in range(4)], [_far(t + 1), _near(t), _near(1 - t), _far(2 - t)]))
    return out


def _np_interpolate(x, out_size, mode, scales, align_corners):
    kind = {"bicubic": "cubic", "bilinear": "linear", "trilinear": "linear"}.get(mode, mode)
    y = np.asarray(x, np.float64)
    for i, n_out in enumerate(out_size):
        dim = 2 + i
        taps = _taps(kind, y.shape[dim], n_out, scales[i], align_corners)
        y = np.moveaxis(y, dim, 0)
        y = np.stack([sum(w * y[k] for k, w in zip(idx, ws)) for idx, ws in taps])
        y = np.moveaxis(y, 0, dim)
    return y


CASES = [  # mode, input shape, kwargs
    ("nearest", (2, 3, 5), dict(size=11)),
    ("nearest", (1, 2, 6, 7), dict(scale_factor=(1.7, 0.6))),
    ("nearest-exact", (1, 2, 6, 7), dict(size=(4, 13))),
    ("linear", (2, 2, 7), dict(scale_factor=2.5)),
    ("bilinear", (1, 3, 5, 6), dict(size=(9, 4))),
    ("bilinear", (1, 1, 6, 6), dict(scale_factor=0.5, recompute_scale_factor=True)),
    ("bicubic", (1, 2, 5, 6), dict(size=(11, 7))),
    ("bicubic", (1, 1, 8, 8), dict(scale_factor=1.5)),
    ("trilinear", (1, 1, 3, 4, 5), dict(size=(5, 3, 8))),
]


def _out_and_scales(shape, kw):
    n = len(shape) - 2
    if "size" in kw:
        size = kw["size"]
        return (list(size) if isinstance(size, tuple) else [size] * n), [None] * n
    sf = kw["scale_factor"]
    sf = list(sf) if isinstance(sf, tuple) else [sf] * n
    out = [math.floor(shape[2 + i] * sf[i]) for i in range(n)]
    return out, ([None] * n if kw.get("recompute_scale_factor") else sf)


@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("mode, shape, kw", CASES)
def test_interpolate_against_numpy(device, mode, shape, kw, align_corners):
    if mode.startswith("nearest") and align_corners:
        pytest.skip("align_corners is for the interpolating modes")
    x = torch.randn(shape, dtype=torch.float64, device=device)
    ac = {"align_corners": align_corners} if not mode.startswith("nearest") else {}
    got = F.interpolate(x, mode=mode, **kw, **ac)
    out, scales = _out_and_scales(shape, kw)
    want = _np_interpolate(x.cpu().numpy(), out, mode, scales, align_corners)
    np.testing.assert_allclose(got.cpu().numpy(), want, rtol=1e-10, atol=1e-10)
    x32 = x.float().transpose(-1, -2).contiguous().transpose(-1, -2)  # strided float32
    np.testing.assert_allclose(F.interpolate(x32, mode=mode, **kw, **ac).cpu().numpy(), want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("mode, shape, kw", [c for c in CASES if c[0] != "trilinear"])
def test_interpolate_gradients(device, mode, shape, kw):
    x = torch.randn(shape, dtype=torch.float64, device=device, requires_grad=True)
    ac = {"align_corners": False} if not mode.startswith("nearest") else {}
    f = lambda t: F.interpolate(t, mode=mode, **kw, **ac)  # noqa: E731
    assert torch.autograd.gradcheck(f, (x,))
    assert torch.autograd.gradgradcheck(f, (x,))


def test_interpolate_16bit_and_integer_input(device):
    x = torch.randn(1, 2, 5, 6, device=device)
    torch.testing.assert_close(
        F.interpolate(x.half(), scale_factor=2, mode="bilinear").float(),
        F.interpolate(x, scale_factor=2, mode="bilinear"),
        atol=1e-2,
        rtol=1e-2,
    )
    i = torch.arange(12, device=device).to(torch.uint8).reshape(1, 1, 3, 4)
    got = F.interpolate(i, scale_factor=2)
    assert got.dtype == torch.uint8
    np.testing.assert_array_equal(got.cpu().numpy(), i.cpu().numpy().repeat(2, 2).repeat(2, 3))


def test_interpolate_errors():
    x = torch.randn(1, 2, 4, 4)
    with pytest.raises(ValueError, match="only one of size or scale_factor should be defined"):
        F.interpolate(x, size=3, scale_factor=2)
    with pytest.raises(ValueError, match="align_corners option can only be set with the interpolating modes"):
        F.interpolate(x, size=3, align_corners=True)
    with pytest.raises(NotImplementedError, match="Got 4D input, but trilinear mode needs 5D input"):
        F.interpolate(x, size=3, mode="trilinear")
