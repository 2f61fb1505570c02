"""Each a wrong value or error the NN kernels once gave (most found by the differential fuzz of
torch.nn.functional, `python -m tools.fuzz --families nn`); every case is upstream PyTorch's behaviour."""

from __future__ import annotations

import math

import pytest

import torch
import torch.nn.functional as F


@pytest.mark.parametrize("dim", [0, 1])
def test_log_softmax_keeps_log_sum_for_large_logits(dim):
    """(x - max) - log(sum), not x - (max + log(sum)), which rounds log(sum) away for large x."""
    x = torch.full((4, 4), torch.finfo(torch.float32).max)
    assert torch.allclose(torch.log_softmax(x, dim), torch.full((4, 4), -math.log(4)))
    assert math.isclose(F.cross_entropy(x, torch.tensor([1, 0, 3, 0])).item(), math.log(4), rel_tol=1e-6)
    big = torch.tensor([[1e6, 1e6 + 1, 1e6 - 2]])
    want = torch.log_softmax(big.double() - 1e6, 1).float()
    assert torch.allclose(torch.log_softmax(big, 1), want, atol=1e-6)


def test_batch_norm_huge_weight_on_a_constant_channel():
    """((x - mean) * invstd) * w + b: a folded scale and shift overflowed to nan. (Upstream computes it this way
    for a strided input, as here; its contiguous path folds, and gives nan.)"""
    x = torch.tensor([[[1.5]]]).expand(4, 4, 1).permute(1, 2, 0)
    w = torch.tensor([-torch.finfo(torch.float32).max])
    out = F.batch_norm(x, None, None, w, torch.tensor([0.25]), training=True)
    assert torch.equal(out, torch.full_like(out, 0.25))


def test_batch_norm_half_running_var_updates_in_float32():
    rm, rv = torch.zeros(1, dtype=torch.float16), torch.ones(1, dtype=torch.float16)
    x = torch.tensor([-100.0, 233.25, 566.5, 900.0], dtype=torch.float16).reshape(4, 1, 1)
    F.batch_norm(x, rm, rv, None, None, training=True)
    assert math.isfinite(rv.item()) and abs(rv.item() - 18512) < 32


def test_layer_norm_over_empty_dims():
    assert F.layer_norm(torch.zeros(0, 4)[:, ::2], (0, 2)).shape == (0, 2)
    assert F.layer_norm(torch.zeros(3, 0), (0,)).shape == (3, 0)


def test_group_norm_refuses_one_value_per_group():
    with pytest.raises(ValueError, match="Expected more than 1 value per channel when training"):
        F.group_norm(torch.randn(1, 1, 1), 1)


def test_hardtanh_and_relu6_of_integers_keep_the_dtype():
    assert F.relu6(torch.arange(-2, 9)).dtype == torch.int64
    assert F.hardtanh(torch.arange(-3, 3)).tolist() == [-1, -1, -1, 0, 1, 1]


@pytest.mark.parametrize("target", [[0, 5, 1], [0, -1, 1]])
def test_nll_loss_target_out_of_range_raises(target):
    """Including -1 (it was the kernel's 'no bad target' sentinel)."""
    with pytest.raises(IndexError, match=f"Target {[t for t in target if not 0 <= t < 4][0]} is out of bounds"):
        F.nll_loss(torch.randn(3, 4).log_softmax(1), torch.tensor(target))


def test_hardswish_gradient_at_its_kinks():
    x = torch.tensor([-3.0, -2.0, 0.0, 3.0, 1.0], requires_grad=True)
    F.hardswish(x).sum().backward()
    assert torch.allclose(x.grad, torch.tensor([0.0, -1 / 6, 0.5, 1.0, 5 / 6]))


@pytest.mark.parametrize("padding", [0, 1])
def test_max_pool_ties_and_nans_pick_upstreams_element(padding):
    """The first maximum of a window wins a tie, a NaN beats every number and the last NaN's position is kept:
    on the interior fast path (no padding) and the general one alike."""
    x = torch.tensor(
        [[[[1.0, math.nan, 3.0, 4.0], [5.0, math.nan, 2.0, 9.0], [7.0, 7.0, 0.0, 0.0], [7.0, 6.0, 0.0, 0.0]]]]
    )
    values, index = F.max_pool2d(x, 2, padding=padding, return_indices=True)
    if padding == 0:
        assert index.flatten().tolist() == [5, 7, 8, 10]
        assert math.isnan(values[0, 0, 0, 0]) and values.flatten().tolist()[1:] == [9.0, 7.0, 0.0]
    else:
        assert index.flatten().tolist() == [0, 1, 3, 8, 5, 7, 12, 13, 15]


def test_instance_norm_values_running_stats_and_gradients():
    """instance_norm on the batch norm kernel (one sample of N * C channels): values and the running statistics'
    update against NumPy, gradcheck of input, weight and bias, and the running statistics' use in evaluation."""
    import numpy as np

    rng = np.random.default_rng(7)
    xn = rng.normal(size=(3, 4, 5, 6))
    x = torch.from_numpy(xn).requires_grad_()
    w, b = torch.from_numpy(rng.normal(size=4)).requires_grad_(), torch.from_numpy(rng.normal(size=4)).requires_grad_()
    rm, rv = torch.zeros(4, dtype=torch.float64), torch.ones(4, dtype=torch.float64)
    out = F.instance_norm(x, rm, rv, w, b, use_input_stats=True, momentum=0.2)
    mean, var = xn.mean((2, 3), keepdims=True), xn.var((2, 3), keepdims=True)
    want = (xn - mean) / np.sqrt(var + 1e-5) * w.detach().numpy()[:, None, None] + b.detach().numpy()[:, None, None]
    np.testing.assert_allclose(out.detach().numpy(), want, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(rm.numpy(), 0.2 * mean.reshape(3, 4).mean(0), rtol=1e-10)
    np.testing.assert_allclose(rv.numpy(), 0.8 + 0.2 * (var.reshape(3, 4) * 30 / 29).mean(0), rtol=1e-10)
    assert torch.autograd.gradcheck(lambda x, w, b: F.instance_norm(x, weight=w, bias=b), (x, w, b))
    evaluated = F.instance_norm(x.detach(), rm, rv, use_input_stats=False)
    np.testing.assert_allclose(
        evaluated.numpy(), (xn - rm.numpy()[:, None, None]) / np.sqrt(rv.numpy()[:, None, None] + 1e-5), rtol=1e-10
    )


def test_review_findings_raise_as_upstream_does():
    """Each once read outside a tensor, crashed the process or differed from upstream (a review of the new kernels)."""
    with pytest.raises(RuntimeError, match=r"Index 1 of input takes value 3 which is not in the valid range \[0, 3\)"):
        F.embedding_bag(torch.tensor([0, 3]), torch.arange(6.0).reshape(3, 2), torch.tensor([0]))
    with pytest.raises(RuntimeError, match="kernel size should be greater than zero"):
        F.fold(torch.randn(1, 4, 4), (4, 4), (0, 2))  # was a floating point exception (a division by zero)
    lp = torch.randn(5, 2, 4).log_softmax(2)
    with pytest.raises(NotImplementedError, match="not implemented for 'Half'"):
        F.ctc_loss(lp.half(), torch.tensor([[1, 2], [1, 1]]), [5, 5], [2, 2])
    # the padding past a target's length is never read, so it may hold anything
    assert F.ctc_loss(lp, torch.tensor([[1, 2, -1], [3, 1, 1]]), [5, 5], [2, 3], reduction="none").shape == (2,)
    # nearest interpolation picks its source in float, as upstream (double arithmetic picked 3 here)
    assert F.interpolate(torch.arange(6.0).view(1, 1, 6), size=74, mode="nearest")[0, 0, 37].item() == 2.0


@pytest.mark.skipif(
    "TORCH_REFERENCE" in __import__("os").environ, reason="upstream 2.13 differs here, see the docstring"
)
def test_embedding_bag_gradient_of_indices_outside_every_bag_and_scaled_by_frequency():
    """Indices after the last bag (include_last_offset) get no gradient (upstream's CPU kernel reads uninitialized
    memory there); scale_grad_by_freq divides by each index's count (upstream gives 0.5 for a row seen once)."""
    w = torch.arange(6.0).reshape(3, 2).requires_grad_()
    F.embedding_bag(torch.tensor([0, 1, 2, 2]), w, torch.tensor([0, 1]), include_last_offset=True).sum().backward()
    assert w.grad.tolist() == [[1.0, 1.0], [0.0, 0.0], [0.0, 0.0]]
    w.grad = None
    F.embedding_bag(torch.tensor([0, 0, 1]), w, torch.tensor([0]), mode="sum", scale_grad_by_freq=True).sum().backward()
    assert w.grad.tolist() == [[1.0, 1.0], [1.0, 1.0], [0.0, 0.0]]
