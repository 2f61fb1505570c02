"""`<<` / `>>` and bitwise_left_shift / bitwise_right_shift (+ in place, reflected): NumPy for in-range
shifts on every integer dtype, PyTorch's rules for the rest (shifts < 0 or >= the width, promotion,
floating inputs). Runs against upstream too."""

from __future__ import annotations

import numpy as np
import pytest

import torch

INTS = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]


def np_dtype(dtype):
    return np.dtype(str(dtype).split(".")[1])


@pytest.mark.parametrize("dtype", INTS)
def test_in_range_shifts_match_numpy(dtype):
    info = np.iinfo(np_dtype(dtype))
    bits = info.bits
    rng = np.random.default_rng(bits)
    a = rng.integers(info.min, info.max, size=200, endpoint=True, dtype=np_dtype(dtype))
    s = rng.integers(0, bits, size=200).astype(np_dtype(dtype))
    t, ts = torch.from_numpy(a.copy()), torch.from_numpy(s.copy())
    np.testing.assert_array_equal((t << ts).numpy(), np.left_shift(a, s))
    np.testing.assert_array_equal((t >> ts).numpy(), np.right_shift(a, s))
    np.testing.assert_array_equal(torch.bitwise_left_shift(t, 3).numpy(), np.left_shift(a, np_dtype(dtype).type(3)))
    np.testing.assert_array_equal(t.bitwise_right_shift(bits - 1).numpy(), np.right_shift(a, s.dtype.type(bits - 1)))


def test_out_of_range_shifts():
    a = torch.tensor([-128, -5, -1, 0, 1, 5, 127], dtype=torch.int8)
    for s in (8, 9, -1):
        assert (a << s).tolist() == [0] * 7
        assert (a >> s).tolist() == [-1, -1, -1, 0, 0, 0, 0]
    u = torch.tensor([0, 1, 200, 255], dtype=torch.uint8)
    assert (u >> 8).tolist() == [0] * 4 and (u << 7).tolist() == [0, 128, 0, 128]
    s = torch.tensor([-1, 0, 3, 7, 8, 63, 64])
    assert (torch.tensor(-100) >> s).tolist() == [-1, -100, -13, -1, -1, -1, -1]
    assert (torch.tensor(100, dtype=torch.int16) << s).tolist() == [0, 100, 800, 12800, 25600, 0, 0]


def test_promotion_reflection_and_in_place():
    a = torch.tensor([1, 2], dtype=torch.int8)
    assert (a << 2).dtype == torch.int8 and (a << torch.tensor([1, 1])).dtype == torch.int64
    assert (2 << a).tolist() == [4, 8] and (2 << a).dtype == torch.int8
    assert (64 >> a).tolist() == [32, 16]
    assert (torch.tensor([True]) << 1).tolist() == [2]
    b = a.clone()
    b <<= 3
    assert b.tolist() == [8, 16] and b.dtype == torch.int8
    b >>= 1
    assert b.tolist() == [4, 8]
    assert a.clone().bitwise_left_shift_(1).tolist() == [2, 4]


def test_errors():
    with pytest.raises(NotImplementedError, match="not implemented for 'Float'"):
        torch.tensor([1.5]) << 1
    with pytest.raises(TypeError):
        torch.tensor([1]) << "a"
    b = torch.tensor([1], dtype=torch.int8)
    b <<= torch.tensor([1])  # an int64 result casts back into int8 (same kind), as in PyTorch
    assert b.tolist() == [2] and b.dtype == torch.int8


def test_bool_shifts_are_refused_as_upstream():
    b = torch.tensor([True, False])
    for call, kernel in (
        (lambda: b << torch.tensor([True]), "lshift_cpu"),
        (lambda: b >> True, "rshift_cpu"),
        (lambda: torch.bitwise_left_shift(b, b), "lshift_cpu"),
    ):
        with pytest.raises(NotImplementedError, match=f"\"{kernel}\" not implemented for 'Bool'"):
            call()
    assert (b << 1).dtype == torch.int64  # a Python int promotes bool to int64


def test_layout_out_and_the_count_read_in_the_dtype():
    t = torch.arange(6, dtype=torch.int16).view(2, 3).T  # strides (1, 3)
    assert (t << 1).stride() == (1, 3) and (t >> torch.ones(3, 2, dtype=torch.int16)).stride() == (1, 3)
    out = torch.empty(0, dtype=torch.int64)
    assert torch.bitwise_left_shift(t, 2, out=out) is out and out.tolist() == (t * 4).tolist()
    u = torch.tensor([1, 200], dtype=torch.uint8)
    assert (u << 257).tolist() == [2, 144]  # 257 read as uint8 is 1
    assert (u >> 256).tolist() == [1, 200]  # 256 read as uint8 is 0
    assert (torch.tensor([5], dtype=torch.int8) << 2**40).tolist() == [5]
    assert torch.bitwise_right_shift(2**40, torch.tensor([1], dtype=torch.int32)).tolist() == [0]
