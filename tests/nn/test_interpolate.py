"""F.interpolate on the upsample kernels (torch._resample_1d, one spatial dim at a time): every mode against a
float64 NumPy model of PyTorch's coordinate rules (area_pixel_compute_source_index; cubic A = -0.75), up and
down, by size or by scale factor, align_corners both ways; antialias (bilinear, bicubic with A = -0.5, lanczos:
each output the normalized filter over the window it covers, stretched when downsampling); gradcheck and
gradgradcheck; 16-bit and integer input; PyTorch's errors. Passing on upstream 2.13 is what shows the NumPy
model is PyTorch's."""

from __future__ import annotations

import math
import os

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
        elif mode == "linear" and n_in == n_out:  # PyTorch copies, whatever the scale (1 x[o] + 0 x[o])
            out.append(([o, o], [1.0, 0.0]))
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
        scale = scales[i]
        if kind == "nearest" and len(out_size) == 2 and n_out in (y.shape[dim], 2 * y.shape[dim]):
            scale = None  # PyTorch's 2-D nearest copies or doubles exactly, whatever the scale (1-D, 3-D: not)
        taps = _taps(kind, y.shape[dim], n_out, scale, align_corners)
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
# upstream's nearest backward indexes with its exact shortcuts where its 1-D/3-D forward does not (scale 1.02 on a
# size that stays, 2.01 on one that doubles): its gradcheck fails there, so these are forward-only
_SCALED_SAME = [
    # a dim whose size stays (or doubles) under a scale factor: linear copies it, 2-D nearest copies (doubles)
    # it, 1-D/3-D nearest and cubic apply the scale
    ("bilinear", (1, 2, 3, 5), dict(scale_factor=(1.27, 1.5))),
    ("nearest", (2, 3, 3), dict(scale_factor=1.02)),
    ("nearest", (1, 2, 3, 4), dict(scale_factor=(2.01, 1.3))),
    ("nearest", (1, 2, 4, 3, 3), dict(scale_factor=(2.01, 1.3, 1.0))),
    ("nearest", (2, 3, 4), dict(scale_factor=2.01)),
    ("nearest-exact", (1, 2, 5, 4), dict(scale_factor=(1.1, 2.6))),
    ("bicubic", (1, 2, 3, 5), dict(scale_factor=(1.27, 1.5))),
    ("trilinear", (1, 2, 3, 4, 2), dict(scale_factor=(1.27, 1.5, 1.1))),
]
CASES += _SCALED_SAME


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


@pytest.mark.parametrize("mode, shape, kw", [c for c in CASES if c[0] != "trilinear" and c not in _SCALED_SAME])
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


def _aa_filter(kind, x):
    """The antialiased filters (Pillow's, as upstream's _upsample_*2d_aa): triangle, Keys' cubic with a = -0.5,
    Lanczos-3."""
    x = abs(x)
    if kind == "linear":
        return max(1.0 - x, 0.0)
    if kind == "cubic":
        a = -0.5
        return ((a + 2) * x - (a + 3)) * x * x + 1 if x < 1 else ((((x - 5) * x + 8) * x - 4) * a if x < 2 else 0.0)
    return (
        1.0
        if x == 0
        else (3 * math.sin(math.pi * x) * math.sin(math.pi * x / 3) / (math.pi * x) ** 2 if x < 3 else 0.0)
    )


def _aa_matrix(kind, n_in, n_out, scale, align_corners):
    """[n_out, n_in] float64 weights of one antialiased dim: output o's centre r (o + 0.5) in input pixels, the
    filter stretched by r when downsampling (r > 1), over the inputs within its support, normalized."""
    if align_corners:
        r = (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
    else:
        r = 1.0 / scale if scale else n_in / n_out
    half = {"linear": 1.0, "cubic": 2.0, "lanczos": 3.0}[kind]
    support, stretch = (half * r, r) if r >= 1 else (half, 1.0)
    m = np.zeros((n_out, n_in))
    for o in range(n_out):
        c = r * (o + 0.5)
        lo, hi = max(int(c - support + 0.5), 0), min(int(c + support + 0.5), n_in)
        w = np.array([_aa_filter(kind, (j - c + 0.5) / stretch) for j in range(lo, hi)])
        m[o, lo:hi] = w / w.sum() if w.sum() != 0 else w
    return m


AA_CASES = [  # mode, input shape, kwargs
    ("bilinear", (2, 3, 16, 16), dict(size=(5, 7))),
    ("bilinear", (1, 2, 10, 12), dict(size=(23, 9))),
    ("bilinear", (1, 1, 40, 9), dict(scale_factor=(0.13, 0.5))),
    ("bicubic", (2, 2, 16, 20), dict(size=(5, 7))),
    ("bicubic", (1, 3, 9, 13), dict(scale_factor=2.7)),
    ("bicubic", (1, 1, 31, 8), dict(scale_factor=0.3)),
    ("lanczos", (1, 2, 16, 16), dict(size=(5, 7))),
    ("lanczos", (1, 1, 10, 30), dict(size=(23, 4))),
    ("lanczos", (1, 1, 9, 13), dict(scale_factor=0.45)),
    ("bilinear", (1, 2, 3, 12), dict(scale_factor=(1.27, 0.5))),  # the size that stays: skipped, not rescaled
]


@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("mode, shape, kw", AA_CASES)
def test_antialias_against_numpy(device, mode, shape, kw, align_corners):
    if mode == "lanczos" and align_corners:
        pytest.skip("lanczos refuses align_corners")
    x = torch.randn(shape, dtype=torch.float64, device=device)
    got = F.interpolate(x, mode=mode, antialias=True, align_corners=align_corners, **kw)
    (oh, ow), (sh, sw) = _out_and_scales(shape, kw)
    kind = {"bilinear": "linear", "bicubic": "cubic"}.get(mode, mode)
    same = lambda n: np.eye(n)  # noqa: E731  (a dim whose size stays is skipped, whatever the scale)
    mh = same(oh) if oh == shape[2] else _aa_matrix(kind, shape[2], oh, sh, align_corners)
    mw = same(ow) if ow == shape[3] else _aa_matrix(kind, shape[3], ow, sw, align_corners)
    want = np.einsum("oh,nchw,pw->ncop", mh, x.cpu().numpy(), mw)
    np.testing.assert_allclose(got.cpu().numpy(), want, rtol=1e-10, atol=1e-12)
    # float32, strided and channels_last input; the output keeps channels_last
    x32 = x.float().transpose(-1, -2).contiguous().transpose(-1, -2)
    got32 = F.interpolate(x32, mode=mode, antialias=True, align_corners=align_corners, **kw)
    np.testing.assert_allclose(got32.cpu().numpy(), want, rtol=1e-4, atol=1e-5)
    cl = x.float().contiguous(memory_format=torch.channels_last)
    got_cl = F.interpolate(cl, mode=mode, antialias=True, align_corners=align_corners, **kw)
    np.testing.assert_allclose(got_cl.cpu().numpy(), want, rtol=1e-4, atol=1e-5)
    if shape[1] > 1:
        assert got_cl.is_contiguous(memory_format=torch.channels_last)


def test_antialias_differs_from_plain_when_downsampling():
    """antialias is not ignored: a 3x downsample of a checkerboard averages it to about 0.5 (4/9 or 5/9 inside),
    where plain bilinear lands on single pixels (0 or 1)."""
    board = ((torch.arange(15).view(1, 1, 15, 1) + torch.arange(15).view(1, 1, 1, 15)) % 2).double()
    aa = F.interpolate(board, size=(5, 5), mode="bilinear", antialias=True)
    plain = F.interpolate(board, size=(5, 5), mode="bilinear", antialias=False)
    np.testing.assert_allclose(aa[..., 1:-1, 1:-1].numpy(), 0.5, atol=0.06)
    assert ((aa - 0.5).abs() < 0.2).all()
    np.testing.assert_array_equal((plain - 0.5).abs().numpy(), 0.5)
    same = F.interpolate(board, size=(15, 15), mode="bicubic", antialias=True)  # same size: the identity
    np.testing.assert_allclose(same.numpy(), board.numpy(), atol=1e-12)


@pytest.mark.parametrize("mode", ["bilinear", "bicubic", "lanczos"])
def test_antialias_gradients(device, mode):
    x = torch.randn(1, 2, 9, 7, dtype=torch.float64, device=device, requires_grad=True)
    for size in ((4, 3), (11, 10)):
        f = lambda t, size=size: F.interpolate(t, size=size, mode=mode, antialias=True)  # noqa: E731
        assert torch.autograd.gradcheck(f, (x,))
        assert torch.autograd.gradgradcheck(f, (x,))


@pytest.mark.skipif("TORCH_REFERENCE" in os.environ, reason="upstream has no 16-bit antialias kernel")
def test_antialias_16bit_accumulates_in_float32(device):
    x = torch.randn(1, 2, 20, 18, device=device)
    for dtype in (torch.float16, torch.bfloat16):
        got = F.interpolate(x.to(dtype), size=(7, 5), mode="bicubic", antialias=True)
        assert got.dtype == dtype
        want = F.interpolate(x.to(dtype).float(), size=(7, 5), mode="bicubic", antialias=True)
        torch.testing.assert_close(got.float(), want, atol=2e-2, rtol=2e-2)


def test_antialias_errors():
    x = torch.randn(1, 2, 8, 8)
    msg = "Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a 4-D tensor"
    with pytest.raises(ValueError, match=msg):
        F.interpolate(x, size=3, mode="nearest", antialias=True)
    with pytest.raises(ValueError, match=msg):
        F.interpolate(torch.randn(1, 2, 8), size=3, mode="linear", antialias=True)
    with pytest.raises(ValueError, match=msg):
        F.interpolate(torch.randn(1, 2, 8, 8, 8), size=3, mode="trilinear", antialias=True)
    with pytest.raises(ValueError, match="Lanczos mode requires antialias=True"):
        F.interpolate(x, size=3, mode="lanczos")
    with pytest.raises(ValueError, match="Lanczos mode does not support align_corners=True"):
        F.interpolate(x, size=3, mode="lanczos", antialias=True, align_corners=True)
    with pytest.raises(RuntimeError, match="not implemented for 'Int'|not implemented for 'int32'"):
        F.interpolate(x.int(), size=3, mode="bilinear", antialias=True)


@pytest.mark.skipif("TORCH_REFERENCE" in os.environ, reason="upstream's antialiased kernel is wrong for one column")
@pytest.mark.parametrize("mode", ["bilinear", "bicubic", "lanczos"])
def test_antialias_to_one_column(mode):
    """Downsampling to a width of 1 (upstream 2.13 gives every row the first row's value; found by the nn fuzz)."""
    x = torch.linspace(0, 1000, 126, dtype=torch.float64).reshape(2, 3, 7, 3)
    kind = {"bilinear": "linear", "bicubic": "cubic"}.get(mode, mode)
    for oh in (14, 3):
        got = F.interpolate(x, size=(oh, 1), mode=mode, antialias=True)
        want = np.einsum(
            "oh,nchw,pw->ncop", _aa_matrix(kind, 7, oh, None, False), x.numpy(), _aa_matrix(kind, 3, 1, None, False)
        )
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-10, atol=1e-9)


def _dim_matrix(kind, n_in, n_out, scale, align_corners, antialias):
    if antialias:
        return _aa_matrix(kind, n_in, n_out, scale, align_corners)
    m = np.zeros((n_out, n_in))
    for o, (idx, ws) in enumerate(_taps(kind, n_in, n_out, scale, align_corners)):
        for k, w in zip(idx, ws):
            m[o, k] += w
    return m


@pytest.mark.parametrize("antialias", [False, True])
@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
def test_uint8_images(device, mode, align_corners, antialias):
    """uint8 bilinear/bicubic (torchvision's resize of image tensors): upstream's separable path, the last dim
    first, each pass rounded half up and clamped to 0..255 (a cubic's overshoot too), a dim whose size stays
    skipped. Upstream weighs in int16 fixed point: within 1 of this model (a few % off), here within 1 on ties."""
    rng = np.random.default_rng(7)
    kind = {"bilinear": "linear", "bicubic": "cubic"}[mode]
    for (h, w), (oh, ow) in (((16, 16), (5, 7)), ((10, 12), (23, 9)), ((7, 9), (7, 20)), ((32, 30), (8, 9))):
        x = rng.integers(0, 256, (2, 3, h, w)).astype(np.uint8)
        got = F.interpolate(
            torch.from_numpy(x).to(device), size=(oh, ow), mode=mode, align_corners=align_corners, antialias=antialias
        )
        assert got.dtype == torch.uint8
        t = x.astype(np.float64)
        for dim, n_out in ((3, ow), (2, oh)):
            if n_out == t.shape[dim]:
                continue
            m = _dim_matrix(kind, t.shape[dim], n_out, None, align_corners, antialias)
            t = np.clip(np.floor(np.moveaxis(np.tensordot(m, np.moveaxis(t, dim, 0), 1), 0, dim) + 0.5), 0, 255)
        diff = np.abs(got.cpu().numpy().astype(int) - t.astype(int))
        assert diff.max() <= 1, (h, w, oh, ow)  # ties (x.5 exactly) may round either way after float sums
        assert diff.mean() < (0.1 if "TORCH_REFERENCE" in os.environ else 0.01), (h, w, oh, ow)
    cl = torch.from_numpy(x).contiguous(memory_format=torch.channels_last)
    assert F.interpolate(cl, size=(5, 7), mode=mode).is_contiguous(memory_format=torch.channels_last)


def test_integer_interpolation_refused_as_upstream():
    for dtype in (torch.int8, torch.int32):
        with pytest.raises(RuntimeError, match="not implemented for"):
            F.interpolate(torch.ones(1, 2, 4, 4, dtype=dtype), size=3, mode="bilinear")
    with pytest.raises(RuntimeError, match="not implemented for"):
        F.interpolate(torch.ones(1, 2, 4, dtype=torch.uint8), size=3, mode="linear")
    with pytest.raises(RuntimeError, match="not implemented for"):
        F.interpolate(torch.ones(1, 2, 4, 4, 4, dtype=torch.uint8), size=3, mode="trilinear")
