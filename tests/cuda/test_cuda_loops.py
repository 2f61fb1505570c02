"""THC's elementwise loop (THC/Loops.cuh) on each of its paths, against the CPU: the vectorized
contiguous kernel (every pointer aligned: 16-byte loads and stores, then a partial last vector), the
contiguous kernel with a misaligned operand (a view at an odd offset: element by element), and the
strided kernel (transposed, broadcast); for every arity (fill 0, unary 1, binary 2, where 3), outputs of
another type (comparisons to bool, complex abs to real) and bool inputs holding bytes other than 0/1.
Skips, with one reason, where no GPU is present."""

from __future__ import annotations

import numpy as np
import pytest

import torch

pytestmark = pytest.mark.cuda

DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32, torch.uint8,
          torch.bool, torch.complex64]  # fmt: skip
SIZES = [1, 3, 8, 17, 1000, 4099, (1 << 20) + 5]


def sample(n: int, dtype: torch.dtype, seed: int, offset: int = 0) -> torch.Tensor:
    """n values of `dtype` starting `offset` elements into a larger tensor (offset 1: a misaligned view)."""
    g = torch.Generator().manual_seed(seed)
    if dtype == torch.bool:
        base = torch.randint(0, 2, (n + offset,), generator=g).bool()
    elif dtype.is_complex:
        base = torch.randn(n + offset, dtype=dtype, generator=g)
    elif dtype.is_floating_point:
        base = torch.randn(n + offset, generator=g).to(dtype)
    else:
        base = torch.randint(1, 50, (n + offset,), generator=g).to(dtype)
    return base[offset:]


def same(got: torch.Tensor, want: torch.Tensor) -> None:
    assert got.device.type == "cuda" and got.dtype == want.dtype and got.shape == want.shape
    g, w = got.cpu(), want
    if w.dtype in (torch.float16, torch.bfloat16):
        g, w = g.float(), w.float()
    if w.is_floating_point() or w.is_complex():
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-2 if got.element_size() == 2 else 1e-6)
    else:
        np.testing.assert_array_equal(g.numpy(), w.numpy())


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("offset", [0, 1])
def test_binary_unary_compare_where_on_every_path(dtype, n, offset):
    a, b = sample(n, dtype, 1, offset), sample(n, dtype, 2)
    ca, cb = a.cuda(), b.cuda()
    if offset:  # the view keeps the offset on the device too
        ca = torch.cat([torch.zeros(1, dtype=dtype), a]).cuda()[1:]
        assert ca.storage_offset() == 1
    if dtype != torch.bool:
        same(ca + cb, a + b)
        same(ca * cb, a * b)
        same(ca * 3, a * 3)  # a Python number
        same(-ca if dtype != torch.uint8 else ca.neg(), -a if dtype != torch.uint8 else a.neg())
    same(ca == cb, a == b)
    if not dtype.is_complex:
        same(ca < cb, a < b)
        same(torch.maximum(ca, cb), torch.maximum(a, b))
    same(torch.where(ca != cb, ca, cb), torch.where(a != b, a, b))
    if dtype.is_complex:
        same(ca.abs(), a.abs())  # complex in, real out
    out = torch.empty(n, dtype=dtype, device="cuda")
    out.fill_(True if dtype == torch.bool else 7)  # arity 0
    same(out, torch.full((n,), True if dtype == torch.bool else 7, dtype=dtype))


def test_strided_and_broadcast_paths():
    a = torch.randn(513, 257)
    b = torch.randn(257)
    ca, cb = a.cuda(), b.cuda()
    same(ca.t() * 2, a.t() * 2)
    same(ca + cb, a + b)
    same(ca.t().contiguous().t() + ca, a + a)
    same(ca[:, ::2].exp(), a[:, ::2].exp())


def test_bool_inputs_with_bytes_other_than_one():
    raw = torch.tensor([0, 1, 2, 255] * 1025, dtype=torch.uint8)
    b = raw.view(torch.bool)
    cb = raw.cuda().view(torch.bool)
    for got, want in ((cb & cb, b & b), (cb == cb, b == b), (~cb, ~b), (cb.int(), b.int())):
        same(got, want)
    assert (cb.int().cpu() == torch.tensor([0, 1, 1, 1] * 1025, dtype=torch.int32)).all()
