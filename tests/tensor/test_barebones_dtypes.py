"""The "barebones" dtypes: uint16/uint32/uint64 and float8_e4m3fn/float8_e5m2. As upstream has them, they are
made, copied, converted to and from every dtype, indexed, joined, printed, saved and handed to NumPy; they
promote with no other dtype (upstream's two messages) and most arithmetic kernels refuse them. Conversions
are checked against their definitions: every float8 bit pattern decoded, round-to-nearest-even at every
midpoint, e4m3fn saturating at 448 and e5m2 overflowing to infinity (upstream's `to`). Passes on upstream too.
"""

from __future__ import annotations

import io
import math

import numpy as np
import pytest

import torch

UINTS = ["uint16", "uint32", "uint64"]
FLOAT8S = ["float8_e4m3fn", "float8_e5m2"]
BITS = {"uint16": 16, "uint32": 32, "uint64": 64}


def dt(name):
    return getattr(torch, name)


@pytest.mark.parametrize("name", UINTS + FLOAT8S)
def test_dtype_attributes(name):
    d = dt(name)
    assert repr(d) == f"torch.{name}"
    assert d.itemsize == (BITS[name] // 8 if name in BITS else 1)
    assert d.is_signed == (name in FLOAT8S)
    assert d.is_floating_point == (name in FLOAT8S)
    assert not d.is_complex
    assert torch.promote_types(d, d) == d


@pytest.mark.parametrize("name", UINTS)
def test_unsigned_make_convert_and_numpy(name):
    d, np_type = dt(name), getattr(np, name)
    assert torch.zeros(3, dtype=d).tolist() == [0, 0, 0]
    assert torch.full((2,), 7, dtype=d).tolist() == [7, 7]
    t = torch.tensor([1, 2, 3], dtype=d)
    assert t.dtype == d and t.tolist() == [1, 2, 3] and t.element_size() == BITS[name] // 8
    # from int64 and float, wrapping as C does (a float through int64, as c10's)
    big = torch.tensor([-1, 70000, 2**40 + 5])
    np.testing.assert_array_equal(big.to(d).numpy(), big.numpy().astype(np_type))
    assert torch.tensor([-3.7, 300.7]).to(d).tolist() == [2 ** BITS[name] - 3, 300]
    # to every other dtype and back
    for other in (torch.float32, torch.float64, torch.int64, torch.int32, torch.uint8, torch.bool, torch.float16):
        assert torch.equal(t.to(other), torch.tensor([1, 2, 3]).to(other))
    assert t.to(torch.complex64).tolist() == [1, 2, 3]
    # NumPy both ways, sharing memory
    a = np.array([5, 2 ** BITS[name] - 1, 0], dtype=np_type)
    u = torch.from_numpy(a)
    assert u.dtype == d and u.tolist() == a.tolist() and u.numpy().dtype == np_type
    assert u[1].item() == 2 ** BITS[name] - 1
    u[0] = 9
    assert a[0] == 9


def test_uint64_from_python_ints_past_int64():
    t = torch.tensor([[2**64 - 1, 0], [2**63, 5]], dtype=torch.uint64)
    assert t.shape == (2, 2) and t.tolist() == [[2**64 - 1, 0], [2**63, 5]]
    with pytest.raises(OverflowError, match="can't convert negative int to unsigned"):
        torch.tensor([-1], dtype=torch.uint64)
    with pytest.raises(OverflowError, match="int too big to convert"):
        torch.tensor([2**64], dtype=torch.uint64)


def _e4m3fn_value(bits: int) -> float:
    sign = -1.0 if bits & 0x80 else 1.0
    exp, man = (bits >> 3) & 0xF, bits & 0x7
    if bits & 0x7F == 0x7F:
        return math.nan
    if exp == 0:
        return sign * man * 2.0**-9
    return sign * (1 + man / 8) * 2.0 ** (exp - 7)


def _e5m2_value(bits: int) -> float:
    sign = -1.0 if bits & 0x80 else 1.0
    exp, man = (bits >> 2) & 0x1F, bits & 0x3
    if exp == 31:
        return sign * math.inf if man == 0 else math.nan
    if exp == 0:
        return sign * man * 2.0**-16
    return sign * (1 + man / 4) * 2.0 ** (exp - 15)


DECODE = {"float8_e4m3fn": _e4m3fn_value, "float8_e5m2": _e5m2_value}


@pytest.mark.parametrize("name", FLOAT8S)
def test_every_float8_bit_pattern_decodes_and_round_trips(name):
    f8 = torch.arange(256, dtype=torch.int32).to(torch.uint8).view(dt(name))
    got = f8.float().tolist()
    want = [DECODE[name](b) for b in range(256)]
    for b, (g, w) in enumerate(zip(got, want)):
        assert (math.isnan(g) and math.isnan(w)) or g == w, (b, g, w)
    back = torch.tensor(want, dtype=torch.float32).to(dt(name)).view(torch.uint8).tolist()
    for b in range(256):
        if not math.isnan(want[b]):
            assert back[b] == b, (b, back[b])


@pytest.mark.parametrize("name", FLOAT8S)
def test_float8_rounds_to_nearest_even(name):
    """At the midpoint of two neighbours a value goes to the one with an even last bit; just past it, up."""
    values = sorted({v for v in (DECODE[name](b) for b in range(0x7F)) if math.isfinite(v) and v >= 0})
    lo, hi = torch.tensor(values[:-1], dtype=torch.float64), torch.tensor(values[1:], dtype=torch.float64)
    mid = (lo + hi) / 2
    got = mid.float().to(dt(name)).double()
    lo_bits = lo.float().to(dt(name)).view(torch.uint8).to(torch.int64)
    even = torch.where(lo_bits % 2 == 0, lo, hi)
    assert torch.equal(got, even)
    nudge = mid + (hi - lo) * 1e-3
    assert torch.equal(nudge.float().to(dt(name)).double(), hi)
    assert torch.equal((-mid).float().to(dt(name)).double(), -even)


def test_float8_range_ends_as_upstream():
    x = torch.tensor([1000.0, -1e9, math.inf, -math.inf, math.nan, 1e-9, 449.0, 464.0, 480.0, 600.0])
    e4 = x.to(torch.float8_e4m3fn).float().tolist()
    assert e4[:4] == [448.0, -448.0, 448.0, -448.0] and math.isnan(e4[4]) and e4[5:9] == [0.0, 448.0, 448.0, 448.0]
    e5 = x.to(torch.float8_e5m2).float().tolist()
    assert e5[:4] == [1024.0, -math.inf, math.inf, -math.inf] and math.isnan(e5[4])
    assert e5[5:] == [0.0, 448.0, 448.0, 512.0, 640.0]
    assert torch.full((1,), 1000.0, dtype=torch.float8_e4m3fn).item() == 448.0


@pytest.mark.parametrize("name", UINTS + FLOAT8S)
def test_move_index_join_and_print(name):
    d = dt(name)
    t = torch.tensor([[1, 2, 3], [4, 5, 6]]).to(d)
    assert t.t().contiguous().to(torch.int64).tolist() == [[1, 4], [2, 5], [3, 6]]
    assert t.clone().to(torch.int64).tolist() == [[1, 2, 3], [4, 5, 6]]
    assert t[:, torch.tensor([2, 0])].to(torch.int64).tolist() == [[3, 1], [6, 4]]
    assert t[1, 2].item() == 6
    assert torch.cat([t, t]).shape == (4, 3) and torch.stack([t, t]).dtype == d
    assert t.view(torch.uint8).numel() == 6 * d.itemsize
    t[0] = torch.tensor([7, 8, 12]).to(d)
    assert t.to(torch.int64).tolist() == [[7, 8, 12], [4, 5, 6]]
    assert repr(torch.tensor([1, 2]).to(d)) == (
        f"tensor([1, 2], dtype=torch.{name})" if name in UINTS else f"tensor([1., 2.], dtype=torch.{name})"
    )
    assert torch.empty(0, dtype=d).tolist() == []


def test_promotion_is_refused_as_upstream():
    u = torch.tensor([1, 2], dtype=torch.uint16)
    with pytest.raises(RuntimeError, match="Promotion for uint16, uint32, uint64 types is not supported"):
        torch.promote_types(torch.uint16, torch.int64)
    with pytest.raises(RuntimeError, match="Promotion for uint16, uint32, uint64 types is not supported"):
        u + torch.tensor([1, 2])
    with pytest.raises(RuntimeError, match="Promotion for Float8 Types is not supported"):
        torch.promote_types(torch.float8_e4m3fn, torch.float32)
    with pytest.raises(RuntimeError, match="Promotion for Float8 Types is not supported"):
        torch.tensor([1.0]).to(torch.float8_e5m2) + torch.tensor([1.0])


def test_float8_has_no_numpy_dtype():
    with pytest.raises(TypeError, match="Got unsupported ScalarType Float8_e4m3fn"):
        torch.zeros(2, dtype=torch.float8_e4m3fn).numpy()


def test_type_info():
    assert torch.iinfo(torch.uint16).max == 2**16 - 1 and torch.iinfo(torch.uint64).max == 2**64 - 1
    assert torch.iinfo(torch.uint32).min == 0 and torch.iinfo(torch.uint32).bits == 32
    e4, e5 = torch.finfo(torch.float8_e4m3fn), torch.finfo(torch.float8_e5m2)
    assert (e4.bits, e4.max, e4.min, e4.eps, e4.tiny) == (8, 448.0, -448.0, 0.125, 2.0**-6)
    assert (e5.bits, e5.max, e5.min, e5.eps, e5.tiny) == (8, 57344.0, -57344.0, 0.25, 2.0**-14)
    with pytest.raises(TypeError):
        torch.iinfo(torch.float8_e5m2)


@pytest.mark.parametrize("name", UINTS + FLOAT8S + ["complex64", "complex128"])
def test_save_and_load(name):
    d = dt(name)
    t = torch.tensor([[1, 2, 3], [4, 5, 6]]).to(d)[:, 1:]
    buf = io.BytesIO()
    torch.save({"t": t, "w": torch.ones(2)}, buf)
    buf.seek(0)
    back = torch.load(buf)
    assert back["t"].dtype == d and torch.equal(back["t"].to(torch.complex128), t.to(torch.complex128))
    assert torch.equal(back["w"], torch.ones(2))
