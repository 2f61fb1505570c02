"""Second derivatives of the NN kernels (the double backward of THNN/THCUNN's backward ops).

The backward ops of torch.nn's kernels (`gelu_backward`, `_convolution_nd_backward`, ...) are ops
of their own, so a gradient taken with create_graph=True (a gradient penalty, a Hessian-vector
product, MAML) is differentiated through them by their entries in aten/derivatives.yaml, which call
these helpers: PyTorch's FunctionsManual formulas, in torch ops, so that each is differentiable
again (third derivatives included). The normalizations and grid_sample instead take their first
derivative in torch ops when it is recorded (`*_norm_backward`, `grid_sampler_backward`: with
create_graph=True), which autograd differentiates to any order.
"""

from __future__ import annotations

import math

import torch
from torch._C import Tensor
from torch.autograd._linalg_formulas import _grad as _output_grad

# the kinds of torch._pointwise_loss (math::PointwiseLoss), which torch.nn's losses pass
L1, MSE, HUBER, SMOOTH_L1, BCE, BCE_LOGITS, KL_DIV, KL_DIV_LOG_TARGET = range(8)


def _grad(grads, i: int, shape=None):
    """The incoming gradient of output i of a multi-output backward op, or None where none reached it (or
    where the output was not asked for: an empty placeholder, not of `shape`)."""
    g = _output_grad(grads, i)
    return None if g is None or (shape is not None and tuple(g.shape) != tuple(shape)) else g


def _zero(t: Tensor) -> Tensor:
    return torch.zeros((), dtype=t.dtype, device=t.device)


# ---- activations: d/dself of f'(self) * grad_output is grad * grad_output * f''(self) -----------------------


def gelu_double_backward(g: Tensor, self: Tensor, approximate: str) -> Tensor:
    """g * gelu''(self): phi(x) (2 - x^2) for the erf form; for the tanh form with u = k (x + c x^3),
    t = tanh(u): sech^2(u) u' + x/2 sech^2(u) (u'' - 2 t u'^2)."""
    # beyond |x| = 10 (tanh form) or 40 (erf form) the second derivative is 0 in every float type: clamped
    # there, x^3 and x^2 cannot overflow (16-bit floats: inf * 0 = NaN), nor their derivatives
    if approximate == "tanh":
        x = self.clamp(-10, 10)
        k, c = math.sqrt(2.0 / math.pi), 0.044715
        t = torch.tanh(k * (x + c * x * x * x))
        du = k * (1 + 3 * c * x * x)
        sech2 = 1 - t * t
        return g * (sech2 * du + 0.5 * x * sech2 * (6 * k * c * x - 2 * t * du * du))
    x = self.clamp(-40, 40)
    phi = torch.exp(-0.5 * x * x) * (1.0 / math.sqrt(2.0 * math.pi))
    return g * phi * (2 - x * x)


def silu_double_backward(g: Tensor, self: Tensor) -> Tensor:
    """g * silu''(self) = g s (1 - s) (2 + x (1 - 2 s)), s = sigmoid(x)."""
    s = torch.sigmoid(self)
    return g * s * (1 - s) * (2 + self * (1 - 2 * s))


def elu_double_backward(g: Tensor, self: Tensor, alpha, scale, input_scale) -> Tensor:
    """g * elu''(self): 0 where x > 0, else scale alpha input_scale^2 exp(x input_scale)."""
    # exp of the negative part only: the positive side's exp would overflow, and 0 * inf is NaN in a derivative
    neg = (
        g * (float(scale) * float(alpha) * float(input_scale) ** 2) * torch.exp(self.clamp(max=0) * float(input_scale))
    )
    return torch.where(self > 0, _zero(neg), neg)


def hardswish_double_backward(g: Tensor, self: Tensor) -> Tensor:
    """g * hardswish''(self): 1/3 on (-3, 3), else 0."""
    return torch.where((self > -3) & (self < 3), g / 3.0, _zero(g))


def softplus_double_backward(g: Tensor, self: Tensor, beta, threshold) -> Tensor:
    """g * softplus''(self): beta s (1 - s) with s = sigmoid(beta x), 0 where beta x > threshold (linear)."""
    z = self * float(beta)
    s = torch.sigmoid(z)
    return torch.where(z > float(threshold), _zero(g), g * float(beta) * s * (1 - s))


def mish_double_backward(g: Tensor, self: Tensor) -> Tensor:
    """g * mish''(self) with t = tanh(softplus(x)), s = sigmoid(x): (1 - t^2) s (2 + x (1 - s - 2 t s))."""
    s = torch.sigmoid(self)
    t = torch.tanh(torch.nn.functional.softplus(self))
    return g * (1 - t * t) * s * (2 + self * (1 - s - 2 * t * s))


def log_sigmoid_double_backward(g: Tensor, self: Tensor) -> Tensor:
    """g * log_sigmoid''(self) = -g s (1 - s), s = sigmoid(x)."""
    s = torch.sigmoid(self)
    return -g * s * (1 - s)


def prelu_double_backward(grads, grad_output: Tensor, self: Tensor, weight: Tensor, mask) -> tuple:
    """Gradients of _prelu_kernel_backward = (where(x > 0, gO, w gO), where(x > 0, 0, x gO)) for the incoming
    (ggI, ggW): wrt gO where(x > 0, ggI, w ggI + x ggW); wrt x where(x > 0, 0, gO ggW); wrt w where(x > 0, 0,
    gO ggI)."""
    ggI, ggW = _grad(grads, 0), _grad(grads, 1)
    pos = self > 0
    zero = _zero(grad_output)
    d_go = d_self = d_weight = None
    if mask[0]:
        neg = (ggI * weight if ggI is not None else zero) + (ggW * self if ggW is not None else zero)
        d_go = torch.where(pos, ggI if ggI is not None else zero, neg)
    if mask[1]:
        d_self = torch.zeros_like(self) if ggW is None else torch.where(pos, zero, grad_output * ggW)
    if mask[2]:
        d_weight = torch.zeros_like(self) if ggI is None else torch.where(pos, zero, grad_output * ggI)
    return d_go, d_self, d_weight


# ---- convolutions: the backward of a bilinear op, by the op and its backward -----------------------------


def convolution_double_backward(
    grads, grad_output, input, weight, stride, padding, dilation, groups, output_padding, mask
) -> tuple:
    """Gradients of (g_input, g_weight, g_bias) = conv's backward(gO, I, W) for the incoming (ggI, ggW, ggb).
    conv is bilinear, so with L = <ggI, g_input> + <ggW, g_weight> + <ggb, g_bias> = <conv(ggI, W) +
    conv(I, ggW) + ggb, gO>: wrt gO that sum; wrt I conv's input gradient of <conv(I, ggW), gO>; wrt W its
    weight gradient of <conv(ggI, W), gO>. output_padding None: _convolution_nd, else the transposed one."""
    ggI, ggW = _grad(grads, 0, input.shape), _grad(grads, 1, weight.shape)
    ggb = _grad(grads, 2, grad_output.shape[1:2])  # (the bias gradient: one per output channel)
    if output_padding is None:

        def fwd(x, w):
            return torch._convolution_nd(x, w, None, stride, padding, dilation, groups)

        def bwd(x, w, which):
            return torch._convolution_nd_backward(grad_output, x, w, stride, padding, dilation, groups, *which)

    else:

        def fwd(x, w):
            return torch._convolution_transpose_nd(x, w, None, stride, padding, output_padding, dilation, groups)

        def bwd(x, w, which):
            return torch._convolution_transpose_nd_backward(
                grad_output, x, w, stride, padding, output_padding, dilation, groups, *which
            )

    d_go = d_input = d_weight = None
    if mask[0]:
        d_go = torch.zeros_like(grad_output)
        if ggI is not None:
            d_go = d_go + fwd(ggI, weight)
        if ggW is not None:
            d_go = d_go + fwd(input, ggW)
        if ggb is not None:
            d_go = d_go + ggb.reshape((1, -1) + (1,) * (grad_output.dim() - 2))
    if mask[1] and ggW is not None:
        d_input = bwd(input, ggW, (True, False, False))[0]
    if mask[2] and ggI is not None:
        d_weight = bwd(ggI, weight, (False, True, False))[1]
    return d_go, d_input, d_weight


# ---- embeddings ------------------------------------------------------------------------------------------


def embedding_double_backward(grad: Tensor, indices: Tensor, padding_idx: int) -> Tensor:
    """The gradient of embedding_dense_backward (a scatter-add of grad_output rows into the weight's rows) with
    respect to grad_output: the incoming rows gathered back at the indices, 0 at padding_idx. As upstream's, it
    leaves out scale_grad_by_freq's division: that "gradient" is not embedding's derivative (it divides by the
    count), and without a second division the weights' second derivative through embedding is the true one."""
    out = grad.index_select(0, indices.reshape(-1)).reshape(*indices.shape, grad.shape[-1])
    if padding_idx >= 0:
        out = out.masked_fill((indices == padding_idx).unsqueeze(-1), 0)
    return out


_BAG_SUM, _BAG_MEAN, _BAG_MAX = range(3)  # embedding_bag's mode codes (torch.nn.functional.embedding_bag)


def embedding_bag_backward(
    grad, weight, indices, offset2bag, bag_size, max_indices, mode, per_sample_weights, padding_idx, scale_grad_by_freq,
    mask,
) -> tuple:  # fmt: skip
    """_embedding_bag's gradients (weight, per_sample_weights): its kernel, or (recorded, create_graph) the same
    scatter-adds in torch ops, differentiable again (a gradient penalty or a Hessian-vector product through an
    EmbeddingBag)."""
    if not torch.is_grad_enabled():
        return torch._embedding_bag_backward(
            grad, weight, indices, offset2bag, bag_size, max_indices, mode, per_sample_weights, padding_idx,
            scale_grad_by_freq, *mask,
        )  # fmt: skip
    kept = (indices != padding_idx).unsqueeze(1)  # padding_idx < 0: none
    grad_weight = grad_psw = None
    if mode == _BAG_MAX:
        if mask[0]:  # each (bag, column)'s gradient to the row that held the max (-1: an empty bag, none)
            found = max_indices >= 0
            columns = torch.arange(grad.shape[1], device=grad.device).expand_as(max_indices)
            grad_weight = torch.zeros_like(weight).index_put(
                (max_indices.clamp(min=0), columns), grad * found, accumulate=True
            )
        return grad_weight, grad_psw
    rows = grad.index_select(0, offset2bag)  # the gradient of each index's row
    if mask[0]:
        scaled = rows
        if mode == _BAG_MEAN:
            scaled = scaled / bag_size.index_select(0, offset2bag).clamp(min=1).unsqueeze(1).to(grad.dtype)
        if per_sample_weights is not None:
            scaled = scaled * per_sample_weights.unsqueeze(1)
        if scale_grad_by_freq:
            counts = torch.bincount(indices, minlength=weight.shape[0])
            scaled = scaled / counts.index_select(0, indices).unsqueeze(1).to(grad.dtype)
        grad_weight = torch.zeros_like(weight).index_add(0, indices, scaled * kept)
    if mask[1] and per_sample_weights is not None:
        grad_psw = (rows * weight.index_select(0, indices) * kept).sum(1)
    return grad_weight, grad_psw


def _logsumexp0(x: Tensor) -> Tensor:
    """logsumexp over dim 0, -inf where every term is -inf, with a gradient of 0 there (not NaN), so that a
    state no alignment reaches passes no NaN back through the recursion."""
    dead = (x == -math.inf).all(0)
    safe = torch.where(dead, torch.zeros_like(x), x)
    return torch.where(dead, torch.full_like(dead, -math.inf, dtype=x.dtype), torch.logsumexp(safe, 0))


def _ctc_nll(log_probs: Tensor, targets: Tensor, input_lengths, target_lengths, blank: int) -> Tensor:
    """-log p(targets | log_probs) of each batch element, by the CTC forward (alpha) recursion in torch ops:
    differentiable to any order, the composite of THNN's _ctc_loss."""
    steps, batch, _ = log_probs.shape
    device = log_probs.device
    longest = max(target_lengths, default=0)
    padded = torch.full((batch, longest), blank, dtype=torch.long, device=device)
    start = 0
    for n, length in enumerate(target_lengths):  # 2-D (padded) or 1-D (concatenated) targets
        row = targets[n, :length] if targets.dim() == 2 else targets[start : start + length]
        padded[n, :length] = row.long()
        start += length
    states = 2 * longest + 1
    ext = torch.full((batch, states), blank, dtype=torch.long, device=device)
    ext[:, 1::2] = padded
    skip = torch.zeros(batch, states, dtype=torch.bool, device=device)
    skip[:, 2:] = (ext[:, 2:] != blank) & (ext[:, 2:] != ext[:, :-2])
    lengths = torch.tensor(list(target_lengths), dtype=torch.long, device=device)
    emit = log_probs.gather(2, ext.unsqueeze(0).expand(steps, batch, states))  # [T, N, 2S+1]
    neg = torch.full((batch, 1), -math.inf, dtype=log_probs.dtype, device=device)
    first = torch.arange(states, device=device) < torch.where(lengths > 0, 2, 1).unsqueeze(1)
    alpha = torch.where(first, emit[0], neg)
    alphas = [alpha]
    for t in range(1, steps):
        one = torch.cat((neg, alpha[:, :-1]), 1)
        two = torch.where(skip, torch.cat((neg, neg, alpha[:, :-2]), 1)[:, :states], neg)
        alpha = _logsumexp0(torch.stack((alpha, one, two))) + emit[t]
        alphas.append(alpha)
    at_end = torch.stack(alphas)[
        torch.tensor(list(input_lengths), device=device) - 1, torch.arange(batch, device=device)
    ]
    last = at_end.gather(1, (2 * lengths).unsqueeze(1))
    before = torch.where((lengths > 0).unsqueeze(1), at_end.gather(1, (2 * lengths - 1).clamp(min=0).unsqueeze(1)), neg)
    return -_logsumexp0(torch.cat((last, before), 1).t())


def ctc_loss_backward(
    grad, log_probs, targets, input_lengths, target_lengths, neg_log_likelihood, log_alpha, blank, zero_infinity
) -> Tensor:
    """_ctc_loss's gradient: its kernel, or (recorded, create_graph) the same from the alpha recursion written in
    torch ops (_ctc_nll), which is differentiable again."""
    if not torch.is_grad_enabled():
        return torch._ctc_loss_backward(
            grad, log_probs, targets, input_lengths, target_lengths, neg_log_likelihood, log_alpha, blank,
            zero_infinity,
        )  # fmt: skip
    nll = _ctc_nll(log_probs, targets, input_lengths, target_lengths, blank)
    if zero_infinity:  # an impossible alignment's loss is 0, and so is its gradient
        grad = torch.where(neg_log_likelihood == math.inf, torch.zeros_like(grad), grad)
    true = torch.autograd.grad(nll, log_probs, grad, create_graph=True)[0]
    # the kernel's (upstream's) gradient is not d nll / d log_probs but that plus exp(log_probs) * grad within each
    # input length: what a log_softmax in front turns into the logits' true gradient (each frame's true gradient
    # sums to -grad), so the two agree there; this one is the kernel's, to any order
    steps = torch.arange(log_probs.shape[0], device=log_probs.device).unsqueeze(1)
    inside = steps < torch.tensor(list(input_lengths), device=log_probs.device).unsqueeze(0)
    result = true + log_probs.exp() * (grad.unsqueeze(0) * inside).unsqueeze(2)
    if not zero_infinity:  # an impossible alignment: the kernel's gradient is NaN within the input length
        impossible = (neg_log_likelihood == math.inf).unsqueeze(0) & inside
        result = torch.where(impossible.unsqueeze(2), torch.full_like(result, math.nan), result)
    return result


# ---- grid_sample: its first derivative in torch ops where it is recorded -----------------------------------

_BILINEAR, _NEAREST, _BICUBIC = range(3)  # math::GridMode
_ZEROS, _BORDER, _REFLECTION = range(3)  # math::GridPadding


def _grid_unnormalize(g: Tensor, size: int, align_corners: bool) -> Tensor:
    return (g + 1) * ((size - 1) / 2) if align_corners else ((g + 1) * size - 1) / 2


def _grid_pad(x: Tensor, size: int, padding: int, align_corners: bool) -> Tensor:
    """An input coordinate brought inside by the padding mode (math::grid_coordinate): border clips, reflection
    mirrors into the corner pixels' centres (or outer edges) and clips; zeros leaves it outside."""
    if padding == _BORDER:
        return x.clamp(0, size - 1)
    if padding == _REFLECTION:
        lo, span = (0.0, size - 1) if align_corners else (-0.5, size)
        if span <= 0:
            return torch.zeros_like(x)
        t = (x - lo).abs()
        flips = torch.floor(t.detach() / span)
        extra = t - flips * span
        x = torch.where(flips.remainder(2) == 0, lo + extra, lo + span - extra)
        return x.clamp(0, size - 1)
    return x


def _grid_taps(g: Tensor, size: int, mode: int, padding: int, align_corners: bool) -> list:
    """[(pixel index, inside mask, weight)] of one dim's taps for grid values g (math::GridTaps), in torch ops:
    the weights are differentiable in g, the pixels are not."""
    if mode == _BICUBIC:  # each tap brought inside by the padding mode on its own
        x = _grid_unnormalize(g, size, align_corners)
        fl = torch.floor(x.detach())
        t = x - fl
        a = -0.75

        def near(d):
            return ((a + 2) * d - (a + 3)) * d * d + 1

        def far(d):
            return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a

        weights = (far(t + 1), near(t), near(1 - t), far(2 - t))
        taps = []
        for k in range(4):
            at = _grid_pad(fl - 1 + k, size, padding, align_corners)
            taps.append((at, weights[k]))
    else:
        x = _grid_pad(_grid_unnormalize(g, size, align_corners), size, padding, align_corners)
        if mode == _NEAREST:
            taps = [(torch.round(x.detach()), torch.ones_like(x) + 0 * x)]  # ties to even; no gradient in g
        else:
            fl = torch.floor(x.detach())
            t = x - fl
            taps = [(fl, 1 - t), (fl + 1, t)]
    return [(at.clamp(0, size - 1).long(), (at >= 0) & (at < size), w) for at, w in taps]


def grid_sample_composite(input: Tensor, grid: Tensor, mode: int, padding: int, align_corners: bool) -> Tensor:
    """grid_sampler_2d/3d (input [N, C, (D,) H, W], grid [N, (Do,) Ho, Wo, 2 or 3]) in torch ops, as the kernel
    computes it: the sum over one tap per dim of the pixel times the product of the weights (0 outside)."""
    N, C = input.shape[:2]
    sizes = list(input.shape[2:])  # (D,) H, W
    dims = len(sizes)
    flat = input.reshape(N, C, -1)
    out_shape = grid.shape[1:-1]
    per_dim = [_grid_taps(grid[..., dims - 1 - d], sizes[d], mode, padding, align_corners) for d in range(dims)]
    total = None

    def combine(d, index, inside, weight):
        nonlocal total
        if d == dims:
            at = index.reshape(N, 1, -1).expand(N, C, -1)
            value = flat.gather(2, at).reshape(N, C, *out_shape)
            term = value * (weight * inside.to(weight.dtype)).unsqueeze(1)
            total = term if total is None else total + term
            return
        for pixel, ok, w in per_dim[d]:
            combine(
                d + 1,
                index * sizes[d] + pixel,
                ok if inside is None else inside & ok,
                w if weight is None else weight * w,
            )

    combine(0, torch.zeros(grid.shape[:-1], dtype=torch.int64, device=grid.device), None, None)
    return total


def grid_sampler_backward(grad, input, grid, mode, padding, align_corners, volumetric: bool, mask) -> tuple:
    """grid_sampler's gradients: its kernel, or (recorded, create_graph) the gradients of grid_sample_composite,
    which are differentiable again (a second derivative through grid_sample)."""
    if not torch.is_grad_enabled():
        kernel = torch.grid_sampler_3d_backward if volumetric else torch.grid_sampler_2d_backward
        return kernel(grad, input, grid, mode, padding, align_corners, *mask)
    wrt = [t for t, m in zip((input, grid), mask) if m]
    out = grid_sample_composite(input, grid, mode, padding, align_corners)
    gs = iter(torch.autograd.grad(out, wrt, grad, create_graph=True, allow_unused=True))
    return tuple(next(gs) if m else None for m in mask)


# ---- the pointwise losses ---------------------------------------------------------------------------------


def _loss_second_derivatives(kind: int, p: float, x: Tensor, t: Tensor) -> tuple:
    """(d2l/dx2, d2l/dxdt, d2l/dt2) of one element's loss l(x, t), as math::PointwiseLossBackward's
    derivatives (None where zero)."""
    if kind in (L1, MSE, HUBER, SMOOTH_L1):  # functions of d = x - t: (l'', -l'', l'')
        d = x - t
        if kind == L1 or (kind == SMOOTH_L1 and p == 0):
            return None, None, None
        if kind == MSE:
            c = torch.full_like(d, 2.0)
        elif kind == HUBER:
            c = ((d > -p) & (d < p)).to(d.dtype)
        else:
            c = (d.abs() < p).to(d.dtype) / p
        return c, -c, c
    if kind == BCE:  # l_x = (x - t) / max((1 - x) x, 1e-12), l_t = log1p(-x) - log(x)
        denom = (1 - x) * x
        clamped = denom > 1e-12
        den = torch.where(clamped, denom, torch.full_like(denom, 1e-12))
        d_den = torch.where(clamped, 1 - 2 * x, _zero(x))
        return 1 / den - (x - t) * d_den / (den * den), -1 / den, None
    if kind == BCE_LOGITS:  # l_x = sigmoid(x) - t, l_t = -x
        s = torch.sigmoid(x)
        return s * (1 - s), torch.full_like(x, -1.0), None
    if kind == KL_DIV:  # l_x = -t, l_t = log(t) + 1 - x
        return None, torch.full_like(t, -1.0), 1 / t
    e = torch.exp(t)  # KL_DIV_LOG_TARGET: l_x = -e^t, l_t = e^t (t - x + 1)
    return None, -e, e * (t - x + 2)


def pointwise_loss_double_backward(grads, grad_output, input, target, kind, p, reduction, mask) -> tuple:
    """Gradients of _pointwise_loss_backward = (c gO l_x, c gO l_t) (c = 1/N for the mean, gO broadcast) for the
    incoming (ggI, ggT): wrt gO the reduction of ggI l_x + ggT l_t (by the kernel itself, so differentiable
    again); wrt x c gO (ggI l_xx + ggT l_xt); wrt t c gO (ggI l_xt + ggT l_tt)."""
    shape = torch.broadcast_shapes(input.shape, target.shape)
    ggI, ggT = _grad(grads, 0, shape), _grad(grads, 1, shape)
    d_go = d_input = d_target = None
    if mask[0]:
        terms = []
        if ggI is not None:
            terms.append(torch._pointwise_loss_backward(ggI, input, target, kind, p, 0, True, False)[0])
        if ggT is not None:
            terms.append(torch._pointwise_loss_backward(ggT, input, target, kind, p, 0, False, True)[1])
        total = sum(terms) if terms else torch.zeros(shape, dtype=grad_output.dtype, device=grad_output.device)
        d_go = total if reduction == 0 else (total.mean() if reduction == 1 else total.sum())
    if (mask[1] or mask[2]) and (ggI is not None or ggT is not None):
        xx, xt, tt = _loss_second_derivatives(kind, p, input, target)
        scale = grad_output if reduction != 1 else grad_output / max(math.prod(shape), 1)

        def combine(a, ga, b, gb):
            out = None
            for c, g in ((a, ga), (b, gb)):
                if c is not None and g is not None:
                    out = g * c if out is None else out + g * c
            return None if out is None else scale * out

        if mask[1]:
            d_input = combine(xx, ggI, xt, ggT)
        if mask[2]:
            d_target = combine(xt, ggI, tt, ggT)
    # a second derivative that vanishes (l1's) is a zero tensor, as upstream's, not an unused input
    if mask[1] and d_input is None:
        d_input = torch.zeros(shape, dtype=input.dtype, device=input.device)
    if mask[2] and d_target is None:
        d_target = torch.zeros(shape, dtype=target.dtype, device=target.device)
    return d_go, d_input, d_target


# ---- normalizations: their first derivative in torch ops where it is recorded ------------------------------


def _norm_grads(grad_out, xhat, rstd, weight, red_dims, stat_dims, mask, use_stats: bool) -> tuple:
    """(g_input, g_weight, g_bias) of y = xhat * w + b where xhat = (x - mean) * rstd, the statistics over
    stat_dims (of the input, when use_stats) and the affine parameters' gradients summed over red_dims."""
    gxhat = grad_out if weight is None else grad_out * weight

    def reduce(t):  # (sum over no dims is a sum over all of them in torch: none is none here)
        return t.sum(red_dims) if red_dims else t

    g_input = g_weight = g_bias = None
    if mask[0]:
        if use_stats:
            mean_g = gxhat.mean(stat_dims, keepdim=True)
            mean_gx = (gxhat * xhat).mean(stat_dims, keepdim=True)
            g_input = rstd * (gxhat - mean_g - xhat * mean_gx)
        else:
            g_input = gxhat * rstd
    if len(mask) > 1 and mask[1] and weight is not None:
        g_weight = reduce(grad_out * xhat)
    if len(mask) > 2 and mask[2]:
        g_bias = reduce(grad_out)
    return g_input, g_weight, g_bias


def batch_norm_backward(grad, input, weight, save_mean, save_var, use_input_stats, eps, mask) -> tuple:
    """_batch_norm's gradients: its kernel, or (recorded, create_graph) the same formula in torch ops with the
    batch statistics recomputed from the input, so that the gradient is differentiable again."""
    if grad is None:  # only the saved statistics got a gradient: they are outside the graph
        return None, None, None
    if not torch.is_grad_enabled():
        return torch._batch_norm_backward(grad, input, weight, save_mean, save_var, use_input_stats, eps)
    dims = [0] + list(range(2, input.dim()))
    view = (1, -1) + (1,) * (input.dim() - 2)
    if use_input_stats:
        mean = input.mean(dims, keepdim=True)
        var = input.var(dims, unbiased=False, keepdim=True)
    else:
        mean, var = save_mean.detach().reshape(view), save_var.detach().reshape(view)  # the running statistics
    rstd = (var + eps).rsqrt()
    xhat = (input - mean) * rstd
    w = None if weight is None else weight.reshape(view)
    return _norm_grads(grad, xhat, rstd, w, dims, dims, mask, use_input_stats)


def layer_norm_backward(grad, input, normalized_shape, mean, rstd, weight, bias, eps, mask) -> tuple:
    """_layer_norm's gradients: its kernel, or (recorded, create_graph) the same formula in torch ops with the
    statistics recomputed from the input, so that the gradient is differentiable again."""
    if grad is None:
        return None, None, None
    if not torch.is_grad_enabled():
        return torch._layer_norm_backward(grad, input, normalized_shape, mean, rstd, weight, bias)
    k = len(normalized_shape)
    stat_dims = list(range(input.dim() - k, input.dim()))
    red_dims = list(range(input.dim() - k))
    mu = input.mean(stat_dims, keepdim=True)
    r = (input.var(stat_dims, unbiased=False, keepdim=True) + eps).rsqrt()
    xhat = (input - mu) * r
    return _norm_grads(grad, xhat, r, weight, red_dims, stat_dims, mask, True)
