"""F.scaled_mm and F.scaled_grouped_mm (upstream 2.13): float8 matrix products whose scaling is named by a
recipe per operand (ScalingType) rather than read from the scales' shapes, as torch._scaled_mm does. Here
the tensor-wise and row-wise recipes, the ones upstream's CPU runs; the block-wise recipes and the scale
swizzles of the Blackwell kernels are accepted by name and refused (block-wise) or ignored (swizzle,
contraction_dim), as upstream's CPU does. The ops are in torch/_refs/scaled_mm.py."""

from __future__ import annotations

import enum

import torch
from torch._dtypes import ATTRIBUTES
from torch._refs.scaled_mm import check_bias, check_product, decoded_product, rowwise, scaled, scaling_error, tensorwise

__all__ = ["ScalingType", "SwizzleType", "scaled_grouped_mm", "scaled_mm"]


class _ScalingType(int, enum.Enum):
    """Supported Tensor scaling types: TensorWise (one scale per tensor), RowWise (a scale per row), BlockWise1x16,
    BlockWise1x32, BlockWise1x128 (a scale per 16, 32, 128 contiguous values), BlockWise128x128 (per tile)."""

    TensorWise = 0
    RowWise = 1
    BlockWise1x16 = 2
    BlockWise1x32 = 3
    BlockWise1x128 = 4
    BlockWise128x128 = 5


class _SwizzleType(int, enum.Enum):
    """Supported scale swizzle types: NO_SWIZZLE, SWIZZLE_32_4_4 (Blackwell-style 32x4x4)."""

    NO_SWIZZLE = 0
    SWIZZLE_32_4_4 = 1


ScalingType = _ScalingType  # upstream's module has both names
SwizzleType = _SwizzleType


def _single(value):
    """An operand's one scale, recipe or swizzle: upstream takes a list per operand (several for its two-level
    block-wise recipes); a list of one is that one, a longer list is None (no recipe here takes it)."""
    if isinstance(value, (list, tuple)):
        return value[0] if len(value) == 1 else None
    return value


def _first(value):
    """The scale upstream's error message names: an operand's first."""
    return value[0] if isinstance(value, (list, tuple)) else value


def _recipe(value):
    """The ScalingType of an operand (upstream reads `.value` of each: a plain int is its AttributeError)."""
    value = _single(value)
    return None if value is None else _ScalingType(value.value)


def _scales(scale_a, recipe_a, scale_b, recipe_b):
    """(scale_a, recipe_a, scale_b, recipe_b), each operand's single one (None where a list holds several)."""
    return _single(scale_a), _recipe(recipe_a), _single(scale_b), _recipe(recipe_b)


def scaled_mm(
    mat_a,
    mat_b,
    scale_a,
    scale_recipe_a,
    scale_b,
    scale_recipe_b,
    swizzle_a=None,
    swizzle_b=None,
    bias=None,
    output_dtype=ATTRIBUTES["bfloat16"],
    contraction_dim=(),
    use_fast_accum: bool = False,
):
    """mm(mat_a, mat_b) of float8 matrices decoded by their scales, as the recipes say: TensorWise, a float32
    scale per operand; RowWise, a (M, 1) float32 scale of mat_a's rows and a (1, N) one of mat_b's columns
    (both recipes the same, as upstream). Plus bias (N values), cast to output_dtype (default bfloat16; None
    keeps mat_a's dtype). Computed in float32 (upstream's CPU emulation); swizzle_*, contraction_dim and
    use_fast_accum are accepted and ignored (options of the GPU kernels). No derivative, as upstream."""
    sa, ra, sb, rb = _scales(scale_a, scale_recipe_a, scale_b, scale_recipe_b)
    if sa is None or sb is None or ra != rb or ra not in (_ScalingType.TensorWise, _ScalingType.RowWise):
        raise scaling_error(mat_a, _first(scale_a), mat_b, _first(scale_b))
    if ra == _ScalingType.TensorWise:
        for s, name in ((sa, "scale_a"), (sb, "scale_b")):
            if s.numel() != 1:
                raise ValueError(f"{name} must have 1 Float element")
    if not (tensorwise if ra == _ScalingType.TensorWise else rowwise)(mat_a, sa, mat_b, sb):
        raise scaling_error(mat_a, sa, mat_b, sb)
    names = ("mat_a", "mat_b")
    check_product(mat_a, mat_b, names, ValueError)
    check_bias(bias, mat_b.shape[1], ValueError)
    out_dtype = mat_a.dtype if output_dtype is None else output_dtype
    return scaled("_scaled_mm_v2", lambda *t: decoded_product(*t, bias, None, out_dtype), mat_a, mat_b, sa, sb)


def scaled_grouped_mm(
    mat_a,
    mat_b,
    scale_a,
    scale_recipe_a,
    scale_b,
    scale_recipe_b,
    swizzle_a=None,
    swizzle_b=None,
    bias=None,
    offs=None,
    output_dtype=ATTRIBUTES["bfloat16"],
    contraction_dim=(),
    use_fast_accum: bool = False,
):
    """F.grouped_mm of float8 operands decoded by row-wise scales (recipe RowWise for both): torch's
    _scaled_grouped_mm, whose docstring gives the scales' shapes per layout; output_dtype defaults to bfloat16.
    swizzle_*, contraction_dim and use_fast_accum are accepted and ignored. Upstream runs it on the GPU only."""
    sa, ra, sb, rb = _scales(scale_a, scale_recipe_a, scale_b, scale_recipe_b)
    if sa is None or sb is None or not ra == rb == _ScalingType.RowWise:
        raise ValueError(f"scaled_grouped_mm: only the RowWise recipe is supported, got {ra} and {rb}")
    return torch._scaled_grouped_mm(mat_a, mat_b, sa, sb, offs=offs, bias=bias, out_dtype=output_dtype)
