"""The recurrences in the torch namespace, as PyTorch has them (the functions nn.RNN/LSTM/GRU and their cells
call; some code calls them directly):

    torch.lstm, torch.gru, torch.rnn_tanh, torch.rnn_relu    the stacked, optionally bidirectional layers, over
        a padded input:  (input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first)
        or packed data:  (data, batch_sizes, hx, params, has_biases, num_layers, dropout, train, bidirectional)
    torch.lstm_cell, torch.gru_cell, torch.rnn_tanh_cell, torch.rnn_relu_cell    one step:
        (input, hx, w_ih, w_hh, b_ih=None, b_hh=None)

`params` is flat, layer-major then direction (the reverse direction after the forward one), each layer's
w_ih, w_hh, then b_ih, b_hh when has_biases, then w_hr for an LSTM with projections (its h0 narrower than its
c0): nn.RNNBase._flat_weights' order. lstm's hx is the pair (h0, c0). Gates in PyTorch's order: LSTM i, f, g, o;
GRU r, z, n.

This is the one implementation of the recurrences (torch.nn.modules.rnn calls it). Composites of torch ops
(linear, sigmoid, tanh, relu), so autograd and every device come from those ops; a layer's input projection
is one matmul over every time step, and only the hidden-to-hidden product runs per step.
"""

from __future__ import annotations

import torch
from torch._dtypes import scalar_type
from torch._registry import register

# ---- one time step of each recurrence, from the step's input projection gi = W_ih x + b_ih and the state
# (h,) or (h, c); returns the new state. w_hr, LSTM's projection, is None for the others.


def _linear(x, weight, bias=None):
    return torch.nn.functional.linear(x, weight, bias)


def _tanh_step(gi, state, w_hh, b_hh, w_hr=None):
    """h' = tanh(W_ih x + b_ih + W_hh h + b_hh)."""
    return (torch.tanh(gi + _linear(state[0], w_hh, b_hh)),)


def _relu_step(gi, state, w_hh, b_hh, w_hr=None):
    """h' = relu(W_ih x + b_ih + W_hh h + b_hh)."""
    return (torch.relu(gi + _linear(state[0], w_hh, b_hh)),)


def _lstm_step(gi, state, w_hh, b_hh, w_hr=None):
    """Gates i, f, g, o; c' = f*c + i*g, h' = o*tanh(c') (then h' = W_hr h' with a projection)."""
    h, c = state
    i, f, g, o = (gi + _linear(h, w_hh, b_hh)).chunk(4, -1)
    c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    h = torch.sigmoid(o) * torch.tanh(c)
    return (h if w_hr is None else _linear(h, w_hr)), c


def _gru_step(gi, state, w_hh, b_hh, w_hr=None):
    """Gates r, z, n; n = tanh(W_in x + b_in + r*(W_hn h + b_hn)), h' = (1-z)*n + z*h."""
    h = state[0]
    i_r, i_z, i_n = gi.chunk(3, -1)
    h_r, h_z, h_n = _linear(h, w_hh, b_hh).chunk(3, -1)
    r = torch.sigmoid(i_r + h_r)
    z = torch.sigmoid(i_z + h_z)
    n = torch.tanh(i_n + r * h_n)
    return ((1 - z) * n + z * h,)


_STEPS = {"lstm": _lstm_step, "gru": _gru_step, "rnn_tanh": _tanh_step, "rnn_relu": _relu_step}


# ---- the cells


def _cell(step, input, hx, w_ih, w_hh, b_ih, b_hh):
    """One step from the states hx (a tuple), after PyTorch's checks of the input's feature size and each
    state's batch and feature size."""
    if input.size(1) != w_ih.size(1):
        raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} expected {w_ih.size(1)}")
    for k, h in enumerate(hx):
        if input.size(0) != h.size(0):
            raise RuntimeError(f"Input batch size {input.size(0)} doesn't match hidden{k} batch size {h.size(0)}")
        if h.size(1) != w_hh.size(1):
            raise RuntimeError(f"hidden{k} has inconsistent hidden_size: got {h.size(1)}, expected {w_hh.size(1)}")
    return step(_linear(input, w_ih, b_ih), hx, w_hh, b_hh)


@register
def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One LSTM step: (h', c') from input (N, input_size) and hx = (h, c), each (N, hidden_size); w_ih
    (4*hidden_size, input_size), w_hh (4*hidden_size, hidden_size), gates i, f, g, o."""
    if len(hx) != 2:
        raise RuntimeError("lstm_cell expects two hidden states")
    return _cell(_lstm_step, input, tuple(hx), w_ih, w_hh, b_ih, b_hh)


@register
def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One GRU step: h' (N, hidden_size) from input (N, input_size) and hx (N, hidden_size); w_ih
    (3*hidden_size, input_size), w_hh (3*hidden_size, hidden_size), gates r, z, n."""
    return _cell(_gru_step, input, (hx,), w_ih, w_hh, b_ih, b_hh)[0]


@register
def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One Elman step: h' = tanh(input W_ih^T + b_ih + hx W_hh^T + b_hh), (N, hidden_size)."""
    return _cell(_tanh_step, input, (hx,), w_ih, w_hh, b_ih, b_hh)[0]


@register
def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One Elman step: h' = relu(input W_ih^T + b_ih + hx W_hh^T + b_hh), (N, hidden_size)."""
    return _cell(_relu_step, input, (hx,), w_ih, w_hh, b_ih, b_hh)[0]


# ---- the stacked layers


def _layer_weights(params, has_biases: bool, has_projections: bool):
    """params grouped per layer and direction: [(w_ih, w_hh, b_ih, b_hh, w_hr), ...] (None where absent)."""
    stride = 2 + 2 * has_biases + has_projections
    if len(params) % stride:
        raise RuntimeError("got an incorrect number of RNN parameters")
    groups = []
    for k in range(0, len(params), stride):
        w = params[k : k + stride]
        b_ih, b_hh = (w[2], w[3]) if has_biases else (None, None)
        groups.append((w[0], w[1], b_ih, b_hh, w[-1] if has_projections else None))
    return groups


def _run_direction(step, x, state, weights, reverse: bool, sizes):
    """One direction of one layer over x (T, B, F), or over packed data (sum of sizes, F) with the batch size of
    each step in `sizes`, from state (h,) or (h, c). Returns (outputs (T, B, H_out) or packed, final state).
    Packed, step t updates the first sizes[t] rows (the sequences that have a step t) and the others keep their
    state: each row ends with its own sequence's final state."""
    w_ih, w_hh, b_ih, b_hh, w_hr = weights
    gi = _linear(x, w_ih, b_ih)  # the input projection of every step at once
    if sizes is None:
        outputs = [None] * x.size(0)
        for t in range(x.size(0) - 1, -1, -1) if reverse else range(x.size(0)):
            state = step(gi[t], state, w_hh, b_hh, w_hr)
            outputs[t] = state[0]
        return torch.stack(outputs), state
    starts = [0]
    for bs in sizes:
        starts.append(starts[-1] + bs)
    outputs = [None] * len(sizes)
    for t in range(len(sizes) - 1, -1, -1) if reverse else range(len(sizes)):
        bs = sizes[t]
        new = step(gi[starts[t] : starts[t + 1]], tuple(s[:bs] for s in state), w_hh, b_hh, w_hr)
        state = tuple(n if bs == s.size(0) else torch.cat([n, s[bs:]]) for n, s in zip(new, state))
        outputs[t] = new[0]
    return torch.cat(outputs), state


def _batch_sizes(batch_sizes, data) -> list[int]:
    """The packed steps' batch sizes as ints, checked: int64, positive, non-increasing, summing to data's rows."""
    if batch_sizes.dtype != torch.int64:
        raise RuntimeError(f"expected scalar type Long but found {scalar_type(batch_sizes.dtype)}")
    sizes = [int(b) for b in batch_sizes.reshape(-1).tolist()]
    if (
        not sizes
        or any(b <= 0 for b in sizes)
        or any(a < b for a, b in zip(sizes, sizes[1:]))
        or sum(sizes) != data.size(0)
    ):
        raise RuntimeError(
            f"batch_sizes must be positive and non-increasing and sum to the packed data's {data.size(0)} rows, "
            f"got {sizes}"
        )
    return sizes


def _stack(name: str, x, hx, params, has_biases, num_layers, dropout, train, bidirectional, sizes):
    """The stacked recurrence `name` on x (T, B, F), or packed data with its step sizes, from hx = (h0,) or
    (h0, c0) (rows layer-major, direction-minor). Returns (output, final states like hx)."""
    step = _STEPS[name]
    has_projections = name == "lstm" and hx[0].size(2) != hx[1].size(2)
    weights = _layer_weights(params, has_biases, has_projections)
    if any(h.size(0) != hx[0].size(0) for h in hx):
        raise RuntimeError("Expected more hidden states in stacked_rnn")
    num_directions = 2 if bidirectional else 1
    if bidirectional and (hx[0].size(0) % 2 or len(weights) % 2):
        raise RuntimeError("Odd number of params or hiddens given to a bidirectional RNN")
    if hx[0].size(0) != num_layers * num_directions:
        raise RuntimeError("Expected more hidden states in stacked_rnn")
    if len(weights) != num_layers * num_directions:
        raise RuntimeError("Expected more weights in stacked_rnn")
    batch = x.size(1) if sizes is None else sizes[0]
    for k, h in enumerate(hx):
        if h.size(1) != batch:
            raise RuntimeError(f"Input batch size {batch} doesn't match hidden{k} batch size {h.size(1)}")
    finals = [[] for _ in hx]
    for layer in range(num_layers):
        outs = []
        for direction in range(num_directions):
            index = layer * num_directions + direction
            state = tuple(h[index] for h in hx)
            out, state = _run_direction(step, x, state, weights[index], direction == 1, sizes)
            outs.append(out)
            for acc, s in zip(finals, state):
                acc.append(s)
        x = outs[0] if num_directions == 1 else torch.cat(outs, -1)
        if dropout != 0 and train and layer < num_layers - 1:
            if not 0 <= dropout <= 1:
                raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {dropout}")
            x = torch.nn.functional.dropout(x, dropout, training=True)
    return x, tuple(torch.stack(acc) for acc in finals)


_PADDED = ("input", "hx", "params", "has_biases", "num_layers", "dropout", "train", "bidirectional", "batch_first")
_PACKED = ("data", "batch_sizes", "hx", "params", "has_biases", "num_layers", "dropout", "train", "bidirectional")


def _bind(names, args, kwargs, pair: bool):
    """The call's arguments by name for the overload `names`, or None where they do not fit it (a missing or
    extra argument, or a tensor argument that is not one: hx a pair for lstm, a Tensor for the others)."""
    if len(args) > len(names) or any(n in kwargs for n in names[: len(args)]):
        return None
    bound = dict(zip(names, args), **kwargs)
    if set(bound) != set(names):
        return None
    tensors = [bound[n] for n in ("input", "data", "batch_sizes") if n in bound]
    tensors += [] if pair else [bound["hx"]]
    if not all(isinstance(t, torch.Tensor) for t in tensors):
        return None
    sequences = [bound["params"]] + ([bound["hx"]] if pair else [])
    if not all(isinstance(s, (list, tuple)) for s in sequences):
        return None
    return bound


def _recurrent(name: str, args, kwargs):
    """torch.<name> on either overload: (output, h_n) or, for lstm, (output, h_n, c_n)."""
    pair = name == "lstm"
    padded = _bind(_PADDED, args, kwargs, pair)
    packed = None if padded is not None else _bind(_PACKED, args, kwargs, pair)
    if padded is None and packed is None:
        hx = "tuple of Tensors hx" if pair else "Tensor hx"
        got = ", ".join([type(a).__name__ for a in args] + [f"{k}={type(v).__name__}" for k, v in kwargs.items()])
        raise TypeError(
            f"{name}() received an invalid combination of arguments - got ({got}), but expected one of:\n"
            f" * (Tensor data, Tensor batch_sizes, {hx}, tuple of Tensors params, bool has_biases, int num_layers, "
            "float dropout, bool train, bool bidirectional)\n"
            f" * (Tensor input, {hx}, tuple of Tensors params, bool has_biases, int num_layers, float dropout, "
            "bool train, bool bidirectional, bool batch_first)"
        )
    a = padded or packed
    hx = a["hx"]
    if pair and len(hx) != 2:
        raise RuntimeError("lstm expects two hidden states")
    hx = tuple(hx) if pair else (hx,)
    rest = (list(a["params"]), a["has_biases"], a["num_layers"], a["dropout"], a["train"], a["bidirectional"])
    if packed is not None:
        data = packed["data"]
        if data.dim() != 2:
            raise RuntimeError(f"packed data must have 2 dimensions, got {data.dim()}")
        output, finals = _stack(name, data, hx, *rest, _batch_sizes(packed["batch_sizes"], data))
        return (output, *finals)
    x = padded["input"]
    if x.dim() != 3:
        raise RuntimeError(f"input must have 3 dimensions, got {x.dim()}")
    batch_first = padded["batch_first"]
    output, finals = _stack(name, x.transpose(0, 1) if batch_first else x, hx, *rest, None)
    return (output.transpose(0, 1) if batch_first else output, *finals)


@register
def lstm(*args, **kwargs):
    """The stacked LSTM: torch.lstm(input, hx, params, has_biases, num_layers, dropout, train, bidirectional,
    batch_first) on input (T, B, F) ((B, T, F) with batch_first), or torch.lstm(data, batch_sizes, hx, params,
    has_biases, num_layers, dropout, train, bidirectional) on a PackedSequence's data and batch_sizes. hx = (h0,
    c0), (num_layers*D, B, H_out) and (num_layers*D, B, H), H_out narrower than H with projections (params then
    carry w_hr per layer). Dropout (probability `dropout`) between layers when train. Returns (output, h_n,
    c_n)."""
    return _recurrent("lstm", args, kwargs)


@register
def gru(*args, **kwargs):
    """The stacked GRU: torch.gru(input, hx, params, has_biases, num_layers, dropout, train, bidirectional,
    batch_first) or torch.gru(data, batch_sizes, hx, params, has_biases, num_layers, dropout, train,
    bidirectional), hx (num_layers*D, B, H). Returns (output, h_n)."""
    return _recurrent("gru", args, kwargs)


@register
def rnn_tanh(*args, **kwargs):
    """The stacked Elman RNN with tanh: torch.rnn_tanh(input, hx, params, has_biases, num_layers, dropout, train,
    bidirectional, batch_first) or torch.rnn_tanh(data, batch_sizes, hx, params, ...). Returns (output, h_n)."""
    return _recurrent("rnn_tanh", args, kwargs)


@register
def rnn_relu(*args, **kwargs):
    """The stacked Elman RNN with relu: torch.rnn_relu(input, hx, params, has_biases, num_layers, dropout, train,
    bidirectional, batch_first) or torch.rnn_relu(data, batch_sizes, hx, params, ...). Returns (output, h_n)."""
    return _recurrent("rnn_relu", args, kwargs)
