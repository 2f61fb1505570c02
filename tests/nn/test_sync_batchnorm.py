"""SyncBatchNorm without a process group normalizes over the local batch, as upstream's does when
torch.distributed is not initialized; convert_sync_batchnorm shares the converted BatchNorm's state. Runs
against upstream PyTorch too (TORCH_REFERENCE)."""

from __future__ import annotations

import pytest

import torch
from torch import nn


def _model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.Flatten(), nn.BatchNorm1d(36))


def test_convert_shares_state_and_matches_batchnorm():
    model = _model()
    bn = model[1]
    bn.running_mean.fill_(0.5)
    reference = _model()
    reference[1].running_mean.fill_(0.5)
    converted = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    assert isinstance(converted[1], nn.SyncBatchNorm) and isinstance(converted[4], nn.SyncBatchNorm)
    assert converted[1].weight is bn.weight and converted[1].running_mean is bn.running_mean
    x = torch.randn(5, 3, 5, 5)
    torch.testing.assert_close(converted(x), reference(x))
    torch.testing.assert_close(converted[1].running_var, reference[1].running_var)
    assert converted[1].num_batches_tracked.item() == 1
    converted.eval()
    reference.eval()
    torch.testing.assert_close(converted(x), reference(x))
    assert list(converted.state_dict()) == list(reference.state_dict())


def test_training_flag_and_bias_are_kept():
    bn = nn.BatchNorm1d(3, bias=False).eval()
    sync = nn.SyncBatchNorm.convert_sync_batchnorm(bn)
    assert sync.training is False and sync.bias is None
    assert "SyncBatchNorm(3, eps=1e-05, momentum=0.1, affine=True, bias=False" in repr(sync)


def test_input_checks():
    with pytest.raises(ValueError, match=r"expected at least 2D input \(got 1D input\)"):
        nn.SyncBatchNorm(4)(torch.randn(3))
