"""Small Tensor attributes and aliases PyTorch code relies on: nbytes/itemsize, nelement/ndimension,
is_floating_point/is_complex, zero_, clamp_min/clamp_max, torch.is_tensor/numel/concat/concatenate."""

from __future__ import annotations

import pytest

import torch


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.int64, torch.bool, torch.uint8])
def test_sizes_in_bytes(dtype):
    t = torch.zeros(3, 5, dtype=dtype)
    assert t.itemsize == t.element_size() == dtype.itemsize
    assert t.nbytes == 15 * dtype.itemsize
    assert t.nelement() == t.numel() == torch.numel(t) == 15
    assert t.ndimension() == t.dim() == 2
    assert t.is_floating_point() == torch.is_floating_point(t) == dtype.is_floating_point
    assert t.is_complex() is False


def test_zero_in_place_and_through_views():
    t = torch.arange(6.0).reshape(2, 3)
    assert t[:, 1].zero_() is not None
    assert t.tolist() == [[0.0, 0.0, 2.0], [3.0, 0.0, 5.0]]
    assert t.zero_().sum().item() == 0.0


def test_clamp_min_max():
    t = torch.arange(5.0)
    assert t.clamp_min(2).tolist() == [2, 2, 2, 3, 4]
    assert t.clamp_max(2).tolist() == [0, 1, 2, 2, 2]


def test_aliases():
    t = torch.ones(2, 3)
    assert torch.is_tensor(t) and not torch.is_tensor([1])
    assert torch.concat([t, t]).shape == (4, 3) and torch.concatenate([t, t], dim=1).shape == (2, 6)
