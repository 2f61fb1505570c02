"""Lookup-table ops: embedding, embedding_bag, one_hot."""

from __future__ import annotations

import torch

__all__ = ["embedding", "embedding_bag", "one_hot"]


def _check_indices(input, fn: str) -> None:
    if input.dtype not in (torch.int64, torch.int32):
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; "
            f"but got {input.type()} instead (while checking arguments for {fn})"
        )


def _renorm_(weight, input, max_norm: float, norm_type: float) -> None:
    """Rescales, in place, the rows of `weight` that `input` references and whose norm exceeds max_norm."""
    with torch.no_grad():
        rows = torch.unique(input.reshape(-1))
        w = weight.index_select(0, rows)
        norms = torch.linalg.vector_norm(w, norm_type, -1)  # 16-bit floats summed in float32
        scale = torch.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
        weight[rows] = w * scale.unsqueeze(-1)


def _padding_idx(padding_idx, num_embeddings: int):
    if padding_idx is None:
        return None
    if padding_idx > 0:
        assert padding_idx < num_embeddings, "Padding_idx must be within num_embeddings"
    elif padding_idx < 0:
        assert padding_idx >= -num_embeddings, "Padding_idx must be within num_embeddings"
        padding_idx = num_embeddings + padding_idx
    return padding_idx


def embedding(
    input, weight, padding_idx=None, max_norm=None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
    sparse: bool = False,
):  # fmt: skip
    """Rows of `weight` at the indices `input` (torch.embedding, the THNN/THCUNN kernel); the row at padding_idx
    gets no gradient, and with scale_grad_by_freq each row's gradient is divided by its index's count in
    `input`. `sparse` is accepted and ignored: the gradient is dense (there is no sparse layout)."""
    _check_indices(input, "embedding")
    padding_idx = _padding_idx(padding_idx, weight.shape[0])
    if max_norm is not None:
        _renorm_(weight, input, max_norm, norm_type)
    return torch.embedding(weight, input, -1 if padding_idx is None else padding_idx, scale_grad_by_freq)


def embedding_bag(
    input, weight, offsets=None, max_norm=None, norm_type: float = 2, scale_grad_by_freq: bool = False,
    mode: str = "mean", sparse: bool = False, per_sample_weights=None, include_last_offset: bool = False,
    padding_idx=None,
):  # fmt: skip
    """Sums, means or maxes of bags of embeddings: bags are the rows of a 2D input, or the 1D input cut at
    `offsets` (torch.embedding_bag's output, after max_norm's renormalization)."""
    _check_indices(input, "embedding_bag")
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}")
    if per_sample_weights is not None and input.shape != per_sample_weights.shape:
        raise ValueError(
            f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, "
            f"then it must have the same shape as the input ({input.shape})"
        )
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError(
                "if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed "
                f"length sequences. However, found offsets of type {type(offsets)}"
            )
        offsets = torch.arange(0, input.numel(), input.shape[1], device=input.device)
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    if mode not in ("sum", "mean", "max"):
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if mode == "max" and sparse:
        raise ValueError("max mode does not support sparse weights")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(
            f"embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for mode='sum' "
            f"(got mode='{mode}'). Please open a feature request on the Pytorch GitHub."
        )
    if max_norm is not None:
        _renorm_(weight, input, max_norm, norm_type)
    padding_idx = _padding_idx(padding_idx, weight.shape[0])
    mode_code = {"sum": 0, "mean": 1, "max": 2}[mode]
    return torch.embedding_bag(
        weight, input, offsets, scale_grad_by_freq, mode_code, sparse, per_sample_weights, include_last_offset,
        padding_idx,
    )[0]  # fmt: skip


def one_hot(tensor, num_classes: int = -1):
    """(..., num_classes) int64 tensor with a 1 at each class index."""
    if tensor.dtype != torch.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if tensor.numel() and bool((tensor < 0).any()):
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        if tensor.numel() == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(tensor.max()) + 1
    elif tensor.numel() and int(tensor.max()) >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    out = torch.zeros((*tensor.shape, num_classes), dtype=torch.int64, device=tensor.device)  # contiguous
    return out.scatter_(-1, tensor.unsqueeze(-1), 1) if out.numel() else out
