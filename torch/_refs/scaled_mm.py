"""Scaled matrix products of float8 operands: torch._scaled_mm (one product, scaled per tensor or per row and
column) and torch._scaled_grouped_mm (the grouped products of torch._grouped_mm, scaled per row and column),
the ops under F.scaled_mm / F.scaled_grouped_mm and float8 training code (torchao's Float8Linear).

The operands are decoded to float32 (x.float() * scale), multiplied there and the result is cast to the output
dtype, which is upstream's CPU emulation of the fused GPU kernels (so the values agree with upstream's CPU bit
for bit) and runs the same on every device. As upstream, the products have no derivative: a result that
requires grad raises "derivative for aten::_scaled_mm is not implemented" on backward."""

from __future__ import annotations

import torch
from torch._dtypes import scalar_type
from torch._refs.grouped_mm import bounds, check_operands, grouped_products
from torch._registry import register
from torch.autograd.function import Function

FLOAT8 = ("Float8_e4m3fn", "Float8_e5m2")  # scalar_type's names (torch's dtypes are not read at import)


def is_float8(t) -> bool:
    """Whether t holds one of the float8 dtypes the scaled products take."""
    return scalar_type(t.dtype) in FLOAT8


def _is_float32(t) -> bool:
    return scalar_type(t.dtype) == "Float"


def tensorwise(a, scale_a, b, scale_b) -> bool:
    """One float32 scale per operand: upstream's TensorWise recipe."""
    return is_float8(a) and is_float8(b) and all(_is_float32(s) and s.numel() == 1 for s in (scale_a, scale_b))


def rowwise(a, scale_a, b, scale_b) -> bool:
    """A float32 scale per row of a, (M, 1), and per column of b, (1, N), both contiguous: upstream's RowWise."""
    if not (is_float8(a) and is_float8(b) and a.dim() == 2 and b.dim() == 2):
        return False
    return (
        _is_float32(scale_a)
        and _is_float32(scale_b)
        and tuple(scale_a.shape) == (a.shape[0], 1)
        and tuple(scale_b.shape) == (1, b.shape[1])
        and scale_a.is_contiguous()
        and scale_b.is_contiguous()
    )


def scaling_error(a, scale_a, b, scale_b) -> ValueError:
    """Upstream's error for scales that fit neither recipe (it names what it got)."""

    def got(t):
        return list(t.shape), list(t.stride())

    (sa_size, sa_stride), (sb_size, sb_stride) = got(scale_a), got(scale_b)
    m = a.shape[0] if a.dim() else 1
    n = b.shape[-1] if b.dim() else 1
    return ValueError(
        "Invalid scaling configuration.\n"
        "- For TensorWise scaling, a and b should be float8, scales should be float and singletons.\n"
        f"- For RowWise scaling, a and b should be float8, scales should be float, scale_a should be ({m}, 1) and "
        f"scale_b should be (1, {n}), and both should be contiguous.\n"
        f"Got mat_a.dtype()={scalar_type(a.dtype)}, scale_a.dtype()={scalar_type(scale_a.dtype)}, "
        f"scale_a.size()={sa_size}, scale_a.stride()={sa_stride}, mat_b.dtype()={scalar_type(b.dtype)}, "
        f"scale_b.dtype()={scalar_type(scale_b.dtype)}, scale_b.size()={sb_size} and scale_b.stride()={sb_stride}"
    )


def check_product(a, b, names=("mat1", "mat2"), error=RuntimeError) -> None:
    """Two matrices whose shapes multiply (upstream's messages; F.scaled_mm names them mat_a and mat_b and
    raises ValueError)."""
    for t, name in zip((a, b), names):
        if t.dim() != 2:
            raise error(f"{name} must be a matrix")
    if a.shape[1] != b.shape[0]:
        raise error(
            f"{names[0]} and {names[1]} shapes cannot be multiplied "
            f"({a.shape[0]}x{a.shape[1]} and {b.shape[0]}x{b.shape[1]})"
        )


def check_bias(bias, n: int, error=RuntimeError) -> None:
    """A bias holds one value per output column (any shape: upstream checks its number of elements)."""
    if bias is not None and bias.numel() != n:
        raise error(f"Bias must be size {n} but got {bias.numel()}")


class _ScaledProduct(Function):
    """Runs a scaled product (forward's `compute`) with upstream's missing derivative."""

    @staticmethod
    def forward(ctx, op: str, compute, *tensors):
        ctx.op = op
        return compute(*tensors)

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError(f"derivative for aten::{ctx.op} is not implemented")


def scaled(op: str, compute, *tensors):
    """compute(*tensors), a result without a derivative (its backward raises, as upstream's)."""
    return _ScaledProduct.apply(op, compute, *tensors)


def decoded_product(a, b, scale_a, scale_b, bias, scale_result, out_dtype):
    """(a * scale_a) @ (b * scale_b) in float32, plus bias, times 1 / scale_result (None: not scaled), cast
    to out_dtype: upstream's CPU emulation, step for step."""
    out = (a.float() * scale_a) @ (b.float() * scale_b)
    if bias is not None:
        out.add_(bias)
    if scale_result is not None:
        out.mul_(scale_result.reciprocal())
    return out.to(out_dtype)


@register
def _scaled_mm(
    self, mat2, scale_a, scale_b, bias=None, scale_result=None, out_dtype=None, use_fast_accum: bool = False
):
    """The product of the float8 matrices self (M, K) and mat2 (K, N) decoded by their scales: one float32
    scale each (tensor-wise) or a (M, 1) and a (1, N) float32 scale (row-wise), plus bias (N values), cast to
    out_dtype (default self's dtype). scale_result divides the result when out_dtype is given and is a float8
    dtype (upstream's CPU rule: with out_dtype left out it is not read). Computed in float32 on any layout;
    use_fast_accum is accepted and ignored (upstream's Hopper-only accumulation switch)."""
    a, b = self, mat2
    if not (tensorwise(a, scale_a, b, scale_b) or rowwise(a, scale_a, b, scale_b)):
        raise scaling_error(a, scale_a, b, scale_b)
    check_product(a, b)
    if scale_result is not None and not (_is_float32(scale_result) and scale_result.numel() == 1):
        raise RuntimeError("scale_result must be a float scalar")
    check_bias(bias, b.shape[1])
    if out_dtype is None or scalar_type(out_dtype) not in FLOAT8:
        scale_result = None
    out_dtype = a.dtype if out_dtype is None else out_dtype
    return scaled(
        "_scaled_mm",
        lambda *t: decoded_product(*t, bias, scale_result, out_dtype),
        a,
        b,
        scale_a,
        scale_b,
    )


def _check_float8(mat, name: str) -> None:
    if not is_float8(mat):
        raise RuntimeError(f"Expected {name} to be a float8 matrix, got {scalar_type(mat.dtype)}")


def _group_scale(scale, mat, dim: int, groups: int, name: str):
    """Checks a row-wise grouped scale: for a 2-D operand one float32 value per row (dim 0) or column (dim 1)
    of every group (`groups` copies when the contraction is cut), for a 3-D one a (G, rows or columns) matrix."""
    if not _is_float32(scale):
        raise RuntimeError(f"{name} must be a float32 tensor, got {scalar_type(scale.dtype)}")
    if mat.dim() == 2:
        if scale.dim() != 1:
            raise RuntimeError(f"{name} must be a 1D tensor for a 2D matrix, but got {scale.dim()}D")
        if scale.shape[0] != mat.shape[dim] * groups:
            raise RuntimeError(
                f"{name} must have {mat.shape[dim] * groups} elements (one per {'row' if dim == 0 else 'column'}"
                f"{' of each group' if groups > 1 else ''}), got {scale.shape[0]}"
            )
        return
    if scale.dim() != 2 or tuple(scale.shape) != (mat.shape[0], mat.shape[1 + dim]):
        raise RuntimeError(
            f"{name} must be a ({mat.shape[0]}, {mat.shape[1 + dim]}) tensor for a 3D matrix, got {list(scale.shape)}"
        )


def _grouped_decoded(a, b, scale_a, scale_b, offs, out_dtype):
    """The grouped products of the decoded operands: the scales multiply the operands when each row of a and
    column of b has one scale, and the groups' products when the contraction is cut (one scale per group)."""
    af, bf = a.float(), b.float()
    if a.dim() == 2 and b.dim() == 2:  # the contraction cut into groups: each group's rows have their own scales
        groups = len(bounds(offs, a.shape[1]))
        out = grouped_products(af, bf, offs)
        out = out * scale_a.reshape(groups, -1, 1) * scale_b.reshape(groups, 1, -1)
    else:
        sa = scale_a.unsqueeze(-1)  # (M, 1) or (G, M, 1)
        sb = scale_b.unsqueeze(-2)  # (1, N) or (G, 1, N)
        out = grouped_products(af * sa, bf * sb, offs)
    return out.to(out_dtype)


@register
def _scaled_grouped_mm(
    self, mat2, scale_a, scale_b, offs=None, bias=None, scale_result=None, out_dtype=None, use_fast_accum=False
):
    """torch._grouped_mm of the float8 operands self (mat_a) and mat2 (mat_b) decoded by row-wise float32
    scales: scale_a one value per row of mat_a ((M,) for a 2-D, (G, M) for a 3-D operand), scale_b one per
    column of mat_b ((N,) or (G, N)); when both are 2-D (the contraction cut) each group has its own, (G*M,) and
    (G*N,). The result is out_dtype (default bfloat16), computed in float32. Upstream runs it on the GPU only
    (one fused kernel wanting a column-major mat_b); here any device and layout."""
    a, b = self, mat2
    check_operands(a, b, offs, bias, _check_float8)
    if scale_result is not None:
        raise RuntimeError("Scale result not supported yet")
    groups = offs.shape[0] if a.dim() == 2 and b.dim() == 2 else 1
    _group_scale(scale_a, a, 0, groups, "scale_a")
    _group_scale(scale_b, b, 1, groups, "scale_b")
    out_dtype = torch.bfloat16 if out_dtype is None else out_dtype
    return scaled(
        "_scaled_grouped_mm",
        lambda *t: _grouped_decoded(*t, out_dtype),
        a,
        b,
        scale_a,
        scale_b,
        offs,
    )
