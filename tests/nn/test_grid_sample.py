"""F.grid_sample (the grid_sampler_2d kernel) and F.affine_grid: bilinear and nearest sampling with zeros, border
and reflection padding, align_corners both ways, against a float64 NumPy model of PyTorch's rules (upstream 2.13
passes the same tests); gradcheck of the input and the grid; the identity transform; errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

import torch
import torch.nn.functional as F


def _coordinate(g, size, padding, align_corners):
    x = (g + 1) / 2 * (size - 1) if align_corners else ((g + 1) * size - 1) / 2
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


def _np_grid_sample(x, grid, mode, padding, align_corners):
    n_, c_, h, w = x.shape
    ho, wo = grid.shape[1:3]
    out = np.zeros((n_, c_, ho, wo))

    def pixel(n, yy, xx):
        return x[n, :, yy, xx] if 0 <= yy < h and 0 <= xx < w else np.zeros(c_)

    for n in range(n_):
        for i in range(ho):
            for j in range(wo):
                ix = _coordinate(grid[n, i, j, 0], w, padding, align_corners)
                iy = _coordinate(grid[n, i, j, 1], h, padding, align_corners)
                if mode == "nearest":
                    out[n, :, i, j] = pixel(n, int(np.rint(iy)), int(np.rint(ix)))
                    continue
                x0, y0 = math.floor(ix), math.floor(iy)
                tx, ty = ix - x0, iy - y0
                out[n, :, i, j] = (
                    pixel(n, y0, x0) * (1 - tx) * (1 - ty)
                    + pixel(n, y0, x0 + 1) * tx * (1 - ty)
                    + pixel(n, y0 + 1, x0) * (1 - tx) * ty
                    + pixel(n, y0 + 1, x0 + 1) * tx * ty
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
    np.testing.assert_allclose(got.cpu().numpy(), _np_grid_sample(x, grid, mode, padding, align_corners), atol=1e-12)


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
