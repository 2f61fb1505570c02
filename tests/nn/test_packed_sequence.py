"""torch.nn.utils.rnn: packing, unpacking and padding variable-length sequences, and RNN / GRU / LSTM on a
PackedSequence: each sequence's outputs and final state equal running it alone; PyTorch's errors."""

from __future__ import annotations

import pytest

import torch
from torch import nn
from torch.nn.utils.rnn import (
    PackedSequence,
    pack_padded_sequence,
    pack_sequence,
    pad_packed_sequence,
    pad_sequence,
    unpack_sequence,
    unpad_sequence,
)


def _seqs(dtype=torch.float64):
    g = torch.Generator().manual_seed(0)
    return [torch.randn(n, 3, generator=g, dtype=dtype) for n in (5, 2, 4)]


def test_pack_and_pad_round_trip():
    seqs = _seqs()
    packed = pack_sequence(seqs, enforce_sorted=False)
    assert isinstance(packed, PackedSequence)
    assert packed.batch_sizes.tolist() == [3, 3, 2, 2, 1] and packed.batch_sizes.device.type == "cpu"
    assert packed.sorted_indices.tolist() == [0, 2, 1] and packed.unsorted_indices.tolist() == [0, 2, 1]
    torch.testing.assert_close(packed.data[:3], torch.stack([seqs[0][0], seqs[2][0], seqs[1][0]]))
    padded, lengths = pad_packed_sequence(packed, batch_first=True, padding_value=-1.0, total_length=7)
    assert padded.shape == (3, 7, 3) and lengths.tolist() == [5, 2, 4]
    for s, p in zip(seqs, padded):
        torch.testing.assert_close(p[: len(s)], s)
        assert (p[len(s) :] == -1).all()
    assert all(torch.equal(a, b) for a, b in zip(unpack_sequence(packed), seqs))
    assert all(torch.equal(a, b) for a, b in zip(unpad_sequence(padded, lengths, batch_first=True), seqs))
    again = pack_padded_sequence(pad_sequence(seqs), torch.tensor([5, 2, 4]), enforce_sorted=False)
    assert torch.equal(again.data, packed.data)


def test_pad_sequence_options():
    seqs = _seqs()
    right = pad_sequence(seqs, padding_value=9.0)
    assert right.shape == (5, 3, 3) and (right[2:, 1] == 9).all()
    left = pad_sequence(seqs, batch_first=True, padding_side="left")
    assert left.shape == (3, 5, 3) and (left[1, :3] == 0).all()
    torch.testing.assert_close(left[1, 3:], seqs[1])


@pytest.mark.parametrize("cls", [nn.RNN, nn.GRU, nn.LSTM])
@pytest.mark.parametrize("batch_first", [False, True])
def test_recurrent_layers_on_packed_sequences_equal_each_sequence_alone(cls, batch_first):
    torch.manual_seed(0)
    layer = cls(3, 4, num_layers=2, bidirectional=True, batch_first=batch_first).double()
    seqs = _seqs()
    packed = pack_sequence(seqs, enforce_sorted=False)
    out, state = layer(packed)
    assert isinstance(out, PackedSequence)
    h_n = state[0] if cls is nn.LSTM else state
    padded, lengths = pad_packed_sequence(out, batch_first=batch_first)
    for i, s in enumerate(seqs):
        alone, alone_state = layer(s.unsqueeze(0 if batch_first else 1))
        alone_h = alone_state[0] if cls is nn.LSTM else alone_state
        got = padded[i, : len(s)] if batch_first else padded[: len(s), i]
        torch.testing.assert_close(got, alone[0] if batch_first else alone[:, 0])
        torch.testing.assert_close(h_n[:, i], alone_h[:, 0])
    out.data.sum().backward()
    assert all(p.grad is not None for p in layer.parameters())


def test_packed_sequence_errors():
    seqs = _seqs()
    with pytest.raises(RuntimeError, match="must be sorted in decreasing order when `enforce_sorted` is True"):
        pack_sequence(seqs)
    with pytest.raises(RuntimeError, match="Length of all samples has to be greater than 0"):
        pack_padded_sequence(torch.zeros(3, 2, 1), [3, 0])
    with pytest.raises(ValueError, match="Expected total_length to be at least the length of the longest sequence"):
        pad_packed_sequence(pack_sequence(seqs, enforce_sorted=False), total_length=2)
