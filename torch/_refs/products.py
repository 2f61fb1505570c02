"""Products and sums of products: kron, tensordot, inner, addmv, addr, addbmm, baddbmm, vander, trapezoid,
written with mm/bmm/mul so that autograd and every device come from those. PyTorch's shapes, dtypes and errors."""

from __future__ import annotations

import math
import warnings

import torch
from torch._C import Tensor
from torch._C import addmm as _addmm
from torch._dtypes import scalar_type
from torch._refs.promotion import checked_scalar, in_float32
from torch._registry import in_place, register
from torch._warnings import user_stacklevel
from torch.amp.autocast_mode import autocast_policy


def _scaled_sum(input: Tensor, product: Tensor, beta, alpha) -> Tensor:
    """beta * input + alpha * product, input broadcast to product's shape (an error if it cannot be); with
    beta == 0 input is not read, so its NaNs and infinities do not reach the result (BLAS's and PyTorch's rule)."""
    if torch.broadcast_shapes(input.shape, product.shape) != product.shape:
        raise RuntimeError(
            f"The expanded size of the input {list(input.shape)} must match the size of the product "
            f"{list(product.shape)}"
        )
    # alpha == 0: the product is not read either (an inf or NaN in it does not make the result NaN)
    out = product if alpha == 1 else torch.zeros_like(product) if alpha == 0 else product * alpha
    if beta == 0:
        return out
    return out + (input if beta == 1 else input * beta)


def _wide(fn, input: Tensor, *operands: Tensor, beta, alpha) -> Tensor:
    """beta * input + alpha * fn(*operands) in the operands' dtype, beta and alpha converted to the dtype the
    kernel computes in (checked_scalar: an integer result truncates them); in float32 for 16-bit float operands
    (upstream accumulates and scales their products in float32 and rounds once: 300 * 200 * 2 * 0.5 in float16 is
    60000, not inf)."""
    dtype = operands[0].dtype
    opmath = torch.float32 if dtype.is_floating_point and dtype.itemsize == 2 else dtype
    beta, alpha = (checked_scalar(s, opmath).item() for s in (beta, alpha))
    return in_float32(lambda x, *ops: _scaled_sum(x, fn(*ops), beta, alpha), dtype, input, *operands)


@register(method=True, numbers=False, out="exact")
def kron(input: Tensor, other: Tensor) -> Tensor:
    """The Kronecker product: the block tensor whose block i is input[i] * other (the shorter operand gets
    leading dims of size 1); its shape is the elementwise product of the two shapes."""
    n = max(input.dim(), other.dim())
    a = input.reshape((1,) * (n - input.dim()) + tuple(input.shape))
    b = other.reshape((1,) * (n - other.dim()) + tuple(other.shape))
    inter_a = [s for d in a.shape for s in (d, 1)]
    inter_b = [s for d in b.shape for s in (1, d)]
    return (a.reshape(inter_a) * b.reshape(inter_b)).reshape([x * y for x, y in zip(a.shape, b.shape)])


def _dims_of(dims, a: Tensor, b: Tensor) -> tuple[list[int], list[int]]:
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a.dim(), b.dim()):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        return list(range(a.dim() - dims, a.dim())), list(range(dims))
    da, db = dims
    da = [da] if isinstance(da, int) else list(da)
    db = [db] if isinstance(db, int) else list(db)
    if len(da) != len(db):
        raise RuntimeError("both dimension lists should have same length")
    return [d % max(a.dim(), 1) for d in da], [d % max(b.dim(), 1) for d in db]


@register
@autocast_policy(cuda="promote")
def tensordot(a: Tensor, b: Tensor, dims=2, out: Tensor | None = None) -> Tensor:
    """Sums the products of a's dims `dims[0]` with b's dims `dims[1]` (an int n: a's last n with b's first n);
    the result has a's other dims, then b's. One matrix product of the two operands laid out as matrices. A
    contracted dim of size 1 broadcasts against the other operand's: that one is summed first (as upstream's)."""
    da, db = _dims_of(dims, a, b)
    for x, y in zip(da, db):
        if b.shape[y] == 1:
            a = a.sum(x, keepdim=True, dtype=a.dtype)
        elif a.shape[x] == 1:
            b = b.sum(y, keepdim=True, dtype=b.dtype)
        elif a.shape[x] != b.shape[y]:
            raise RuntimeError(
                f"contracted dimensions need to match, but first has size {a.shape[x]} in dim {x} and second has "
                f"size {b.shape[y]} in dim {y}"
            )
    free_a = [d for d in range(a.dim()) if d not in da]
    free_b = [d for d in range(b.dim()) if d not in db]
    k = math.prod(a.shape[d] for d in da)
    am = a.permute(free_a + da).reshape(-1, k)
    bm = b.permute(db + free_b).reshape(k, -1)
    result = torch.mm(am, bm).reshape([a.shape[d] for d in free_a] + [b.shape[d] for d in free_b])
    return result if out is None else out.resize_(result.shape).copy_(result)


@register(method=True, out="exact")
def inner(input: Tensor, other: Tensor) -> Tensor:
    """Sums the products over the last dims of both (a 0-dim operand multiplies)."""
    if input.dim() == 0 or other.dim() == 0:
        return input * other
    if input.shape[-1] != other.shape[-1]:
        raise RuntimeError(
            f"inner() the last dimension must match on both input tensors but got shapes {list(input.shape)} "
            f"and {list(other.shape)}"
        )
    return tensordot(input, other, ([-1], [-1]))


@register(method=True, inplace=True, out="exact")
@autocast_policy(cuda="lower_precision_fp")
def addmv(input: Tensor, mat: Tensor, vec: Tensor, *, beta=1, alpha=1) -> Tensor:
    """beta * input + alpha * (mat @ vec); the three must have one dtype."""
    if not input.dtype == mat.dtype == vec.dtype:
        names = ", ".join(scalar_type(t.dtype) for t in (input, mat, vec)).rsplit(", ", 1)
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {', and '.join(names)}")
    return _wide(torch.mv, input, mat, vec, beta=beta, alpha=alpha)


def _addr_scalar(dtype: torch.dtype, value, name: str) -> None:
    """Upstream's check of addr's beta and alpha against the result's dtype."""
    if isinstance(value, bool) and dtype != torch.bool:
        raise RuntimeError(f"Boolean {name} only supported for Boolean results.")
    if not (dtype.is_floating_point or dtype.is_complex or isinstance(value, int)):
        raise RuntimeError(f"For integral input tensors, argument {name} must not be a floating point number.")


@register(method=True, inplace=True, out="exact")
@autocast_policy(cuda="lower_precision_fp")
def addr(input: Tensor, vec1: Tensor, vec2: Tensor, *, beta=1, alpha=1) -> Tensor:
    """beta * input + alpha * outer(vec1, vec2) in the three's promoted dtype, elementwise as upstream's kernel:
    beta and alpha converted to that dtype (an integer one takes integer scalars only), (alpha * vec1) * vec2
    rounded op by op; with beta == 0 input is not read, alpha == 0 still multiplies (0 * NaN is NaN). Bool: beta
    and input or alpha and vec1 and vec2."""
    for name, v in (("vec1", vec1), ("vec2", vec2)):
        if v.dim() != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {v.dim()}-D")
    dtype = torch.promote_types(torch.promote_types(input.dtype, vec1.dtype), vec2.dtype)
    for name, value in (("beta", beta), ("alpha", alpha)):
        _addr_scalar(dtype, value, name)
    beta, alpha = (checked_scalar(s, dtype).item() for s in (beta, alpha))
    vec1, vec2 = vec1.to(dtype), vec2.to(dtype)
    product = torch.outer(vec1 if alpha == 1 else vec1 * alpha, vec2)
    return _scaled_sum(input.to(dtype), product, beta, 1)


@register(method=True, inplace=True, out="exact")
@autocast_policy(cpu="lower_precision_fp", cuda="lower_precision_fp")
def baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta=1, alpha=1) -> Tensor:
    """beta * input + alpha * (batch1 @ batch2), batch by batch."""
    return _wide(torch.bmm, input, batch1, batch2, beta=beta, alpha=alpha)


@register(method=True, inplace=True, out="exact")
@autocast_policy(cpu="lower_precision_fp", cuda="lower_precision_fp")
def addbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta=1, alpha=1) -> Tensor:
    """beta * input + alpha * the sum over the batch of batch1[i] @ batch2[i]."""
    # the batch summed in the products' dtype (sum's default would widen an int8/int32 result to int64)
    return _wide(lambda a, b: torch.bmm(a, b).sum(0, dtype=a.dtype), input, batch1, batch2, beta=beta, alpha=alpha)


@register
def vander(x: Tensor, N: int | None = None, increasing: bool = False) -> Tensor:
    """The Vandermonde matrix of a 1-D x: columns x**(N-1) ... x**0 (x**0 ... x**(N-1) with increasing)."""
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    base = x if x.dtype != torch.bool else x.to(torch.int64)
    powers = torch.arange(n, device=x.device)
    result = base.unsqueeze(1) ** powers if n else base.unsqueeze(1)[:, :0]
    return result if increasing else result.flip(1)


@register
def trapezoid(y: Tensor, x: Tensor | None = None, *, dx=None, dim: int = -1) -> Tensor:
    """The integral of y along dim by the trapezoidal rule: at sample points x (broadcast along dim), or
    spaced dx apart (1 by default)."""
    n = y.shape[dim]
    if n == 0:
        return y.sum(dim)
    a, b = y.narrow(dim, 1, n - 1), y.narrow(dim, 0, n - 1)
    if x is None:
        return (a + b).sum(dim) * ((1 if dx is None else dx) / 2)
    if x.dim() == 1:
        shape = [1] * y.dim()
        shape[dim] = n
        x = x.reshape(shape)
    widths = x.narrow(dim, 1, n - 1) - x.narrow(dim, 0, n - 1)
    return (widths * (a + b)).sum(dim) / 2


register(in_place(_addmm, "addmm_"), name="addmm_", function=False, method=True)


@register(method=True, numbers=False, out="exact")
@autocast_policy(cuda="promote")
def cross(input: Tensor, other: Tensor, dim: int | None = None) -> Tensor:
    """The cross product of 3-vectors along dim (broadcast); without dim, the first dim of size 3 (PyTorch's
    deprecated default)."""
    shape = torch.broadcast_shapes(input.shape, other.shape)
    a, b = input.expand(shape), other.expand(shape)
    if dim is None:
        warnings.warn(
            "Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the dim explicitly "
            "or simply use torch.linalg.cross.\nThe default value of dim will change to agree with that of "
            "linalg.cross in a future release.",
            stacklevel=user_stacklevel(),
        )
        dim = next((i for i, n in enumerate(shape) if n == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    if shape[dim] != 3:
        raise RuntimeError(
            f"linalg.cross: inputs dimension {dim} must have length 3. Got {input.shape[dim]} and {other.shape[dim]}"
        )
    if input.dtype != other.dtype:  # upstream's kernel takes one dtype (no promotion)
        raise RuntimeError(f"expected scalar type {scalar_type(input.dtype)} but found {scalar_type(other.dtype)}")
    if input.dtype == torch.bool:
        raise NotImplementedError("\"cross\" not implemented for 'Bool'")
    a0, a1, a2 = a.unbind(dim)
    b0, b1, b2 = b.unbind(dim)
    return torch.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], dim)


@register(method=True, out="exact")
def matrix_power(input: Tensor, n: int) -> Tensor:
    """input @ input @ ... (n times) for square matrices (batched) by repeated squaring; n = 0 is the identity,
    a negative n powers the inverse."""
    if input.dim() < 2 or input.shape[-1] != input.shape[-2]:
        raise RuntimeError(
            f"linalg.matrix_power: A must be batches of square matrices, but they are {input.shape[-2]} by "
            f"{input.shape[-1]} matrices"
            if input.dim() >= 2
            else "linalg.matrix_power: The input tensor A must have at least 2 dimensions."
        )
    if n == 0:
        eye = torch.eye(input.shape[-1], dtype=input.dtype, device=input.device)
        return input.clone().copy_(eye.expand(input.shape))  # as upstream: n = 0 gives input a zero gradient
    if n < 0:
        input, n = torch.linalg.inv(input), -n
    # upstream's products, in its order (no multiplication by the identity: inf * 0 would be nan)
    if n == 1:
        return input.clone(memory_format=torch.contiguous_format)
    if n == 2:
        return torch.matmul(input, input)
    if n == 3:
        return torch.matmul(torch.matmul(input, input), input)
    z = result = None
    while n > 0:  # the bits of n from the lowest: z = input^(2^k), multiplied in where the bit is set
        bit, n = n % 2, n // 2
        z = input if z is None else torch.matmul(z, z)
        if bit:
            result = z if result is None else torch.matmul(result, z)
    return result
