"""F.grouped_mm's four layouts (2-D x 3-D, 3-D x 2-D, 2-D x 2-D with offs; 3-D x 3-D without) against
per-group products, rows or columns past the last offset zero, its gradients, and upstream's errors. The
operands are laid out as upstream's grouped GEMM requires (mat_b column-major, 16-byte strides), so the
tests also run on upstream 2.13."""

from __future__ import annotations

import os

import numpy as np
import pytest

import torch
import torch.nn.functional as F

RNG = np.random.default_rng(29)
OFFS = torch.tensor([2, 4, 8], dtype=torch.int32)


def _t(*shape):
    return torch.from_numpy(RNG.standard_normal(shape).astype(np.float32))


def _col_major(*shape):
    """A (..., K, N) operand stored column-major, as upstream's kernel wants mat_b."""
    return _t(*shape[:-2], shape[-1], shape[-2]).transpose(-2, -1)


def test_tokens_cut_into_groups():
    a, b = _t(10, 4), _col_major(3, 4, 8)  # 10 rows: the last 2 past offs[-1]
    got = F.grouped_mm(a, b, offs=OFFS)
    assert got.shape == (10, 8)
    for i, (s, e) in enumerate([(0, 2), (2, 4), (4, 8)]):
        torch.testing.assert_close(got[s:e], a[s:e] @ b[i])
    if "TORCH_REFERENCE" not in os.environ:  # upstream leaves those rows uninitialized
        assert not got[8:].any()  # past offs[-1]


def test_columns_cut_into_groups():
    a, b = _t(3, 4, 4), _col_major(4, 8)
    got = F.grouped_mm(a, b, offs=OFFS)
    assert got.shape == (4, 8)
    for i, (s, e) in enumerate([(0, 2), (2, 4), (4, 8)]):
        torch.testing.assert_close(got[:, s:e], a[i] @ b[:, s:e])


def test_contraction_cut_into_groups():
    a, b = _t(4, 8), _col_major(8, 4)
    got = F.grouped_mm(a, b, offs=OFFS)
    assert got.shape == (3, 4, 4)
    for i, (s, e) in enumerate([(0, 2), (2, 4), (4, 8)]):
        torch.testing.assert_close(got[i], a[:, s:e] @ b[s:e])


def test_batched():
    a, b = _t(3, 4, 4), _col_major(3, 4, 8)
    torch.testing.assert_close(F.grouped_mm(a, b), a @ b)


@pytest.mark.skipif("TORCH_REFERENCE" in os.environ, reason="upstream's CPU backward fails on mat_b's layout")
def test_gradients_are_those_of_the_per_group_products():
    a, b = _t(8, 4).requires_grad_(), _col_major(3, 4, 8).detach().requires_grad_()
    F.grouped_mm(a, b, offs=OFFS).sum().backward()
    a2, b2 = a.detach().clone().requires_grad_(), b.detach().clone().requires_grad_()
    torch.cat([a2[0:2] @ b2[0], a2[2:4] @ b2[1], a2[4:8] @ b2[2]]).sum().backward()
    torch.testing.assert_close(a.grad, a2.grad)
    torch.testing.assert_close(b.grad, b2.grad)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: F.grouped_mm(_t(8, 4), _col_major(3, 4, 8)), "Have to provide offsets if there is a 2d matrix"),
        (lambda: F.grouped_mm(_t(3, 4, 4), _col_major(3, 4, 8), offs=OFFS), "Have to provide offsets"),
        (lambda: F.grouped_mm(_t(8, 4), _col_major(3, 4, 8), offs=OFFS.long()), "Offsets have to be int32"),
        (
            lambda: F.grouped_mm(_t(8, 4), _col_major(3, 4, 8), offs=torch.tensor([2, 4], dtype=torch.int32)),
            "matrix batch sizes have to match",
        ),
        (lambda: F.grouped_mm(_t(8, 4), _col_major(3, 8, 8), offs=OFFS), "contraction dimension of mat_a and mat_b"),
        (lambda: F.grouped_mm(_t(4), _col_major(3, 4, 8), offs=OFFS), "mat_a has to be 2 or 3d"),
        (
            lambda: F.grouped_mm(_t(8, 4).double(), _col_major(3, 4, 8).double(), offs=OFFS),
            "Expected mat_a to be Float32, BFloat16 or Float16 matrix, got Double",
        ),
        (lambda: F.grouped_mm(_t(8, 4), _col_major(3, 4, 8), offs=OFFS, bias=_t(3, 8)), "Bias not supported yet"),
        (
            lambda: F.grouped_mm(_t(8, 4), _col_major(3, 4, 8), offs=OFFS, out_dtype=torch.float64),
            "Grouped gemm output dtype must match `mat_a` dtype",
        ),
    ],
)
def test_errors(call, message):
    with pytest.raises(RuntimeError, match=message):
        call()


@pytest.mark.skipif("TORCH_REFERENCE" in os.environ, reason="upstream does not check the offsets' order")
def test_decreasing_offsets_are_refused():
    with pytest.raises(RuntimeError, match="offs must be non-decreasing"):
        F.grouped_mm(_t(8, 4), _col_major(3, 4, 8), offs=torch.tensor([4, 2, 8], dtype=torch.int32))


@pytest.mark.skipif("TORCH_REFERENCE" in os.environ, reason="upstream's CPU kernel wants 16-byte-aligned layouts")
def test_any_layout_and_16_bit_accumulating_in_float32():
    a, b = _t(8, 3).bfloat16(), _t(3, 3, 5).bfloat16()  # row-major mat_b, strides of 10 bytes
    got = F.grouped_mm(a, b, offs=OFFS, out_dtype=torch.float32)
    assert got.dtype == torch.float32
    torch.testing.assert_close(got[2:4], a[2:4].float() @ b[1].float())
