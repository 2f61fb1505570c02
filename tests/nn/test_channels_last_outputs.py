"""NN kernels keep a channels-last layout as upstream's CPU kernels do: a channels-last input (or, for conv2d,
weight) gives a channels-last output for conv2d, conv_transpose2d, max/avg/adaptive pooling, batch_norm,
group_norm, interpolate, constant pad and dropout, and values do not depend on the layout. Also runs against
upstream 2.13 (`nox -s tests-reference`)."""

from __future__ import annotations

import numpy as np
import pytest

import torch
import torch.nn.functional as F

CL = (60, 1, 15, 3)  # channels-last strides of [2, 3, 4, 5]


def _x():
    torch.manual_seed(0)
    return torch.randn(2, 3, 4, 5, dtype=torch.float64)


@pytest.mark.parametrize(
    "op",
    [
        lambda x: F.max_pool2d(x, 2),
        lambda x: F.max_pool2d(x, 2, return_indices=True)[1],
        lambda x: F.avg_pool2d(x, 2, ceil_mode=True),
        lambda x: F.adaptive_avg_pool2d(x, 2),
        lambda x: F.adaptive_max_pool2d(x, (2, 3)),
        lambda x: F.batch_norm(x, torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64)),
        lambda x: F.batch_norm(x, None, None, training=True),
        lambda x: F.conv2d(x, torch.ones(4, 3, 3, 3, dtype=torch.float64)),
        lambda x: F.conv2d(x, torch.ones(6, 1, 3, 3, dtype=torch.float64), groups=3, padding=1),
        lambda x: F.conv_transpose2d(x, torch.ones(3, 2, 3, 3, dtype=torch.float64)),
        lambda x: F.interpolate(x, scale_factor=2),
        lambda x: F.interpolate(x, size=(6, 7), mode="bilinear"),
        lambda x: F.group_norm(x, 3),
        lambda x: F.pad(x, (1, 1)),
        lambda x: F.dropout(x, 0.0, training=False) * 2,
    ],
)
def test_a_channels_last_input_gives_a_channels_last_output(op):
    x = _x()
    cl = x.contiguous(memory_format=torch.channels_last)
    got, want = op(cl), op(x)
    assert got.is_contiguous(memory_format=torch.channels_last) and not got.is_contiguous()
    assert want.is_contiguous()
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12)


def test_conv2d_output_follows_a_channels_last_weight_and_gradients_flow():
    w = torch.randn(4, 3, 3, 3, dtype=torch.float64).contiguous(memory_format=torch.channels_last)
    assert F.conv2d(torch.randn(2, 3, 5, 5, dtype=torch.float64), w).is_contiguous(memory_format=torch.channels_last)
    net = torch.nn.Conv2d(3, 4, 3).double().to(memory_format=torch.channels_last)
    x = torch.randn(2, 3, 5, 5, dtype=torch.float64, requires_grad=True)
    out = net(x)
    assert out.stride() == (36, 1, 12, 4)
    out.sum().backward()
    assert x.grad.shape == x.shape and net.weight.grad.shape == net.weight.shape


def test_layouts_upstream_does_not_keep():
    z = torch.randn(2, 3, 4, 5, 6).contiguous(memory_format=torch.channels_last_3d)
    assert F.max_pool3d(z, 2).is_contiguous(memory_format=torch.channels_last_3d)
    assert F.avg_pool3d(z, 2).is_contiguous() and F.adaptive_avg_pool3d(z, 2).is_contiguous()
    x3 = torch.randn(2, 6, 4).permute(0, 2, 1)  # a 3-D input read as channels-last by no conv1d/batch_norm
    assert F.conv1d(x3, torch.randn(4, 4, 3)).is_contiguous()
    assert F.batch_norm(x3, None, None, training=True).is_contiguous()
    assert F.logsigmoid(torch.randn(3, 2).T).is_contiguous()
    assert F.conv2d(torch.ones(1, 2, 3, 3, dtype=torch.int64).contiguous(memory_format=torch.channels_last),
                    torch.ones(1, 2, 1, 1, dtype=torch.int64)).is_contiguous()  # fmt: skip
