"""torch.conv2d, torch.layer_norm, torch.dropout, ...: the NN ops PyTorch also has in the torch namespace give
torch.nn.functional's results, with torch's argument names and order (also run on upstream 2.13)."""

from __future__ import annotations

import numpy as np
import pytest

import torch
import torch.nn.functional as F


def _t(*shape, seed=0):
    return torch.tensor(np.random.default_rng(seed).normal(size=shape))


@pytest.mark.parametrize(
    "call, want",
    [
        (
            lambda: torch.conv2d(_t(2, 3, 6, 6), _t(4, 3, 3, 3, seed=1), None, 1, 1),
            lambda: F.conv2d(_t(2, 3, 6, 6), _t(4, 3, 3, 3, seed=1), None, 1, 1),
        ),
        (lambda: torch.conv1d(_t(2, 3, 9), _t(4, 3, 3, seed=1)), lambda: F.conv1d(_t(2, 3, 9), _t(4, 3, 3, seed=1))),
        (
            lambda: torch.conv_transpose2d(_t(1, 2, 4, 4), _t(2, 3, 3, 3, seed=1), stride=2),
            lambda: F.conv_transpose2d(_t(1, 2, 4, 4), _t(2, 3, 3, 3, seed=1), stride=2),
        ),
        (lambda: torch.max_pool2d(_t(1, 2, 6, 6), 2), lambda: F.max_pool2d(_t(1, 2, 6, 6), 2)),
        (lambda: torch.avg_pool1d(_t(1, 2, 6), 3, 1, 1), lambda: F.avg_pool1d(_t(1, 2, 6), 3, 1, 1)),
        (lambda: torch.adaptive_avg_pool1d(_t(1, 2, 7), 3), lambda: F.adaptive_avg_pool1d(_t(1, 2, 7), 3)),
        (lambda: torch.layer_norm(_t(3, 5), (5,), None, None, 1e-5, True), lambda: F.layer_norm(_t(3, 5), (5,))),
        (lambda: torch.group_norm(_t(2, 4, 3), 2), lambda: F.group_norm(_t(2, 4, 3), 2)),
        (lambda: torch.selu(_t(3, 4)), lambda: F.selu(_t(3, 4))),
        (lambda: torch.celu(_t(3, 4), 0.5), lambda: F.celu(_t(3, 4), 0.5)),
        (
            lambda: torch.prelu(_t(2, 3, 4), torch.tensor([0.25], dtype=torch.float64)),
            lambda: F.prelu(_t(2, 3, 4), torch.tensor([0.25], dtype=torch.float64)),
        ),
        (lambda: torch.hardshrink(_t(3, 4), 0.3), lambda: F.hardshrink(_t(3, 4), 0.3)),
        (lambda: torch.pixel_shuffle(_t(1, 8, 2, 2), 2), lambda: F.pixel_shuffle(_t(1, 8, 2, 2), 2)),
        (lambda: torch.pixel_unshuffle(_t(1, 2, 4, 4), 2), lambda: F.pixel_unshuffle(_t(1, 2, 4, 4), 2)),
        (
            lambda: torch.pairwise_distance(_t(3, 4), _t(3, 4, seed=1)),
            lambda: F.pairwise_distance(_t(3, 4), _t(3, 4, seed=1)),
        ),
        (
            lambda: torch.cosine_similarity(_t(3, 4), _t(3, 4, seed=1)),
            lambda: F.cosine_similarity(_t(3, 4), _t(3, 4, seed=1)),
        ),
        (lambda: torch.cdist(_t(3, 4), _t(5, 4, seed=1)), lambda: torch.cdist(_t(3, 4), _t(5, 4, seed=1))),
        (lambda: torch.pdist(_t(4, 3)), lambda: F.pdist(_t(4, 3))),
        (
            lambda: torch.bilinear(_t(2, 3), _t(2, 4, seed=1), _t(5, 3, 4, seed=2)),
            lambda: F.bilinear(_t(2, 3), _t(2, 4, seed=1), _t(5, 3, 4, seed=2)),
        ),
        (lambda: torch.channel_shuffle(_t(1, 4, 2, 2), 2), lambda: F.channel_shuffle(_t(1, 4, 2, 2), 2)),
        (lambda: torch.dropout(_t(3, 4), 0.5, False), lambda: _t(3, 4)),
        (lambda: torch.alpha_dropout(_t(3, 4), 0.5, train=False), lambda: _t(3, 4)),
        (lambda: torch.selu_(_t(3, 4)), lambda: F.selu(_t(3, 4))),
        (lambda: torch.celu_(_t(3, 4)), lambda: F.celu(_t(3, 4))),
    ],
)
def test_torch_namespace_op_is_functionals(call, want):
    torch.testing.assert_close(call(), want())


def test_dropout_in_training_keeps_or_scales():
    torch.manual_seed(0)
    x = torch.ones(1000)
    y = torch.dropout(x, 0.25, True)
    kept = y != 0
    assert torch.allclose(y[kept], torch.full_like(y[kept], 1 / 0.75)) and 600 < int(kept.sum()) < 900
