"""nn.LinearCrossEntropyLoss and nn.LinearCrossEntropyOptions (upstream 2.13): the cross entropy of a linear
layer's logits, a vocabulary head's loss. With options the loss is computed in chunks of the batch, so the
(batch, classes) logits are never held whole (F.linear_cross_entropy)."""

from __future__ import annotations

import dataclasses
import math

import torch
from torch import nn
from torch.nn import functional as F
from torch.nn.modules.loss import _WeightedLoss

__all__ = ["LinearCrossEntropyLoss", "LinearCrossEntropyOptions"]

_POLICIES = ("auto", "accurate", "balanced", "compact")
_ACC_DTYPES = ("float16", "bfloat16", "float32", "float64")


@dataclasses.dataclass(frozen=True)
class LinearCrossEntropyOptions:
    """How F.linear_cross_entropy chunks its batch (upstream's fields and checks).

    - batch_chunk_size: rows per chunk (None: one chunk, or what chunking_method picks).
    - chunking_method: "auto", "aspect_ratio" or "aspect_ratio:N" (a chunk's (rows, classes) logits as large
      as the (batch, in_features) input, divided by N; "auto" is "aspect_ratio:2" here), or None to use
      batch_chunk_size.
    - acc_policy: "auto", "accurate", "balanced" or "compact", upstream's precision/memory trade-offs of its
      fused kernels; here every policy accumulates in acc_dtype, which is what decides the precision.
    - acc_dtype: the dtype the logits and gradients are computed in (None: float32 for float16/bfloat16
      input, else the input's dtype).
    - allow_retain_graph: upstream's backward consumes buffers made in the forward unless this is set; this
      implementation recomputes each chunk's logits in the backward, so a second backward always works.
    """

    allow_retain_graph: bool = False
    batch_chunk_size: int | None = None
    chunking_method: str | None = "auto"
    acc_policy: str = "auto"
    acc_dtype: torch.dtype | None = None

    def __post_init__(self) -> None:
        if self.acc_policy not in _POLICIES:
            raise ValueError(f"invalid acc_policy: {self.acc_policy!r}")
        if self.chunking_method not in (None, "auto"):
            name, sep, factor = self.chunking_method.partition(":")
            if name != "aspect_ratio" or (sep and not (factor.isdigit() and int(factor) > 0)):
                raise ValueError(f"invalid chunking_method: {self.chunking_method!r}")
        size = self.batch_chunk_size
        if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size <= 0):
            raise ValueError(f"batch_chunk_size must be positive int or None, got {size!r}")
        if self.acc_dtype is not None and str(self.acc_dtype).removeprefix("torch.") not in _ACC_DTYPES:
            raise ValueError(
                "acc_dtype must be one of {None, torch.float16, torch.bfloat16, torch.float32, torch.float64}, got "
                f"{self.acc_dtype!r}. Pass acc_dtype=None to let the op pick automatically."
            )

    def rows_per_chunk(self, num_batches: int, in_features: int, num_classes: int) -> int:
        """The chunk size for this call's shapes: batch_chunk_size, or chunking_method's pick (a ValueError
        where both are given and disagree)."""
        method = self.chunking_method
        if method == "auto":
            method = None if self.batch_chunk_size is not None else "aspect_ratio:2"
        size = num_batches if self.batch_chunk_size is None else min(self.batch_chunk_size, num_batches)
        if method is not None:
            factor = int(method.partition(":")[2] or 1)
            target = -(-num_batches // -(-num_classes // max(in_features, 1)))
            picked = min((1 << max(target - 1, 0).bit_length()) // factor, num_batches)
            if self.batch_chunk_size is not None and self.batch_chunk_size != picked:
                raise ValueError(
                    f"batch_chunk_size (={self.batch_chunk_size}) and chunking_method ('{method}') give different "
                    f"chunk sizes ({self.batch_chunk_size} vs {picked}); pass only one."
                )
            size = picked
        return max(1, size)

    def accumulation_dtype(self, dtype: torch.dtype) -> torch.dtype:
        """The dtype the chunks compute in for input of `dtype`."""
        if self.acc_dtype is not None:
            return self.acc_dtype
        return torch.float32 if dtype in (torch.float16, torch.bfloat16) else dtype


class LinearCrossEntropyLoss(_WeightedLoss):
    """The cross entropy of the logits of a bias-optional linear layer (self.linear) against target:
    F.linear_cross_entropy(input, weight viewed as (C, *out_features, in_features), target, ...). Targets are
    class indices or class probabilities, as nn.CrossEntropyLoss takes them; options (a
    LinearCrossEntropyOptions) computes the loss in chunks of the batch."""

    def __init__(
        self, in_features: int, num_classes: int, *, out_features: tuple = (), bias: bool = False, device=None,
        dtype=None, reduction: str = "mean", weight=None, ignore_index: int | None = None,
        label_smoothing: float = 0.0, options: LinearCrossEntropyOptions | None = None,
    ) -> None:  # fmt: skip
        if weight is not None and tuple(weight.shape) != (num_classes,):
            raise RuntimeError(f"expected weight shape to be {(num_classes,)}, got {tuple(weight.shape)}")
        if label_smoothing < 0 or label_smoothing > 1.0:
            raise RuntimeError(f"expected label_smoothing to be in range [0, 1], got {label_smoothing}")
        super().__init__(weight=weight, size_average=None, reduce=None, reduction=reduction)
        self.num_classes = num_classes
        self.out_features = tuple(out_features)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing
        self.options = options
        outputs = num_classes * math.prod(self.out_features)
        self.linear = nn.Linear(in_features, outputs, bias=bias, device=device, dtype=dtype)

    def forward(self, input, target):
        """F.linear_cross_entropy with the layer's weight and bias in their logical shapes."""
        shape = (self.num_classes, *self.out_features)
        bias = None if self.linear.bias is None else self.linear.bias.reshape(shape)
        return F.linear_cross_entropy(
            input, self.linear.weight.reshape(*shape, self.linear.in_features), target, linear_bias=bias,
            weight=self.weight, reduction=self.reduction, ignore_index=self.ignore_index,
            label_smoothing=self.label_smoothing, options=self.options,
        )  # fmt: skip
