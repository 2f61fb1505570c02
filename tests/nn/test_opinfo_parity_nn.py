"""NN calls where the differential fuzz over upstream's OpInfo samples (`python -m tools.fuzz --opinfo`) found
ours raising or giving other values; every expected value here is upstream PyTorch's."""

from __future__ import annotations

import math

import numpy as np
import pytest

import torch
import torch.nn.functional as F


def test_unfold_and_fold_of_bool():
    """im2col / col2im take bool (copies and zeros; fold's overlapping sums are ors)."""
    assert F.unfold(torch.empty([0, 1, 5, 5], dtype=torch.bool), 2, 1, 0, 1).shape == (0, 4, 16)
    x = torch.tensor([[True, False, False], [False, False, True], [True, True, False]]).reshape(1, 1, 3, 3)
    cols = F.unfold(x, 2, padding=1)
    assert cols.dtype == torch.bool and torch.equal(cols, F.unfold(x.float(), 2, padding=1).bool())
    folded = F.fold(cols, (3, 3), 2, padding=1)
    assert folded.dtype == torch.bool and torch.equal(folded, F.fold(cols.float(), (3, 3), 2, padding=1) > 0)


def test_pooling_takes_one_element_tuples():
    """A 1-tuple is repeated over the spatial dims, as an int is; an empty stride is the kernel."""
    x = torch.tensor([-8, 6, 9, 0, 0, 5, 5, 7, 6, 5, 1, -5, 2, -1, 8, -4]).reshape(1, 1, 4, 4)
    assert F.avg_pool2d(x, (2, 2), (), (0,), False, True, -2).tolist() == [[[[-1, -10], [-6, 0]]]]
    f = x.double()
    assert torch.equal(F.avg_pool2d(f, (2,), (1,), (0,)), F.avg_pool2d(f, 2, 1, 0))
    assert torch.equal(F.max_pool2d(f, (2,), (1,), (0,), (1,)), F.max_pool2d(f, 2, 1))
    v = torch.arange(64.0).reshape(1, 1, 4, 4, 4)
    assert torch.equal(F.avg_pool3d(v, (2,), (1,), (1,)), F.avg_pool3d(v, 2, 1, 1))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda x: F.avg_pool2d(x, 2, 1, (0, 0, 0)), "avg_pool2d: padding must either be a single int, or a tuple "),
        (lambda x: F.avg_pool2d(x, 2, (1, 1, 1)), "avg_pool2d: stride must either be omitted, a single int, or "),
        (lambda x: F.avg_pool2d(x, ()), "avg_pool2d: kernel_size must either be a single int, or a tuple of two"),
        (lambda x: F.max_pool2d(x, 2, 1, 0, (1, 1, 1)), "max_pool2d: dilation must be either a single int, or a "),
        (lambda x: F.avg_pool3d(x[None], (2, 2)), "avg_pool3d: kernel_size must be a single int, or a tuple of three"),
        (lambda x: F.max_pool3d(x[None], 2, 1, (0, 0)), "max_pool3d: padding must either be a single int, or a tuple"),
        (lambda x: F.avg_pool1d(x[0], (2, 2)), r"avg_pool1d\(\) argument 'kernel_size' should contain one int \(got 2"),
        (
            lambda x: F.max_pool1d(x[0], 2, (1, 1)),
            r"max_pool1d\(\) stride must be None, an int, list of ints, or",
        ),
    ],
)
def test_pooling_argument_of_the_wrong_length(call, message):
    with pytest.raises(RuntimeError, match=message):
        call(torch.arange(32.0).reshape(1, 2, 4, 4))


@pytest.mark.parametrize("dims", [2, 3])
def test_avg_pool_negative_divisor_override(dims):
    """A negative divisor_override divides too (only 0 is refused): the window sums over -2."""
    pool = F.avg_pool2d if dims == 2 else F.avg_pool3d
    x = torch.arange(4.0**dims).reshape([1, 1] + [4] * dims).requires_grad_()
    for kwargs in ({}, {"padding": 1, "count_include_pad": False}):
        assert torch.equal(pool(x, 2, divisor_override=-2, **kwargs), pool(x, 2, divisor_override=1, **kwargs) / -2)
    pool(x, 2, divisor_override=-2).sum().backward()
    assert torch.equal(x.grad, torch.full_like(x, -0.5))
    if dims == 2:
        assert pool(x, 2, divisor_override=-2).flatten().tolist() == [-5.0, -9.0, -21.0, -25.0]


def test_batch_norm_of_empty_input():
    """Upstream returns early for an empty input: a copy, any rank, the running statistics neither checked nor
    updated."""
    e = torch.empty(0, dtype=torch.half)
    out = F.batch_norm(torch.empty([0], dtype=torch.half), e, e, None, None, training=True)
    assert out.shape == (0,) and out.dtype == torch.float16
    rm, rv = torch.zeros(3), torch.ones(3)
    out = F.batch_norm(torch.empty(0, 3), rm, rv, torch.ones(3), torch.ones(3), training=True)
    assert out.shape == (0, 3) and rm.tolist() == [0.0] * 3 and rv.tolist() == [1.0] * 3
    assert F.batch_norm(torch.empty(0, 3), torch.zeros(5), torch.ones(5), training=True).shape == (0, 3)
    assert F.batch_norm(torch.empty(2, 0), torch.empty(0), torch.empty(0), training=True).shape == (2, 0)


@pytest.mark.parametrize("shape", [(0, 2), (0, 4, 3), (0, 0)])
def test_group_norm_of_an_empty_batch(shape):
    groups = 1 if shape[1] < 4 else 2
    w = torch.tensor([-8.4765625, -1.765625, 2.0, 3.0][: shape[1]], dtype=torch.half)
    out = F.group_norm(torch.empty(shape, dtype=torch.half), groups, weight=w, bias=w, eps=1e-5)
    assert out.shape == shape and out.dtype == torch.float16


def test_soft_margin_loss_is_log1p_of_exp_in_the_input_dtype():
    """Upstream's log1p(exp(-y * x)): exp overflows to inf in the input's dtype (float16 past 11.09)."""
    x = torch.tensor([-8.4765625, -1.765625, -4.32421875, -2.400390625, -7.94921875], dtype=torch.half)
    y = torch.tensor([3.611328125, -8.0703125, -0.57373046875, 3.12890625, -3.033203125], dtype=torch.half)
    assert math.isinf(F.soft_margin_loss(x, y, reduction="sum").item())
    assert F.soft_margin_loss(torch.tensor([-100.0, 800.0]), torch.tensor([1.0, -1.0]), reduction="none").isinf().all()
    a, b = np.array([0.5, -3.0, 2.0]), np.array([1.0, 1.0, -1.0])
    got = F.soft_margin_loss(torch.tensor(a), torch.tensor(b), reduction="none").numpy()
    np.testing.assert_allclose(got, np.log1p(np.exp(-a * b)), rtol=1e-15)


def test_istft_two_sided_real_output_is_the_irfft_of_the_first_half():
    """onesided=False with a real output reads the first n_fft // 2 + 1 bins only, as upstream."""
    g = torch.Generator().manual_seed(0)
    x = torch.randn(6, 3, dtype=torch.cfloat, generator=g)
    win = torch.ones(6)
    two_sided = torch.istft(x, 6, window=win, onesided=False)
    assert torch.equal(two_sided, torch.istft(x[:4].clone(), 6, window=win, onesided=True))
    with pytest.raises(RuntimeError, match="Cannot have onesided output if window or input is complex"):
        torch.istft(x[:4], 6, window=win, onesided=True, return_complex=True)


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8])
def test_threshold_of_integers(dtype):
    x = torch.tensor([-8, 6, 9, 0, 100]).to(dtype)
    first = 9 if dtype != torch.uint8 else 248  # -8 wraps to 248 in uint8, above the threshold
    assert F.threshold(x, 6, 9).tolist() == [first, 9, 9, 9, 100] and F.threshold(x, 6, 9).dtype == dtype
    assert F.threshold(torch.tensor(-8, dtype=dtype), 6, 9).item() == first


def test_threshold_in_the_input_dtype():
    """The threshold and value convert to the input's dtype (checked), compared exactly there; NaN passes."""
    assert F.threshold(torch.tensor([5, 6, 7]), 5.5, 2.7).tolist() == [2, 6, 7]
    assert F.threshold(torch.tensor([2**62 + 1, 2**62]), 2**62, -1).tolist() == [2**62 + 1, -1]
    with pytest.raises(RuntimeError, match="value cannot be converted to type int8_t without overflow"):
        F.threshold(torch.tensor([5, 6, 7], dtype=torch.int8), 5, 300)
    out = F.threshold(torch.tensor([float("nan"), 0.1, 1.0]), 0.5, 5.0)
    assert math.isnan(out[0].item()) and out[1:].tolist() == [5.0, 1.0]


@pytest.mark.parametrize("dtype", [torch.complex64, torch.complex128])
def test_silu_of_complex(dtype):
    """x / (1 + exp(-x)), upstream's complex kernel."""
    assert F.silu(torch.empty([1, 0, 3], dtype=dtype)).shape == (1, 0, 3)
    z = np.array([1 + 2j, -3 + 0.5j, 0j, 100 + 1j, 2.5j])
    got = F.silu(torch.tensor(z, dtype=dtype))
    assert got.dtype == dtype
    np.testing.assert_allclose(got.numpy(), z / (1 + np.exp(-z)), rtol=1e-6 if dtype == torch.complex64 else 1e-14)
