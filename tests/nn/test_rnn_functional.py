"""torch.lstm / gru / rnn_tanh / rnn_relu (padded and packed), their cells and torch.embedding_bag: PyTorch's
low-level functions in the torch namespace. The stacked functions against nn.LSTM/GRU/RNN given the module's
flat parameters (PyTorch's order: layer, direction, then w_ih, w_hh, b_ih, b_hh, w_hr) and against the NumPy
recurrence of test_rnn.py; the cells against NumPy; gradcheck; embedding_bag's four outputs against NumPy.
Also run on upstream 2.13."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import torch
from torch import nn
from torch.autograd import gradcheck
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


def _sibling(name: str):
    """A test module next to this one, imported by path (its NumPy references; tests/ is no package)."""
    spec = importlib.util.spec_from_file_location(f"_{name}_reference", Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_ref = _sibling("test_rnn")
np_rnn, np_step, set_params, make_module = _ref.np_rnn, _ref._np_step, _ref.set_params, _ref._make

FUNCTIONS = {"LSTM": "lstm", "GRU": "gru", "RNN_TANH": "rnn_tanh", "RNN_RELU": "rnn_relu"}

CASES = _ref.PARITY + [  # test_rnn.py's module cases, and two more
    ("LSTM", {"num_layers": 3, "bias": False, "batch_first": True}),
    ("RNN_TANH", {"num_layers": 2, "batch_first": True}),
]
IDS = [f"{m}-{'-'.join(k) or 'default'}" for m, k in CASES]
T, B, F, H = 4, 3, 4, 5


def _np(t):
    return t.detach().cpu().numpy()


def _setup(mode, kwargs, seed=1):
    """(module with seeded parameters, its parameters by name, x (T, B, F), h0, c0 as float64 arrays)."""
    m = make_module(mode, kwargs, F, H).double()
    p = set_params(m)
    rng = np.random.default_rng(seed)
    rows = kwargs.get("num_layers", 1) * (2 if kwargs.get("bidirectional") else 1)
    x = rng.standard_normal((T, B, F))
    h0 = rng.standard_normal((rows, B, kwargs.get("proj_size") or H))
    c0 = rng.standard_normal((rows, B, H))
    return m, p, x, h0, c0


def _call(mode, kwargs, m, x, hx, *, dropout=0.0, train=False):
    """torch.<mode>(input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first)."""
    fn = getattr(torch, FUNCTIONS[mode])
    return fn(x, hx, list(m._flat_weights), kwargs.get("bias", True), kwargs.get("num_layers", 1), dropout, train,
              kwargs.get("bidirectional", False), kwargs.get("batch_first", False))  # fmt: skip


def _hx(mode, h0, c0):
    h0, c0 = torch.from_numpy(h0), torch.from_numpy(c0)
    return (h0, c0) if mode == "LSTM" else h0


# ---- the stacked functions


@pytest.mark.parametrize("mode,kwargs", CASES, ids=IDS)
def test_padded_equals_the_module_and_numpy(mode, kwargs):
    m, p, x, h0, c0 = _setup(mode, kwargs)
    batch_first = kwargs.get("batch_first", False)
    xt = torch.from_numpy(x.transpose(1, 0, 2).copy() if batch_first else x)
    hx = _hx(mode, h0, c0)
    got = _call(mode, kwargs, m, xt, hx)
    assert isinstance(got, tuple) and len(got) == (3 if mode == "LSTM" else 2)
    want_out, want_h = m(xt, hx)
    want = (want_out, *want_h) if mode == "LSTM" else (want_out, want_h)
    for g, w in zip(got, want):
        assert g.shape == w.shape
        np.testing.assert_allclose(_np(g), _np(w), rtol=1e-12, atol=1e-14)
    ref_out, ref_h, ref_c = np_rnn(mode, x, p, kwargs.get("num_layers", 1), kwargs.get("bidirectional", False), h0,
                                   c0 if mode == "LSTM" else None)  # fmt: skip
    np.testing.assert_allclose(_np(got[0]), ref_out.transpose(1, 0, 2) if batch_first else ref_out, rtol=1e-10)
    np.testing.assert_allclose(_np(got[1]), ref_h, rtol=1e-10)
    if mode == "LSTM":
        np.testing.assert_allclose(_np(got[2]), ref_c, rtol=1e-10)


def test_output_shapes_with_projections():
    m = nn.LSTM(F, 6, num_layers=2, bidirectional=True, proj_size=2).double()
    x = torch.zeros(T, B, F, dtype=torch.float64)
    out, h, c = torch.lstm(x, (torch.zeros(4, B, 2, dtype=torch.float64), torch.zeros(4, B, 6, dtype=torch.float64)),
                           list(m._flat_weights), True, 2, 0.0, False, True, False)  # fmt: skip
    assert out.shape == (T, B, 4) and h.shape == (4, B, 2) and c.shape == (4, B, 6)
    assert len(m._flat_weights) == 20  # per layer and direction: w_ih, w_hh, b_ih, b_hh, w_hr


def test_keyword_arguments_and_tuple_params():
    m, _, x, h0, c0 = _setup("LSTM", {"num_layers": 2})
    xt, hx = torch.from_numpy(x), _hx("LSTM", h0, c0)
    got = torch.lstm(input=xt, hx=list(hx), params=tuple(m._flat_weights), has_biases=True, num_layers=2,
                     dropout=0.0, train=False, bidirectional=False, batch_first=False)  # fmt: skip
    want = torch.lstm(xt, hx, list(m._flat_weights), True, 2, 0.0, False, False, False)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(_np(g), _np(w))


# ---- packed sequences


@pytest.mark.parametrize("mode,kwargs", CASES, ids=IDS)
def test_packed_equals_the_module_and_each_sequence_alone(mode, kwargs):
    kwargs = {k: v for k, v in kwargs.items() if k != "batch_first"}  # packed data has no batch_first
    m, p, x, h0, c0 = _setup(mode, kwargs)
    lengths = [4, 3, 1]
    packed = pack_padded_sequence(torch.from_numpy(x), torch.tensor(lengths))
    assert packed.batch_sizes.tolist() == [3, 2, 2, 1]
    fn = getattr(torch, FUNCTIONS[mode])
    got = fn(packed.data, packed.batch_sizes, _hx(mode, h0, c0), list(m._flat_weights), kwargs.get("bias", True),
             kwargs.get("num_layers", 1), 0.0, False, kwargs.get("bidirectional", False))  # fmt: skip
    want_out, want_h = m(packed, _hx(mode, h0, c0))
    np.testing.assert_allclose(_np(got[0]), _np(want_out.data), rtol=1e-12, atol=1e-14)
    for g, w in zip(got[1:], want_h if mode == "LSTM" else (want_h,)):
        np.testing.assert_allclose(_np(g), _np(w), rtol=1e-12, atol=1e-14)
    padded, _ = pad_packed_sequence(nn.utils.rnn.PackedSequence(got[0], packed.batch_sizes))
    num_layers, bidirectional = kwargs.get("num_layers", 1), kwargs.get("bidirectional", False)
    for b, n in enumerate(lengths):  # each sequence alone, from its own rows of h0 and c0
        ref_out, ref_h, ref_c = np_rnn(mode, x[:n, b : b + 1], p, num_layers, bidirectional, h0[:, b : b + 1],
                                       c0[:, b : b + 1] if mode == "LSTM" else None)  # fmt: skip
        np.testing.assert_allclose(_np(padded[:n, b]), ref_out[:, 0], rtol=1e-10)
        np.testing.assert_allclose(_np(got[1][:, b]), ref_h[:, 0], rtol=1e-10)
        if mode == "LSTM":
            np.testing.assert_allclose(_np(got[2][:, b]), ref_c[:, 0], rtol=1e-10)


def test_packed_unsorted_batch_with_the_module_permutation():
    m, _, x, h0, c0 = _setup("GRU", {"num_layers": 2, "bidirectional": True})
    packed = pack_padded_sequence(torch.from_numpy(x), torch.tensor([2, 4, 3]), enforce_sorted=False)
    h = torch.from_numpy(h0)
    out, h_n = torch.gru(packed.data, packed.batch_sizes, h.index_select(1, packed.sorted_indices),
                         list(m._flat_weights), True, 2, 0.0, False, True)  # fmt: skip
    want_out, want_h = m(packed, h)
    np.testing.assert_allclose(_np(out), _np(want_out.data), rtol=1e-12)
    np.testing.assert_allclose(_np(h_n.index_select(1, packed.unsorted_indices)), _np(want_h), rtol=1e-12)


def test_keyword_arguments_select_the_packed_overload():
    m, _, x, h0, _ = _setup("RNN_RELU", {})
    packed = pack_padded_sequence(torch.from_numpy(x), torch.tensor([4, 2, 2]))
    got = torch.rnn_relu(data=packed.data, batch_sizes=packed.batch_sizes, hx=torch.from_numpy(h0),
                         params=list(m._flat_weights), has_biases=True, num_layers=1, dropout=0.0, train=False,
                         bidirectional=False)  # fmt: skip
    want = m(packed, torch.from_numpy(h0))
    np.testing.assert_allclose(_np(got[0]), _np(want[0].data), rtol=1e-12)
    np.testing.assert_allclose(_np(got[1]), _np(want[1]), rtol=1e-12)


# ---- dropout between layers


def test_dropout_only_between_layers_and_only_when_training():
    m, _, x, h0, c0 = _setup("LSTM", {"num_layers": 2, "bidirectional": True})
    kwargs = {"num_layers": 2, "bidirectional": True}
    xt, hx = torch.from_numpy(x), _hx("LSTM", h0, c0)
    plain = _call("LSTM", kwargs, m, xt, hx)
    for g, w in zip(_call("LSTM", kwargs, m, xt, hx, dropout=0.5, train=False), plain):  # not training: none
        np.testing.assert_array_equal(_np(g), _np(w))
    dropped = _call("LSTM", kwargs, m, xt, hx, dropout=1.0, train=True)
    # the first layer is untouched; the second sees zeros: it is the second layer alone on a zero input
    np.testing.assert_allclose(_np(dropped[1][:2]), _np(plain[1][:2]), rtol=1e-12)
    np.testing.assert_allclose(_np(dropped[2][:2]), _np(plain[2][:2]), rtol=1e-12)
    second = torch.lstm(torch.zeros(T, B, 2 * H, dtype=torch.float64), (hx[0][2:], hx[1][2:]),
                        list(m._flat_weights)[8:], True, 1, 0.0, False, True, False)  # fmt: skip
    for g, w in zip(dropped, (second[0], torch.cat([plain[1][:2], second[1]]), torch.cat([plain[2][:2], second[2]]))):
        np.testing.assert_allclose(_np(g), _np(w), rtol=1e-12, atol=1e-14)
    # no dropout after the last layer: one layer is deterministic even when training
    one = nn.GRU(F, H).double()
    h = torch.zeros(1, B, H, dtype=torch.float64)
    a = torch.gru(xt, h, list(one._flat_weights), True, 1, 0.9, True, False, False)
    b = torch.gru(xt, h, list(one._flat_weights), True, 1, 0.0, False, False, False)
    np.testing.assert_array_equal(_np(a[0]), _np(b[0]))


def test_module_dropout_goes_through_the_function():
    m = nn.GRU(F, H, num_layers=2, dropout=1.0).double()
    x = torch.from_numpy(np.random.default_rng(2).standard_normal((T, B, F)))
    out, h = m(x)
    m.eval()
    assert not torch.equal(out, m(x)[0])
    second = torch.gru(torch.zeros(T, B, H, dtype=torch.float64), torch.zeros(1, B, H, dtype=torch.float64),
                       list(m._flat_weights)[4:], True, 1, 0.0, False, False, False)  # fmt: skip
    np.testing.assert_allclose(_np(out), _np(second[0]), rtol=1e-12)


# ---- gradients


@pytest.mark.parametrize("mode", ["LSTM", "GRU"])
def test_gradcheck_small_stacked(mode):
    kwargs = {"num_layers": 2, "bidirectional": True}
    m = make_module(mode, kwargs, 2, 2).double()
    rng = np.random.default_rng(7)
    x = torch.from_numpy(rng.standard_normal((3, 2, 2))).requires_grad_()
    h0 = torch.from_numpy(rng.standard_normal((4, 2, 2))).requires_grad_()
    c0 = torch.from_numpy(rng.standard_normal((4, 2, 2))).requires_grad_()
    params = [p.detach().clone().requires_grad_() for p in m._flat_weights]
    fn = getattr(torch, FUNCTIONS[mode])

    def f(x, h0, c0, *params):
        hx = (h0, c0) if mode == "LSTM" else h0
        return fn(x, hx, list(params), True, 2, 0.0, False, True, False)

    assert gradcheck(f, (x, h0, c0, *params))


# ---- the cells

CELLS = {"LSTM": ("lstm_cell", 4), "GRU": ("gru_cell", 3), "RNN_TANH": ("rnn_tanh_cell", 1),
         "RNN_RELU": ("rnn_relu_cell", 1)}  # fmt: skip


def _cell_params(mode, bias=True, seed=0):
    rng = np.random.default_rng(seed)
    gates = CELLS[mode][1] * H
    p = {"weight_ih": rng.uniform(-0.6, 0.6, (gates, F)), "weight_hh": rng.uniform(-0.6, 0.6, (gates, H))}
    if bias:
        p.update(bias_ih=rng.uniform(-0.6, 0.6, gates), bias_hh=rng.uniform(-0.6, 0.6, gates))
    return p


@pytest.mark.parametrize("mode", list(CELLS))
@pytest.mark.parametrize("bias", [True, False])
def test_cell_matches_numpy(mode, bias):
    p = _cell_params(mode, bias)
    rng = np.random.default_rng(3)
    x, h, c = rng.standard_normal((B, F)), rng.standard_normal((B, H)), rng.standard_normal((B, H))
    ref_h, ref_c = np_step(mode, x, h, c, p, "")
    args = [torch.from_numpy(p[k]) for k in ("weight_ih", "weight_hh", "bias_ih", "bias_hh") if k in p]
    fn = getattr(torch, CELLS[mode][0])
    if mode == "LSTM":
        got_h, got_c = fn(torch.from_numpy(x), (torch.from_numpy(h), torch.from_numpy(c)), *args)
        np.testing.assert_allclose(_np(got_c), ref_c, rtol=1e-12)
    else:
        got_h = fn(torch.from_numpy(x), torch.from_numpy(h), *args)
    np.testing.assert_allclose(_np(got_h), ref_h, rtol=1e-12)


@pytest.mark.parametrize("mode", list(CELLS))
def test_the_cell_modules_equal_the_functions(mode):
    cls = {"LSTM": nn.LSTMCell, "GRU": nn.GRUCell}.get(mode, nn.RNNCell)
    kwargs = {"nonlinearity": "relu"} if mode == "RNN_RELU" else {}
    cell = cls(F, H, **kwargs).double()
    rng = np.random.default_rng(4)
    x, h = torch.from_numpy(rng.standard_normal((B, F))), torch.from_numpy(rng.standard_normal((B, H)))
    hx = (h, h * 0.5) if mode == "LSTM" else h
    got = getattr(torch, CELLS[mode][0])(x, hx, cell.weight_ih, cell.weight_hh, cell.bias_ih, cell.bias_hh)
    want = cell(x, hx)
    for g, w in zip(got if mode == "LSTM" else (got,), want if mode == "LSTM" else (want,)):
        np.testing.assert_array_equal(_np(g), _np(w))


@pytest.mark.parametrize("mode", list(CELLS))
def test_cell_gradcheck(mode):
    p = _cell_params(mode, seed=5)
    rng = np.random.default_rng(6)
    x = torch.from_numpy(rng.standard_normal((2, F))).requires_grad_()
    h = torch.from_numpy(rng.standard_normal((2, H))).requires_grad_()
    c = torch.from_numpy(rng.standard_normal((2, H))).requires_grad_()
    weights = [torch.from_numpy(p[k]).requires_grad_() for k in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")]
    fn = getattr(torch, CELLS[mode][0])
    if mode == "LSTM":
        assert gradcheck(lambda x, h, c, *w: fn(x, (h, c), *w), (x, h, c, *weights))
    else:
        assert gradcheck(lambda x, h, *w: fn(x, h, *w), (x, h, *weights))


# ---- errors


def _lstm_args():
    m, _, x, h0, c0 = _setup("LSTM", {"num_layers": 2})
    return torch.from_numpy(x), _hx("LSTM", h0, c0), list(m._flat_weights)


def test_stacked_errors():
    x, (h, c), w = _lstm_args()
    with pytest.raises(RuntimeError, match="lstm expects two hidden states"):
        torch.lstm(x, (h, c, c), w, True, 2, 0.0, False, False, False)
    with pytest.raises(RuntimeError, match="incorrect number of RNN parameters"):
        torch.lstm(x, (h, c), w[:-1], True, 2, 0.0, False, False, False)
    with pytest.raises(RuntimeError, match="Expected more hidden states in stacked_rnn"):
        torch.lstm(x, (h, c), w, True, 1, 0.0, False, False, False)
    with pytest.raises(RuntimeError, match="Expected more hidden states in stacked_rnn"):
        torch.lstm(x, (h[:1], c[:1]), w, True, 2, 0.0, False, False, False)
    with pytest.raises(RuntimeError, match="Expected more weights in stacked_rnn"):
        torch.lstm(x, (h, c), w, False, 2, 0.0, False, False, False)  # 8 tensors: 4 layers without biases
    with pytest.raises(RuntimeError, match="dropout probability has to be between 0 and 1"):
        torch.lstm(x, (h, c), w, True, 2, 1.5, True, False, False)
    with pytest.raises(RuntimeError):  # the input's feature size is not w_ih's
        torch.lstm(x[..., :3], (h, c), w, True, 2, 0.0, False, False, False)
    with pytest.raises(RuntimeError):  # hx's batch is not the input's
        torch.lstm(x, (h[:, :2], c[:, :2]), w, True, 2, 0.0, False, False, False)
    with pytest.raises((RuntimeError, IndexError)):  # unbatched input: the function takes 3-D input only
        torch.lstm(x[:, 0], (h[:, 0], c[:, 0]), w, True, 2, 0.0, False, False, False)
    with pytest.raises(TypeError):  # batch_first missing: neither overload
        torch.lstm(x, (h, c), w, True, 2, 0.0, False, False)
    with pytest.raises(TypeError):  # gru's hx is one tensor
        torch.gru(x, (h,), w, True, 2, 0.0, False, False, False)


def test_packed_batch_sizes_must_be_int64():
    x, (h, c), w = _lstm_args()
    packed = pack_padded_sequence(x, torch.tensor([4, 3, 3]))
    with pytest.raises(RuntimeError, match="expected scalar type Long but found Int"):
        torch.lstm(packed.data, packed.batch_sizes.int(), (h, c), w, True, 2, 0.0, False, False)


def test_cell_errors():
    p = {k: torch.from_numpy(v) for k, v in _cell_params("LSTM").items()}
    w = (p["weight_ih"], p["weight_hh"])
    x, h = torch.zeros(2, F, dtype=torch.float64), torch.zeros(2, H, dtype=torch.float64)
    with pytest.raises(RuntimeError, match="lstm_cell expects two hidden states"):
        torch.lstm_cell(x, (h, h, h), *w)
    with pytest.raises(RuntimeError, match="input has inconsistent input_size: got 3 expected 4"):
        torch.lstm_cell(x[:, :3], (h, h), *w)
    with pytest.raises(RuntimeError, match="Input batch size 2 doesn't match hidden1 batch size 1"):
        torch.lstm_cell(x, (h, h[:1]), *w)
    with pytest.raises(RuntimeError, match="hidden0 has inconsistent hidden_size: got 4, expected 5"):
        torch.lstm_cell(x, (h[:, :4], h), *w)
    with pytest.raises(IndexError):  # the cells take 2-D input only
        torch.lstm_cell(x[0], (h[0], h[0]), *w)
    g = {k: torch.from_numpy(v) for k, v in _cell_params("GRU").items()}
    with pytest.raises(RuntimeError, match="Input batch size 2 doesn't match hidden0 batch size 3"):
        torch.gru_cell(x, torch.zeros(3, H, dtype=torch.float64), g["weight_ih"], g["weight_hh"])


# ---- embedding_bag


def _np_embedding_bag(w, idx, offsets, mode, psw=None, padding_idx=None, include_last_offset=False):
    """PyTorch's four outputs: each bag's sum/mean/max (mode 0/1/2) of the rows of its non-padding indices,
    offset2bag (each index's bag), bag_size (non-padding count; zeros for sum), max_indices (each max's row, 0
    in a bag without rows; bag_size for mean; zeros for sum)."""
    ends = list(offsets[1:]) + ([] if include_last_offset else [len(idx)])
    starts = list(offsets[: len(ends)])
    out, sizes, argmax = np.zeros((len(ends), w.shape[1])), [], np.zeros((len(ends), w.shape[1]), dtype=np.int64)
    offset2bag = np.zeros(len(idx), dtype=np.int64)
    for b, (a, e) in enumerate(zip(starts, ends)):
        offset2bag[a:e] = b
        keep = [k for k in range(a, e) if idx[k] != padding_idx]
        sizes.append(len(keep))
        if not keep:
            continue
        rows = w[[idx[k] for k in keep]] * (1.0 if psw is None else psw[keep][:, None])
        out[b] = [rows.sum(0), rows.mean(0), rows.max(0)][mode]
        argmax[b] = np.array([idx[k] for k in keep])[rows.argmax(0)]  # the first of equal maxima
    sizes = np.array(sizes, dtype=np.int64)
    zeros = np.zeros(len(ends), dtype=np.int64)
    return out, offset2bag, (zeros, sizes, sizes)[mode], (zeros, sizes, argmax)[mode]


@pytest.mark.parametrize("mode", [0, 1, 2])
@pytest.mark.parametrize("padding_idx", [None, 2, -1])
@pytest.mark.parametrize("include_last_offset", [False, True])
def test_embedding_bag_four_outputs_against_numpy(mode, padding_idx, include_last_offset):
    rng = np.random.default_rng(8)
    w = rng.normal(size=(8, 5))
    idx = [1, 2, 4, 4, 2, 7, 0, 3, 2, 6, 7]
    offsets = [0, 3, 3, 6, 9] + ([len(idx)] if include_last_offset else [])
    weight = torch.from_numpy(w).requires_grad_()
    got = torch.embedding_bag(weight, torch.tensor(idx), torch.tensor(offsets), False, mode, False, None,
                              include_last_offset, padding_idx)  # fmt: skip
    assert isinstance(got, tuple) and len(got) == 4
    pad = None if padding_idx is None else padding_idx % 8
    want = _np_embedding_bag(w, idx, offsets, mode, None, pad, include_last_offset)
    np.testing.assert_allclose(_np(got[0]), want[0], rtol=1e-12)
    for g, wt in zip(got[1:], want[1:]):
        assert g.dtype == torch.int64
        np.testing.assert_array_equal(_np(g), wt)
    got[0].sum().backward()
    assert weight.grad is not None and weight.grad.shape == weight.shape


@pytest.mark.parametrize("padding_idx", [None, 3])
def test_embedding_bag_per_sample_weights(padding_idx):
    rng = np.random.default_rng(9)
    w, psw = rng.normal(size=(6, 3)), rng.uniform(size=7)
    idx, offsets = [0, 5, 3, 3, 1, 2, 3], [0, 2, 5]
    weight, per_sample = torch.from_numpy(w).requires_grad_(), torch.from_numpy(psw).requires_grad_()
    got = torch.embedding_bag(weight, torch.tensor(idx), torch.tensor(offsets), False, 0, False, per_sample, False,
                              padding_idx)  # fmt: skip
    want = _np_embedding_bag(w, idx, offsets, 0, psw, padding_idx)
    np.testing.assert_allclose(_np(got[0]), want[0], rtol=1e-12)
    for g, wt in zip(got[1:], want[1:]):
        np.testing.assert_array_equal(_np(g), wt)
    assert gradcheck(
        lambda t, p: torch.embedding_bag(
            t, torch.tensor(idx), torch.tensor(offsets), False, 0, False, p, False, padding_idx
        )[0],  # fmt: skip
        (weight, per_sample),
    )


def test_embedding_bag_max_ties_take_the_first_row_and_int32_indices_give_int32():
    w = torch.tensor([[1.0, 5.0], [1.0, 5.0], [0.0, 0.0], [2.0, -1.0]], dtype=torch.float64)
    idx, offsets = torch.tensor([0, 1, 2, 2, 1, 0, 3], dtype=torch.int32), torch.tensor([0, 2, 4, 7], dtype=torch.int32)
    out, offset2bag, bag_size, max_indices = torch.embedding_bag(w, idx, offsets, False, 2, False, None, False, 2)
    np.testing.assert_array_equal(_np(out), [[1, 5], [0, 0], [2, 5], [0, 0]])
    np.testing.assert_array_equal(_np(max_indices), [[0, 0], [0, 0], [3, 1], [0, 0]])
    np.testing.assert_array_equal(_np(bag_size), [2, 0, 3, 0])
    np.testing.assert_array_equal(_np(offset2bag), [0, 0, 1, 1, 2, 2, 2])
    assert offset2bag.dtype == bag_size.dtype == max_indices.dtype == torch.int32


def test_embedding_bag_defaults_and_the_functional():
    rng = np.random.default_rng(10)
    w = torch.from_numpy(rng.normal(size=(5, 3)))
    idx, offsets = torch.tensor([4, 0, 1, 1, 3]), torch.tensor([0, 1, 4])
    out = torch.embedding_bag(w, idx, offsets)[0]  # mode 0: sum
    np.testing.assert_allclose(_np(out), _np_embedding_bag(_np(w), idx.tolist(), offsets.tolist(), 0)[0], rtol=1e-12)
    for mode, name in enumerate(["sum", "mean", "max"]):
        np.testing.assert_array_equal(
            _np(nn.functional.embedding_bag(idx, w, offsets, mode=name, padding_idx=1)),
            _np(torch.embedding_bag(w, idx, offsets, False, mode, False, None, False, 1)[0]),
        )


def test_embedding_bag_errors():
    w = torch.zeros(6, 3, dtype=torch.float64)
    idx, offsets = torch.tensor([1, 2, 4, 5]), torch.tensor([0, 2])
    with pytest.raises(RuntimeError, match="offsets\\[0\\] has to be 0"):
        torch.embedding_bag(w, idx, torch.tensor([1, 3]))
    with pytest.raises(RuntimeError, match="offsets\\[-1\\] can not be greater than input's length 4"):
        torch.embedding_bag(w, idx, torch.tensor([0, 5]))
    with pytest.raises(RuntimeError, match="per_sample_weights only supported with mode='sum'"):
        torch.embedding_bag(w, idx, offsets, False, 1, False, torch.ones(4, dtype=torch.float64), False, None)
    with pytest.raises(RuntimeError, match="to have the same type"):
        torch.embedding_bag(w, idx, offsets, False, 0, False, torch.ones(4), False, None)
    with pytest.raises(RuntimeError):
        torch.embedding_bag(w, idx, offsets, False, 0, False, torch.ones(3, dtype=torch.float64), False, None)
    with pytest.raises(RuntimeError, match="padding_idx must be within the number of embeddings, -6 through 5"):
        torch.embedding_bag(w, idx, offsets, False, 0, False, None, False, 6)
    with pytest.raises(RuntimeError, match="scalar types: Long, Int"):
        torch.embedding_bag(w, idx.double(), offsets)
    with pytest.raises(RuntimeError):
        torch.embedding_bag(w, idx, offsets, False, 3, False, None, False, None)


def test_functional_embedding_bag_checks_the_offsets():
    """F.embedding_bag used to take offsets that do not start at 0, run past the input or decrease (and bag
    whatever the clamped offsets gave), and per-sample weights of another dtype: PyTorch's raise."""
    w = torch.zeros(6, 3)
    idx = torch.tensor([1, 2, 4, 5, 4, 3, 2, 0])
    for offsets in ([1, 3], [0, 9], [0, 3, 2]):
        with pytest.raises(RuntimeError):
            nn.functional.embedding_bag(idx, w, torch.tensor(offsets))
    with pytest.raises(RuntimeError, match="to have the same type"):
        nn.functional.embedding_bag(idx, w, torch.tensor([0, 3]), mode="sum",
                                    per_sample_weights=torch.ones(8, dtype=torch.float64))  # fmt: skip
