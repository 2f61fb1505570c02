"""Helpers the formulas of aten/derivatives.yaml call (PyTorch's FunctionsManual, in Python).

Everything here is written with torch ops, so that with create_graph=True the backward pass is
itself recorded and can be differentiated again.
"""

from __future__ import annotations

import cmath
import math

import torch
from torch._C import Tensor
from torch.autograd._linalg_formulas import (  # the factorizations' gradients
    cholesky_backward,
    eigh_backward,
    householder_product_backward,
    lu_factor_ex_backward,
    lu_solve_backward,
    qr_backward,
    solve_triangular_backward,
    svd_backward,
)
from torch.autograd._nn_formulas import (  # the NN kernels' second derivatives
    batch_norm_backward,
    convolution_double_backward,
    ctc_loss_backward,
    elu_double_backward,
    embedding_bag_backward,
    embedding_double_backward,
    gelu_double_backward,
    grid_sampler_backward,
    hardswish_double_backward,
    layer_norm_backward,
    log_sigmoid_double_backward,
    mish_double_backward,
    pointwise_loss_double_backward,
    prelu_double_backward,
    silu_double_backward,
    softplus_double_backward,
)
from torch.autograd.graph import Node, set_history

__all__ = [
    "not_implemented",
    "angle_backward",
    "conj",
    "fft_r2c_backward",
    "fft_c2r_backward",
    "sum_to",
    "maybe_multiply",
    "reduce_backward",
    "mean_backward",
    "extremum_backward",
    "index_reduction_backward",
    "select_backward",
    "slice_backward",
    "as_strided_backward",
    "split_backward",
    "unbind_backward",
    "permute_backward",
    "matmul_backward",
    "glu_double_backward",
    "pow_backward_self",
    "cumprod_backward",
    "sinc_backward",
    "pow_exponent_backward",
    "minmax_mask",
    "zeros_like",
    "cat_backward",
    "repeat_backward",
    "logsumexp_backward",
    "diag_backward",
    "prod_backward",
    "isfinite_mask",
    "masked_select_backward",
    "_pad_to",
    "clamp_mask",
    "var_backward",
    "std_var_grad",
    "_unsqueeze_like",
    "ones_like",
    "math",
    "householder_product_backward",
    "lu_factor_ex_backward",
    "lu_solve_backward",
    "cholesky_backward",
    "solve_triangular_backward",
    "qr_backward",
    "eigh_backward",
    "svd_backward",
    "batch_norm_backward",
    "convolution_double_backward",
    "ctc_loss_backward",
    "elu_double_backward",
    "embedding_bag_backward",
    "embedding_double_backward",
    "gelu_double_backward",
    "grid_sampler_backward",
    "hardswish_double_backward",
    "layer_norm_backward",
    "log_sigmoid_double_backward",
    "mish_double_backward",
    "pointwise_loss_double_backward",
    "prelu_double_backward",
    "silu_double_backward",
    "softplus_double_backward",
]


def zeros_like(t: Tensor) -> Tensor:
    return torch.zeros_like(t)


def ones_like(t: Tensor) -> Tensor:
    return torch.ones_like(t)


def sum_to(g: Tensor, shape) -> Tensor:
    """Sums `g` down to `shape` (undoes broadcasting): PyTorch's sum_to_size. The result is a new
    tensor, not a view, so that AccumulateGrad can keep it as .grad without copying."""
    shape = tuple(shape)
    if tuple(g.shape) == shape:
        return g
    lead = g.dim() - len(shape)
    if lead:
        g = g.sum(list(range(lead)))
    dims = [i for i, n in enumerate(shape) if n == 1 and g.shape[i] != 1]
    if dims:
        g = g.sum(dims, keepdim=True)
    return g


def maybe_multiply(g: Tensor, s) -> Tensor:
    """g * s, the gradient through a scalar factor s (conjugated if complex, PyTorch's convention)."""
    if isinstance(s, complex):
        s = s.conjugate()
    return g if s == 1 else g * s


def _unsqueeze_dims(g: Tensor, dims, ndim: int, keepdim: bool) -> Tensor:
    if keepdim or ndim == 0:
        return g
    if dims is None or (isinstance(dims, (tuple, list)) and len(dims) == 0):
        dims = range(ndim)
    elif isinstance(dims, int):
        dims = (dims,)
    for d in sorted(d % ndim for d in dims):
        g = g.unsqueeze(d)
    return g


def reduce_backward(grad: Tensor, shape, dims, keepdim: bool) -> Tensor:
    """Gradient of a sum over `dims`: the output gradient broadcast back over the input."""
    return _unsqueeze_dims(grad, dims, len(shape), keepdim).expand(shape)


def _reduced_count(shape, dims) -> int:
    """How many elements of an input of `shape` a reduction over `dims` folds into each output element (all of
    them for dims None or empty; a 0-dim input takes dim 0 or -1 as its only, size-1, dim)."""
    if dims is None or (isinstance(dims, (tuple, list)) and len(dims) == 0):
        return math.prod(shape)
    n = max(len(shape), 1)
    padded = tuple(shape) or (1,)
    return math.prod(padded[d % n] for d in ((dims,) if isinstance(dims, int) else dims))


def mean_backward(grad: Tensor, shape, dims, keepdim: bool) -> Tensor:
    """Gradient of a mean over `dims`: the output gradient broadcast back and divided by the count."""
    return reduce_backward(grad, shape, dims, keepdim) / _reduced_count(shape, dims)


def extremum_backward(grad: Tensor, self: Tensor, result: Tensor, dims=None, keepdim: bool = False) -> Tensor:
    """max()/amax: the gradient is shared evenly by every element equal to the extremum."""
    r = _unsqueeze_dims(result, dims, self.dim(), keepdim)
    mask = (self == r).to(grad.dtype)
    count = mask.sum(() if dims is None else dims, keepdim=True) if self.dim() else mask
    return _unsqueeze_dims(grad, dims, self.dim(), keepdim) * mask / count


def index_reduction_backward(grad: Tensor, dim: int, indices: Tensor, shape, keepdim: bool) -> Tensor:
    """max.dim/min.dim: the gradient goes to the selected index along `dim`."""
    n = len(shape)
    if n == 0:
        return grad
    d = dim % n
    g = grad if keepdim else grad.unsqueeze(d)
    idx = indices if keepdim else indices.unsqueeze(d)
    pos = torch.arange(shape[d], device=grad.device).view([shape[d] if i == d else 1 for i in range(n)])
    return (pos == idx).to(grad.dtype) * g


def select_backward(grad: Tensor, shape, dim: int, index: int) -> Tensor:
    out = torch.zeros(shape, dtype=grad.dtype, device=grad.device)
    out.select(dim, index).copy_(grad)
    return out


def slice_backward(grad: Tensor, shape, dim: int, start, end, step: int) -> Tensor:
    out = torch.zeros(shape, dtype=grad.dtype, device=grad.device)
    torch.slice(out, dim, start, end, step).copy_(grad)
    return out


def _storage_positions(shape, strides, start: int, device) -> Tensor:
    """The storage positions (in elements) of a view's elements, in its row-major order, as int64."""
    index = torch.zeros(tuple(shape), dtype=torch.int64, device=device) + start
    for d, (n, s) in enumerate(zip(shape, strides)):
        index = index + (torch.arange(n, device=device) * s).view([n if i == d else 1 for i in range(len(shape))])
    return index.reshape(-1)


def as_strided_backward(
    grad: Tensor, self_shape, self_stride, self_offset: int, size, stride, storage_offset
) -> Tensor:
    """Gradient of as_strided: each viewed element's gradient is added at the storage position it reads
    (overlapping views sum), and each element of the input takes what landed on its own position, so the
    input may be any view without internal overlap (a slice with gaps, a transposed matrix). Only the input's
    geometry is needed (not its values: writing to it later leaves this gradient valid)."""
    offset = self_offset if storage_offset is None else storage_offset
    out_pos = _storage_positions(size, stride, offset, grad.device)
    self_pos = _storage_positions(self_shape, self_stride, self_offset, grad.device)
    if self_pos.numel() == 0 or out_pos.numel() == 0:
        return torch.zeros(self_shape, dtype=grad.dtype, device=grad.device)
    if torch.unique(self_pos).numel() != self_pos.numel():
        raise RuntimeError("as_strided backward is only implemented for inputs without internal overlap")
    lo = int(torch.minimum(out_pos.min(), self_pos.min()))
    hi = int(torch.maximum(out_pos.max(), self_pos.max()))
    flat = torch.zeros(hi - lo + 1, dtype=grad.dtype, device=grad.device)
    flat.put_(out_pos - lo, grad.reshape(-1), True)
    return flat[self_pos - lo].reshape(self_shape)


def split_backward(grads, self: Tensor, split_size: int, dim: int) -> Tensor:
    out = torch.zeros_like(self)
    start = 0
    for g in grads:
        n = min(split_size, self.shape[dim] - start)
        if g is not None:
            out.narrow(dim, start, n).copy_(g)
        start += n
    return out


def unbind_backward(grads, self: Tensor, dim: int) -> Tensor:
    out = torch.zeros_like(self)
    for i, g in enumerate(grads):
        if g is not None:
            out.select(dim, i).copy_(g)
    return out


def permute_backward(grad: Tensor, dims) -> Tensor:
    n = len(dims)
    inverse = [0] * n
    for i, d in enumerate(dims):
        inverse[d % n] = i
    return grad.permute(inverse)


def conj(x):
    """The complex conjugate of a tensor or a Python number (the derivative factors of holomorphic functions
    enter a gradient conjugated: PyTorch's convention); real values are themselves."""
    if isinstance(x, Tensor):
        return x.conj()
    return x.conjugate() if isinstance(x, complex) else x


def angle_backward(grad: Tensor, self: Tensor) -> Tensor:
    """Gradient of angle: i z / |z|^2 times the (real) gradient for complex z (0 at z = 0), 0 for real input
    (the argument of a real number is piecewise constant)."""
    if not self.is_complex():
        return torch.zeros_like(self)
    g = grad * self / (self.abs() ** 2) * 1j
    return torch.where(self == 0, torch.zeros((), dtype=g.dtype, device=g.device), g)


def fft_r2c_backward(grad: Tensor, dim, normalization: int, onesided: bool, last_dim_size: int) -> Tensor:
    """Gradient of _fft_r2c: the real part of the inverse complex transform of grad, the onesided half
    zero-padded back to the signal's length first (PyTorch's fft_r2c_backward)."""
    if onesided:
        last = dim[-1]
        missing = last_dim_size - grad.size(last)
        if missing > 0:
            shape = list(grad.shape)
            shape[last] = missing
            grad = torch.cat([grad, grad.new_zeros(shape)], last)
    return torch.real(torch._fft_c2c(grad, dim, normalization, False))


def fft_c2r_backward(grad: Tensor, dim, normalization: int) -> Tensor:
    """Gradient of _fft_c2r: the onesided forward transform of grad, with the bins whose mirror image lies
    outside the onesided half counted twice (PyTorch's fft_c2r_backward)."""
    g = torch._fft_r2c(grad, dim, normalization, True)
    double = grad.size(dim[-1]) - g.size(dim[-1])
    if double > 0:
        g = torch.cat([g.narrow(dim[-1], 0, 1), g.narrow(dim[-1], 1, double) * 2, g.narrow(dim[-1], 1 + double,
                       g.size(dim[-1]) - 1 - double)], dim[-1])  # fmt: skip
    return g


def matmul_backward(grad: Tensor, self: Tensor, other: Tensor, mask) -> tuple:
    """Gradients of matmul for every rank combination (1-D operands, broadcast batches)."""
    a, b = self, other
    ga = gb = None
    if a.dim() == 1 and b.dim() == 1:
        return (grad * b.conj() if mask[0] else None, grad * a.conj() if mask[1] else None)
    a2 = a.unsqueeze(0) if a.dim() == 1 else a
    b2 = b.unsqueeze(-1) if b.dim() == 1 else b
    g = grad
    if a.dim() == 1:
        g = g.unsqueeze(-2)
    if b.dim() == 1:
        g = g.unsqueeze(-1)
    if mask[0]:
        ga = sum_to(g.matmul(b2.mH), a2.shape)
        if a.dim() == 1:
            ga = ga.squeeze(0)
    if mask[1]:
        gb = sum_to(a2.mH.matmul(g), b2.shape)
        if b.dim() == 1:
            gb = gb.squeeze(-1)
    return ga, gb


def pow_backward_self(grad: Tensor, self, exponent) -> Tensor:
    """d(self ** e)/dself = e * self ** (e - 1), taken as 0 where e == 0 (x ** 0 is a constant, also at x = 0,
    where e * x ** -1 would be 0 * inf: PyTorch's convention). The exponent is made 1 there, not masked
    afterwards, so that no NaN reaches a second derivative either."""
    if isinstance(exponent, Tensor):
        return grad * conj(exponent * self ** (exponent - 1 + (exponent == 0).to(exponent.dtype)))
    return grad * 0.0 if exponent == 0 else grad * conj(exponent * self ** (exponent - 1))


def sinc_backward(grad: Tensor, self: Tensor) -> Tensor:
    """d sinc(x)/dx = (cos(pi x) - sinc(x)) / x, and 0 at x = 0 (computed at 1 there, then zeroed, so no NaN
    from 0 / 0 reaches either derivative)."""
    zero = self == 0
    safe = torch.where(zero, torch.ones((), dtype=self.dtype, device=self.device), self)
    d = (torch.cos(math.pi * safe) - torch.sinc(safe)) / safe
    return grad * conj(torch.where(zero, 0 * d, d))


def cumprod_backward(grad: Tensor, self: Tensor, dim: int, result: Tensor) -> Tensor:
    """The gradient of cumprod along `dim`, zeros in the input included: d out_k / d x_j is the product of
    x_0..x_k without x_j (j <= k). Before a slice's first zero that is out_k / x_j; at the first zero z it is
    the product of every other factor, summed over k >= z; after it, 0 (each product holds x_z)."""
    if self.numel() == 0 or self.dim() == 0:
        return grad
    dim = dim % self.dim()
    if self.shape[dim] == 1:  # cumprod is the identity
        return grad
    is_zero = self == 0
    if not bool(is_zero.any()):  # out_k / x_j, summed over k >= j; differentiable again
        return _reversed_cumsum(grad * conj(result), dim) / conj(self)
    if torch.is_grad_enabled():  # create_graph: a form whose own derivative is right through the zeros
        return _cumprod_backward_by_products(grad, self, dim)
    zeros_so_far = is_zero.to(torch.int64).cumsum(dim)
    before = zeros_so_far == 0  # before the slice's first zero
    first_zero = is_zero & (zeros_so_far == 1)
    one = torch.ones((), dtype=self.dtype, device=self.device)
    # complex: each derivative conjugated (grad * conj(d out_k / d x_j), PyTorch's convention)
    g_out = torch.where(before, grad * conj(result), 0 * one)
    suffix = _reversed_cumsum(g_out, dim)  # sum over k >= j
    grad_before = torch.where(before, suffix / conj(torch.where(before, self, one)), 0 * one)
    others = torch.where(first_zero, one, self).cumprod(dim)  # x_0..x_k without the first zero
    at_zero = torch.where(zeros_so_far >= 1, grad * conj(others), 0 * one).sum(dim, keepdim=True)
    return grad_before + torch.where(first_zero, at_zero, 0 * one)


def _reversed_cumsum(w: Tensor, dim: int) -> Tensor:
    """The sum over k >= j along dim, as a cumsum of the flipped tensor (total - cumsum + w cancels: 1.0 for
    1.01 in float32 next to a large first term)."""
    return w.flip(dim).cumsum(dim).flip(dim)


# elements of the [..., j, k] products _cumprod_backward_by_products forms at once
_CUMPROD_BLOCK_ELEMENTS = 1 << 22


def _cumprod_backward_by_products(grad: Tensor, self: Tensor, dim: int) -> Tensor:
    """cumprod's gradient by products alone, differentiable again with zeros in the input (PyTorch takes
    an O(n^2) form too when it records a second derivative): P[j, k] = the product of x_0..x_k without x_j,
    and grad_j = sum over k >= j of grad_k * conj(P[j, k]); a block of j at a time, so that the temporaries
    stay near _CUMPROD_BLOCK_ELEMENTS."""
    x = self.movedim(dim, -1)
    g = grad.movedim(dim, -1).unsqueeze(-2)
    n = x.shape[-1]
    block = max(1, _CUMPROD_BLOCK_ELEMENTS // max(x.numel(), 1))
    one = torch.ones((), dtype=self.dtype, device=self.device)
    zero = torch.zeros((), dtype=g.dtype, device=g.device)
    k = torch.arange(n, device=self.device)
    parts = []
    for start in range(0, n, block):
        j = torch.arange(start, min(start + block, n), device=self.device).unsqueeze(-1)  # [b, 1]
        p = torch.where(j == k, one, x.unsqueeze(-2)).cumprod(-1)  # [..., b, n]
        parts.append(torch.where(k >= j, g * conj(p), zero).sum(-1))
    return torch.cat(parts, -1).movedim(-1, dim)


def pow_exponent_backward(grad: Tensor, self, result: Tensor) -> Tensor:
    """d(self ** e)/de = result * log(self), taken as 0 where self == 0 (PyTorch's convention)."""
    if isinstance(self, Tensor):
        return grad * conj(result * torch.log(self + (self == 0).to(result.dtype)))
    if self == 0:
        return grad * 0.0
    if isinstance(self, complex) or (self < 0 and result.is_complex()):  # the principal log: log|b| + i arg b
        return grad * conj(result * cmath.log(self))
    return grad * conj(result) * (math.log(self) if self > 0 else 0.0)


def minmax_mask(self: Tensor, other: Tensor, pick_self: bool):
    """maximum/minimum: self's share of the gradient (ties split evenly, as in PyTorch)."""
    if pick_self:
        return (self > other).to(self.dtype) + (self == other).to(self.dtype) * 0.5
    return (other > self).to(other.dtype) + (self == other).to(other.dtype) * 0.5


def cat_backward(grad: Tensor, dim: int, shapes) -> list:
    """The slices of `grad` that each input of cat filled (legacy empty 1-D inputs get zeros)."""
    out, offset = [], 0
    nd = grad.dim()
    d = dim % nd if nd else 0
    for shape in shapes:
        if len(shape) == 1 and shape[0] == 0 and nd != 1:
            out.append(torch.zeros(shape, dtype=grad.dtype, device=grad.device))
            continue
        out.append(grad.narrow(d, offset, shape[d]))
        offset += shape[d]
    return out


def logsumexp_backward(grad: Tensor, self: Tensor, result: Tensor, dims, keepdim: bool) -> Tensor:
    """Gradient of logsumexp: grad * softmax(self) along dims, i.e. grad * exp(self - result) (conjugated for
    complex input: logsumexp is holomorphic)."""
    grad = _unsqueeze_dims(grad, dims, self.dim(), keepdim)
    result = _unsqueeze_dims(result, dims, self.dim(), keepdim)
    return grad * conj((self - result).exp())


def glu_double_backward(grad: Tensor, grad_output: Tensor, self: Tensor, dim: int, mask) -> tuple:
    """Gradients of glu_backward(grad_output, self, dim) = [g s, g a s (1 - s)] (a, b the halves of self, s =
    sigmoid(b)) for the incoming grad = [u, w]: wrt grad_output u s + w a s (1 - s); wrt self [w g s (1 - s),
    u g s (1 - s) + w g a s (1 - s) (1 - 2 s)]."""
    a, b = self.chunk(2, dim)
    u, w = grad.chunk(2, dim)
    s = torch.sigmoid(b)
    ds = s * (1 - s)
    d_grad_output = u * s + w * a * ds if mask[0] else None
    d_self = (
        torch.cat([w * grad_output * ds, u * grad_output * ds + w * grad_output * a * ds * (1 - 2 * s)], dim)
        if mask[1]
        else None
    )
    return d_grad_output, d_self


def repeat_backward(grad: Tensor, repeats, shape) -> Tensor:
    """Gradient of self.repeat(repeats) for a self of `shape`: the sum of grad's tiles."""
    repeats, shape = tuple(repeats), tuple(shape)
    padded = (1,) * (len(repeats) - len(shape)) + shape
    if not padded:
        return grad
    interleaved = [n for pair in zip(repeats, padded) for n in pair]
    tiles = tuple(range(0, 2 * len(padded), 2))
    return grad.reshape(interleaved).sum(tiles).reshape(shape)


def diag_backward(grad: Tensor, shape, diagonal: int) -> Tensor:
    """Gradient of diag(self, diagonal) for a self of `shape` (1-D: read the diagonal back; 2-D:
    write grad onto it in a zero matrix)."""
    if len(shape) == 1:
        return grad.diag(diagonal)
    cols = shape[1]
    out = torch.zeros(shape, dtype=grad.dtype, device=grad.device)
    start = diagonal if diagonal >= 0 else -diagonal * cols
    if grad.numel():
        out.as_strided(tuple(grad.shape), (cols + 1,), start).copy_(grad)
    return out


def clamp_mask(self: Tensor, lo, hi) -> Tensor:
    """1 where clamp passed the input through (min <= x <= max), 0 where it clipped."""
    mask = None
    if lo is not None:
        mask = self >= lo
    if hi is not None:
        m = self <= hi
        mask = m if mask is None else mask.logical_and(m)
    return mask.to(self.dtype)


def _unsqueeze_like(g: Tensor, dims, ndim: int, keepdim: bool) -> Tensor:
    return _unsqueeze_dims(g, dims, ndim, keepdim)


def var_backward(grad: Tensor, self: Tensor, dims, correction, keepdim: bool) -> Tensor:
    """d var / d self = 2 (self - mean) / (N - correction), times the output gradient. Without degrees of freedom
    (N <= correction) over all of self, upstream's inf (NaN where self is its mean) whatever the sign."""
    n = self.dim()
    count = _reduced_count(self.shape, dims)
    if dims is None or (isinstance(dims, (tuple, list)) and len(dims) == 0):
        dims_ = None
    else:
        dims_ = (dims,) if isinstance(dims, int) else tuple(dims)
    g = _unsqueeze_dims(grad, dims_, n, keepdim)
    mean = self.mean(dims_, keepdim=True) if dims_ is not None else self.mean()
    dof = count - correction
    if (dims_ is None or n == 0) and dof <= 0:
        return g * torch.where(self == mean, torch.full_like(self, math.nan), torch.full_like(self, math.inf))
    return g * (self - mean) * (2.0 / dof if dof else math.inf)


def std_var_grad(grad: Tensor, result: Tensor) -> Tensor:
    """The gradient reaching var from std = sqrt(var): grad / (2 std), and 0 where std is 0 (a constant input:
    upstream's std_backward, not grad / 0 times 0 = NaN)."""
    return (grad / (2 * result)).masked_fill(result == 0, 0)


def prod_backward(grad: Tensor, self: Tensor, result: Tensor, dim, keepdim: bool) -> Tensor:
    """d prod / d x_i = the product of the other elements: result / x_i where no element is zero, else (as
    PyTorch's prod_safe_zeros_backward) the product of the exclusive cumulative products from both ends,
    which is differentiable again (a second derivative through a zero is not lost)."""
    if self.dim() == 0:
        return grad
    dims = None if dim is None else (dim,)
    g = _unsqueeze_dims(grad, dims, self.dim(), keepdim)
    if not bool((self == 0).any()):
        return g * conj(_unsqueeze_dims(result, dims, self.dim(), keepdim) / self).to(g.dtype)
    x = self.reshape(-1) if dim is None else self
    d = 0 if dim is None else dim % self.dim()
    others = _omitted_product(x, d).reshape(self.shape)
    return g * conj(others).to(g.dtype)


def _omitted_product(x: Tensor, dim: int) -> Tensor:
    """out_i = the product of x_j along dim over every j != i, by products only (no division)."""
    n = x.shape[dim]
    ones = torch.ones_like(x.narrow(dim, 0, 1))
    left = torch.cat([ones, x.narrow(dim, 0, n - 1)], dim).cumprod(dim)
    right = torch.cat([ones, x.narrow(dim, 1, n - 1).flip(dim)], dim).cumprod(dim).flip(dim)
    return left * right


def isfinite_mask(self: Tensor) -> Tensor:
    return self.isfinite().to(self.dtype)


def _pad_to(g: Tensor, shape) -> Tensor:
    """`g` zero-padded at the end of each dim up to `shape` (src of scatter may be larger than index)."""
    shape = tuple(shape)
    if tuple(g.shape) == shape:
        return g
    out = torch.zeros(shape, dtype=g.dtype, device=g.device)
    view = out
    for d, n in enumerate(g.shape):
        view = view.narrow(d, 0, n)
    view.copy_(g)
    return out


def masked_select_backward(grad: Tensor, shape, mask: Tensor) -> Tensor:
    """The selected elements' gradients back in place (over the broadcast shape), then summed to shape."""
    full = torch.broadcast_shapes(tuple(shape), tuple(mask.shape))
    out = torch.zeros(full, dtype=grad.dtype, device=grad.device)
    where = mask.expand(full).reshape(-1).nonzero().view(-1)
    out.view(-1).put_(where, grad, True)
    return sum_to(out, shape)


def _fix(g, meta):
    """The gradient for an input: broadcasting undone, the input's dtype restored."""
    if g is None or meta is None:
        return g
    shape, dtype = meta
    if not isinstance(g, Tensor):
        g = torch.full(shape, g, dtype=dtype)
    if g.shape != shape:
        g = sum_to(g, shape) if g.dim() >= len(shape) else g.expand(shape)
    if g.dtype != dtype:
        if g.is_complex() and not dtype.is_complex:  # a real input's gradient is the real part
            g = g.real
        g = g.to(dtype)
    return g


def _set_outputs(node: Node, result) -> None:
    """Every floating-point output becomes an output of `node`."""
    if isinstance(result, Tensor):
        if result.dtype._differentiable:
            set_history(result, node, 0)
        return
    for i, o in enumerate(result):
        if isinstance(o, Tensor) and o.dtype._differentiable:
            set_history(o, node, i)


def not_implemented(name: str):
    """The gradient of an input PyTorch does not differentiate (zeta's x, igamma's a): raises as PyTorch does,
    instead of dropping that input's share silently."""
    raise NotImplementedError(f"the derivative for '{name}' is not implemented.")
