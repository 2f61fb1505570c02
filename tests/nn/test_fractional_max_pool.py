"""Fractional max pooling (F.fractional_max_pool2d/3d, nn.FractionalMaxPool2d/3d) against a float64 NumPy
reference of Graham's pseudo-random windows for given samples: values, indices, gradients (gradcheck and
gradgradcheck), 16-bit and non-contiguous input, the output_ratio form and PyTorch's errors."""

from __future__ import annotations

import numpy as np
import pytest

import torch
import torch.nn.functional as F
from torch import nn

rng = np.random.default_rng(11)


def starts(u, size_in, size_out, k):
    """PyTorch's window starts along one dim for sample u (float64 arithmetic, as for float64 input)."""
    if size_out == 1:
        return [size_in - k]
    alpha = (size_in - k) / (size_out - 1)
    return [int((i + u) * alpha) - int(u * alpha) for i in range(size_out - 1)] + [size_in - k]


def np_fractional(x, k, out, samples):
    """(values, flat indices) of fractional max pooling of batched x [N, C, *S] over len(k) dims; samples
    [N, C, n] in PyTorch's order ((W, H) for 2-D, (T, H, W) for 3-D)."""
    n = len(k)
    spatial = x.shape[2:]
    values = np.empty(x.shape[:2] + tuple(out))
    index = np.empty(x.shape[:2] + tuple(out), dtype=np.int64)
    for b in range(x.shape[0]):
        for c in range(x.shape[1]):
            u = samples[b, c][::-1] if n == 2 else samples[b, c]  # to (H, W) / (T, H, W)
            per_dim = [starts(u[d], spatial[d], out[d], k[d]) for d in range(n)]
            for pos in np.ndindex(*out):
                window = tuple(slice(per_dim[d][pos[d]], per_dim[d][pos[d]] + k[d]) for d in range(n))
                block = x[b, c][window]
                j = int(np.argmax(block))
                values[(b, c, *pos)] = block.flat[j]
                local = np.unravel_index(j, block.shape)
                index[(b, c, *pos)] = np.ravel_multi_index(
                    tuple(per_dim[d][pos[d]] + local[d] for d in range(n)), spatial
                )
    return values, index


CASES = [  # (shape, kernel, output size)
    ((2, 3, 10, 13), (2, 3), (5, 6)),
    ((1, 2, 9, 9), (3, 3), (4, 4)),
    ((2, 2, 6, 7), (1, 1), (5, 6)),
    ((1, 2, 6, 6), (2, 2), (5, 5)),  # windows overlap
    ((2, 2, 7, 8, 9), (2, 2, 3), (4, 5, 3)),
    ((1, 3, 5, 6, 6), (1, 2, 2), (3, 4, 1)),
]


@pytest.mark.parametrize(("shape", "k", "out"), CASES)
def test_matches_numpy(shape, k, out, device):
    x = rng.normal(size=shape)
    n = len(k)
    samples = rng.uniform(size=(shape[0], shape[1], n))
    fn = F.fractional_max_pool2d if n == 2 else F.fractional_max_pool3d
    xt, st = torch.tensor(x, device=device), torch.tensor(samples, device=device)
    values, index = fn(xt, k, out, return_indices=True, _random_samples=st)
    ref_values, ref_index = np_fractional(x, k, out, samples)
    np.testing.assert_array_equal(values.cpu().numpy(), ref_values)
    np.testing.assert_array_equal(index.cpu().numpy(), ref_index)
    # unbatched input uses the first sample of the batch
    single = fn(xt[0], k, out, _random_samples=st[:1])
    np.testing.assert_array_equal(single.cpu().numpy(), ref_values[0])
    xt.requires_grad_()
    fn(xt, k, out, _random_samples=st).sum().backward()  # each output's gradient lands on its max
    counts = np.zeros(x.size)
    np.add.at(
        counts,
        (
            np.arange(x.shape[0] * x.shape[1])[:, None] * x[0, 0].size + ref_index.reshape(x.shape[0] * x.shape[1], -1)
        ).ravel(),
        1,
    )
    np.testing.assert_array_equal(xt.grad.cpu().numpy().ravel(), counts)


@pytest.mark.parametrize(("shape", "k", "out"), [CASES[0], CASES[3], CASES[4]])
def test_gradients(shape, k, out):
    n = len(k)
    x = torch.tensor(rng.permutation(np.prod(shape)).reshape(shape) / 7.0, requires_grad=True)  # distinct
    samples = torch.tensor(rng.uniform(size=(shape[0], shape[1], n)))
    fn = F.fractional_max_pool2d if n == 2 else F.fractional_max_pool3d
    assert torch.autograd.gradcheck(lambda t: fn(t, k, out, _random_samples=samples), (x,))
    assert torch.autograd.gradgradcheck(lambda t: fn(t, k, out, _random_samples=samples), (x,))


def test_non_contiguous_and_low_precision():
    x = torch.randn(2, 9, 11, 3).permute(0, 3, 1, 2)  # [2, 3, 9, 11], not contiguous
    samples = torch.rand(2, 3, 2)
    ref = F.fractional_max_pool2d(x.contiguous(), 3, (4, 5), _random_samples=samples)
    torch.testing.assert_close(F.fractional_max_pool2d(x, 3, (4, 5), _random_samples=samples), ref)
    for dtype in (torch.float16, torch.bfloat16):
        xs = x.to(dtype)
        got, idx = F.fractional_max_pool2d(xs, 3, (4, 5), return_indices=True, _random_samples=samples.to(dtype))
        assert got.dtype == dtype
        flat = xs.reshape(2, 3, -1)
        torch.testing.assert_close(torch.gather(flat, 2, idx.reshape(2, 3, -1)).reshape(got.shape), got)
        xs.requires_grad_()
        F.fractional_max_pool2d(xs, 3, (4, 5), _random_samples=samples.to(dtype)).sum().backward()
        assert xs.grad.dtype == dtype and xs.grad.sum().item() == 2 * 3 * 4 * 5


def test_output_ratio_and_modules():
    torch.manual_seed(0)
    x = torch.randn(2, 3, 20, 16)
    assert F.fractional_max_pool2d(x, 2, output_ratio=(0.5, 0.5)).shape == (2, 3, 10, 8)
    assert F.fractional_max_pool2d(x, 3, output_ratio=(0.7, 0.25)).shape == (2, 3, 14, 4)
    pool = nn.FractionalMaxPool2d(3, output_ratio=(0.5, 0.5), return_indices=True)
    values, idx = pool(x)
    assert values.shape == idx.shape == (2, 3, 10, 8) and idx.dtype == torch.int64
    fixed = nn.FractionalMaxPool3d(2, output_size=(3, 4, 2), _random_samples=torch.rand(1, 2, 3))
    y = torch.randn(1, 2, 6, 7, 5)
    assert torch.equal(fixed(y), fixed(y))  # the given samples: the same windows every call
    assert fixed(y).shape == (1, 2, 3, 4, 2)
    torch.manual_seed(3)
    a = nn.FractionalMaxPool2d(2, output_size=7)(x)
    torch.manual_seed(3)
    assert torch.equal(a, nn.FractionalMaxPool2d(2, output_size=7)(x))  # draws from the default generator


def test_errors():
    with pytest.raises(ValueError, match="either an output size, or a pooling ratio"):
        nn.FractionalMaxPool2d(2)
    with pytest.raises(ValueError, match="only one of output_size and output_ratio"):
        nn.FractionalMaxPool2d(2, output_size=3, output_ratio=0.5)
    with pytest.raises(ValueError, match="output_ratio must be between 0 and 1"):
        nn.FractionalMaxPool3d(2, output_ratio=1.5)
    with pytest.raises(ValueError, match="requires specifying either an output_size or an output_ratio"):
        F.fractional_max_pool2d(torch.randn(1, 1, 4, 4), 2)
    x = torch.randn(2, 3, 10, 10)
    with pytest.raises(RuntimeError, match="pool height 6 too large relative to input height 10"):
        F.fractional_max_pool2d(x, 6, output_size=6)
    with pytest.raises(RuntimeError, match="pool time 2 too large relative to input time 5"):
        F.fractional_max_pool3d(torch.randn(1, 1, 5, 5, 5), 2, output_size=4)
    with pytest.raises(RuntimeError, match=r"size\(2\) equals to 2; got 3"):
        F.fractional_max_pool2d(x, 2, output_size=5, _random_samples=torch.rand(2, 3, 3))
    with pytest.raises(RuntimeError, match=r"size\(0\) no less then input batch size"):
        F.fractional_max_pool2d(x, 2, output_size=5, _random_samples=torch.rand(1, 3, 2))
    with pytest.raises(RuntimeError, match="same dtype as input"):
        F.fractional_max_pool2d(x, 2, output_size=5, _random_samples=torch.rand(2, 3, 2, dtype=torch.float64))
