"""Recurrent layers: RNN, LSTM, GRU (multi-layer, bidirectional) and their single-step cells.

The modules hold the parameters and check their inputs; the recurrences are torch.lstm, torch.gru, torch.rnn_tanh,
torch.rnn_relu and their cells (torch/_refs/rnn.py), called with the parameters in PyTorch's flat order, as
PyTorch's modules call them. Parameter names, shapes, gate order and init follow PyTorch's, so state_dicts load
both ways.
"""

from __future__ import annotations

import math
import numbers
import warnings

import torch
from torch.nn import init
from torch.nn._packed_sequence import PackedSequence
from torch.nn.modules.module import Module
from torch.nn.parameter import Parameter

__all__ = ["GRU", "LSTM", "RNN", "GRUCell", "LSTMCell", "RNNBase", "RNNCell", "RNNCellBase"]

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


# ---- multi-layer recurrent layers


class RNNBase(Module):
    """Base of RNN, LSTM and GRU: the parameters weight_ih_l{k}, weight_hh_l{k}, bias_ih_l{k}, bias_hh_l{k}
    (and weight_hr_l{k} with proj_size), with the suffix _reverse for the backward direction."""

    __constants__ = [
        "mode", "input_size", "hidden_size", "num_layers", "bias", "batch_first", "dropout", "bidirectional",
        "proj_size",
    ]  # fmt: skip

    def __init__(
        self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True,
        batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False, proj_size: int = 0,
        device=None, dtype=None,
    ) -> None:  # fmt: skip
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1
        if not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError(
                "dropout should be a number in range [0, 1] representing the probability of an element being zeroed"
            )
        if dropout > 0 and num_layers == 1:
            warnings.warn(
                "dropout option adds dropout after all but last recurrent layer, so non-zero dropout expects "
                f"num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}",
                stacklevel=2,
            )
        if not isinstance(bias, bool):
            raise TypeError(f"bias should be of type bool, got: {type(bias).__name__}")
        if not isinstance(batch_first, bool):
            raise TypeError(f"batch_first should be of type bool, got: {type(batch_first).__name__}")
        if not isinstance(input_size, int):
            raise TypeError(f"input_size should be of type int, got: {type(input_size).__name__}")
        if input_size <= 0:
            raise ValueError("input_size must be greater than zero")
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size = _GATES[mode] * hidden_size
        real_hidden_size = proj_size if proj_size > 0 else hidden_size

        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input_size = input_size if layer == 0 else real_hidden_size * num_directions
                params = [
                    ("weight_ih_l{}{}", (gate_size, layer_input_size)),
                    ("weight_hh_l{}{}", (gate_size, real_hidden_size)),
                ]
                if bias:
                    params += [("bias_ih_l{}{}", (gate_size,)), ("bias_hh_l{}{}", (gate_size,))]
                if proj_size > 0:
                    params += [("weight_hr_l{}{}", (proj_size, hidden_size))]
                suffix = "_reverse" if direction == 1 else ""
                names = []
                for pattern, shape in params:
                    name = pattern.format(layer, suffix)
                    setattr(self, name, Parameter(torch.empty(shape, **factory_kwargs)))
                    names.append(name)
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    @property
    def _flat_weights(self):
        """The parameters in PyTorch's flat order (layer, direction, then ih, hh, bias_ih, bias_hh, hr)."""
        return [getattr(self, name, None) for name in self._flat_weights_names]

    @property
    def all_weights(self):
        """The parameters grouped per layer and direction: [[weight_ih_l0, weight_hh_l0, ...], ...]."""
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def flatten_parameters(self) -> None:
        """A no-op: there is no cuDNN weight buffer to compact (kept for API compatibility)."""

    def reset_parameters(self) -> None:
        """Every parameter ~ U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def check_input(self, input, batch_sizes) -> None:
        """Checks the input's dtype (against the weights), number of dimensions and feature size."""
        weight = self._flat_weights[0]
        if input.dtype != weight.dtype:
            raise ValueError(
                f"RNN input dtype ({input.dtype}) does not match weight dtype ({weight.dtype}). "
                f"Convert input: input.to({weight.dtype}), or convert model: model.to({input.dtype})"
            )
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError(f"input must have {expected_input_dim} dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(
                f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got {input.size(-1)}"
            )

    def get_expected_hidden_size(self, input, batch_sizes) -> tuple[int, int, int]:
        """(num_layers * num_directions, batch, proj_size or hidden_size)."""
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        size = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * num_directions, mini_batch, size)

    def check_hidden_size(self, hx, expected_hidden_size, msg: str = "Expected hidden size {}, got {}") -> None:
        """Raises RuntimeError(msg) when hx's shape is not expected_hidden_size."""
        if tuple(hx.size()) != tuple(expected_hidden_size):
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input, hidden, batch_sizes) -> None:
        """Checks the input and the initial hidden state."""
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx, permutation):
        """hx reordered along the batch dimension (identity when permutation is None)."""
        if permutation is None:
            return hx
        return hx.index_select(1, permutation)

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    # ---- the recurrence

    def _run(self, input, hx, batch_sizes=None):
        """torch.lstm / gru / rnn_tanh / rnn_relu (self.mode's) on (T, B, F) (or (B, T, F) with batch_first)
        input, or on packed data with its batch_sizes, from hx = (h0,) or (h0, c0). Returns (output, (h_n,) or
        (h_n, c_n))."""
        recurrence = getattr(torch, self.mode.lower())
        state = hx if self.mode == "LSTM" else hx[0]
        args = (self._flat_weights, self.bias, self.num_layers, self.dropout, self.training, self.bidirectional)
        if batch_sizes is None:
            output, *finals = recurrence(input, state, *args, self.batch_first)
        else:
            output, *finals = recurrence(input, batch_sizes, state, *args)
        return output, tuple(finals)

    def _run_packed(self, packed, hx):
        """The recurrence on a PackedSequence from hx (in the caller's batch order). Returns (PackedSequence
        output, final states in the caller's order)."""
        data, batch_sizes, sorted_indices, unsorted_indices = packed
        hx = tuple(RNNBase.permute_hidden(self, h, sorted_indices) for h in hx)  # (LSTM's takes the pair)
        output, finals = self._run(data, hx, batch_sizes)
        out = PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices)
        return out, tuple(RNNBase.permute_hidden(self, h, unsorted_indices) for h in finals)

    def _packed_zeros(self, packed, size: int):
        num_directions = 2 if self.bidirectional else 1
        return torch.zeros(
            self.num_layers * num_directions,
            int(packed.batch_sizes[0]),
            size,
            dtype=packed.data.dtype,
            device=packed.data.device,
        )

    def _prepare(self, input, name: str, tensor_word: str = ""):
        """Validates the input rank and returns (batched input, is_batched, batch_dim)."""
        if not isinstance(input, torch.Tensor):
            raise TypeError(f"{name}: expected a Tensor or a PackedSequence input, got {type(input).__name__}")
        if input.dim() not in (2, 3):
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D{tensor_word} instead")
        is_batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if not is_batched:
            input = input.unsqueeze(batch_dim)
        return input, is_batched, batch_dim

    def _zeros(self, input, size: int):
        num_directions = 2 if self.bidirectional else 1
        batch = input.size(0) if self.batch_first else input.size(1)
        return torch.zeros(
            self.num_layers * num_directions, batch, size, dtype=input.dtype, device=input.device
        )  # fmt: skip


class _SingleStateRNN(RNNBase):
    """RNN and GRU: one hidden state h of shape (num_layers * num_directions, batch, hidden_size)."""

    _tensor_word = ""

    def forward(self, input, hx=None):
        """(output, h_n): output (L, N, D*H) (or (N, L, D*H) with batch_first, (L, D*H) unbatched),
        h_n (num_layers*D, N, H) (or (num_layers*D, H) unbatched); a PackedSequence input gives a PackedSequence
        output."""
        if isinstance(input, PackedSequence):
            h0 = self._packed_zeros(input, self.hidden_size) if hx is None else hx
            self.check_forward_args(input.data, h0, input.batch_sizes)
            output, (h_n,) = self._run_packed(input, (h0,))
            return output, h_n
        input, is_batched, batch_dim = self._prepare(input, self._get_name(), self._tensor_word)
        if hx is not None:
            if not is_batched and hx.dim() != 2:
                raise RuntimeError(f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor")
            if is_batched and hx.dim() != 3:
                raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor")
            if not is_batched:
                hx = hx.unsqueeze(1)
        else:
            hx = self._zeros(input, self.hidden_size)
        self.check_forward_args(input, hx, None)
        output, (h_n,) = self._run(input, (hx,))
        if not is_batched:
            output = output.squeeze(batch_dim)
            h_n = h_n.squeeze(1)
        return output, h_n


class RNN(_SingleStateRNN):
    """Elman RNN: h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh) (or relu), stacked num_layers deep.

    RNN(input_size, hidden_size, num_layers=1, nonlinearity='tanh', bias=True, batch_first=False, dropout=0.0,
    bidirectional=False, device=None, dtype=None).
    """

    _tensor_word = " tensor"

    def __init__(self, *args, **kwargs) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__(mode, *args, **kwargs)


class GRU(_SingleStateRNN):
    """Gated recurrent unit: r, z, n gates; h_t = (1 - z_t) * n_t + z_t * h_{t-1}, stacked num_layers deep.

    GRU(input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0, bidirectional=False,
    device=None, dtype=None).
    """

    def __init__(self, *args, **kwargs) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)


class LSTM(RNNBase):
    """Long short-term memory: i, f, g, o gates; c_t = f*c + i*g, h_t = o * tanh(c_t) (projected by W_hr when
    proj_size > 0), stacked num_layers deep.

    LSTM(input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0, bidirectional=False,
    proj_size=0, device=None, dtype=None).
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input, batch_sizes) -> tuple[int, int, int]:
        """(num_layers * num_directions, batch, hidden_size): c is never projected."""
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        return (self.num_layers * num_directions, mini_batch, self.hidden_size)

    def check_forward_args(self, input, hidden, batch_sizes) -> None:
        """Checks the input, h0 and c0."""
        self.check_input(input, batch_sizes)
        self.check_hidden_size(
            hidden[0], self.get_expected_hidden_size(input, batch_sizes), "Expected hidden[0] size {}, got {}"
        )
        self.check_hidden_size(
            hidden[1], self.get_expected_cell_size(input, batch_sizes), "Expected hidden[1] size {}, got {}"
        )

    def permute_hidden(self, hx, permutation):
        """(h, c) reordered along the batch dimension (identity when permutation is None)."""
        if permutation is None:
            return hx
        return hx[0].index_select(1, permutation), hx[1].index_select(1, permutation)

    def forward(self, input, hx=None):
        """(output, (h_n, c_n)): output (L, N, D*H_out), h_n (num_layers*D, N, H_out), c_n (num_layers*D, N, H)
        with H_out = proj_size or hidden_size (batch dimension dropped for unbatched input); a PackedSequence
        input gives a PackedSequence output."""
        if isinstance(input, PackedSequence):
            real_hidden_size = self.proj_size if self.proj_size > 0 else self.hidden_size
            if hx is None:
                hx = (self._packed_zeros(input, real_hidden_size), self._packed_zeros(input, self.hidden_size))
            self.check_forward_args(input.data, hx, input.batch_sizes)
            output, (h_n, c_n) = self._run_packed(input, tuple(hx))
            return output, (h_n, c_n)
        input, is_batched, batch_dim = self._prepare(input, "LSTM")
        if hx is None:
            real_hidden_size = self.proj_size if self.proj_size > 0 else self.hidden_size
            hx = (self._zeros(input, real_hidden_size), self._zeros(input, self.hidden_size))
        else:
            if is_batched:
                if hx[0].dim() != 3 or hx[1].dim() != 3:
                    raise RuntimeError(
                        "For batched 3-D input, hx and cx should also be 3-D but got "
                        f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors"
                    )
            else:
                if hx[0].dim() != 2 or hx[1].dim() != 2:
                    raise RuntimeError(
                        "For unbatched 2-D input, hx and cx should also be 2-D but got "
                        f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors"
                    )
                hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
        self.check_forward_args(input, hx, None)
        output, (h_n, c_n) = self._run(input, tuple(hx))
        if not is_batched:
            output = output.squeeze(batch_dim)
            h_n, c_n = h_n.squeeze(1), c_n.squeeze(1)
        return output, (h_n, c_n)


# ---- single-step cells


class RNNCellBase(Module):
    """Base of the cells: weight_ih (num_chunks*hidden, input), weight_hh (num_chunks*hidden, hidden), bias_ih and
    bias_hh (num_chunks*hidden,), all ~ U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""

    __constants__ = ["input_size", "hidden_size", "bias"]

    def __init__(self, input_size: int, hidden_size: int, bias: bool, num_chunks: int, device=None, dtype=None):
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(torch.empty((num_chunks * hidden_size, input_size), **factory_kwargs))
        self.weight_hh = Parameter(torch.empty((num_chunks * hidden_size, hidden_size), **factory_kwargs))
        if bias:
            self.bias_ih = Parameter(torch.empty(num_chunks * hidden_size, **factory_kwargs))
            self.bias_hh = Parameter(torch.empty(num_chunks * hidden_size, **factory_kwargs))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self) -> None:
        """Every parameter ~ U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _check_rank(self, input, hx, hidden_word: str = "hidden") -> None:
        name = self._get_name()
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        for word, value in hx:
            if value.dim() not in (1, 2):
                raise ValueError(f"{name}: Expected {word} to be 1D or 2D, got {value.dim()}D instead")

    def _zeros(self, input):
        return torch.zeros(input.size(0), self.hidden_size, dtype=input.dtype, device=input.device)


class RNNCell(RNNCellBase):
    """One Elman step: h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh) (or relu)."""

    __constants__ = ["input_size", "hidden_size", "bias", "nonlinearity"]

    def __init__(
        self, input_size: int, hidden_size: int, bias: bool = True, nonlinearity: str = "tanh", device=None,
        dtype=None,
    ) -> None:  # fmt: skip
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        """h' of shape (N, hidden_size), or (hidden_size,) for unbatched input."""
        self._check_rank(input, [] if hx is None else [("hidden", hx)])
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        hx = self._zeros(input) if hx is None else (hx if is_batched else hx.unsqueeze(0))
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        cell = torch.rnn_tanh_cell if self.nonlinearity == "tanh" else torch.rnn_relu_cell
        ret = cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return ret if is_batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    """One LSTM step: (h', c') from (h, c) with gates i, f, g, o."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        """(h', c'), each (N, hidden_size), or (hidden_size,) for unbatched input."""
        self._check_rank(input, [] if hx is None else [(f"hx[{k}]", v) for k, v in enumerate(hx)])
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = self._zeros(input)
            hx = (zeros, zeros)
        else:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0)) if not is_batched else hx
        h, c = torch.lstm_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return (h, c) if is_batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    """One GRU step: h' = (1 - z) * n + z * h with gates r, z, n."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        """h' of shape (N, hidden_size), or (hidden_size,) for unbatched input."""
        self._check_rank(input, [] if hx is None else [("hidden", hx)])
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        hx = self._zeros(input) if hx is None else (hx if is_batched else hx.unsqueeze(0))
        ret = torch.gru_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return ret if is_batched else ret.squeeze(0)
