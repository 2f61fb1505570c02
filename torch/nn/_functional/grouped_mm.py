"""F.grouped_mm (upstream 2.13): the grouped matrix products of a Mixture-of-Experts layer; the op is
torch._grouped_mm (torch/_refs/grouped_mm.py), as upstream's F.grouped_mm is."""

from __future__ import annotations

import torch

__all__ = ["grouped_mm"]


def grouped_mm(mat_a, mat_b, *, offs=None, bias=None, out_dtype=None):
    """Grouped matrix products, one per group of a jagged (2-D) operand cut at `offs` (int32 group ends), or
    the batched product of two 3-D operands: torch._grouped_mm, whose docstring gives the four layouts."""
    return torch._grouped_mm(mat_a, mat_b, offs=offs, bias=bias, out_dtype=out_dtype)
