"""F.grid_sample (the grid_sampler_2d and grid_sampler_3d kernels) and F.affine_grid: bilinear, nearest and
bicubic sampling of 4-D input, trilinear and nearest of 5-D input, with zeros, border and reflection padding,
align_corners both ways, against float64 NumPy models of PyTorch's rules (upstream 2.13 passes the same
tests); gradcheck of the input and the grid; the identity transform; errors."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import torch
import torch.nn.functional as F


def _unnormalize(g, size, align_corners):
    return (g + 1) / 2 * (size - 1) if align_corners else ((g + 1) * size - 1) / 2


def _bound(x, size, padding, align_corners):
    """The coordinate brought inside by the padding mode (zeros: unchanged)."""
    if padding == "border":
        return min(max(x, 0.0), size - 1.0)
    if padding == "reflection":
        lo, span = (0.0, size - 1.0) if align_corners else (-0.5, float(size))
        if span <= 0:
            return 0.0
        t = abs(x - lo)
        flips, extra = math.floor(t / span), math.fmod(t, span)
        x = lo + extra if flips % 2 == 0 else lo + span - extra
        return min(max(x, 0.0), size - 1.0)
    return x


_PADDINGS = ["zeros", "border", "reflection"]


def _cubic(t):
    a = -0.75

    def near(d):
        return ((a + 2) * d - (a + 3)) * d * d + 1

    def far(d):
        return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a

    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def _taps(g, size, mode, padding, align_corners):
    """[(pixel or None outside, weight)] of one dim."""

    def at(i):
        return int(i) if 0 <= i < size else None

    if mode == "bicubic":  # each tap brought inside on its own
        x = _unnormalize(g, size, align_corners)
        x0 = math.floor(x)
        return [(at(_bound(x0 - 1 + k, size, padding, align_corners)), w) for k, w in enumerate(_cubic(x - x0))]
    x = _bound(_unnormalize(g, size, align_corners), size, padding, align_corners)
    if mode == "nearest":
        return [(at(np.rint(x)), 1.0)]
    x0 = math.floor(x)
    return [(at(x0), 1 - (x - x0)), (at(x0 + 1), x - x0)]


def _np_grid_sample_nd(x, grid, mode, padding, align_corners):
    """x [N, C, *S], grid [N, *P, k] (x first): [N, C, *P]."""
    spatial, k = x.shape[2:], grid.shape[-1]
    out = np.zeros(x.shape[:2] + grid.shape[1:-1])
    for n in range(x.shape[0]):
        for p in np.ndindex(*grid.shape[1:-1]):
            per_dim = [_taps(grid[(n, *p, k - 1 - d)], spatial[d], mode, padding, align_corners) for d in range(k)]
            for combo in itertools.product(*per_dim):
                if all(i is not None for i, _ in combo):
                    out[(n, slice(None), *p)] += x[(n, slice(None), *[i for i, _ in combo])] * math.prod(
                        w for _, w in combo
                    )
    return out


@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
def test_grid_sample_against_numpy(device, mode, padding, align_corners):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2, 3, 5, 7))
    grid = rng.uniform(-1.6, 1.6, size=(2, 4, 6, 2))
    got = F.grid_sample(
        torch.from_numpy(x).to(device),
        torch.from_numpy(grid).to(device),
        mode=mode,
        padding_mode=padding,
        align_corners=align_corners,
    )
    np.testing.assert_allclose(got.cpu().numpy(), _np_grid_sample_nd(x, grid, mode, padding, align_corners), atol=1e-12)


@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
def test_grid_sample_gradients(device, padding):
    rng = np.random.default_rng(1)
    x = torch.from_numpy(rng.normal(size=(1, 2, 4, 5))).to(device).requires_grad_()
    grid = torch.from_numpy(rng.uniform(-1.2, 1.2, size=(1, 3, 3, 2))).to(device).requires_grad_()
    assert torch.autograd.gradcheck(
        lambda a, g: F.grid_sample(a, g, padding_mode=padding, align_corners=False), (x, grid)
    )
    assert torch.autograd.gradcheck(
        lambda a: F.grid_sample(a, grid.detach(), mode="nearest", padding_mode=padding, align_corners=True), (x,)
    )


@pytest.mark.parametrize("align_corners", [False, True])
def test_affine_grid_identity_samples_the_input(device, align_corners):
    x = torch.from_numpy(np.random.default_rng(2).normal(size=(2, 3, 5, 6))).to(device)
    theta = torch.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], dtype=torch.float64, device=device).expand(2, 2, 3)
    grid = F.affine_grid(theta, (2, 3, 5, 6), align_corners=align_corners)
    assert grid.shape == (2, 5, 6, 2)
    torch.testing.assert_close(F.grid_sample(x, grid, align_corners=align_corners), x)
    th = torch.tensor([[[0.5, -0.2, 0.1], [0.3, 1.5, -0.4]]], dtype=torch.float64, device=device)
    g = F.affine_grid(th, (1, 1, 3, 4), align_corners=align_corners)
    xs = np.linspace(-1, 1, 4) * (1 if align_corners else 3 / 4)
    ys = np.linspace(-1, 1, 3) * (1 if align_corners else 2 / 3)
    base = np.stack([*np.meshgrid(xs, ys), np.ones((3, 4))], -1)
    np.testing.assert_allclose(g[0].cpu().numpy(), base @ th[0].cpu().numpy().T, atol=1e-12)


def test_grid_sample_errors():
    with pytest.raises(ValueError, match="expected padding_mode to be 'zeros', 'border', or 'reflection'"):
        F.grid_sample(torch.ones(1, 1, 2, 2), torch.zeros(1, 1, 1, 2), padding_mode="wrap")
    with pytest.raises(RuntimeError, match="expected grid and input to have same batch size"):
        F.grid_sample(torch.ones(2, 1, 2, 2), torch.zeros(1, 1, 1, 2), align_corners=False)


@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("padding", _PADDINGS)
def test_bicubic_against_numpy(device, padding, align_corners):
    rng = np.random.default_rng(3)
    x = rng.normal(size=(2, 3, 5, 7))
    grid = rng.uniform(-1.4, 1.4, size=(2, 4, 6, 2))
    got = F.grid_sample(
        torch.from_numpy(x).to(device), torch.from_numpy(grid).to(device), mode="bicubic",
        padding_mode=padding, align_corners=align_corners,
    )  # fmt: skip
    want = _np_grid_sample_nd(x, grid, "bicubic", padding, align_corners)
    np.testing.assert_allclose(got.cpu().numpy(), want, atol=1e-12)


@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("padding", _PADDINGS)
@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
def test_5d_against_numpy(device, mode, padding, align_corners):
    rng = np.random.default_rng(4)
    x = rng.normal(size=(2, 2, 4, 5, 6))
    grid = rng.uniform(-1.4, 1.4, size=(2, 3, 2, 4, 3))
    got = F.grid_sample(
        torch.from_numpy(x).to(device), torch.from_numpy(grid).to(device), mode=mode,
        padding_mode=padding, align_corners=align_corners,
    )  # fmt: skip
    assert got.shape == (2, 2, 3, 2, 4)
    np.testing.assert_allclose(got.cpu().numpy(), _np_grid_sample_nd(x, grid, mode, padding, align_corners), atol=1e-12)


@pytest.mark.parametrize("padding", _PADDINGS)
def test_gradients(device, padding):
    rng = np.random.default_rng(5)
    for mode, xs, gs in [("bicubic", (1, 2, 4, 5), (1, 3, 3, 2)), ("bilinear", (1, 2, 3, 4, 3), (1, 2, 2, 2, 3))]:
        x = torch.from_numpy(rng.normal(size=xs)).to(device).requires_grad_()
        grid = torch.from_numpy(rng.uniform(-1.1, 1.1, size=gs)).to(device).requires_grad_()
        for align in (False, True):
            assert torch.autograd.gradcheck(
                lambda a, g, mode=mode, align=align: F.grid_sample(
                    a, g, mode=mode, padding_mode=padding, align_corners=align
                ),
                (x, grid),
            )
    x = torch.from_numpy(rng.normal(size=(1, 2, 3, 4, 3))).to(device).requires_grad_()
    grid = torch.from_numpy(rng.uniform(-1.1, 1.1, size=(1, 2, 2, 2, 3))).to(device).requires_grad_()
    out = F.grid_sample(x, grid, mode="nearest", padding_mode=padding, align_corners=True)
    gx, gg = torch.autograd.grad(out.sum(), (x, grid))
    if padding != "zeros":  # every point reads one pixel of the input: the input gradient counts them
        assert gx.sum().item() == out.numel()
    assert torch.count_nonzero(gg) == 0  # nearest sampling: no gradient for the grid, as PyTorch


@pytest.mark.parametrize("align_corners", [False, True])
def test_affine_grid_5d_against_numpy(device, align_corners):
    th = np.random.default_rng(6).normal(size=(1, 3, 4))
    g = F.affine_grid(torch.from_numpy(th).to(device), (1, 1, 2, 3, 4), align_corners=align_corners)
    assert g.shape == (1, 2, 3, 4, 3)
    zs, ys, xs = [np.linspace(-1, 1, n) * (1 if align_corners else (n - 1) / n) for n in (2, 3, 4)]
    z, y, x = np.meshgrid(zs, ys, xs, indexing="ij")
    base = np.stack([x, y, z, np.ones_like(x)], -1)
    np.testing.assert_allclose(g[0].cpu().numpy(), base @ th[0].T, atol=1e-12)
    with pytest.raises(ValueError, match="Nx3x4"):
        F.affine_grid(torch.zeros(1, 2, 3, dtype=torch.float64), (1, 1, 2, 3, 4), align_corners=False)


def test_affine_grid_5d_identity_and_16_bit(device):
    x = torch.randn(2, 3, 4, 5, 6, dtype=torch.float64, device=device)
    theta = torch.eye(3, 4, dtype=torch.float64, device=device).expand(2, 3, 4)
    grid = F.affine_grid(theta, (2, 3, 4, 5, 6), align_corners=False)
    torch.testing.assert_close(F.grid_sample(x, grid, align_corners=False), x)
    for dtype in (torch.float16, torch.bfloat16):
        got = F.grid_sample(x.to(dtype), grid.to(dtype), mode="bilinear", align_corners=False)
        assert got.dtype == dtype
        torch.testing.assert_close(got.double(), x, atol=0.05, rtol=0.02)
        y = torch.randn(1, 2, 5, 6, device=device)
        g2 = torch.rand(1, 3, 4, 2, device=device) * 2 - 1
        got2 = F.grid_sample(y.to(dtype), g2.to(dtype), mode="bicubic", align_corners=True)
        want2 = F.grid_sample(y.to(dtype).float(), g2.to(dtype).float(), mode="bicubic", align_corners=True)
        torch.testing.assert_close(got2.float(), want2, atol=0.15, rtol=0.05)  # upstream: 16-bit math


def test_errors():
    with pytest.raises(RuntimeError, match="bicubic interpolation only supports 4D input"):
        F.grid_sample(torch.ones(1, 1, 2, 2, 2), torch.zeros(1, 1, 1, 1, 3), mode="bicubic", align_corners=False)
    with pytest.raises(RuntimeError, match="grid_sampler"):
        F.grid_sample(torch.ones(1, 1, 2, 2, 2), torch.zeros(1, 1, 1, 1, 2), align_corners=False)
    with pytest.raises(RuntimeError, match="grid_sampler"):
        F.grid_sample(torch.ones(1, 1, 2, 2), torch.zeros(1, 1, 1, 1, 3), align_corners=False)
