"""nn.RNN / LSTM / GRU and their cells: values against a NumPy float64 re-implementation of PyTorch's documented
equations (parameters set by name from a seeded generator, so the same numbers hold in both libraries), output
shapes for every option combination, gradcheck, state_dict names, dropout between layers, reprs and errors."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

import torch
from torch import nn
from torch.autograd import gradcheck

# ---- the NumPy reference


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def _np_step(mode, x, h, c, p, sfx):
    """One step of the recurrence with the parameters of suffix sfx (e.g. 'l0', 'l1_reverse' or '' for a cell)."""
    w_ih, w_hh = p["weight_ih" + sfx], p["weight_hh" + sfx]
    b_ih = p.get("bias_ih" + sfx, np.zeros(w_ih.shape[0]))
    b_hh = p.get("bias_hh" + sfx, np.zeros(w_hh.shape[0]))
    gi, gh = x @ w_ih.T + b_ih, h @ w_hh.T + b_hh
    if mode == "LSTM":
        i, f, g, o = np.split(gi + gh, 4, axis=-1)
        c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
        h = _sigmoid(o) * np.tanh(c)
        if "weight_hr" + sfx in p:
            h = h @ p["weight_hr" + sfx].T
        return h, c
    if mode == "GRU":
        i_r, i_z, i_n = np.split(gi, 3, axis=-1)
        h_r, h_z, h_n = np.split(gh, 3, axis=-1)
        r, z = _sigmoid(i_r + h_r), _sigmoid(i_z + h_z)
        n = np.tanh(i_n + r * h_n)
        return (1 - z) * n + z * h, c
    return (np.tanh(gi + gh) if mode == "RNN_TANH" else np.maximum(gi + gh, 0.0)), c


def np_rnn(mode, x, p, num_layers, bidirectional, h0, c0=None):
    """The stacked (bi)directional recurrence on x (T, B, F). Returns (output, h_n, c_n)."""
    num_directions = 2 if bidirectional else 1
    hs, cs = [], []
    inp = x
    for layer in range(num_layers):
        outs = []
        for d in range(num_directions):
            sfx = f"_l{layer}" + ("_reverse" if d else "")
            k = layer * num_directions + d
            h, c = h0[k], None if c0 is None else c0[k]
            out = [None] * inp.shape[0]
            for t in reversed(range(inp.shape[0])) if d else range(inp.shape[0]):
                h, c = _np_step(mode, inp[t], h, c, p, sfx)
                out[t] = h
            outs.append(np.stack(out))
            hs.append(h)
            cs.append(c)
        inp = np.concatenate(outs, -1)
    return inp, np.stack(hs), (None if c0 is None else np.stack(cs))


def set_params(module, seed=0, scale=0.6):
    """Every parameter ~ U(-scale, scale) from NumPy's generator, in named_parameters order; returns them as
    float64 arrays by name."""
    rng = np.random.default_rng(seed)
    values = {}
    with torch.no_grad():
        for name, param in module.named_parameters():
            values[name] = rng.uniform(-scale, scale, tuple(param.shape))
            param.copy_(torch.from_numpy(values[name]))
    return values


def _np(t):
    return t.detach().cpu().numpy()


CLASSES = {"RNN_TANH": nn.RNN, "RNN_RELU": nn.RNN, "LSTM": nn.LSTM, "GRU": nn.GRU}

PARITY = [
    ("RNN_TANH", {}),
    ("RNN_RELU", {"num_layers": 2, "bidirectional": True}),
    ("LSTM", {}),
    ("LSTM", {"num_layers": 2, "bidirectional": True, "batch_first": True}),
    ("LSTM", {"num_layers": 2, "proj_size": 3, "bias": False}),
    ("LSTM", {"bidirectional": True, "proj_size": 2}),
    ("GRU", {"num_layers": 2}),
    ("GRU", {"bidirectional": True, "bias": False, "batch_first": True}),
]


def _make(mode, kwargs, input_size=4, hidden_size=5):
    if mode.startswith("RNN"):
        kwargs = dict(kwargs, nonlinearity="relu" if mode == "RNN_RELU" else "tanh")
    return CLASSES[mode](input_size, hidden_size, **kwargs)


@pytest.mark.parametrize("mode,kwargs", PARITY, ids=[f"{m}-{'-'.join(k) or 'default'}" for m, k in PARITY])
@pytest.mark.parametrize("with_h0", [False, True], ids=["zero_h0", "h0"])
def test_layer_matches_numpy(mode, kwargs, with_h0, device):
    m = _make(mode, kwargs).double().to(device)
    p = set_params(m)
    rng = np.random.default_rng(1)
    T, B = 4, 3
    L, D = kwargs.get("num_layers", 1), 2 if kwargs.get("bidirectional") else 1
    h_size = kwargs.get("proj_size") or 5
    x = rng.standard_normal((T, B, 4))
    h0 = rng.standard_normal((L * D, B, h_size)) if with_h0 else np.zeros((L * D, B, h_size))
    c0 = rng.standard_normal((L * D, B, 5)) if with_h0 else np.zeros((L * D, B, 5))
    xt = torch.from_numpy(x.transpose(1, 0, 2).copy() if kwargs.get("batch_first") else x).to(device)
    hx = None
    if with_h0:
        h0t, c0t = torch.from_numpy(h0).to(device), torch.from_numpy(c0).to(device)
        hx = (h0t, c0t) if mode == "LSTM" else h0t
    out, hn = m(xt, hx)
    ref_out, ref_h, ref_c = np_rnn(mode, x, p, L, D == 2, h0, c0 if mode == "LSTM" else None)
    if kwargs.get("batch_first"):
        ref_out = ref_out.transpose(1, 0, 2)
    np.testing.assert_allclose(_np(out), ref_out, rtol=1e-10, atol=1e-12)
    if mode == "LSTM":
        np.testing.assert_allclose(_np(hn[0]), ref_h, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(_np(hn[1]), ref_c, rtol=1e-10, atol=1e-12)
    else:
        np.testing.assert_allclose(_np(hn), ref_h, rtol=1e-10, atol=1e-12)


def test_float32_forward_matches_numpy():
    m = nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    p = set_params(m)
    x = np.random.default_rng(2).standard_normal((5, 2, 3))
    out, (h, c) = m(torch.from_numpy(x).float())
    ref = np_rnn("LSTM", x, p, 2, True, np.zeros((4, 2, 4)), np.zeros((4, 2, 4)))
    assert out.dtype == torch.float32
    np.testing.assert_allclose(_np(out), ref[0], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(_np(c), ref[2], rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("mode", ["RNN_TANH", "RNN_RELU", "LSTM", "GRU"])
def test_cell_matches_numpy(mode, device):
    cls = {"RNN_TANH": nn.RNNCell, "RNN_RELU": nn.RNNCell, "LSTM": nn.LSTMCell, "GRU": nn.GRUCell}[mode]
    kwargs = {"nonlinearity": "relu"} if mode == "RNN_RELU" else {}
    cell = cls(4, 5, **kwargs).double().to(device)
    p = set_params(cell)
    rng = np.random.default_rng(3)
    x, h, c = rng.standard_normal((3, 4)), rng.standard_normal((3, 5)), rng.standard_normal((3, 5))
    ref_h, ref_c = _np_step(mode, x, h, c, p, "")
    xt, ht, ct = (torch.from_numpy(a).to(device) for a in (x, h, c))
    if mode == "LSTM":
        got_h, got_c = cell(xt, (ht, ct))
        np.testing.assert_allclose(_np(got_c), ref_c, rtol=1e-10, atol=1e-12)
        zero_h, _ = cell(xt)
        np.testing.assert_allclose(_np(zero_h), _np_step(mode, x, 0 * h, 0 * c, p, "")[0], rtol=1e-10, atol=1e-12)
        uh, uc = cell(xt[0], (ht[0], ct[0]))  # unbatched
        assert uh.shape == uc.shape == (5,)
        np.testing.assert_allclose(_np(uh), ref_h[0], rtol=1e-10, atol=1e-12)
    else:
        got_h = cell(xt, ht)
        np.testing.assert_allclose(_np(cell(xt)), _np_step(mode, x, 0 * h, c, p, "")[0], rtol=1e-10, atol=1e-12)
        uh = cell(xt[0], ht[0])
        assert uh.shape == (5,)
        np.testing.assert_allclose(_np(uh), ref_h[0], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(_np(got_h), ref_h, rtol=1e-10, atol=1e-12)


def test_cell_without_bias():
    cell = nn.GRUCell(3, 2, bias=False).double()
    assert cell.bias_ih is None and cell.bias_hh is None
    p = set_params(cell)
    x = np.random.default_rng(4).standard_normal((2, 3))
    np.testing.assert_allclose(_np(cell(torch.from_numpy(x))), _np_step("GRU", x, np.zeros((2, 2)), None, p, "")[0])


# ---- shapes


@pytest.mark.parametrize(
    "mode,batch_first,bidirectional,num_layers,proj_size,batched",
    [
        (mode, bf, bi, nl, ps, batched)
        for mode, bf, bi, nl, ps, batched in itertools.product(
            ["RNN", "LSTM", "GRU"], [False, True], [False, True], [1, 2], [0, 2], [True, False]
        )
        if ps == 0 or mode == "LSTM"
    ],
)
def test_output_shapes(mode, batch_first, bidirectional, num_layers, proj_size, batched):
    T, N, F, H = 3, 2, 4, 5
    kwargs = {"batch_first": batch_first, "bidirectional": bidirectional, "num_layers": num_layers}
    if proj_size:
        kwargs["proj_size"] = proj_size
    m = getattr(nn, mode)(F, H, **kwargs)
    D = 2 if bidirectional else 1
    H_out = proj_size or H
    if batched:
        x = torch.randn(N, T, F) if batch_first else torch.randn(T, N, F)
        out_shape = (N, T, D * H_out) if batch_first else (T, N, D * H_out)
        h_shape, c_shape = (num_layers * D, N, H_out), (num_layers * D, N, H)
    else:
        x = torch.randn(T, F)
        out_shape, h_shape, c_shape = (T, D * H_out), (num_layers * D, H_out), (num_layers * D, H)
    out, h = m(x)
    assert out.shape == out_shape
    if mode == "LSTM":
        assert h[0].shape == h_shape and h[1].shape == c_shape
        out2, _ = m(x, (torch.zeros(h_shape), torch.zeros(c_shape)))
    else:
        assert h.shape == h_shape
        out2, _ = m(x, torch.zeros(h_shape))
    assert torch.equal(out, out2)  # an explicit zero state is the default


def test_unbatched_equals_batch_of_one():
    m = nn.GRU(3, 4, num_layers=2, bidirectional=True, batch_first=True)
    x, h0 = torch.randn(5, 3), torch.randn(4, 4)
    out, h = m(x, h0)
    out_b, h_b = m(x.unsqueeze(0), h0.unsqueeze(1))
    torch.testing.assert_close(out, out_b.squeeze(0))
    torch.testing.assert_close(h, h_b.squeeze(1))


# ---- parameters


def test_state_dict_names_and_shapes():
    m = nn.LSTM(3, 4, num_layers=2, bidirectional=True, proj_size=2)
    names = []
    for layer in range(2):
        for sfx in ("", "_reverse"):
            names += [f"{w}_l{layer}{sfx}" for w in ("weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_hr")]
    assert list(m.state_dict()) == names
    shapes = {k: tuple(v.shape) for k, v in m.state_dict().items()}
    assert shapes["weight_ih_l0"] == (16, 3) and shapes["weight_hh_l0"] == (16, 2)
    assert shapes["weight_ih_l1_reverse"] == (16, 4) and shapes["weight_hr_l1"] == (2, 4)
    assert shapes["bias_ih_l0"] == (16,)
    assert list(nn.GRU(3, 4, bias=False).state_dict()) == ["weight_ih_l0", "weight_hh_l0"]
    assert tuple(nn.GRU(3, 4).weight_ih_l0.shape) == (12, 3)
    assert tuple(nn.RNN(3, 4).weight_hh_l0.shape) == (4, 4)
    assert list(nn.LSTM(3, 4, bias=False, proj_size=2).state_dict()) == ["weight_ih_l0", "weight_hh_l0", "weight_hr_l0"]
    assert list(nn.LSTMCell(3, 4).state_dict()) == ["weight_ih", "weight_hh", "bias_ih", "bias_hh"]
    assert list(nn.RNNCell(3, 4, bias=False).state_dict()) == ["weight_ih", "weight_hh"]
    assert [[tuple(p.shape) for p in ws] for ws in nn.GRU(3, 4, bidirectional=True).all_weights] == [
        [(12, 3), (12, 4), (12,), (12,)]
    ] * 2
    assert m._flat_weights_names == names


def test_load_state_dict_roundtrip():
    a, b = nn.GRU(3, 4, num_layers=2), nn.GRU(3, 4, num_layers=2)
    b.load_state_dict(a.state_dict())
    x = torch.randn(5, 2, 3)
    torch.testing.assert_close(a(x)[0], b(x)[0])


@pytest.mark.parametrize("cls", [nn.RNN, nn.LSTM, nn.GRU, nn.RNNCell, nn.LSTMCell, nn.GRUCell])
def test_default_init_is_uniform_in_one_over_sqrt_hidden(cls):
    torch.manual_seed(0)
    m = cls(10, 16)
    bound = 1 / 16**0.5
    for p in m.parameters():
        assert p.abs().max().item() <= bound
        assert p.abs().max().item() > 0.8 * bound  # spread over the range, not a constant
        assert p.requires_grad


def test_flatten_parameters_is_a_noop_and_dtype_conversion():
    m = nn.LSTM(2, 3)
    before = [p.clone() for p in m.parameters()]
    assert m.flatten_parameters() is None
    assert all(torch.equal(a, b) for a, b in zip(before, m.parameters()))
    m.double()
    out, (h, c) = m(torch.randn(4, 1, 2, dtype=torch.float64))
    assert out.dtype == h.dtype == c.dtype == torch.float64


# ---- dropout between layers


def test_dropout_only_between_layers_and_only_in_training():
    torch.manual_seed(0)
    m = nn.LSTM(4, 8, num_layers=2, dropout=0.5)
    ref = nn.LSTM(4, 8, num_layers=2)
    ref.load_state_dict(m.state_dict())
    x = torch.randn(5, 3, 4)
    m.eval()
    torch.testing.assert_close(m(x)[0], ref(x)[0])
    m.train()
    assert not torch.allclose(m(x)[0], ref(x)[0])
    # the first layer's final state is computed before any dropout
    torch.testing.assert_close(m(x)[1][0][0], ref(x)[1][0][0])


def test_dropout_warning_with_one_layer():
    with pytest.warns(UserWarning, match="non-zero dropout expects num_layers greater than 1"):
        nn.GRU(3, 4, dropout=0.2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        nn.GRU(3, 4, num_layers=2, dropout=0.2)


# ---- gradients


def test_gradcheck_lstm_cell():
    torch.manual_seed(0)
    cell = nn.LSTMCell(2, 3).double()
    x = torch.randn(2, 2, dtype=torch.float64, requires_grad=True)
    h = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
    c = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
    assert gradcheck(lambda x, h, c, *params: cell(x, (h, c)), (x, h, c, *cell.parameters()))


def test_gradcheck_gru_cell():
    torch.manual_seed(0)
    cell = nn.GRUCell(2, 3).double()
    x = torch.randn(2, 2, dtype=torch.float64, requires_grad=True)
    h = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
    assert gradcheck(lambda x, h, *params: cell(x, h), (x, h, *cell.parameters()))


def test_gradcheck_bidirectional_lstm_with_projection():
    torch.manual_seed(0)
    m = nn.LSTM(2, 3, bidirectional=True, proj_size=2).double()
    x = torch.randn(3, 1, 2, dtype=torch.float64, requires_grad=True)
    assert gradcheck(lambda x, *params: m(x)[0], (x, *m.parameters()))


def test_backward_reaches_every_parameter():
    m = nn.GRU(3, 4, num_layers=2, bidirectional=True)
    out, h = m(torch.randn(5, 2, 3))
    (out.sum() + h.sum()).backward()
    for name, p in m.named_parameters():
        assert p.grad is not None and p.grad.shape == p.shape, name
        assert p.grad.abs().sum().item() > 0, name


# ---- reprs and errors


def test_reprs():
    assert repr(nn.RNN(3, 4)) == "RNN(3, 4)"
    assert repr(nn.RNN(3, 4, 2, "relu")) == "RNN(3, 4, num_layers=2)"
    assert repr(nn.GRU(3, 4, batch_first=True)) == "GRU(3, 4, batch_first=True)"
    assert (
        repr(nn.LSTM(3, 4, num_layers=2, bias=False, batch_first=True, dropout=0.5, bidirectional=True, proj_size=2))
        == "LSTM(3, 4, proj_size=2, num_layers=2, bias=False, batch_first=True, dropout=0.5, bidirectional=True)"
    )
    assert repr(nn.RNNCell(3, 4, bias=False, nonlinearity="relu")) == "RNNCell(3, 4, bias=False, nonlinearity=relu)"
    assert repr(nn.LSTMCell(3, 4)) == "LSTMCell(3, 4)"
    assert repr(nn.GRUCell(3, 4)) == "GRUCell(3, 4)"
    assert nn.RNN(3, 4, nonlinearity="relu").mode == "RNN_RELU"
    assert nn.RNN(3, 4).nonlinearity == "tanh"
    assert isinstance(nn.LSTM(3, 4), nn.RNNBase) and isinstance(nn.GRUCell(3, 4), nn.RNNCellBase)


@pytest.mark.parametrize(
    "make,exc,msg",
    [
        (lambda: nn.RNN(3, 4, nonlinearity="x"), ValueError, "Unknown nonlinearity 'x'. Select from 'tanh' or 'relu'."),
        (
            lambda: nn.RNN(3, 4, proj_size=2),
            ValueError,
            "proj_size argument is only supported for LSTM, not RNN or GRU",
        ),
        (
            lambda: nn.GRU(3, 4, proj_size=2),
            ValueError,
            "proj_size argument is only supported for LSTM, not RNN or GRU",
        ),
        (lambda: nn.LSTM(3, 4, proj_size=4), ValueError, "proj_size has to be smaller than hidden_size"),
        (lambda: nn.LSTM(3, 4, proj_size=-1), ValueError, "proj_size should be a positive integer or zero"),
        (lambda: nn.LSTM(3, 4, dropout=2), ValueError, "dropout should be a number in range [0, 1]"),
        (lambda: nn.LSTM(3, 4, dropout=True), ValueError, "dropout should be a number in range [0, 1]"),
        (lambda: nn.LSTM(3, 0), ValueError, "hidden_size must be greater than zero"),
        (lambda: nn.LSTM(0, 3), ValueError, "input_size must be greater than zero"),
        (lambda: nn.LSTM(3, 4, num_layers=0), ValueError, "num_layers must be greater than zero"),
        (lambda: nn.LSTM(3.0, 4), TypeError, "input_size should be of type int, got: float"),
        (lambda: nn.LSTM(3, 4, bias=1), TypeError, "bias should be of type bool, got: int"),
        (lambda: nn.LSTM(3, 4, batch_first=1), TypeError, "batch_first should be of type bool, got: int"),
    ],
)
def test_constructor_errors(make, exc, msg):
    with pytest.raises(exc) as info:
        make()
    assert str(info.value).startswith(msg)


L2 = nn.LSTM(3, 4, num_layers=2)
G1 = nn.GRU(3, 4)
R1 = nn.RNN(3, 4)


@pytest.mark.parametrize(
    "call,exc,msg",
    [
        (
            lambda: L2(torch.randn(5, 2, 4)),
            RuntimeError,
            "input.size(-1) must be equal to input_size. Expected 3, got 4",
        ),
        (
            lambda: L2(torch.randn(5, 2, 3, dtype=torch.float64)),
            ValueError,
            "RNN input dtype (torch.float64) does not match weight dtype (torch.float32). Convert input: "
            "input.to(torch.float32), or convert model: model.to(torch.float64)",
        ),
        (
            lambda: L2(torch.randn(5, 2, 3), (torch.randn(2, 3, 4), torch.randn(2, 2, 4))),
            RuntimeError,
            "Expected hidden[0] size (2, 2, 4), got [2, 3, 4]",
        ),
        (
            lambda: L2(torch.randn(5, 2, 3), (torch.randn(2, 2, 4), torch.randn(2, 3, 4))),
            RuntimeError,
            "Expected hidden[1] size (2, 2, 4), got [2, 3, 4]",
        ),
        (
            lambda: L2(torch.randn(5, 2, 3), (torch.randn(2, 4), torch.randn(2, 2, 4))),
            RuntimeError,
            "For batched 3-D input, hx and cx should also be 3-D but got (2-D, 3-D) tensors",
        ),
        (
            lambda: L2(torch.randn(5, 3), (torch.randn(2, 2, 4), torch.randn(2, 2, 4))),
            RuntimeError,
            "For unbatched 2-D input, hx and cx should also be 2-D but got (3-D, 3-D) tensors",
        ),
        (lambda: L2(torch.randn(2, 2, 5, 3)), ValueError, "LSTM: Expected input to be 2D or 3D, got 4D instead"),
        (lambda: G1(torch.randn(3)), ValueError, "GRU: Expected input to be 2D or 3D, got 1D instead"),
        (lambda: R1(torch.randn(3)), ValueError, "RNN: Expected input to be 2D or 3D, got 1D tensor instead"),
        (
            lambda: G1(torch.randn(5, 3), torch.randn(1, 1, 4)),
            RuntimeError,
            "For unbatched 2-D input, hx should also be 2-D but got 3-D tensor",
        ),
        (
            lambda: R1(torch.randn(5, 2, 3), torch.randn(1, 4)),
            RuntimeError,
            "For batched 3-D input, hx should also be 3-D but got 2-D tensor",
        ),
        (
            lambda: G1(torch.randn(5, 2, 3), torch.randn(1, 3, 4)),
            RuntimeError,
            "Expected hidden size (1, 2, 4), got [1, 3, 4]",
        ),
    ],
)
def test_forward_errors(call, exc, msg):
    with pytest.raises(exc) as info:
        call()
    assert str(info.value) == msg


@pytest.mark.parametrize(
    "call,exc,msg",
    [
        (
            lambda: nn.LSTMCell(3, 4)(torch.randn(2, 5)),
            RuntimeError,
            "input has inconsistent input_size: got 5 expected 3",
        ),
        (
            lambda: nn.LSTMCell(3, 4)(torch.randn(2, 3), (torch.randn(3, 4), torch.randn(3, 4))),
            RuntimeError,
            "Input batch size 2 doesn't match hidden0 batch size 3",
        ),
        (
            lambda: nn.LSTMCell(3, 4)(torch.randn(2, 3), (torch.randn(2, 4), torch.randn(2, 5))),
            RuntimeError,
            "hidden1 has inconsistent hidden_size: got 5, expected 4",
        ),
        (
            lambda: nn.GRUCell(3, 4)(torch.randn(2, 3), torch.randn(2, 5)),
            RuntimeError,
            "hidden0 has inconsistent hidden_size: got 5, expected 4",
        ),
        (
            lambda: nn.RNNCell(3, 4)(torch.randn(2, 3, 3)),
            ValueError,
            "RNNCell: Expected input to be 1D or 2D, got 3D instead",
        ),
        (
            lambda: nn.GRUCell(3, 4)(torch.randn(3), torch.randn(1, 1, 4)),
            ValueError,
            "GRUCell: Expected hidden to be 1D or 2D, got 3D instead",
        ),
        (
            lambda: nn.LSTMCell(3, 4)(torch.randn(3), (torch.randn(4), torch.randn(1, 1, 4))),
            ValueError,
            "LSTMCell: Expected hx[1] to be 1D or 2D, got 3D instead",
        ),
        (lambda: nn.RNNCell(3, 4, nonlinearity="foo")(torch.randn(3)), RuntimeError, "Unknown nonlinearity: foo"),
    ],
)
def test_cell_errors(call, exc, msg):
    with pytest.raises(exc) as info:
        call()
    assert str(info.value) == msg
