"""nn.Transformer and its encoder/decoder stacks and layers: values against a NumPy float64 re-implementation of
the documented equations (parameters set by name from a seeded generator), masks (float, bool, key padding,
causal), shapes (batch_first, unbatched), gradcheck, state_dict names, init, dropout in eval mode and errors."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import torch
from torch import nn
from torch.autograd import gradcheck

# ---- the NumPy reference (sequence-first: (S, N, E))

_erf = np.vectorize(math.erf)
ACTIVATIONS = {
    "relu": lambda x: np.maximum(x, 0.0),
    "gelu": lambda x: 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0))),
    "tanh": np.tanh,
}


def _softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def np_layer_norm(x, p, prefix, eps=1e-5):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * p[prefix + "weight"] + p[prefix + "bias"]


def np_mha(q_in, kv_in, p, prefix, nhead, attn_mask=None, key_padding_mask=None):
    """softmax(Q K^T / sqrt(head_dim) + masks) V per head, then the output projection. key_padding_mask is
    bool (N, S), True = ignored."""
    w_q, w_k, w_v = np.split(p[prefix + "in_proj_weight"], 3)
    b_q, b_k, b_v = np.split(p[prefix + "in_proj_bias"], 3)
    q, k, v = q_in @ w_q.T + b_q, kv_in @ w_k.T + b_k, kv_in @ w_v.T + b_v
    L, N, E = q.shape
    hd = E // nhead
    q, k, v = (t.reshape(t.shape[0], N, nhead, hd).transpose(1, 2, 0, 3) for t in (q, k, v))  # (N, H, len, hd)
    scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(hd)
    if attn_mask is not None:
        scores = scores + attn_mask
    if key_padding_mask is not None:
        scores = scores + np.where(key_padding_mask, -np.inf, 0.0)[:, None, None, :]
    out = (_softmax(scores) @ v).transpose(2, 0, 1, 3).reshape(L, N, E)
    return out @ p[prefix + "out_proj.weight"].T + p[prefix + "out_proj.bias"]


def np_ff(x, p, prefix, act):
    h = ACTIVATIONS[act](x @ p[prefix + "linear1.weight"].T + p[prefix + "linear1.bias"])
    return h @ p[prefix + "linear2.weight"].T + p[prefix + "linear2.bias"]


def np_encoder_layer(x, p, prefix, nhead, act, norm_first, mask=None, kpm=None):
    def sa(y):
        return np_mha(y, y, p, prefix + "self_attn.", nhead, mask, kpm)

    if norm_first:
        x = x + sa(np_layer_norm(x, p, prefix + "norm1."))
        return x + np_ff(np_layer_norm(x, p, prefix + "norm2."), p, prefix, act)
    x = np_layer_norm(x + sa(x), p, prefix + "norm1.")
    return np_layer_norm(x + np_ff(x, p, prefix, act), p, prefix + "norm2.")


def np_decoder_layer(x, mem, p, prefix, nhead, act, norm_first, tgt_mask=None, mem_kpm=None):
    def sa(y):
        return np_mha(y, y, p, prefix + "self_attn.", nhead, tgt_mask)

    def ca(y):
        return np_mha(y, mem, p, prefix + "multihead_attn.", nhead, None, mem_kpm)

    if norm_first:
        x = x + sa(np_layer_norm(x, p, prefix + "norm1."))
        x = x + ca(np_layer_norm(x, p, prefix + "norm2."))
        return x + np_ff(np_layer_norm(x, p, prefix + "norm3."), p, prefix, act)
    x = np_layer_norm(x + sa(x), p, prefix + "norm1.")
    x = np_layer_norm(x + ca(x), p, prefix + "norm2.")
    return np_layer_norm(x + np_ff(x, p, prefix, act), p, prefix + "norm3.")


def set_params(module, seed=0, scale=0.5):
    """Every parameter ~ U(-scale, scale) from NumPy's generator (LayerNorm weights around 1); returns them as
    float64 arrays by name."""
    rng = np.random.default_rng(seed)
    values = {}
    with torch.no_grad():
        for name, param in module.named_parameters():
            value = rng.uniform(-scale, scale, tuple(param.shape))
            if "norm" in name and name.endswith("weight"):
                value = 1.0 + value
            values[name] = value
            param.copy_(torch.from_numpy(value))
    return values


def _np(t):
    return t.detach().cpu().numpy()


def _bf(a, batch_first):
    """A (S, N, E) array in the module's layout."""
    return a.transpose(1, 0, 2).copy() if batch_first else a


pytestmark = pytest.mark.filterwarnings("ignore:enable_nested_tensor is True:UserWarning")

E, NHEAD, FF = 8, 2, 12
CAUSAL4 = np.triu(np.full((4, 4), -np.inf), 1)
KPM = np.array([[False, False, False, False], [False, False, True, True], [False, True, False, True]])

LAYER_CASES = [
    {"norm_first": False, "activation": "relu", "batch_first": False},
    {"norm_first": True, "activation": "gelu", "batch_first": False},
    {"norm_first": False, "activation": "gelu", "batch_first": True},
    {"norm_first": True, "activation": "relu", "batch_first": True},
]


@pytest.mark.parametrize("case", LAYER_CASES, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_encoder_layer_matches_numpy(case, device):
    layer = nn.TransformerEncoderLayer(E, NHEAD, FF, dropout=0.0, **case).double().to(device)
    p = set_params(layer)
    x = np.random.default_rng(1).standard_normal((4, 3, E))
    bf = case["batch_first"]
    src = torch.from_numpy(_bf(x, bf)).to(device)
    mask = torch.from_numpy(CAUSAL4).to(device)
    kpm = torch.from_numpy(np.where(KPM, -np.inf, 0.0)).to(device)  # float like the mask (mixing types warns)
    got = layer(src, src_mask=mask, src_key_padding_mask=kpm)
    ref = np_encoder_layer(x, p, "", NHEAD, case["activation"], case["norm_first"], CAUSAL4, KPM)
    np.testing.assert_allclose(_np(got), _bf(ref, bf), rtol=1e-10, atol=1e-10)
    got = layer(src)
    ref = np_encoder_layer(x, p, "", NHEAD, case["activation"], case["norm_first"])
    np.testing.assert_allclose(_np(got), _bf(ref, bf), rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("case", LAYER_CASES, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_decoder_layer_matches_numpy(case, device):
    layer = nn.TransformerDecoderLayer(E, NHEAD, FF, dropout=0.0, **case).double().to(device)
    p = set_params(layer)
    rng = np.random.default_rng(2)
    x, mem = rng.standard_normal((4, 3, E)), rng.standard_normal((4, 3, E))
    bf = case["batch_first"]
    tgt, memory = (torch.from_numpy(_bf(a, bf)).to(device) for a in (x, mem))
    got = layer(
        tgt,
        memory,
        tgt_mask=torch.from_numpy(CAUSAL4).to(device),
        memory_key_padding_mask=torch.from_numpy(KPM).to(device),
    )
    ref = np_decoder_layer(x, mem, p, "", NHEAD, case["activation"], case["norm_first"], CAUSAL4, KPM)
    np.testing.assert_allclose(_np(got), _bf(ref, bf), rtol=1e-10, atol=1e-10)


def test_transformer_matches_numpy():
    model = nn.Transformer(E, NHEAD, num_encoder_layers=2, num_decoder_layers=2, dim_feedforward=FF, dropout=0.0)
    model = model.double()
    p = set_params(model)
    rng = np.random.default_rng(3)
    src, tgt = rng.standard_normal((4, 3, E)), rng.standard_normal((4, 3, E))
    tgt_mask = nn.Transformer.generate_square_subsequent_mask(4, dtype=torch.float64)
    kpm = torch.from_numpy(KPM)
    got = model(
        torch.from_numpy(src),
        torch.from_numpy(tgt),
        tgt_mask=tgt_mask,
        src_key_padding_mask=kpm,
        memory_key_padding_mask=kpm,
    )
    mem = src
    for i in range(2):
        mem = np_encoder_layer(mem, p, f"encoder.layers.{i}.", NHEAD, "relu", False, None, KPM)
    mem = np_layer_norm(mem, p, "encoder.norm.")
    out = tgt
    for i in range(2):
        out = np_decoder_layer(out, mem, p, f"decoder.layers.{i}.", NHEAD, "relu", False, CAUSAL4, KPM)
    ref = np_layer_norm(out, p, "decoder.norm.")
    np.testing.assert_allclose(_np(got), ref, rtol=1e-10, atol=1e-10)
    # a bool mask (True = not allowed to attend) means the same as the float causal mask
    bool_mask = torch.triu(torch.ones(4, 4, dtype=torch.bool), 1)
    got_bool = model(torch.from_numpy(src), torch.from_numpy(tgt), tgt_mask=bool_mask, src_key_padding_mask=kpm,
                     memory_key_padding_mask=kpm)  # fmt: skip
    np.testing.assert_allclose(_np(got_bool), ref, rtol=1e-10, atol=1e-10)


def test_encoder_stack_with_norm_and_callable_activation():
    layer = nn.TransformerEncoderLayer(E, NHEAD, FF, dropout=0.0, activation=torch.tanh)
    enc = nn.TransformerEncoder(layer, num_layers=2, norm=nn.LayerNorm(E), enable_nested_tensor=False).double()
    p = set_params(enc)
    x = np.random.default_rng(4).standard_normal((5, 2, E))
    ref = x
    for i in range(2):
        ref = np_encoder_layer(ref, p, f"layers.{i}.", NHEAD, "tanh", False)
    ref = np_layer_norm(ref, p, "norm.")
    np.testing.assert_allclose(_np(enc(torch.from_numpy(x))), ref, rtol=1e-10, atol=1e-10)
    assert enc.layers[0].linear1.weight is not enc.layers[1].linear1.weight  # deep copies


def test_bool_and_float_masks_agree_and_is_causal_hint():
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(E, NHEAD, FF, dropout=0.0)
    x = torch.randn(4, 3, E)
    float_mask = nn.Transformer.generate_square_subsequent_mask(4)
    bool_mask = torch.triu(torch.ones(4, 4, dtype=torch.bool), 1)
    out = layer(x, src_mask=float_mask)
    torch.testing.assert_close(layer(x, src_mask=bool_mask), out)
    torch.testing.assert_close(layer(x, src_mask=float_mask, is_causal=True), out)
    enc = nn.TransformerEncoder(layer, 1, enable_nested_tensor=False)
    torch.testing.assert_close(enc(x, mask=float_mask, is_causal=True), out)
    torch.testing.assert_close(enc(x, mask=float_mask), out)
    kpm_bool = torch.from_numpy(KPM)
    kpm_float = torch.zeros(3, 4).masked_fill(kpm_bool, float("-inf"))
    torch.testing.assert_close(layer(x, src_key_padding_mask=kpm_bool), layer(x, src_key_padding_mask=kpm_float))


def test_generate_square_subsequent_mask():
    m = nn.Transformer.generate_square_subsequent_mask(3)
    assert m.dtype == torch.float32 and m.shape == (3, 3)
    inf = float("-inf")
    assert m.tolist() == [[0.0, inf, inf], [0.0, 0.0, inf], [0.0, 0.0, 0.0]]
    assert nn.Transformer.generate_square_subsequent_mask(2, dtype=torch.float64).dtype == torch.float64


# ---- shapes


@pytest.mark.parametrize("batch_first", [False, True])
def test_shapes_batched_and_unbatched(batch_first):
    model = nn.Transformer(E, NHEAD, 1, 1, FF, dropout=0.0, batch_first=batch_first)
    src = torch.randn(2, 5, E) if batch_first else torch.randn(5, 2, E)
    tgt = torch.randn(2, 3, E) if batch_first else torch.randn(3, 2, E)
    assert model(src, tgt).shape == tgt.shape
    u_src, u_tgt = torch.randn(5, E), torch.randn(3, E)
    out = model(u_src, u_tgt, tgt_mask=nn.Transformer.generate_square_subsequent_mask(3))
    assert out.shape == (3, E)
    b_src, b_tgt = (u_src.unsqueeze(0), u_tgt.unsqueeze(0)) if batch_first else (u_src[:, None], u_tgt[:, None])
    batched = model(b_src, b_tgt, tgt_mask=nn.Transformer.generate_square_subsequent_mask(3))
    torch.testing.assert_close(out, batched.squeeze(0 if batch_first else 1))
    layer = nn.TransformerEncoderLayer(E, NHEAD, FF, batch_first=batch_first)
    assert layer(src).shape == src.shape and layer(u_src).shape == (5, E)


# ---- parameters


def test_state_dict_names():
    enc_names = [
        "self_attn.in_proj_weight", "self_attn.in_proj_bias", "self_attn.out_proj.weight", "self_attn.out_proj.bias",
        "linear1.weight", "linear1.bias", "linear2.weight", "linear2.bias",
        "norm1.weight", "norm1.bias", "norm2.weight", "norm2.bias",
    ]  # fmt: skip
    assert list(nn.TransformerEncoderLayer(E, NHEAD, FF).state_dict()) == enc_names
    dec_names = [
        "self_attn.in_proj_weight", "self_attn.in_proj_bias", "self_attn.out_proj.weight", "self_attn.out_proj.bias",
        "multihead_attn.in_proj_weight", "multihead_attn.in_proj_bias", "multihead_attn.out_proj.weight",
        "multihead_attn.out_proj.bias", "linear1.weight", "linear1.bias", "linear2.weight", "linear2.bias",
        "norm1.weight", "norm1.bias", "norm2.weight", "norm2.bias", "norm3.weight", "norm3.bias",
    ]  # fmt: skip
    assert list(nn.TransformerDecoderLayer(E, NHEAD, FF).state_dict()) == dec_names
    model = nn.Transformer(E, NHEAD, 2, 1, FF)
    expected = (
        [f"encoder.layers.{i}.{n}" for i in range(2) for n in enc_names]
        + ["encoder.norm.weight", "encoder.norm.bias"]
        + [f"decoder.layers.0.{n}" for n in dec_names]
        + ["decoder.norm.weight", "decoder.norm.bias"]
    )
    assert list(model.state_dict()) == expected
    assert list(nn.TransformerEncoderLayer(E, NHEAD, FF, bias=False).state_dict()) == [
        "self_attn.in_proj_weight", "self_attn.out_proj.weight", "linear1.weight", "linear2.weight",
        "norm1.weight", "norm2.weight",
    ]  # fmt: skip


def test_transformer_init():
    torch.manual_seed(0)
    model = nn.Transformer(16, 2, 1, 1, 32)
    for name, p in model.named_parameters():
        if p.dim() > 1:  # xavier_uniform_
            bound = math.sqrt(6.0 / (p.shape[0] + p.shape[1]))
            assert p.abs().max().item() <= bound and p.abs().max().item() > 0.8 * bound, name
        elif "norm" in name and name.endswith("weight"):
            assert torch.equal(p, torch.ones_like(p)), name
        elif "in_proj_bias" in name or "out_proj.bias" in name or "norm" in name:
            assert torch.equal(p, torch.zeros_like(p)), name
    assert model.d_model == 16 and model.nhead == 2 and model.batch_first is False
    assert model.encoder.num_layers == 1 and model.decoder.num_layers == 1


def test_defaults_and_attributes():
    layer = nn.TransformerEncoderLayer(E, NHEAD)
    assert layer.linear1.out_features == 2048 and layer.dropout.p == 0.1 and layer.norm1.eps == 1e-5
    assert layer.norm_first is False and layer.self_attn.batch_first is False
    assert layer.activation_relu_or_gelu == 1
    assert nn.TransformerEncoderLayer(E, NHEAD, activation="gelu").activation_relu_or_gelu == 2
    assert nn.TransformerEncoderLayer(E, NHEAD, activation=torch.tanh).activation_relu_or_gelu == 0
    model = nn.Transformer()
    assert model.d_model == 512 and model.nhead == 8 and len(model.encoder.layers) == 6
    assert len(model.decoder.layers) == 6


def test_custom_encoder_and_decoder():
    enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(E, NHEAD, FF), 1, enable_nested_tensor=False)
    dec = nn.TransformerDecoder(nn.TransformerDecoderLayer(E, NHEAD, FF), 1)
    model = nn.Transformer(E, NHEAD, custom_encoder=enc, custom_decoder=dec)
    assert model.encoder is enc and model.decoder is dec and model.decoder.norm is None


# ---- dropout and gradients


def test_eval_disables_dropout():
    torch.manual_seed(0)
    layer = nn.TransformerDecoderLayer(E, NHEAD, FF, dropout=0.5)
    ref = nn.TransformerDecoderLayer(E, NHEAD, FF, dropout=0.0)
    ref.load_state_dict(layer.state_dict())
    tgt, mem = torch.randn(4, 2, E), torch.randn(5, 2, E)
    layer.eval()
    torch.testing.assert_close(layer(tgt, mem), ref(tgt, mem))
    torch.testing.assert_close(layer(tgt, mem), layer(tgt, mem))
    layer.train()
    assert not torch.allclose(layer(tgt, mem), ref(tgt, mem))


def test_gradcheck_encoder_layer():
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0).double()
    x = torch.randn(3, 1, 4, dtype=torch.float64, requires_grad=True)
    mask = nn.Transformer.generate_square_subsequent_mask(3, dtype=torch.float64)
    assert gradcheck(lambda x, *params: layer(x, src_mask=mask), (x, *layer.parameters()))


def test_backward_reaches_every_parameter():
    model = nn.Transformer(E, NHEAD, 1, 1, FF, dropout=0.0)
    model(torch.randn(5, 2, E), torch.randn(3, 2, E)).sum().backward()
    for name, p in model.named_parameters():
        assert p.grad is not None and p.grad.shape == p.shape, name


# ---- errors and warnings


def test_errors():
    with pytest.raises(RuntimeError, match="activation should be relu/gelu, not foo"):
        nn.TransformerEncoderLayer(E, NHEAD, activation="foo")
    with pytest.raises(RuntimeError, match="activation should be relu/gelu, not tanh"):
        nn.TransformerDecoderLayer(E, NHEAD, activation="tanh")
    model = nn.Transformer(E, NHEAD, 1, 1, FF)
    with pytest.raises(RuntimeError, match="the batch number of src and tgt must be equal"):
        model(torch.randn(5, 2, E), torch.randn(3, 3, E))
    with pytest.raises(RuntimeError, match="the feature number of src and tgt must be equal to d_model"):
        model(torch.randn(5, 2, E), torch.randn(3, 2, E + 1))
    bf = nn.Transformer(E, NHEAD, 1, 1, FF, batch_first=True)
    with pytest.raises(RuntimeError, match="the batch number of src and tgt must be equal"):
        bf(torch.randn(2, 5, E), torch.randn(3, 5, E))
    layer = nn.TransformerEncoderLayer(E, NHEAD, FF)
    with pytest.raises(AssertionError, match="only bool and floating types of src_key_padding_mask are supported"):
        layer(torch.randn(4, 3, E), src_key_padding_mask=torch.zeros(3, 4, dtype=torch.int64))


def test_mismatched_mask_types_warn():
    layer = nn.TransformerEncoderLayer(E, NHEAD, FF)
    with pytest.warns(UserWarning, match="Support for mismatched src_key_padding_mask and src_mask is deprecated"):
        layer(
            torch.randn(4, 3, E),
            src_mask=nn.Transformer.generate_square_subsequent_mask(4),
            src_key_padding_mask=torch.from_numpy(KPM),
        )


def test_nested_tensor_warning():
    with pytest.warns(UserWarning, match="encoder_layer.self_attn.batch_first was not True"):
        enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(E, NHEAD, FF), 1)
    assert enc.use_nested_tensor is False
    with pytest.warns(UserWarning, match="encoder_layer.norm_first was True"):
        nn.TransformerEncoder(nn.TransformerEncoderLayer(E, NHEAD, FF, norm_first=True, batch_first=True), 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(E, NHEAD, FF, batch_first=True), 1)
        nn.TransformerEncoder(nn.TransformerEncoderLayer(E, NHEAD, FF), 1, enable_nested_tensor=False)
    assert enc.use_nested_tensor is True
