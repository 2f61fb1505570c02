"""Layers: output shapes, reprs, PyTorch's default initialization statistics, BatchNorm running stats,
Embedding.from_pretrained, nn.init and nn.utils."""

from __future__ import annotations

import math

import pytest

import torch
from torch import nn


def test_shapes_and_reprs():
    x = torch.randn(2, 3, 8, 8)
    cases = [
        (nn.Conv2d(3, 6, 3, stride=2, padding=1), (2, 6, 4, 4)),
        (nn.ConvTranspose2d(3, 4, 2, stride=2), (2, 4, 16, 16)),
        (nn.MaxPool2d(2), (2, 3, 4, 4)),
        (nn.AvgPool2d(3, 1, 1), (2, 3, 8, 8)),
        (nn.AdaptiveAvgPool2d((2, None)), (2, 3, 2, 8)),
        (nn.BatchNorm2d(3), (2, 3, 8, 8)),
        (nn.GroupNorm(3, 3), (2, 3, 8, 8)),
        (nn.InstanceNorm2d(3), (2, 3, 8, 8)),
        (nn.LayerNorm([8, 8]), (2, 3, 8, 8)),
        (nn.Flatten(), (2, 192)),
        (nn.ZeroPad2d(1), (2, 3, 10, 10)),
        (nn.ReflectionPad2d((1, 0, 2, 0)), (2, 3, 10, 9)),
        (nn.Upsample(scale_factor=2), (2, 3, 16, 16)),
        (nn.Dropout2d(0.3), (2, 3, 8, 8)),
    ]
    for layer, shape in cases:
        assert layer(x).shape == shape, layer
    assert (
        repr(nn.Conv2d(3, 6, 3, stride=2, padding=1))
        == "Conv2d(3, 6, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1))"
    )
    assert repr(nn.Embedding(3, 4, padding_idx=1, max_norm=2.0)) == "Embedding(3, 4, padding_idx=1, max_norm=2.0)"
    assert repr(nn.InstanceNorm2d(3)) == (
        "InstanceNorm2d(3, eps=1e-05, momentum=0.1, affine=False, bias=False, track_running_stats=False)"
    )
    assert repr(nn.ReflectionPad1d(2)) == "ReflectionPad1d((2, 2))"
    assert repr(nn.Upsample(scale_factor=2)) == "Upsample(scale_factor=2.0, mode='nearest')"
    assert repr(nn.GELU()) == "GELU(approximate='none')"
    assert repr(nn.LeakyReLU()) == "LeakyReLU(negative_slope=0.01)"
    assert repr(nn.MaxPool1d(3)) == "MaxPool1d(kernel_size=3, stride=3, padding=0, dilation=1, ceil_mode=False)"


def test_default_init_bounds():
    torch.manual_seed(0)
    lin = nn.Linear(400, 300)
    bound = 1 / math.sqrt(400)  # kaiming_uniform_(a=sqrt(5)) gives the same bound as the bias
    assert float(lin.weight.abs().max()) <= bound and float(lin.weight.abs().max()) > 0.95 * bound
    assert float(lin.bias.abs().max()) <= bound
    assert abs(float(lin.weight.var()) - bound**2 / 3) < 0.1 * bound**2
    conv = nn.Conv2d(8, 16, 3)
    cb = 1 / math.sqrt(8 * 9)
    assert float(conv.weight.abs().max()) <= cb and float(conv.bias.abs().max()) <= cb
    emb = nn.Embedding(1000, 20, padding_idx=0)
    assert abs(float(emb.weight.std()) - 1) < 0.05 and float(emb.weight[0].abs().sum()) == 0
    bn = nn.BatchNorm1d(4)
    assert bn.weight.tolist() == [1.0] * 4 and bn.bias.tolist() == [0.0] * 4


def test_batchnorm_running_stats_and_eval():
    bn = nn.BatchNorm1d(3, momentum=None)
    xs = [torch.randn(8, 3) for _ in range(3)]
    for x in xs:
        bn(x)
    assert int(bn.num_batches_tracked) == 3
    expected = torch.stack([x.mean(0) for x in xs]).mean(0)  # cumulative average
    assert torch.allclose(bn.running_mean, expected, atol=1e-6)
    bn.eval()
    x = torch.randn(4, 3)
    ref = (x - bn.running_mean) / torch.sqrt(bn.running_var + bn.eps)
    assert torch.allclose(bn(x), ref, atol=1e-5)
    with pytest.raises(ValueError, match=r"expected 2D or 3D input \(got 4D input\)"):
        bn(torch.randn(2, 3, 4, 4))


def test_embedding_from_pretrained_and_dropout_modes():
    w = torch.arange(6.0).reshape(3, 2)
    emb = nn.Embedding.from_pretrained(w)
    assert not emb.weight.requires_grad and emb(torch.tensor([2])).tolist() == [[4.0, 5.0]]
    drop = nn.Dropout(0.5)
    x = torch.ones(1000)
    y = drop(x)
    assert set(y.unique().tolist()) <= {0.0, 2.0} and 350 < int((y == 0).sum()) < 650
    drop.eval()
    assert torch.equal(drop(x), x)


def test_losses_and_multihead_attention():
    logits, target = torch.randn(4, 5), torch.tensor([0, 1, 2, 3])
    assert torch.allclose(nn.CrossEntropyLoss()(logits, target), nn.NLLLoss()(logits.log_softmax(1), target))
    assert nn.MSELoss(reduction="none")(logits, logits).shape == (4, 5)
    mha = nn.MultiheadAttention(8, 2, batch_first=True)
    q = torch.randn(3, 5, 8)
    out, weights = mha(q, q, q)
    assert out.shape == (3, 5, 8) and weights.shape == (3, 5, 5)
    assert torch.allclose(weights.sum(-1), torch.ones(3, 5), atol=1e-5)


def test_init_functions():
    torch.manual_seed(0)
    assert nn.init.calculate_gain("relu") == math.sqrt(2)
    assert nn.init.calculate_gain("leaky_relu", 0.2) == math.sqrt(2 / 1.04)
    assert nn.init.calculate_gain("tanh") == 5 / 3
    with pytest.raises(ValueError, match="Unsupported nonlinearity foo"):
        nn.init.calculate_gain("foo")
    w = torch.empty(200, 300)
    nn.init.xavier_uniform_(w)
    a = math.sqrt(6 / 500)
    assert float(w.abs().max()) <= a
    nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
    assert abs(float(w.std()) - math.sqrt(2 / 200)) < 0.01
    nn.init.trunc_normal_(w, a=-1.0, b=1.0)
    assert float(w.abs().max()) <= 1.0
    q = nn.init.orthogonal_(torch.empty(4, 6))
    assert torch.allclose(q @ q.t(), torch.eye(4), atol=1e-5)
    assert nn.init.eye_(torch.empty(2, 3)).tolist() == [[1, 0, 0], [0, 1, 0]]
    d = nn.init.dirac_(torch.empty(2, 2, 3))
    assert d[:, :, 1].tolist() == [[1, 0], [0, 1]]
    s = nn.init.sparse_(torch.empty(10, 4), 0.3)
    assert all(int((s[:, j] == 0).sum()) >= 3 for j in range(4))
    with pytest.raises(ValueError, match="Fan in and fan out can not be computed"):
        nn.init.xavier_uniform_(torch.empty(3))


def test_utils():
    p1, p2 = nn.Parameter(torch.zeros(3)), nn.Parameter(torch.zeros(4))
    p1.grad, p2.grad = torch.full((3,), 3.0), torch.full((4,), 4.0)
    total = nn.utils.clip_grad_norm_([p1, p2], 1.0)
    assert total.item() == pytest.approx(math.sqrt(27 + 64))
    assert math.sqrt(float((p1.grad**2).sum() + (p2.grad**2).sum())) == pytest.approx(1.0, rel=1e-5)
    p1.grad = torch.tensor([1.0, -5.0, 2.0])
    assert nn.utils.clip_grad_norm_([p1], 10.0, norm_type=math.inf).item() == 5.0
    p1.grad = torch.tensor([float("inf"), 0.0, 0.0])
    with pytest.raises(RuntimeError, match="is non-finite, so it cannot be clipped"):
        nn.utils.clip_grad_norm_([p1], 1.0, error_if_nonfinite=True)
    p1.grad = torch.tensor([1.0, -5.0, 2.0])
    nn.utils.clip_grad_value_([p1], 1.5)
    assert p1.grad.tolist() == [1.0, -1.5, 1.5]
    vec = nn.utils.parameters_to_vector([p1, p2])
    assert vec.shape == (7,)
    nn.utils.vector_to_parameters(torch.arange(7.0), [p1, p2])
    assert p2.tolist() == [3.0, 4.0, 5.0, 6.0]
