"""Lazy modules: parameters uninitialized until the first input, then shaped from it, initialized as the eager
layer's, and the module turned into that layer; they train like it."""

from __future__ import annotations

import torch
from torch import nn


def test_lazy_layers_infer_their_input_size():
    torch.manual_seed(0)
    net = nn.Sequential(
        nn.LazyConv2d(8, 3, padding=1), nn.LazyBatchNorm2d(), nn.ReLU(), nn.Flatten(), nn.LazyLinear(10)
    )
    assert isinstance(net[0].weight, nn.UninitializedParameter) and net[0].has_uninitialized_params()
    assert repr(net[4]) == "LazyLinear(in_features=0, out_features=10, bias=True)"
    out = net(torch.randn(2, 3, 5, 5))
    assert out.shape == (2, 10)
    assert [type(m).__name__ for m in net] == ["Conv2d", "BatchNorm2d", "ReLU", "Flatten", "Linear"]
    assert net[0].weight.shape == (8, 3, 3, 3) and net[0].in_channels == 3
    assert net[4].weight.shape == (10, 200) and repr(net[4]) == "Linear(in_features=200, out_features=10, bias=True)"
    assert net[1].running_mean.shape == (8,) and net[1].num_features == 8
    assert not isinstance(net[0].weight, nn.UninitializedParameter) and isinstance(net[0].weight, nn.Parameter)
    bound = 1 / (3 * 9) ** 0.5  # kaiming_uniform_(a=sqrt(5)) of fan_in 27, as the eager Conv2d
    assert net[0].weight.abs().max().item() <= bound
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    before = net[4].weight.detach().clone()
    net(torch.randn(2, 3, 5, 5)).sum().backward()
    opt.step()
    assert not torch.equal(before, net[4].weight)


def test_lazy_transposed_conv_and_instance_norm():
    t = nn.LazyConvTranspose1d(4, 3, stride=2)
    assert t(torch.randn(2, 5, 7)).shape == (2, 4, 15) and t.weight.shape == (5, 4, 3)
    norm = nn.LazyInstanceNorm1d()
    assert norm(torch.randn(2, 3, 6)).shape == (2, 3, 6) and norm.num_features == 3
