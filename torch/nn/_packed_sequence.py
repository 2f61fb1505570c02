"""PackedSequence, the batch of variable-length sequences RNN, LSTM and GRU take and return. It lives apart
from torch.nn.utils.rnn (which re-exports it, under whose name it pickles) so that torch.nn.modules.rnn needs
nothing of torch.nn.utils, whose helpers need torch.nn.modules."""

from __future__ import annotations

from collections import namedtuple

import torch

_PackedSequenceBase = namedtuple("PackedSequence_", ["data", "batch_sizes", "sorted_indices", "unsorted_indices"])


def invert_permutation(permutation):
    """The permutation that undoes `permutation` (None stays None)."""
    if permutation is None:
        return None
    output = torch.empty_like(permutation)
    output[permutation] = torch.arange(permutation.numel(), device=permutation.device)
    return output


class PackedSequence(_PackedSequenceBase):
    """(data, batch_sizes, sorted_indices, unsorted_indices) of a packed batch of sequences; build one with
    pack_padded_sequence or pack_sequence, not directly."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:  # the (data, batch_sizes) pair as one argument, as upstream accepts
            data, batch_sizes = data
        if batch_sizes.device.type != "cpu":
            raise ValueError(
                "batch_sizes should always be on CPU. Instances of PackedSequence should never be created "
                "manually. They should be instantiated by functions like pack_sequence and pack_padded_sequences "
                "in nn.utils.rnn. https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence"
            )
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs):
        """The sequence with its data (and index tensors, to the data's device) converted like Tensor.to."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        move = lambda t: None if t is None else t.to(data.device)  # noqa: E731
        return type(self)(data, self.batch_sizes, move(self.sorted_indices), move(self.unsorted_indices))

    def cpu(self, *args, **kwargs):
        """The sequence on the CPU."""
        return self.to("cpu")

    def cuda(self, *args, **kwargs):
        """The sequence on the GPU."""
        return self.to("cuda")

    def double(self):
        return self.to(dtype=torch.float64)

    def float(self):
        return self.to(dtype=torch.float32)

    def half(self):
        return self.to(dtype=torch.float16)

    @property
    def is_cuda(self) -> bool:
        """Whether the data is on a GPU."""
        return self.data.is_cuda

    def is_pinned(self) -> bool:
        """Whether the data is in pinned memory."""
        return self.data.is_pinned()


PackedSequence.__module__ = "torch.nn.utils.rnn"  # upstream's home: pickles and reprs name it there
