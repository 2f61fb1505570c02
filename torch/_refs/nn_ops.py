"""The NN ops that PyTorch also has in the torch namespace (torch.conv2d, torch.layer_norm, torch.dropout,
torch.pixel_shuffle, ...), as its torch.nn.functional ones (looked up when called: torch.nn is imported after
this module registers). Only those whose torch signature is functional's, or maps onto it as written here.
torch.embedding_bag is the other way round: it returns the kernel's bookkeeping too, and
torch.nn.functional.embedding_bag is its output."""

from __future__ import annotations

import torch
from torch._registry import register

# torch.<name> takes torch.nn.functional.<name>'s arguments
_SAME = (
    "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "avg_pool1d",
    "max_pool1d", "max_pool2d", "max_pool3d", "adaptive_avg_pool1d", "celu", "selu", "prelu", "hardshrink",
    "pixel_shuffle", "pixel_unshuffle", "pairwise_distance", "cosine_similarity", "cdist", "pdist", "bilinear",
    "channel_shuffle",
)  # fmt: skip


def _functional(name: str):
    def fn(*args, **kwargs):
        return getattr(torch.nn.functional, name)(*args, **kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"torch.nn.functional.{name} (the same arguments)."
    return fn


for _name in _SAME:
    register(_functional(_name), name=_name)


def _in_place(name: str):
    def fn(input, *args, **kwargs):
        return getattr(torch.nn.functional, name)(input, *args, **kwargs, inplace=True)

    fn.__name__ = fn.__qualname__ = name + "_"
    fn.__doc__ = f"torch.nn.functional.{name} in place (inplace=True)."
    return fn


for _name in ("celu", "selu"):
    register(_in_place(_name), name=_name + "_")


@register
def rrelu(input, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False, generator=None):
    """torch.nn.functional.rrelu, its slopes drawn from `generator` if given (rrelu_ of a copy then)."""
    if generator is None:
        return torch.nn.functional.rrelu(input, lower, upper, training)
    return torch.nn.functional.rrelu_(input.clone(), lower, upper, training, generator)


@register
def rrelu_(input, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False, generator=None):
    """rrelu in place, its slopes drawn from `generator` if given."""
    return torch.nn.functional.rrelu_(input, lower, upper, training, generator)


@register
def dropout(input, p: float = 0.5, train: bool = True):
    """Zeroes elements with probability p and scales the rest by 1 / (1 - p), when train (torch.dropout's
    argument order: functional's `training` is `train` here)."""
    return torch.nn.functional.dropout(input, p, train)


@register
def alpha_dropout(input, p: float = 0.5, train: bool = True):
    """SELU-preserving dropout (torch.nn.functional.alpha_dropout), when train."""
    return torch.nn.functional.alpha_dropout(input, p, train)


@register
def feature_alpha_dropout(input, p: float = 0.5, train: bool = True):
    """alpha_dropout of whole channels (torch.nn.functional.feature_alpha_dropout), when train."""
    return torch.nn.functional.feature_alpha_dropout(input, p, train)


@register
def layer_norm(input, normalized_shape, weight=None, bias=None, eps: float = 1e-5, cudnn_enable: bool = True):
    """torch.nn.functional.layer_norm (cudnn_enable is accepted and has no effect)."""
    return torch.nn.functional.layer_norm(input, normalized_shape, weight, bias, eps)


@register
def group_norm(input, num_groups: int, weight=None, bias=None, eps: float = 1e-5, cudnn_enabled: bool = True):
    """torch.nn.functional.group_norm (cudnn_enabled is accepted and has no effect)."""
    return torch.nn.functional.group_norm(input, num_groups, weight, bias, eps)


register(lambda self, lambd=0.5: torch.nn.functional.hardshrink(self, lambd), name="hardshrink", function=False,
         method=True)  # fmt: skip
register(lambda self, weight: torch.nn.functional.prelu(self, weight), name="prelu", function=False, method=True)


_REDUCTIONS = ("none", "mean", "sum")  # torch.<loss>'s reduction argument is an index into these


def _reduction(reduction) -> str:
    return reduction if isinstance(reduction, str) else _REDUCTIONS[int(reduction)]


@register
def kl_div(input, target, reduction: int = 1, *, log_target: bool = False):
    """torch.nn.functional.kl_div with PyTorch's torch-namespace reduction (0 none, 1 mean, 2 sum)."""
    return torch.nn.functional.kl_div(input, target, reduction=_reduction(reduction), log_target=log_target)


@register
def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction: int = 1):
    """torch.nn.functional.binary_cross_entropy_with_logits (reduction 0 none, 1 mean, 2 sum)."""
    return torch.nn.functional.binary_cross_entropy_with_logits(
        input, target, weight, reduction=_reduction(reduction), pos_weight=pos_weight
    )


@register
def cosine_embedding_loss(input1, input2, target, margin: float = 0.0, reduction: int = 1):
    """torch.nn.functional.cosine_embedding_loss (reduction 0 none, 1 mean, 2 sum)."""
    return torch.nn.functional.cosine_embedding_loss(input1, input2, target, margin, reduction=_reduction(reduction))


@register
def hinge_embedding_loss(input, target, margin: float = 1.0, reduction: int = 1):
    """torch.nn.functional.hinge_embedding_loss (reduction 0 none, 1 mean, 2 sum)."""
    return torch.nn.functional.hinge_embedding_loss(input, target, margin, reduction=_reduction(reduction))


@register
def margin_ranking_loss(input1, input2, target, margin: float = 0.0, reduction: int = 1):
    """torch.nn.functional.margin_ranking_loss (reduction 0 none, 1 mean, 2 sum)."""
    return torch.nn.functional.margin_ranking_loss(input1, input2, target, margin, reduction=_reduction(reduction))


@register
def poisson_nll_loss(input, target, log_input: bool, full: bool, eps: float, reduction: int):
    """torch.nn.functional.poisson_nll_loss, every argument given (reduction 0 none, 1 mean, 2 sum)."""
    return torch.nn.functional.poisson_nll_loss(
        input, target, log_input, full, eps=eps, reduction=_reduction(reduction)
    )


@register
def triplet_margin_loss(anchor, positive, negative, margin: float = 1.0, p: float = 2.0, eps: float = 1e-6,
                        swap: bool = False, reduction: int = 1):  # fmt: skip
    """torch.nn.functional.triplet_margin_loss (reduction 0 none, 1 mean, 2 sum)."""
    return torch.nn.functional.triplet_margin_loss(
        anchor, positive, negative, margin, p, eps, swap, reduction=_reduction(reduction)
    )


@register
def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank: int = 0, reduction: int = 1,
             zero_infinity: bool = False):  # fmt: skip
    """torch.nn.functional.ctc_loss (reduction 0 none, 1 mean, 2 sum)."""
    return torch.nn.functional.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank,
                                        _reduction(reduction), zero_infinity)  # fmt: skip


@register
def convolution(input, weight, bias, stride, padding, dilation, transposed: bool, output_padding, groups: int):
    """The convolution every conv*d / conv_transpose*d is (its spatial dims from weight's)."""
    dims = weight.dim() - 2
    f = torch.nn.functional
    if transposed:
        fn = (f.conv_transpose1d, f.conv_transpose2d, f.conv_transpose3d)[dims - 1]
        return fn(input, weight, bias, stride, padding, output_padding, groups, dilation)
    return (f.conv1d, f.conv2d, f.conv3d)[dims - 1](input, weight, bias, stride, padding, dilation, groups)


@register
def dropout_(input, p: float = 0.5, train: bool = True):
    """dropout in place, when train."""
    return torch.nn.functional.dropout(input, p, train, inplace=True)


@register
def alpha_dropout_(input, p: float = 0.5, train: bool = True):
    """alpha_dropout in place, when train."""
    return torch.nn.functional.alpha_dropout(input, p, train, inplace=True)


@register
def threshold_(input, threshold: float, value: float):
    """threshold in place: elements not above threshold become value."""
    return torch.nn.functional.threshold(input, threshold, value, inplace=True)


def _check_bags(weight, indices, offsets, mode: int, per_sample_weights) -> None:
    """PyTorch's checks of embedding_bag's arguments: index dtypes, mode, offsets (1-D, from 0, non-decreasing,
    none past the input's end) and the per-sample weights (mode sum only, one per index, weight's dtype)."""
    for name, t in (("indices", indices), ("offsets", offsets)):
        if t.dtype not in (torch.int64, torch.int32):
            raise RuntimeError(
                f"Expected tensor for argument #1 '{name}' to have one of the following scalar types: Long, Int; "
                f"but got {t.type()} instead (while checking arguments for embedding_bag)"
            )
    if mode not in (0, 1, 2):
        raise RuntimeError("`mode` must be sum, mean, or max.")
    if indices.dim() != 1 or offsets.dim() != 1:
        raise RuntimeError(
            f"embedding_bag: expected 1-D indices and offsets, got {indices.dim()}-D and {offsets.dim()}-D"
        )
    if offsets.numel():
        first, last, decreasing = torch.stack(
            [offsets[0], offsets[-1], (offsets[1:] < offsets[:-1]).any().to(offsets.dtype)]
        ).tolist()  # one transfer to the host for the three checks
        if first != 0:
            raise RuntimeError(
                "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from position 0. "
                f"However, got {first}"
            )
        if last > indices.numel():
            raise RuntimeError(
                f"offsets[-1] can not be greater than input's length {indices.numel()} but got offsets[-1] of {last}"
            )
        if decreasing:
            raise RuntimeError("embedding_bag: offsets have to be non-decreasing")
    if per_sample_weights is not None:
        if mode != 0:
            raise RuntimeError("embedding_bag: per_sample_weights only supported with mode='sum'")
        if per_sample_weights.dtype != weight.dtype:
            raise RuntimeError(
                "Expected tensor for argument #1 'weight' to have the same type as tensor for argument #1 "
                f"'per_sample_weights'; but type {weight.type()} does not equal {per_sample_weights.type()} "
                "(while checking arguments for embedding_bag)"
            )
        if per_sample_weights.dim() != 1 or per_sample_weights.numel() != indices.numel():
            raise RuntimeError(
                f"embedding_bag: expected per_sample_weights to be 1-D with one weight per index ({indices.numel()}), "
                f"got shape {list(per_sample_weights.shape)}"
            )


@register
def embedding_bag(weight, indices, offsets, scale_grad_by_freq: bool = False, mode: int = 0, sparse: bool = False,
                  per_sample_weights=None, include_last_offset: bool = False, padding_idx=None):  # fmt: skip
    """Sums (mode 0), means (1) or maxes (2) of bags of weight's rows: the bags are indices (1-D) cut at offsets
    (one bag per offset, or one fewer with include_last_offset); per_sample_weights scale each row (sum only);
    rows at padding_idx (negative counts from the end) are left out. torch.nn.functional.embedding_bag is this.
    `sparse` is accepted and ignored: the gradient is dense. Returns PyTorch's (output (B, D), offset2bag (N,)
    each index's bag, bag_size (B,) each bag's count of non-padding indices (zeros for sum), max_indices (B, D)
    the row each max came from for max (0 in an empty bag), bag_size for mean, zeros for sum), the last three in
    the index dtype."""
    _check_bags(weight, indices, offsets, mode, per_sample_weights)
    if padding_idx is not None:
        rows = weight.size(0)
        if not -rows <= padding_idx < rows:
            raise RuntimeError(
                f"padding_idx must be within the number of embeddings, -{rows} through {rows - 1}, but got "
                f"{padding_idx}"
            )
        padding_idx %= rows
    output, offset2bag, bag_size, max_indices = torch._embedding_bag(
        weight, indices.contiguous(), offsets.contiguous(), mode, per_sample_weights, include_last_offset,
        -1 if padding_idx is None else padding_idx, scale_grad_by_freq,
    )  # fmt: skip
    index_dtype = torch.promote_types(indices.dtype, offsets.dtype)
    offset2bag, bag_size = offset2bag.to(index_dtype), bag_size.to(index_dtype)
    if mode == 0:  # PyTorch's sum keeps no counts
        bag_size = torch.zeros(output.size(0), dtype=index_dtype, device=output.device)
        max_indices = torch.zeros_like(bag_size)
    elif mode == 1:
        max_indices = bag_size.clone()
    else:  # the kernel's -1 (no row: an empty or all-padding bag) is PyTorch's 0
        max_indices = max_indices.clamp(min=0).to(index_dtype)
    return output, offset2bag, bag_size, max_indices
