"""Variable-length sequences for the recurrent layers: PackedSequence and its packing, unpacking and padding
helpers, as torch.nn.utils.rnn has them.

A PackedSequence holds the time steps of a batch of sequences one after another (`data`: the first step of
every sequence, then the second step of those that have one, ...), with `batch_sizes[t]` the number of
sequences that have step t. The sequences are ordered by decreasing length inside it; `sorted_indices` maps
that order to the caller's batch (None when the caller's batch was already sorted). RNN, LSTM and GRU take one
and return one.
"""

from __future__ import annotations

import torch
from torch.nn._packed_sequence import PackedSequence, invert_permutation

__all__ = [
    "PackedSequence",
    "invert_permutation",
    "pack_padded_sequence",
    "pack_sequence",
    "pad_packed_sequence",
    "pad_sequence",
    "unpack_sequence",
    "unpad_sequence",
]


def _lengths_list(lengths) -> list[int]:
    if isinstance(lengths, torch.Tensor):
        if lengths.dim() != 1:
            raise RuntimeError(f"'lengths' argument should be a 1D tensor, but got a {lengths.dim()}D tensor")
        return [int(v) for v in lengths.cpu().tolist()]
    return [int(v) for v in lengths]


def pack_padded_sequence(input, lengths, batch_first: bool = False, enforce_sorted: bool = True):
    """Packs a padded batch (T, B, *) (or (B, T, *) with batch_first) of sequences of the given lengths."""
    lengths_list = _lengths_list(lengths)
    batch_dim = 0 if batch_first else 1
    if len(lengths_list) != input.size(batch_dim):
        raise RuntimeError(
            f"Expected `len(lengths)` to be equal to batch_size, but got {len(lengths_list)} (batch_size="
            f"{input.size(batch_dim)})"
        )
    if enforce_sorted:
        if any(a < b for a, b in zip(lengths_list, lengths_list[1:])):
            raise RuntimeError(
                "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You can pass "
                "`enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to sidestep this requirement "
                "if you do not need ONNX exportability."
            )
        sorted_indices = None
    else:
        order = sorted(range(len(lengths_list)), key=lambda i: -lengths_list[i])  # stable: ties keep their order
        sorted_indices = torch.tensor(order, dtype=torch.int64, device=input.device)
        lengths_list = [lengths_list[i] for i in order]
        input = input.index_select(batch_dim, sorted_indices)
    if lengths_list and lengths_list[-1] <= 0:
        raise RuntimeError(
            "Length of all samples has to be greater than 0, but found an element in 'lengths' that is <= 0"
        )
    x = input.transpose(0, 1) if batch_first else input
    if lengths_list and lengths_list[0] > x.size(0):
        raise RuntimeError(
            f"Expected sequence length to be larger than or equal to the longest length ({lengths_list[0]}), but "
            f"got {x.size(0)}"
        )
    steps = lengths_list[0] if lengths_list else 0
    batch_sizes = [sum(1 for n in lengths_list if n > t) for t in range(steps)]
    data = torch.cat([x[t, :bs] for t, bs in enumerate(batch_sizes)]) if batch_sizes else x.reshape(0, *x.shape[2:])
    return PackedSequence(data, torch.tensor(batch_sizes, dtype=torch.int64), sorted_indices, None)


def pad_packed_sequence(sequence, batch_first: bool = False, padding_value: float = 0.0, total_length=None):
    """(padded (T, B, *) or (B, T, *), lengths (CPU int64)) from a PackedSequence, in the caller's batch order;
    T = total_length when given (at least the longest sequence)."""
    data, batch_sizes, _, unsorted_indices = sequence
    sizes = [int(b) for b in batch_sizes.tolist()]
    max_batch = sizes[0] if sizes else 0
    steps = len(sizes)
    if total_length is not None:
        if total_length < steps:
            raise ValueError(
                "Expected total_length to be at least the length of the longest sequence in input, but got "
                f"total_length={total_length} and max sequence length being {steps}"
            )
        steps = total_length
    padded = data.new_full((steps, max_batch, *data.shape[1:]), padding_value)
    offset = 0
    for t, bs in enumerate(sizes):
        padded[t, :bs] = data[offset : offset + bs]
        offset += bs
    lengths = torch.tensor([sum(1 for b in sizes if b > i) for i in range(max_batch)], dtype=torch.int64)
    if unsorted_indices is not None:
        padded = padded.index_select(1, unsorted_indices)
        lengths = lengths[unsorted_indices.cpu()]
    return (padded.transpose(0, 1) if batch_first else padded), lengths


def pad_sequence(sequences, batch_first: bool = False, padding_value: float = 0.0, padding_side: str = "right"):
    """Stacks tensors of shape (L_i, *) into (max L, B, *) (or (B, max L, *)), padded with padding_value on the
    `padding_side` ('right' or 'left')."""
    if padding_side not in ("left", "right"):
        raise ValueError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    if isinstance(sequences, torch.Tensor):
        sequences = sequences.unbind(0)
    sequences = list(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    longest = max(s.size(0) for s in sequences)
    out = sequences[0].new_full((len(sequences), longest, *sequences[0].shape[1:]), padding_value)
    for i, s in enumerate(sequences):
        n = s.size(0)
        if padding_side == "right":
            out[i, :n] = s
        else:
            out[i, longest - n :] = s
    return out if batch_first else out.transpose(0, 1)


def unpad_sequence(padded_sequences, lengths, batch_first: bool = False):
    """The list of sequences (L_i, *) a right-padded batch holds."""
    x = padded_sequences if batch_first else padded_sequences.transpose(0, 1)
    return [x[i, :n] for i, n in enumerate(_lengths_list(lengths))]


def pack_sequence(sequences, enforce_sorted: bool = True):
    """Packs a list of tensors (L_i, *): pad_sequence then pack_padded_sequence."""
    lengths = torch.tensor([s.size(0) for s in sequences], dtype=torch.int64)
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """The list of sequences a PackedSequence holds, in the caller's order."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
