"""F.linear_cross_entropy (upstream 2.13): cross_entropy(linear(input, linear_weight, linear_bias), target).

Without options it is exactly that composition. With a LinearCrossEntropyOptions (class-index int64 targets,
no label smoothing, no K-dimensional classes) the batch is processed in chunks: each chunk's logits are made
in the accumulation dtype, reduced to a log-sum-exp and the target's logit, and dropped; the backward makes
them again, chunk by chunk, for softmax - onehot. Peak memory is one chunk's (rows, classes) logits instead
of the whole batch's, the point of the op for large vocabularies.
"""

from __future__ import annotations

import math
import warnings

import torch
from torch.autograd import Function
from torch.nn._functional.linear import linear
from torch.nn._functional.loss import cross_entropy

__all__ = ["linear_cross_entropy"]


def linear_cross_entropy(
    input, linear_weight, target, *, linear_bias=None, weight=None, reduction: str = "mean",
    ignore_index: int | None = None, label_smoothing: float = 0.0, options=None,
):  # fmt: skip
    """The cross entropy between linear(input, linear_weight, linear_bias) and target.

    input is (in_features,) or (N, in_features); linear_weight is (C, *out_features, in_features), its
    leading dim the classes and out_features the K dims of a K-dimensional loss (whose target is then
    (N, *out_features)); linear_bias is (C, *out_features). target holds class indices, or class
    probabilities shaped as the logits. weight, reduction, ignore_index (None: -100; not allowed with
    probabilities) and label_smoothing are cross_entropy's. options (nn.LinearCrossEntropyOptions) computes
    it in chunks of the batch without holding all logits; where the chunked path does not apply it is
    ignored with upstream's warning.
    """
    if input.dim() < 1 or input.dim() > 2:
        raise RuntimeError(f"expected input with dimensionality 1 or 2, got {input.dim()}")
    if linear_weight.dim() < 2:
        raise RuntimeError(f"expected linear_weight with dimensionality at least 2, got {linear_weight.dim()}")
    batches, in_features = tuple(input.shape[:-1]), input.shape[-1]
    if in_features != linear_weight.shape[-1]:
        raise RuntimeError(
            "expected equal input and linear_weight last dimensions (in_features), "
            f"got {input.shape[-1]} and {linear_weight.shape[-1]}, respectively"
        )
    num_classes, out_features = linear_weight.shape[0], tuple(linear_weight.shape[1:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != (num_classes, *out_features):
        raise RuntimeError(f"expected linear_bias shape {(num_classes, *out_features)}, got {tuple(linear_bias.shape)}")
    if out_features and not batches:
        raise RuntimeError(
            f"K-dimensional loss defined by linear_weight shape {tuple(linear_weight.shape)} requires batched input, "
            f"(N, {in_features}), got unbatched input with shape {tuple(input.shape)}"
        )
    logits_shape = (*batches, num_classes, *out_features)
    if tuple(target.shape) == logits_shape and ignore_index is not None:
        raise RuntimeError("ignore_index cannot be specified when target contains probabilities")
    ignore_index = -100 if ignore_index is None else ignore_index
    if options is not None:
        if (
            out_features
            or reduction not in ("mean", "sum", "none")
            or label_smoothing != 0.0
            or target.dtype != torch.int64
        ):
            warnings.warn(
                "linear_cross_entropy: ``options`` ignored; chunked path needs reduction in {'mean','sum','none'}, "
                f"label_smoothing == 0, target.dtype == int64, out_features == (). Got reduction={reduction!r}, "
                f"label_smoothing={label_smoothing}, target.dtype={target.dtype}, out_features={out_features}.",
                stacklevel=2,
            )
        else:
            return _chunked(input, linear_weight, target, linear_bias, weight, reduction, ignore_index, options)
    flat_weight = linear_weight.reshape(math.prod(linear_weight.shape[:-1]), in_features)
    flat_bias = None if linear_bias is None else linear_bias.reshape(-1)
    logits = linear(input, flat_weight, flat_bias).reshape(logits_shape)
    return cross_entropy(
        logits, target, weight=weight, reduction=reduction, ignore_index=ignore_index, label_smoothing=label_smoothing
    )


def _chunked(input, W, target, bias, weight, reduction, ignore_index, options):
    """The chunked path: checks cross_entropy would make, then _ChunkedLinearCrossEntropy."""
    batched = input.dim() == 2
    x = input if batched else input.unsqueeze(0)
    t = target if batched else target.reshape(1)
    if t.shape != x.shape[:1]:
        raise ValueError(f"Expected input batch_size ({x.shape[0]}) to match target batch_size ({t.shape[0]}).")
    valid = t != ignore_index
    if bool(((t[valid] < 0) | (t[valid] >= W.shape[0])).any()):
        raise IndexError(f"Target {int(t[valid].max())} is out of bounds.")  # cross_entropy's nll_loss message
    rows = options.rows_per_chunk(x.shape[0], x.shape[1], W.shape[0])
    acc = options.accumulation_dtype(x.dtype)
    loss = _ChunkedLinearCrossEntropy.apply(x, W, bias, t, weight, reduction, ignore_index, rows, acc)
    return loss if batched or reduction != "none" else loss.squeeze(0)


def _row_weights(target: torch.Tensor, weight, ignore_index: int, dtype) -> torch.Tensor:
    """Each row's weight in the loss: the class weight of its target (1 without weights), 0 where ignored."""
    keep = target != ignore_index
    safe = torch.where(keep, target, torch.zeros_like(target))
    w = torch.ones(target.shape, dtype=dtype, device=target.device) if weight is None else weight.to(dtype)[safe]
    return w * keep.to(dtype)


class _ChunkedLinearCrossEntropy(Function):
    """The loss of linear + cross entropy, `rows` batch rows at a time, logits made again in the backward."""

    @staticmethod
    def forward(ctx, x, W, bias, target, weight, reduction, ignore_index, rows, acc):
        n = x.shape[0]
        Wa = W.to(acc)
        ba = None if bias is None else bias.to(acc)
        row_w = _row_weights(target, weight, ignore_index, acc)
        losses = torch.empty(n, dtype=acc, device=x.device)
        for start in range(0, n, rows):
            stop = min(start + rows, n)
            logits = linear(x[start:stop].to(acc), Wa, ba)
            t = torch.where(row_w[start:stop] > 0, target[start:stop], torch.zeros_like(target[start:stop]))
            picked = logits.gather(1, t.unsqueeze(1)).squeeze(1)
            losses[start:stop] = (torch.logsumexp(logits, 1) - picked) * row_w[start:stop]
        ctx.save_for_backward(x, W, bias, target, row_w)
        ctx.reduction, ctx.rows, ctx.acc = reduction, rows, acc
        if reduction == "none":
            return losses.to(x.dtype)
        total = losses.sum()
        ctx.denominator = row_w.sum() if reduction == "mean" else None
        return (total / ctx.denominator if reduction == "mean" else total).to(x.dtype)

    @staticmethod
    def backward(ctx, grad):
        x, W, bias, target, row_w = ctx.saved_tensors
        acc, rows = ctx.acc, ctx.rows
        scale = row_w * grad.to(acc)  # each row's dloss / dloss_row, times its weight
        if ctx.reduction == "mean":
            scale = scale / ctx.denominator
        Wa = W.to(acc)
        ba = None if bias is None else bias.to(acc)
        need_x, need_W, need_b = ctx.needs_input_grad[0], ctx.needs_input_grad[1], ctx.needs_input_grad[2]
        gx = torch.empty(x.shape, dtype=acc, device=x.device) if need_x else None
        gW = torch.zeros(W.shape, dtype=acc, device=W.device) if need_W else None
        gb = torch.zeros(W.shape[0], dtype=acc, device=W.device) if need_b else None
        for start in range(0, x.shape[0], rows):
            stop = min(start + rows, x.shape[0])
            xa = x[start:stop].to(acc)
            g = torch.softmax(linear(xa, Wa, ba), 1)  # softmax - onehot(target), scaled per row
            t = target[start:stop]
            kept = row_w[start:stop] > 0
            g[kept.nonzero().squeeze(1), t[kept]] -= 1
            g = g * scale[start:stop].unsqueeze(1)
            if need_x:
                gx[start:stop] = g @ Wa
            if need_W:
                gW += g.mT @ xa
            if need_b:
                gb += g.sum(0)
        cast = lambda t, like: None if t is None else t.to(like.dtype)  # noqa: E731
        return cast(gx, x), cast(gW, W), None if gb is None else gb.to(bias.dtype), None, None, None, None, None, None
