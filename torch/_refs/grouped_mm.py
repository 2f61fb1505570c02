"""torch._grouped_mm (F.grouped_mm's op, upstream 2.13): the matrix products of a Mixture-of-Experts layer,
one per group, with the tokens of each group (or the contraction) cut from a 2-D operand at `offs`. Upstream
runs it as one fused grouped GEMM on the GPU and requires the layouts that kernel wants (16-byte aligned
strides); here it is one matmul per group, so any layout works and it is differentiable through matmul and
cat. `grouped_products` is the layout logic without the dtype rules (torch._scaled_grouped_mm shares it)."""

from __future__ import annotations

import torch
from torch._dtypes import scalar_type
from torch._registry import register

_DTYPES = ("Float", "BFloat16", "Half")  # scalar_type's names (torch's dtypes are not read at import)


def _check_dtype(mat, name: str) -> None:
    if scalar_type(mat.dtype) not in _DTYPES:
        raise RuntimeError(f"Expected {name} to be Float32, BFloat16 or Float16 matrix, got {scalar_type(mat.dtype)}")


def check_operands(mat_a, mat_b, offs, bias, check_dtype) -> None:
    """The checks of a grouped product's operands, with upstream's messages: each 2- or 3-D and of a dtype
    check_dtype(mat, name) accepts, int32 offsets exactly when an operand is 2-D, no bias, a common
    contraction dim (torch._scaled_grouped_mm shares them)."""
    for mat, name in ((mat_a, "mat_a"), (mat_b, "mat_b")):
        if mat.dim() not in (2, 3):
            raise RuntimeError(f"{name} has to be 2 or 3d")
        check_dtype(mat, name)
    jagged = mat_a.dim() == 2 or mat_b.dim() == 2
    if jagged != (offs is not None):
        raise RuntimeError("Have to provide offsets if there is a 2d matrix, or no offset if both matrices are 3d")
    if offs is not None and (scalar_type(offs.dtype) != "Int" or offs.dim() != 1):
        raise RuntimeError("Offsets have to be int32")
    if bias is not None:
        raise RuntimeError("Bias not supported yet")
    if mat_a.shape[-1] != mat_b.shape[-2]:
        raise RuntimeError("contraction dimension of mat_a and mat_b must match")


def _end(spans) -> int:
    return spans[-1][1] if spans else 0


def bounds(offs, total: int) -> list[tuple[int, int]]:
    """The [start, stop) of each group along a jagged dim of length `total`: offs are the groups' ends."""
    ends = [int(e) for e in offs.tolist()]
    starts = [0, *ends[:-1]]
    for start, stop in zip(starts, ends):
        if stop < start or stop > total:
            raise RuntimeError(
                f"grouped_mm: offs must be non-decreasing and at most {total} (the jagged dim's length), got {ends}"
            )
    return list(zip(starts, ends))


@register
def _grouped_mm(self, mat2, offs=None, bias=None, out_dtype=None):
    """Grouped matrix products of mat_a = self and mat_b = mat2 (upstream's names). With G groups:

    - mat_a (M, K), mat_b (G, K, N), offs (G,): rows offs[i-1]:offs[i] of mat_a times mat_b[i], an (M, N)
      result (rows past offs[-1] are zero);
    - mat_a (G, M, K), mat_b (K, N), offs (G,): mat_a[i] times columns offs[i-1]:offs[i] of mat_b, (M, N);
    - mat_a (M, K), mat_b (K, N), offs (G,): the contraction cut, mat_a[:, s_i] @ mat_b[s_i, :], (G, M, N);
    - mat_a (G, M, K), mat_b (G, K, N), no offs: the batched product, (G, M, N).

    offs are int32 group ends (non-decreasing); float32, bfloat16 and float16 operands of one dtype; out_dtype
    the result's dtype (the operands' own, or float32 to accumulate 16-bit operands in float32); bias is not
    supported (as upstream).
    """
    mat_a, mat_b = self, mat2
    check_operands(mat_a, mat_b, offs, bias, _check_dtype)
    if mat_a.dtype != mat_b.dtype:
        raise RuntimeError(f"Expected mat_a and mat_b to have the same dtype, got {mat_a.dtype} and {mat_b.dtype}")
    dtype = mat_a.dtype if out_dtype is None else out_dtype
    if dtype != mat_a.dtype and not (dtype == torch.float32 and mat_a.dtype in (torch.float16, torch.bfloat16)):
        raise RuntimeError("Grouped gemm output dtype must match `mat_a` dtype")
    return grouped_products(mat_a.to(dtype), mat_b.to(dtype), offs)


def grouped_products(a, b, offs):
    """The per-group products of a and b (one dtype; _grouped_mm's layouts) with offs the groups' ends (None
    when both are 3-D): the layout logic of _grouped_mm without its dtype rules."""
    if offs is None:
        if a.shape[0] != b.shape[0]:
            raise RuntimeError("batch sizes of mat_a and mat_b have to match")
        return torch.bmm(a, b)
    groups = offs.shape[0]
    batched = a if a.dim() == 3 else b if b.dim() == 3 else None
    if batched is not None and batched.shape[0] != groups:
        raise RuntimeError("matrix batch sizes have to match")
    if a.dim() == 2 and b.dim() == 3:  # the tokens of mat_a cut into groups
        spans = bounds(offs, a.shape[0])
        pieces = [a[s:e] @ b[i] for i, (s, e) in enumerate(spans)]
        pieces.append(a.new_zeros(a.shape[0] - _end(spans), b.shape[-1]))
        return torch.cat(pieces, 0)
    if a.dim() == 3:  # the columns of mat_b cut into groups
        spans = bounds(offs, b.shape[1])
        pieces = [a[i] @ b[:, s:e] for i, (s, e) in enumerate(spans)]
        pieces.append(a.new_zeros(a.shape[1], b.shape[1] - _end(spans)))
        return torch.cat(pieces, 1)
    spans = bounds(offs, a.shape[1])  # both 2-D: the contraction cut into groups
    if not spans:
        return a.new_zeros(0, a.shape[0], b.shape[1])
    return torch.stack([a[:, s:e] @ b[s:e] for s, e in spans])
