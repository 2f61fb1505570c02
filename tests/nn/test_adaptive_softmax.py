"""AdaptiveLogSoftmaxWithLoss: its full distribution sums to one, its output is that distribution at the target,
its loss is the output's negative mean, predict is the argmax, and gradients reach every cluster; a NumPy
oracle recomputes the log-probabilities from the module's weights."""

from __future__ import annotations

import numpy as np
import pytest

import torch
from torch import nn


def _module(**kw):
    torch.manual_seed(0)
    return nn.AdaptiveLogSoftmaxWithLoss(16, 20, cutoffs=[4, 10, 15], div_value=2.0, **kw).double()


def _log_softmax(x):
    x = x - x.max(axis=1, keepdims=True)
    return x - np.log(np.exp(x).sum(axis=1, keepdims=True))


def _reference_log_prob(asm, x):
    """Every class's log-probability from the module's weights, in float64 NumPy."""
    x = x.detach().numpy()
    head = x @ asm.head.weight.detach().numpy().T
    if asm.head.bias is not None:
        head = head + asm.head.bias.detach().numpy()
    head = _log_softmax(head)
    parts = [head[:, : asm.shortlist_size]]
    for i, (i2h, h2o) in enumerate(asm.tail):
        cluster = _log_softmax(x @ i2h.weight.detach().numpy().T @ h2o.weight.detach().numpy().T)
        parts.append(cluster + head[:, asm.shortlist_size + i : asm.shortlist_size + i + 1])
    return np.concatenate(parts, axis=1)


@pytest.mark.parametrize("head_bias", [False, True])
def test_log_prob_matches_numpy_and_sums_to_one(head_bias):
    asm = _module(head_bias=head_bias)
    x = torch.randn(7, 16, dtype=torch.float64)
    lp = asm.log_prob(x)
    assert lp.shape == (7, 20)
    np.testing.assert_allclose(lp.detach().numpy(), _reference_log_prob(asm, x), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(lp.exp().sum(1).detach().numpy(), np.ones(7), rtol=1e-12)
    assert torch.equal(asm.predict(x), lp.argmax(1))


def test_output_is_the_target_log_prob_and_loss_its_negative_mean():
    asm = _module()
    x = torch.randn(9, 16, dtype=torch.float64)
    target = torch.tensor([0, 3, 4, 9, 10, 14, 15, 19, 2])  # every cluster, both ends of each
    out, loss = asm(x, target)
    full = asm.log_prob(x)
    torch.testing.assert_close(out, full.gather(1, target.unsqueeze(1)).squeeze(1))
    torch.testing.assert_close(loss, -out.mean())
    single = asm(x[3], target[3])
    assert single.output.shape == () and torch.allclose(single.output, out[3])


def test_gradients_reach_the_head_and_every_cluster():
    asm = _module()
    x = torch.randn(9, 16, dtype=torch.float64, requires_grad=True)
    target = torch.tensor([0, 5, 12, 17, 1, 6, 11, 16, 19])
    asm(x, target).loss.backward()
    for name, p in asm.named_parameters():
        assert p.grad is not None and p.grad.abs().sum() > 0, name
    assert torch.autograd.gradcheck(lambda inp: asm(inp, target).output, (x.detach().requires_grad_(),))


def test_cluster_sizes_shrink_by_div_value():
    asm = nn.AdaptiveLogSoftmaxWithLoss(64, 100, cutoffs=[10, 50], div_value=4.0)
    assert asm.head.weight.shape == (12, 64)
    assert [tuple(lin.weight.shape) for seq in asm.tail for lin in seq] == [(16, 64), (40, 16), (4, 64), (50, 4)]


@pytest.mark.parametrize("cutoffs", [[], [5, 3], [0, 5], [5, 20], [5, 5], [19, 20]])
def test_bad_cutoffs(cutoffs):
    with pytest.raises(ValueError, match="cutoffs"):
        nn.AdaptiveLogSoftmaxWithLoss(8, 20, cutoffs=cutoffs)


def test_bad_targets_and_shapes():
    asm = _module()
    x = torch.randn(3, 16, dtype=torch.float64)
    with pytest.raises(RuntimeError, match="Target values should be in"):
        asm(x, torch.tensor([0, 20, 1]))
    with pytest.raises(RuntimeError, match="same size in the batch dimension"):
        asm(x, torch.tensor([0, 1]))
    with pytest.raises(RuntimeError, match="multi-target not supported"):
        asm(x, torch.zeros(3, 2, dtype=torch.long))
