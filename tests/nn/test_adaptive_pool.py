"""Adaptive average and max pooling (the _adaptive_pool_nd kernel) over PyTorch's bins, uneven and overlapping
ones included, 1-3 dims: values and max indices against NumPy, gradcheck, None sizes and unbatched input."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import torch
import torch.nn.functional as F


def _np_adaptive(x: np.ndarray, out, is_max: bool):
    """(values, flat indices into each plane) over bins [floor(i n / o), ceil((i + 1) n / o))."""
    n = len(out)
    spatial = x.shape[-n:]
    bins = [[((i * s) // o, -(-((i + 1) * s) // o)) for i in range(o)] for s, o in zip(spatial, out)]
    values = np.zeros(x.shape[:-n] + tuple(out))
    index = np.zeros(x.shape[:-n] + tuple(out), dtype=np.int64)
    for cell in itertools.product(*[range(o) for o in out]):
        region = x[(...,) + tuple(slice(*bins[d][c]) for d, c in enumerate(cell))]
        flat = region.reshape(region.shape[:-n] + (-1,))
        if is_max:
            arg = flat.argmax(-1)
            values[(...,) + cell] = flat.max(-1)
            coords = np.unravel_index(arg, region.shape[-n:])
            starts = [bins[d][c][0] for d, c in enumerate(cell)]
            index[(...,) + cell] = np.ravel_multi_index(tuple(c + s for c, s in zip(coords, starts)), spatial)
        else:
            values[(...,) + cell] = flat.mean(-1)
    return values, index


CASES = [((2, 3, 10), (4,)), ((2, 3, 7, 10), (3, 4)), ((1, 2, 5, 6, 7), (2, 4, 3)), ((3, 9, 5), (9, 2))]


@pytest.mark.parametrize("shape, out", CASES)
def test_adaptive_pools_against_numpy(device, shape, out):
    n = len(out)
    x = torch.from_numpy(np.random.default_rng(0).normal(size=shape)).to(device)
    avg = {1: F.adaptive_avg_pool1d, 2: F.adaptive_avg_pool2d, 3: F.adaptive_avg_pool3d}[n]
    mx = {1: F.adaptive_max_pool1d, 2: F.adaptive_max_pool2d, 3: F.adaptive_max_pool3d}[n]
    want_avg, _ = _np_adaptive(x.cpu().numpy(), out, False)
    want_max, want_idx = _np_adaptive(x.cpu().numpy(), out, True)
    np.testing.assert_allclose(avg(x, out).cpu().numpy(), want_avg, rtol=1e-12)
    values, index = mx(x, out, return_indices=True)
    np.testing.assert_array_equal(values.cpu().numpy(), want_max)
    np.testing.assert_array_equal(index.cpu().numpy(), want_idx)
    xr = x.clone().requires_grad_()
    assert torch.autograd.gradcheck(lambda t: avg(t, out), (xr,))
    assert torch.autograd.gradcheck(lambda t: mx(t, out), (xr,))


def test_adaptive_pool_none_size_and_float32(device):
    x = torch.randn(2, 3, 6, 5, device=device)
    assert F.adaptive_avg_pool2d(x, (None, 2)).shape == (2, 3, 6, 2)
    np.testing.assert_allclose(
        F.adaptive_avg_pool2d(x, 1).flatten().cpu().numpy(), x.mean((2, 3)).flatten().cpu().numpy(), rtol=1e-5
    )
