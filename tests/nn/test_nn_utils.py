"""torch.nn.utils: get_total_norm / clip_grads_with_norm_, BatchNorm folding (fusion), conv weights' memory
format, skip_init. Runs against upstream PyTorch too (nox -s tests-reference)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import torch
from torch import nn
from torch.nn.utils import (
    clip_grad_norm_,
    clip_grads_with_norm_,
    convert_conv2d_weight_memory_format,
    convert_conv3d_weight_memory_format,
    fuse_conv_bn_eval,
    fuse_conv_bn_weights,
    fuse_linear_bn_eval,
    get_total_norm,
    skip_init,
)


def _grads(seed=0):
    g = torch.Generator().manual_seed(seed)
    ps = [torch.zeros(3, 4, requires_grad=True), torch.zeros(5, requires_grad=True)]
    for p in ps:
        p.grad = torch.randn(p.shape, generator=g)
    return ps


@pytest.mark.parametrize("norm_type", [1.0, 2.0, 3.0, float("inf")])
def test_get_total_norm_is_the_norm_of_the_concatenation(norm_type):
    ps = _grads()
    flat = np.concatenate([p.grad.numpy().ravel() for p in ps])
    want = np.abs(flat).max() if norm_type == float("inf") else (np.abs(flat) ** norm_type).sum() ** (1 / norm_type)
    got = get_total_norm([p.grad for p in ps], norm_type)
    assert got.dim() == 0
    np.testing.assert_allclose(got.item(), want, rtol=1e-5)
    assert get_total_norm([]).item() == 0.0


def test_clip_grads_with_norm_scales_by_a_given_norm():
    ps = _grads(1)
    before = [p.grad.clone() for p in ps]
    total = get_total_norm([p.grad for p in ps])
    clip_grads_with_norm_(ps, 1.0, total * 4)  # a norm from elsewhere (e.g. over several models)
    for p, b in zip(ps, before):
        np.testing.assert_allclose(p.grad.numpy(), b.numpy() / (total.item() * 4 + 1e-6), rtol=1e-5)
    ps2 = _grads(1)
    clip_grads_with_norm_(ps2, 1e9, total)  # never scales up
    for p, b in zip(ps2, before):
        np.testing.assert_array_equal(p.grad.numpy(), b.numpy())


def test_clip_grad_norm_is_total_norm_then_clip_and_errors_on_nonfinite():
    ps = _grads(2)
    total = clip_grad_norm_(ps, 0.5)
    np.testing.assert_allclose(get_total_norm([p.grad for p in ps]).item(), 0.5, rtol=1e-4)
    assert total.item() > 0.5
    bad = _grads(3)
    bad[0].grad[0, 0] = float("nan")
    with pytest.raises(RuntimeError, match="is non-finite, so it cannot be clipped"):
        clip_grad_norm_(bad, 1.0, error_if_nonfinite=True)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        clip_grad_norm_((p for p in []), 1.0)
    assert any("empty generator" in str(x.message) for x in w)


def _trained_bn(bn, shape, seed):
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        if bn.weight is not None:
            bn.weight.copy_(torch.rand(bn.num_features, generator=g) + 0.5)
            bn.bias.copy_(torch.randn(bn.num_features, generator=g))
    for _ in range(3):
        bn(torch.randn(shape, generator=g) * 2 + 1)
    return bn.eval()


@pytest.mark.parametrize("affine", [True, False])
@pytest.mark.parametrize("bias", [True, False])
def test_fuse_conv_bn_eval_equals_bn_of_conv(affine, bias):
    torch.manual_seed(0)
    conv = nn.Conv2d(3, 4, 3, padding=1, bias=bias).eval()
    bn = _trained_bn(nn.BatchNorm2d(4, affine=affine), (6, 4, 5, 5), 1)
    x = torch.randn(2, 3, 5, 5)
    fused = fuse_conv_bn_eval(conv, bn)
    assert isinstance(fused, nn.Conv2d) and fused is not conv and fused.bias is not None
    np.testing.assert_allclose(fused(x).detach().numpy(), bn(conv(x)).detach().numpy(), rtol=1e-4, atol=1e-5)
    assert conv.bias is None or conv.bias.shape == (4,)  # the original is untouched


def test_fuse_conv_transpose_bn_eval():
    torch.manual_seed(1)
    conv = nn.ConvTranspose2d(3, 4, 3).eval()
    bn = _trained_bn(nn.BatchNorm2d(4), (6, 4, 5, 5), 2)
    x = torch.randn(2, 3, 4, 4)
    fused = fuse_conv_bn_eval(conv, bn, transpose=True)
    np.testing.assert_allclose(fused(x).detach().numpy(), bn(conv(x)).detach().numpy(), rtol=1e-4, atol=1e-5)


def test_fuse_linear_bn_eval_and_its_checks():
    torch.manual_seed(2)
    lin = nn.Linear(5, 3).eval()
    bn = _trained_bn(nn.BatchNorm1d(3), (8, 3), 3)
    x = torch.randn(4, 5)
    fused = fuse_linear_bn_eval(lin, bn)
    np.testing.assert_allclose(fused(x).detach().numpy(), bn(lin(x)).detach().numpy(), rtol=1e-4, atol=1e-5)
    with pytest.raises(AssertionError, match="Fusion only for eval!"):
        fuse_linear_bn_eval(nn.Linear(5, 3), bn)
    with pytest.raises(AssertionError, match="linear.out_features == bn.num_features"):
        fuse_linear_bn_eval(nn.Linear(5, 2).eval(), bn)


def test_fuse_conv_bn_weights_keeps_dtypes_and_requires_grad():
    w = torch.randn(4, 3, 3, 3, dtype=torch.float64, requires_grad=True)
    fw, fb = fuse_conv_bn_weights(w, None, torch.zeros(4), torch.ones(4), 1e-5, None, None)
    assert isinstance(fw, nn.Parameter) and fw.dtype == torch.float64 and fb.dtype == torch.float64
    assert fw.requires_grad


def test_convert_weight_memory_format_only_touches_convolutions():
    model = nn.Sequential(nn.Conv2d(3, 4, 3), nn.Sequential(nn.ConvTranspose2d(4, 2, 3)), nn.Linear(3, 3))
    before = [p.detach().clone() for p in model.parameters()]
    assert convert_conv2d_weight_memory_format(model, torch.channels_last) is model
    assert model[0].weight.is_contiguous(memory_format=torch.channels_last)
    assert model[1][0].weight.is_contiguous(memory_format=torch.channels_last)
    assert not model[0].weight.is_contiguous()
    assert model[2].weight.is_contiguous()
    for p, b in zip(model.parameters(), before):
        assert torch.equal(p.detach(), b)
    m3 = convert_conv3d_weight_memory_format(nn.Conv3d(2, 3, 2), torch.channels_last_3d)
    assert m3.weight.is_contiguous(memory_format=torch.channels_last_3d)


def test_skip_init():
    torch.manual_seed(4)
    x = torch.rand(3)
    torch.manual_seed(4)
    m = skip_init(nn.Linear, 5, 2, bias=False)
    assert isinstance(m, nn.Linear) and m.weight.shape == (2, 5) and m.bias is None
    assert m.weight.requires_grad
    m2 = skip_init(nn.Linear, in_features=6, out_features=1, dtype=torch.float64)
    assert m2.weight.dtype == torch.float64
    np.testing.assert_array_equal(torch.rand(3).numpy(), x.numpy())  # the generator did not move

    class NoDevice(nn.Module):
        def __init__(self, n):
            super().__init__()

    with pytest.raises(RuntimeError, match="Module must support a 'device' arg"):
        skip_init(NoDevice, 3)
    with pytest.raises(RuntimeError, match="Expected a Module"):
        skip_init(dict)


@pytest.mark.parametrize("name", ["uniform", "normal", "constant", "xavier_uniform", "kaiming_normal", "orthogonal"])
def test_init_functions_old_names_warn_and_initialize(name):
    args = {"constant": (0.5,)}.get(name, ())
    w = torch.zeros(4, 3)
    torch.manual_seed(0)
    with pytest.warns(FutureWarning, match=f"`nn.init.{name}` is now deprecated in favor of `nn.init.{name}_`"):
        getattr(nn.init, name)(w, *args)
    w2 = torch.zeros(4, 3)
    torch.manual_seed(0)
    getattr(nn.init, name + "_")(w2, *args)
    assert torch.equal(w, w2) and not torch.equal(w, torch.zeros(4, 3))


def test_state_dict_hooks_share_the_saved_metadata_and_pre_hooks_run():
    m = nn.Linear(2, 2)
    m.register_state_dict_post_hook(lambda mod, sd, prefix, md: md.__setitem__("x", 1))
    calls = []
    m.register_state_dict_pre_hook(lambda mod, prefix, keep_vars: calls.append(prefix))
    sd = m.state_dict()
    assert sd._metadata[""] == {"version": 1, "x": 1} and calls == [""]
    seen = []
    h = m.register_load_state_dict_pre_hook(lambda mod, state, prefix, *rest: seen.append((mod, sorted(state))))
    m._register_load_state_dict_pre_hook(lambda state, prefix, *rest: seen.append(prefix))
    m.load_state_dict(sd)
    assert seen == [(m, ["bias", "weight"]), ""]
    h.remove()
    m.load_state_dict(sd)
    assert seen[-1] == ""
