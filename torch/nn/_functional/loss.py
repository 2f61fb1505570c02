"""Loss functions of torch.nn.functional, with PyTorch's reductions ('none' | 'mean' | 'sum') and checks."""

from __future__ import annotations

import math
import warnings

import torch
from torch.amp.autocast_mode import autocast_policy
from torch.autograd import _nn_formulas as _kind  # torch._pointwise_loss's kinds: one THNN/THCUNN kernel
from torch.nn._functional.activation import logsigmoid
from torch.nn._functional.distance import pairwise_distance

__all__ = [
    "binary_cross_entropy", "binary_cross_entropy_with_logits", "cosine_embedding_loss", "cross_entropy", "ctc_loss",
    "gaussian_nll_loss", "hinge_embedding_loss", "huber_loss", "kl_div", "l1_loss", "margin_ranking_loss",
    "mse_loss", "multi_margin_loss", "multilabel_margin_loss", "multilabel_soft_margin_loss", "nll_loss",
    "poisson_nll_loss", "smooth_l1_loss", "soft_margin_loss", "triplet_margin_loss",
    "triplet_margin_with_distance_loss",
]  # fmt: skip


def _legacy_reduction(size_average, reduce, reduction: str) -> str:
    """PyTorch's mapping of the deprecated size_average/reduce flags onto `reduction`."""
    if size_average is None and reduce is None:
        return reduction
    warnings.warn(
        "size_average and reduce args will be deprecated, please use reduction='"
        + ("none" if reduce is False else ("mean" if size_average is not False else "sum"))
        + "' instead.",
        stacklevel=3,
    )
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if not reduce:
        return "none"
    return "mean" if size_average else "sum"


def _reduce(loss, reduction: str):
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _check_reduction(reduction: str) -> None:
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")


def _warn_size(input, target) -> None:
    if target.shape != input.shape:
        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
            "This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.",
            stacklevel=3,
        )


def _pointwise(kind: int, input, target, reduction: str, p: float = 0.0, weight=None):
    """An elementwise loss on its kernel, reduced there, or weighted first (then reduced here)."""
    if weight is None:
        return torch._pointwise_loss(input, target, kind, p, _REDUCTIONS[reduction])
    return _reduce(torch._pointwise_loss(input, target, kind, p, 0) * weight, reduction)


@autocast_policy(cpu="fp32", cuda="fp32")
def l1_loss(input, target, size_average=None, reduce=None, reduction: str = "mean", weight=None):
    """|input - target|, reduced."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    _warn_size(input, target)
    if input.is_complex() or target.is_complex():  # the kernel is real: |input - target| of the complex difference
        diff = (input - target).abs()
        return _reduce(diff if weight is None else diff * weight, reduction)
    return _pointwise(_kind.L1, input, target, reduction, weight=weight)


@autocast_policy(cpu="fp32", cuda="fp32")
def mse_loss(input, target, size_average=None, reduce=None, reduction: str = "mean", weight=None):
    """(input - target)^2, reduced."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    _warn_size(input, target)
    return _pointwise(_kind.MSE, input, target, reduction, weight=weight)


@autocast_policy(cpu="fp32", cuda="fp32")
def huber_loss(input, target, reduction: str = "mean", delta: float = 1.0, weight=None):
    """0.5 d^2 where |d| < delta, else delta (|d| - 0.5 delta)."""
    _check_reduction(reduction)
    _warn_size(input, target)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    return _pointwise(_kind.HUBER, input, target, reduction, float(delta), weight)


@autocast_policy(cpu="fp32", cuda="fp32")
def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction: str = "mean", beta: float = 1.0):
    """0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta (plain L1 for beta = 0)."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    _warn_size(input, target)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    return _pointwise(_kind.SMOOTH_L1, input, target, reduction, float(beta))


_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}  # the kernels' reduction codes (PyTorch's Reduction enum)


@autocast_policy(cpu="fp32", cuda="fp32")
def nll_loss(
    input, target, weight=None, size_average=None, ignore_index: int = -100, reduce=None, reduction: str = "mean"
):
    """-input[n, target[n]] (weighted), averaged over the weights of the non-ignored targets for 'mean'.
    input (N, C) or (N, C, d1, ...) or (C,); target (N) or (N, d1, ...) or ()."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if input.dim() < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.dim()})")
    if target.dtype not in (torch.int64, torch.uint8):
        raise RuntimeError(f"expected scalar type Long but found {target.type().split('.')[-1][: -len('Tensor')]}")
    if input.dim() == 1:
        if target.dim() > 1:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        input, target = input.unsqueeze(0), target.reshape(1)
        unbatched = True
    else:
        unbatched = False
        if input.shape[0] != target.shape[0]:
            raise ValueError(
                f"Expected input batch_size ({input.shape[0]}) to match target batch_size ({target.shape[0]})."
            )
        if input.dim() == 2 and target.dim() != 1:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        if input.dim() > 2 and list(target.shape) != [input.shape[0]] + list(input.shape[2:]):
            raise RuntimeError(
                f"Expected target size {[input.shape[0]] + list(input.shape[2:])}, got {list(target.shape)}"
            )
    c = input.shape[1]
    if weight is not None and weight.numel() != c:
        raise RuntimeError(
            f"weight tensor should be defined either for all {c} classes or no classes but got weight tensor of "
            f"shape: {list(weight.shape)}"
        )
    # the THNN/THCUNN kernel on [N, C] rows (N-d input: the class dim moved last); it raises on a target
    # out of range, on both devices
    rows = input if input.dim() == 2 else input.movedim(1, -1).reshape(-1, c)
    out, _ = torch._nll_loss_forward(rows, target.reshape(-1), weight, _REDUCTIONS[reduction], ignore_index)
    if reduction == "none":
        out = out.reshape(target.shape)
        return out.squeeze(0) if unbatched else out
    return out


@autocast_policy(cpu="fp32", cuda="fp32")
def cross_entropy(
    input, target, weight=None, size_average=None, ignore_index: int = -100, reduce=None, reduction: str = "mean",
    label_smoothing: float = 0.0,
):  # fmt: skip
    """nll_loss(log_softmax(input, 1), target), with class-probability targets and label smoothing."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    class_dim = 0 if input.dim() == 1 else 1
    logp = torch.log_softmax(input, class_dim)
    c = input.shape[class_dim]
    wshape = [c] + [1] * (input.dim() - class_dim - 1)
    if target.is_floating_point():  # class probabilities
        if target.shape != input.shape:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        if label_smoothing > 0:
            target = target * (1 - label_smoothing) + label_smoothing / c
        terms = logp * target
        if weight is not None:
            terms = terms * weight.reshape(wshape)
        loss = -terms.sum(class_dim)
        if reduction == "mean":
            return loss.sum() / (input.numel() // c) if input.dim() > 1 else loss
        return _reduce(loss, reduction)
    nll = nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)
    if label_smoothing == 0:
        return nll
    valid = target != ignore_index
    smooth_terms = logp * weight.reshape(wshape) if weight is not None else logp
    smooth = -smooth_terms.sum(class_dim)
    smooth = torch.where(valid, smooth, 0.0)
    if reduction == "none":
        smooth_red = smooth
    elif reduction == "sum":
        smooth_red = smooth.sum()
    else:
        if weight is not None:
            safe = torch.where(valid, target, 0)
            denom = torch.where(valid, weight.index_select(0, safe.reshape(-1)).reshape(safe.shape), 0.0).sum()
        else:
            denom = valid.sum()
        smooth_red = smooth.sum() / denom
    return (1 - label_smoothing) * nll + label_smoothing / c * smooth_red


@autocast_policy(cpu="fp32", cuda="banned")
def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction: str = "mean"):
    """-(t log x + (1 - t) log(1 - x)) with the logs clamped at -100, weighted, reduced."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if target.shape != input.shape:
        raise ValueError(
            f"Using a target size ({target.shape}) that is different to the input size ({input.shape}) is "
            "deprecated. Please ensure they have the same size."
        )
    # the values are checked in upstream's kernel, after its float-only dispatch (which _pointwise makes)
    if input.numel() and input.dtype.is_floating_point and (bool((input < 0).any()) or bool((input > 1).any())):
        raise RuntimeError("all elements of input should be between 0 and 1")
    return _pointwise(_kind.BCE, input, target, reduction, weight=weight)


@autocast_policy(cpu="fp32", cuda="fp32")
def binary_cross_entropy_with_logits(
    input, target, weight=None, size_average=None, reduce=None, reduction: str = "mean", pos_weight=None
):
    """Sigmoid + binary cross entropy, computed stably; pos_weight weighs the positive term."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if target.shape != input.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    if pos_weight is None:
        return _pointwise(_kind.BCE_LOGITS, input, target, reduction, weight=weight)
    # log(1 + exp(-x)) computed stably, = log_sigmoid(-x) negated
    log_sig_neg = torch.clamp(-input, min=0) + torch.log1p(torch.exp(-torch.abs(input)))  # -log(sigmoid(x))
    loss = (1 - target) * input + (1 + (pos_weight - 1) * target) * log_sig_neg
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


@autocast_policy(cpu="fp32", cuda="fp32")
def kl_div(input, target, size_average=None, reduce=None, reduction: str = "mean", log_target: bool = False):
    """target * (log target - input) pointwise (input is log-probabilities); 'batchmean' divides by batch size."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce, reduction)
    elif reduction == "mean":
        warnings.warn(
            "reduction: 'mean' divides the total loss by both the batch size and the support size."
            "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
            "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
            stacklevel=2,
        )
    kind = _kind.KL_DIV_LOG_TARGET if log_target else _kind.KL_DIV
    if reduction == "batchmean":
        total = torch._pointwise_loss(input, target, kind, 0.0, _REDUCTIONS["sum"])
        return total / input.shape[0] if input.dim() != 0 else total
    _check_reduction(reduction)
    return _pointwise(kind, input, target, reduction)


@autocast_policy(cpu="fp32", cuda="fp32")
def poisson_nll_loss(
    input, target, log_input: bool = True, full: bool = False, size_average=None, eps: float = 1e-8, reduce=None,
    reduction: str = "mean",
):  # fmt: skip
    """Negative log likelihood of a Poisson target (with Stirling's term when `full`)."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if log_input:
        loss = torch.exp(input) - target * input
    else:
        loss = input - target * torch.log(input + eps)
    if full:
        stirling = (
            target * torch.log(torch.where(target > 1, target, 1.0))
            - target
            + 0.5 * torch.log(2 * math.pi * torch.where(target > 1, target, 1.0))
        )
        loss = loss + torch.where(target > 1, stirling, 0.0)
    return _reduce(loss, reduction)


def gaussian_nll_loss(input, target, var, full: bool = False, eps: float = 1e-6, reduction: str = "mean"):
    """0.5 (log max(var, eps) + (input - target)^2 / max(var, eps)) (+ 0.5 log 2 pi when `full`)."""
    if isinstance(var, float):
        var = torch.full_like(input, var)
    if var.shape != input.shape:
        if input.shape[:-1] == var.shape:
            var = var.unsqueeze(-1)
        elif input.shape[:-1] == var.shape[:-1] and var.shape[-1] == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    _check_reduction(reduction)
    if bool((var < 0).any()):
        raise ValueError("var has negative entry/entries")
    var = var.clone()
    with torch.no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (torch.log(var) + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


@autocast_policy(cpu="fp32", cuda="fp32")
def soft_margin_loss(input, target, size_average=None, reduce=None, reduction: str = "mean"):
    """log(1 + exp(-target * input)), reduced: upstream's formula as written, in the input's dtype (exp overflows
    to inf where -target * input passes log of the dtype's largest value, 11.09 in float16)."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    return _reduce(torch.log1p(torch.exp(-target * input)), reduction)


@autocast_policy(cpu="fp32", cuda="fp32")
def margin_ranking_loss(input1, input2, target, margin: float = 0, size_average=None, reduce=None, reduction="mean"):
    """max(0, -target * (input1 - input2) + margin)."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(
            f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {input1.shape}, input2: {input2.shape}, target: {target.shape} "
        )
    # margin is a double (upstream's): integer inputs give a float loss
    return _reduce(torch.clamp(-target * (input1 - input2) + float(margin), min=0), reduction)


@autocast_policy(cpu="fp32", cuda="fp32")
def hinge_embedding_loss(input, target, margin: float = 1.0, size_average=None, reduce=None, reduction="mean"):
    """input where target == 1, max(0, margin - input) where target == -1."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    margin_term = torch.where(target != 1, torch.clamp(margin - input, min=0), 0.0)
    self_term = torch.where(target != -1, input, 0.0)
    return _reduce(margin_term + self_term, reduction)


@autocast_policy(cpu="fp32", cuda="fp32")
def cosine_embedding_loss(input1, input2, target, margin: float = 0, size_average=None, reduce=None, reduction="mean"):
    """1 - cos(x1, x2) where target == 1, max(0, cos(x1, x2) - margin) where target == -1."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    eps = 1e-12
    prod = (input1 * input2).sum(-1)
    mag1 = (input1 * input1).sum(-1) + eps
    mag2 = (input2 * input2).sum(-1) + eps
    cos = prod / torch.sqrt(mag1 * mag2)
    loss = torch.where(target == 1, 1 - cos, torch.where(target == -1, torch.clamp(cos - margin, min=0), 0.0))
    return _reduce(loss, reduction)


@autocast_policy(cpu="fp32", cuda="fp32")
def multi_margin_loss(
    input, target, p: int = 1, margin: float = 1.0, weight=None, size_average=None, reduce=None, reduction="mean"
):
    """sum_{i != y} max(0, margin - x[y] + x[i])^p / C (weighted by weight[y])."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    unbatched = input.dim() <= 1
    x = input.reshape(1, -1) if unbatched else input
    t = target.reshape(-1)
    c = x.shape[1]
    xy = torch.gather(x, 1, t.unsqueeze(1))
    z = margin - xy + x
    terms = torch.where(z > 0, z, 0.0)  # a term counts where z > 0 (a NaN z adds nothing, as upstream's kernel)
    if p == 2:
        terms = terms * terms
    if weight is not None:
        terms = terms * weight.index_select(0, t).unsqueeze(1)
    not_target = torch.arange(c, device=x.device).unsqueeze(0) != t.unsqueeze(1)
    loss = torch.where(not_target, terms, 0.0).sum(1) / c
    if unbatched:
        loss = loss.reshape(target.shape) if target.dim() else loss.squeeze(0)
    return _reduce(loss, reduction)


@autocast_policy(cpu="fp32", cuda="fp32")
def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """sum over target classes j (the target's prefix before -1) and non-target i of max(0, 1 - (x[j] - x[i])) / C."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    unbatched = input.dim() <= 1
    x = input.reshape(1, -1) if unbatched else input
    t = target.reshape(1, -1) if unbatched else target
    n, c = x.shape
    losses = []
    for b in range(n):
        labels = []
        for v in t[b].tolist():
            if v < 0:
                break
            labels.append(v)
        is_target = torch.zeros(c, dtype=torch.bool, device=x.device)
        if labels:
            is_target[torch.tensor(labels, device=x.device)] = True
        total = x[b].sum() * 0
        for j in labels:
            hinge = torch.clamp(1 - (x[b, j] - x[b]), min=0)
            total = total + torch.where(is_target, 0.0, hinge).sum()
        losses.append(total / c)
    loss = torch.stack(losses)
    if unbatched:
        loss = loss.squeeze(0)
    return _reduce(loss, reduction)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """-mean_c (y log sigmoid(x) + (1 - y) log sigmoid(-x)) per sample."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    # upstream's form: log sigmoid(-x) taken directly (log sigmoid(x) - x is -inf + inf at x = -inf, and
    # cancels to 0 for large negative x)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    loss = loss.sum(dim=input.dim() - 1) / input.shape[-1]
    return _reduce(loss, reduction)


@autocast_policy(cpu="fp32", cuda="fp32")
def triplet_margin_loss(
    anchor, positive, negative, margin: float = 1.0, p: float = 2, eps: float = 1e-6, swap: bool = False,
    size_average=None, reduce=None, reduction: str = "mean",
):  # fmt: skip
    """max(d(a, p) - d(a, n) + margin, 0) with pairwise_distance d (and the distance swap)."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    a_dim, p_dim, n_dim = anchor.dim(), positive.dim(), negative.dim()
    if not (a_dim == p_dim == n_dim):
        raise RuntimeError(
            f"The anchor, positive, and negative tensors are expected to have the same number of dimensions, but "
            f"got: anchor {a_dim}D, positive {p_dim}D, and negative {n_dim}D inputs"
        )
    d_pos = pairwise_distance(anchor, positive, p, eps)
    d_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_neg = torch.minimum(d_neg, pairwise_distance(positive, negative, p, eps))
    return _reduce(torch.clamp(margin + d_pos - d_neg, min=0), reduction)


def triplet_margin_with_distance_loss(
    anchor, positive, negative, *, distance_function=None, margin: float = 1.0, swap: bool = False,
    reduction: str = "mean",
):  # fmt: skip
    """triplet_margin_loss with a custom distance (pairwise_distance by default)."""
    _check_reduction(reduction)
    if margin <= 0:
        raise ValueError(f"TripletMarginWithDistanceLoss: expected margin to be greater than 0, got {margin} instead")
    dist = distance_function if distance_function is not None else pairwise_distance
    d_pos = dist(anchor, positive)
    d_neg = dist(anchor, negative)
    if swap:
        d_neg = torch.minimum(d_neg, dist(positive, negative))
    return _reduce(torch.clamp(margin + d_pos - d_neg, min=0), reduction)


def _int_list(v, name: str) -> list[int]:
    if isinstance(v, int):
        return [v]
    if isinstance(v, torch.Tensor) and v.dim() == 0:
        return [int(v)]
    if isinstance(v, torch.Tensor):
        if v.dim() != 1:
            raise RuntimeError(f"{name} must be a 1-D tensor or a list of ints, got {v.dim()}-D")
        return [int(x) for x in v.tolist()]
    return [int(x) for x in v]


@autocast_policy(cpu="fp32")
def ctc_loss(
    log_probs, targets, input_lengths, target_lengths, blank: int = 0, reduction: str = "mean",
    zero_infinity: bool = False,
):  # fmt: skip
    """The Connectionist Temporal Classification loss of log_probs (T, N, C) (or (T, C) unbatched) against
    targets (N, S) padded or 1-D concatenated, on the THNN/THCUNN kernel; 'mean' divides each sample's loss by its
    target length before averaging, zero_infinity zeroes infinite losses and their gradients."""
    _check_reduction(reduction)
    batched = log_probs.dim() == 3
    if not batched:
        if log_probs.dim() != 2:
            raise RuntimeError(f"ctc_loss: expected log_probs of 2 or 3 dimensions, got {log_probs.dim()}")
        log_probs = log_probs.unsqueeze(1)
        targets = targets.unsqueeze(0) if targets.dim() == 1 else targets
    il, tl = _int_list(input_lengths, "input_lengths"), _int_list(target_lengths, "target_lengths")
    nll = torch._ctc_loss(log_probs, targets, il, tl, blank, zero_infinity)[0]
    if zero_infinity:
        nll = torch.where(nll == math.inf, torch.zeros_like(nll), nll)
    if reduction == "mean":
        lengths = torch.tensor(tl, dtype=nll.dtype, device=nll.device).clamp(min=1)
        return (nll / lengths).mean()
    if reduction == "sum":
        return nll.sum()
    return nll if batched else nll.squeeze(0)
