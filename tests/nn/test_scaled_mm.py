"""Float8 scaled matrix products: torch._scaled_mm (tensor-wise and row-wise scales, bias, scale_result, every
output dtype, any operand layout), F.scaled_mm (the same by recipe) and torch._scaled_grouped_mm /
F.scaled_grouped_mm (row-wise scales of the grouped products) against NumPy's float32 products of the decoded
operands, and upstream's errors. The float8 values are decoded with NumPy from their bits (no torch cast
on the oracle's side). Upstream's CPU has no grouped kernel, so those tests run on this library only."""

from __future__ import annotations

import os

import numpy as np
import pytest

import torch
import torch.nn.functional as F

RNG = np.random.default_rng(41)
E4M3, E5M2 = torch.float8_e4m3fn, torch.float8_e5m2
REFERENCE = "TORCH_REFERENCE" in os.environ


def _cpu_flags() -> set:
    try:
        with open("/proc/cpuinfo") as f:
            return {w for line in f if line.startswith("flags") for w in line.split(":", 1)[1].split()}
    except OSError:
        return set()


# Upstream's CPU _scaled_mm runs oneDNN's float8 gemm where the CPU has AMX or AVX512-FP16: it does not saturate
# (448 * 2 overflows to NaN), takes a float64 scale, and leaves the result of an empty contraction uninitialized.
# Its other CPU kernel, and this library, saturate, refuse, and give zeros: those checks run there only.
UPSTREAM_ONEDNN = REFERENCE and bool({"amx_tile", "avx512_fp16"} & _cpu_flags())
ONEDNN_DIFFERS = pytest.mark.skipif(UPSTREAM_ONEDNN, reason="upstream runs oneDNN's float8 gemm on this CPU")


def _decode(t: torch.Tensor) -> np.ndarray:
    """The float32 values of a float8 tensor, read from its bits (sign, exponent, mantissa) by NumPy."""
    bits = t.contiguous().view(torch.uint8).numpy().astype(np.int64)
    mant_bits, bias = (3, 7) if t.dtype == E4M3 else (2, 15)
    sign = np.where(bits >> 7, -1.0, 1.0)
    exp = (bits >> mant_bits) & ((1 << (7 - mant_bits)) - 1)
    mant = bits & ((1 << mant_bits) - 1)
    normal = (1 + mant / (1 << mant_bits)) * np.exp2(exp - bias)
    subnormal = mant / (1 << mant_bits) * np.exp2(1 - bias)
    return (sign * np.where(exp == 0, subnormal, normal)).astype(np.float32)


def _f8(*shape, dtype=E4M3) -> torch.Tensor:
    return torch.from_numpy(RNG.standard_normal(shape).astype(np.float32)).to(dtype)


def _scale(*shape) -> torch.Tensor:
    return torch.from_numpy(RNG.uniform(0.5, 2.0, shape).astype(np.float32))


def _want(a, b, sa, sb, bias=None) -> np.ndarray:
    out = (_decode(a) * sa.numpy()) @ (_decode(b) * sb.numpy())
    return out if bias is None else out + bias.float().numpy()


def _close(got: torch.Tensor, want: np.ndarray, dtype: torch.dtype) -> None:
    assert got.dtype == dtype and tuple(got.shape) == want.shape
    tol = {torch.float32: 1e-5, torch.bfloat16: 1e-2, torch.float16: 1e-3}[dtype]
    np.testing.assert_allclose(got.float().numpy(), want, rtol=tol, atol=tol)


@pytest.mark.parametrize("out_dtype", [torch.float32, torch.bfloat16, torch.float16])
@pytest.mark.parametrize("rows", [False, True], ids=["tensorwise", "rowwise"])
def test_scaled_mm_is_the_product_of_the_decoded_operands(out_dtype, rows):
    a, b = _f8(16, 32), _f8(24, 32).t()  # b column-major, as upstream's GPU kernel wants it
    sa, sb = (_scale(16, 1), _scale(1, 24)) if rows else (_scale(), _scale())
    bias = torch.from_numpy(RNG.standard_normal(24).astype(np.float32)).to(out_dtype)
    _close(torch._scaled_mm(a, b, sa, sb, out_dtype=out_dtype), _want(a, b, sa, sb), out_dtype)
    _close(torch._scaled_mm(a, b, sa, sb, bias=bias, out_dtype=out_dtype), _want(a, b, sa, sb, bias), out_dtype)


def test_scaled_mm_takes_any_layout_and_both_float8_dtypes():
    a = _f8(20, 7).t()  # (7, 20) column-major
    b = _f8(20, 18)[:, ::2]  # (20, 9) every other column
    a5 = a.to(E5M2)
    sa, sb = _scale(), _scale()
    _close(torch._scaled_mm(a, b, sa, sb, out_dtype=torch.float32), _want(a, b, sa, sb), torch.float32)
    _close(torch._scaled_mm(a5, b, sa, sb, out_dtype=torch.float32), _want(a5, b, sa, sb), torch.float32)


def test_a_float8_result_is_divided_by_scale_result_and_saturates():
    a, b = _f8(8, 16), _f8(16, 8)
    sa, sb, sr = _scale(), _scale(), torch.tensor(4.0)
    got = torch._scaled_mm(a, b, sa, sb, scale_result=sr, out_dtype=E4M3)
    want = torch.from_numpy(_want(a, b, sa, sb))
    assert torch.equal(got.view(torch.uint8), (want * (1 / sr)).to(E4M3).view(torch.uint8))
    # upstream's CPU reads scale_result only with an explicit float8 out_dtype (not a's own by default)
    unscaled = torch._scaled_mm(a, b, sa, sb, scale_result=sr)
    assert unscaled.dtype == E4M3 and torch.equal(unscaled.view(torch.uint8), want.to(E4M3).view(torch.uint8))
    # scale_result only scales a float8 result
    f32 = torch._scaled_mm(a, b, sa, sb, scale_result=sr, out_dtype=torch.float32)
    _close(f32, _want(a, b, sa, sb), torch.float32)
    big = torch.full((2, 2), 300.0).to(E4M3)  # 2 * 288**2 is past float8_e4m3fn's largest, 448
    if not UPSTREAM_ONEDNN:
        assert torch._scaled_mm(big, big, torch.tensor(1.0), torch.tensor(1.0)).float().tolist() == [[448.0] * 2] * 2


def test_empty_operands():
    a, b, s = _f8(0, 4), _f8(4, 3), torch.tensor(1.0)
    assert torch._scaled_mm(a, b, s, s).shape == (0, 3)
    got = torch._scaled_mm(_f8(2, 0), _f8(0, 3), s, s, out_dtype=torch.float32)
    assert got.shape == (2, 3)
    if not UPSTREAM_ONEDNN:
        assert got.tolist() == [[0.0] * 3] * 2


_A, _B, _S = _f8(16, 32), _f8(24, 32).t(), torch.tensor(1.0)
_INVALID = "Invalid scaling configuration"


@pytest.mark.parametrize(
    "call, error, message",
    [
        pytest.param(  # a float64 scale
            lambda: torch._scaled_mm(_A, _B, _S.double(), _S), ValueError, _INVALID, marks=ONEDNN_DIFFERS
        ),
        (lambda: torch._scaled_mm(_A.float(), _B, _S, _S), ValueError, _INVALID),  # not float8
        (lambda: torch._scaled_mm(_A, _B, torch.ones(16, 2), torch.ones(1, 24)), ValueError, _INVALID),
        (lambda: torch._scaled_mm(_A, _B, torch.ones(16, 1), _S), ValueError, _INVALID),  # mixed recipes
        (lambda: torch._scaled_mm(_A, _B, torch.ones(16, 1), torch.ones(24, 1)), ValueError, r"\(1, 24\)"),
        (lambda: torch._scaled_mm(_A[None], _B, _S, _S), RuntimeError, "mat1 must be a matrix"),
        (lambda: torch._scaled_mm(_A, _B[0], _S, _S), RuntimeError, "mat2 must be a matrix"),
        (lambda: torch._scaled_mm(_A, _A, _S, _S), RuntimeError, r"shapes cannot be multiplied \(16x32 and 16x32\)"),
        (lambda: torch._scaled_mm(_A, _B, _S, _S, scale_result=_S.double()), RuntimeError, "must be a float scalar"),
        (lambda: torch._scaled_mm(_A, _B, _S, _S, bias=torch.ones(16, 24)), RuntimeError, "size 24 but got 384"),
        (lambda: F.scaled_mm(_A, _B, _S, F.ScalingType.RowWise, _S, F.ScalingType.TensorWise), ValueError, _INVALID),
        (
            lambda: F.scaled_mm(_A, _B, _S, F.ScalingType.BlockWise1x32, _S, F.ScalingType.BlockWise1x32),
            ValueError,
            _INVALID,
        ),  # fmt: skip
        (
            lambda: F.scaled_mm(_A, _B, _S, F.ScalingType.TensorWise, torch.ones(2), F.ScalingType.TensorWise),
            ValueError,
            "scale_b must have 1 Float element",
        ),  # fmt: skip
        (
            lambda: F.scaled_mm(_A, _A, _S, F.ScalingType.TensorWise, _S, F.ScalingType.TensorWise),
            ValueError,
            "mat_a and mat_b shapes cannot be multiplied",
        ),  # fmt: skip
        (
            lambda: F.scaled_mm(_A[None], _B, _S, F.ScalingType.TensorWise, _S, F.ScalingType.TensorWise),
            ValueError,
            "mat_a must be a matrix",
        ),  # fmt: skip
    ],
)
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_the_scaling_error_names_what_it_got():
    with pytest.raises(ValueError) as info:
        torch._scaled_mm(_A, _B, torch.ones(16, 2), _S)
    assert "scale_a.dtype()=Float, scale_a.size()=[16, 2], scale_a.stride()=[2, 1]" in str(info.value)
    assert "mat_b.dtype()=Float8_e4m3fn" in str(info.value)


@pytest.mark.parametrize("recipe", ["TensorWise", "RowWise"])
def test_f_scaled_mm_is_scaled_mm_by_recipe(recipe):
    kind = getattr(F.ScalingType, recipe)
    sa, sb = (_scale(), _scale()) if recipe == "TensorWise" else (_scale(16, 1), _scale(1, 24))
    got = F.scaled_mm(_A, _B, sa, kind, sb, kind)
    assert got.dtype == torch.bfloat16  # upstream's default output
    assert torch.equal(got, torch._scaled_mm(_A, _B, sa, sb, out_dtype=torch.bfloat16))
    listed = F.scaled_mm(_A, _B, [sa], [kind], [sb], [kind], output_dtype=torch.float32, bias=torch.ones(24))
    _close(listed, _want(_A, _B, sa, sb) + 1, torch.float32)
    assert F.scaled_mm(_A, _B, sa, kind, sb, kind, output_dtype=None).dtype == E4M3


def test_recipes_and_swizzles_are_upstreams_enums():
    assert list(F.ScalingType.__members__) == [
        "TensorWise", "RowWise", "BlockWise1x16", "BlockWise1x32", "BlockWise1x128", "BlockWise128x128"
    ]  # fmt: skip
    assert F.ScalingType.RowWise.value == 1 and F.SwizzleType.SWIZZLE_32_4_4.value == 1
    assert repr(F.ScalingType.TensorWise) == "<_ScalingType.TensorWise: 0>"
    assert str(F.ScalingType(1)) == "_ScalingType.RowWise"


def test_scaled_products_have_no_derivative():
    sa = torch.tensor(1.5, requires_grad=True)
    out = torch._scaled_mm(_A, _B, sa, _S, out_dtype=torch.float32)
    assert out.requires_grad
    with pytest.raises(RuntimeError, match="derivative for aten::_scaled_mm is not implemented"):
        out.sum().backward()


OFFS = torch.tensor([2, 4, 8], dtype=torch.int32)


def _grouped_want(a, b, sa, sb):
    """The grouped products of the decoded, scaled operands, group by group (F.grouped_mm's layouts)."""
    da, db = _decode(a), _decode(b)
    spans = [(0, 2), (2, 4), (4, 8)]
    if a.dim() == 2 and b.dim() == 3:
        out = np.zeros((a.shape[0], b.shape[-1]), np.float32)
        for i, (s, e) in enumerate(spans):
            out[s:e] = (da[s:e] * sa.numpy()[s:e, None]) @ (db[i] * sb.numpy()[i][None, :])
        return out
    if a.dim() == 3 and b.dim() == 2:
        out = np.zeros((a.shape[1], b.shape[-1]), np.float32)
        for i, (s, e) in enumerate(spans):
            out[:, s:e] = (da[i] * sa.numpy()[i][:, None]) @ (db[:, s:e] * sb.numpy()[None, s:e])
        return out
    if a.dim() == 2:  # the contraction cut: each group's own row and column scales
        m, n = a.shape[0], b.shape[1]
        return np.stack([
            (da[:, s:e] @ db[s:e]) * sa.numpy()[i * m:(i + 1) * m, None] * sb.numpy()[None, i * n:(i + 1) * n]
            for i, (s, e) in enumerate(spans)
        ])  # fmt: skip
    return (da * sa.numpy()[:, :, None]) @ (db * sb.numpy()[:, None, :])


@pytest.mark.skipif(REFERENCE, reason="upstream's _scaled_grouped_mm runs on the GPU only")
@pytest.mark.parametrize(
    "a_shape, b_shape, sa_shape, sb_shape, offs",
    [
        ((10, 16), (3, 16, 8), (10,), (3, 8), OFFS),  # the tokens cut into groups
        ((3, 6, 16), (16, 10), (3, 6), (10,), OFFS),  # mat_b's columns cut into groups
        ((6, 8), (8, 5), (18,), (15,), OFFS),  # the contraction cut: (G*M,) and (G*N,) scales
        ((3, 6, 16), (3, 16, 5), (3, 6), (3, 5), None),  # batched
    ],
)
def test_scaled_grouped_mm_of_every_layout(a_shape, b_shape, sa_shape, sb_shape, offs):
    a, b = _f8(*a_shape), _f8(*b_shape)
    sa, sb = _scale(*sa_shape), _scale(*sb_shape)
    got = torch._scaled_grouped_mm(a, b, sa, sb, offs=offs, out_dtype=torch.float32)
    _close(got, _grouped_want(a, b, sa, sb), torch.float32)
    kind = F.ScalingType.RowWise
    default = F.scaled_grouped_mm(a, b, sa, kind, sb, kind, offs=offs)
    assert default.dtype == torch.bfloat16
    assert torch.equal(default, got.bfloat16())


@pytest.mark.skipif(REFERENCE, reason="upstream's _scaled_grouped_mm runs on the GPU only")
@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda: torch._scaled_grouped_mm(_f8(8, 4).float(), _f8(3, 4, 8), _scale(8), _scale(3, 8), offs=OFFS),
            "Expected mat_a to be a float8 matrix, got Float",
        ),  # fmt: skip
        (lambda: torch._scaled_grouped_mm(_f8(8, 4), _f8(3, 4, 8), _scale(8), _scale(3, 8)), "Have to provide offsets"),
        (
            lambda: torch._scaled_grouped_mm(_f8(8, 4), _f8(3, 4, 8), _scale(8, 1), _scale(3, 8), offs=OFFS),
            "scale_a must be a 1D tensor",
        ),  # fmt: skip
        (
            lambda: torch._scaled_grouped_mm(_f8(8, 4), _f8(3, 4, 8), _scale(8), _scale(3, 4), offs=OFFS),
            r"scale_b must be a \(3, 8\) tensor",
        ),  # fmt: skip
        (
            lambda: torch._scaled_grouped_mm(_f8(6, 8), _f8(8, 5), _scale(6), _scale(15), offs=OFFS),
            "scale_a must have 18 elements",
        ),  # fmt: skip
        (
            lambda: F.scaled_grouped_mm(
                _f8(8, 4), _f8(3, 4, 8), _S, F.ScalingType.TensorWise, _S, F.ScalingType.TensorWise, offs=OFFS
            ),
            "only the RowWise recipe",
        ),  # fmt: skip
    ],
)
def test_scaled_grouped_mm_errors(call, message):
    with pytest.raises((RuntimeError, ValueError), match=message):
        call()


def test_grouped_mm_is_torch_grouped_mm():
    a = torch.from_numpy(RNG.standard_normal((8, 4)).astype(np.float32))
    b = torch.from_numpy(RNG.standard_normal((3, 8, 4)).astype(np.float32)).transpose(-2, -1)
    assert torch.equal(torch._grouped_mm(a, b, OFFS), F.grouped_mm(a, b, offs=OFFS))
