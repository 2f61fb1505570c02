"""AdaptiveLogSoftmaxWithLoss (Grave et al., "Efficient softmax approximation for GPUs"): a head over the most
frequent classes and one entry per tail cluster, each cluster a two-layer projection shrinking by div_value, as
torch.nn.AdaptiveLogSoftmaxWithLoss."""

from __future__ import annotations

from collections import namedtuple

import torch
from torch.nn import functional as F
from torch.nn.modules.container import ModuleList, Sequential
from torch.nn.modules.linear import Linear
from torch.nn.modules.module import Module

__all__ = ["AdaptiveLogSoftmaxWithLoss"]

_ASMoutput = namedtuple("_ASMoutput", ["output", "loss"])


class AdaptiveLogSoftmaxWithLoss(Module):
    """Log-probabilities of the target classes (and their mean negative as the loss) over n_classes split at
    `cutoffs`: classes below cutoffs[0] in the head, each later range in a tail cluster whose probability is the
    head's cluster entry times the cluster's own softmax."""

    def __init__(
        self, in_features: int, n_classes: int, cutoffs, div_value: float = 4.0, head_bias: bool = False,
        device=None, dtype=None,
    ) -> None:  # fmt: skip
        super().__init__()
        cutoffs = list(cutoffs)
        if len(cutoffs) == 0:
            raise ValueError("cutoffs should be a sequence of length larger than 0")
        if (
            cutoffs != sorted(cutoffs)
            or min(cutoffs) <= 0
            or max(cutoffs) > (n_classes - 1)
            or len(set(cutoffs)) != len(cutoffs)
            or any(int(c) != c for c in cutoffs)
        ):
            raise ValueError(
                "cutoffs should be a sequence of unique, positive integers sorted in an increasing order, where "
                "each value is between 1 and n_classes-1"
            )
        factory_kwargs = {"device": device, "dtype": dtype}
        self.in_features = in_features
        self.n_classes = n_classes
        self.cutoffs = cutoffs + [n_classes]
        self.div_value = div_value
        self.head_bias = head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.head = Linear(self.in_features, self.head_size, bias=self.head_bias, **factory_kwargs)
        self.tail = ModuleList()
        for i in range(self.n_clusters):
            hsz = int(self.in_features // (self.div_value ** (i + 1)))
            osz = self.cutoffs[i + 1] - self.cutoffs[i]
            self.tail.append(
                Sequential(
                    Linear(self.in_features, hsz, bias=False, **factory_kwargs),
                    Linear(hsz, osz, bias=False, **factory_kwargs),
                )
            )

    def reset_parameters(self) -> None:
        """Re-initializes the head and every cluster's projections."""
        self.head.reset_parameters()
        for i2h, h2o in self.tail:
            i2h.reset_parameters()
            h2o.reset_parameters()

    def forward(self, input_, target_):
        """(output: the target's log-probability per row, loss: -output.mean()) as a namedtuple."""
        targ_dim = target_.dim()
        if targ_dim == 1:
            if input_.size(0) != target_.size(0):
                raise RuntimeError("Input and target should have the same size in the batch dimension.")
            if input_.dim() != 2:
                raise RuntimeError(
                    "1D target tensor expects 2D input tensors, but found inputs with size", input_.size()
                )
        elif targ_dim == 0:
            if input_.dim() != 1:
                raise RuntimeError(
                    "0D target tensor expects 1D input tensors, but found inputs with size", input_.size()
                )
        else:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        is_batched = targ_dim > 0
        input = input_ if is_batched else input_.unsqueeze(0)
        target = target_ if is_batched else target_.unsqueeze(0)
        batch_size = target.size(0)
        if batch_size and (int(target.min()) < 0 or int(target.max()) >= self.n_classes):
            raise RuntimeError(
                f"Target values should be in [0, {self.n_classes - 1}], but values in range "
                f"[{int(target.min())}, {int(target.max())}] were found. "
            )
        output = input.new_zeros(batch_size)
        gather_inds = target.clone()
        for i in range(1, len(self.cutoffs)):  # the tail clusters: their rows' log-probability within the cluster
            low, high = self.cutoffs[i - 1], self.cutoffs[i]
            mask = (target >= low) & (target < high)
            rows = mask.nonzero().reshape(-1)
            if rows.numel() == 0:
                continue
            relative = target.index_select(0, rows) - low
            cluster_logprob = F.log_softmax(self.tail[i - 1](input.index_select(0, rows)), dim=1)
            output = output.index_add(0, rows, cluster_logprob.gather(1, relative.unsqueeze(1)).squeeze(1))
            gather_inds = torch.where(mask, torch.full_like(gather_inds, self.shortlist_size + i - 1), gather_inds)
        head_logprob = F.log_softmax(self.head(input), dim=1)
        output = output + head_logprob.gather(1, gather_inds.unsqueeze(1)).squeeze(1)
        loss = (-output).mean()
        if not is_batched:
            output = output.squeeze(0)
        return _ASMoutput(output, loss)

    def _get_full_log_prob(self, input, head_output):
        head_logprob = F.log_softmax(head_output, dim=1)
        parts = [head_logprob[:, : self.shortlist_size]]
        for i in range(self.n_clusters):
            cluster_logprob = F.log_softmax(self.tail[i](input), dim=1)
            parts.append(cluster_logprob + head_logprob[:, self.shortlist_size + i].unsqueeze(1))
        return torch.cat(parts, 1)

    def log_prob(self, input):
        """The log-probability of every class, (N, n_classes) (or (n_classes,) for 1-D input)."""
        is_batched = input.dim() > 1
        x = input if is_batched else input.unsqueeze(0)
        out = self._get_full_log_prob(x, self.head(x))
        return out if is_batched else out.squeeze(0)

    def predict(self, input):
        """The most likely class of each row (the argmax of log_prob)."""
        return self.log_prob(input).argmax(dim=-1)
