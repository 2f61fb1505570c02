"""Regression tests for crashes and silent wrong answers (issue 15): each was a SIGFPE, a SIGSEGV, a
deadlock or a wrong value before. Every expectation is upstream PyTorch 2.13's (this file also runs
against it in tests-reference), except where a test says upstream itself crashes.

Crash cases run in a subprocess, so a regression fails the test instead of killing the run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import warnings

import pytest

import torch

REFERENCE = "TORCH_REFERENCE" in os.environ
INT_TYPES = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]
SIGNED = [torch.int8, torch.int16, torch.int32, torch.int64]


def run_isolated(code: str) -> subprocess.CompletedProcess:
    """Runs `code` in a fresh interpreter with this torch; a crash is a non-zero return code."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)


def assert_survives(code: str) -> str:
    p = run_isolated(code)
    assert p.returncode == 0, f"rc {p.returncode} (signal if negative)\n{p.stdout}\n{p.stderr}"
    return p.stdout


# ---- integer division: one checked helper (math::int_divide) for every quotient and remainder ----

DIVISIONS = {
    "floor_divide": lambda a, b: a // b,
    "remainder": lambda a, b: a % b,
    "fmod": torch.fmod,
    "div_trunc": lambda a, b: torch.div(a, b, rounding_mode="trunc"),
    "div_floor": lambda a, b: torch.div(a, b, rounding_mode="floor"),
}


@pytest.mark.parametrize("op", sorted(DIVISIONS))
@pytest.mark.parametrize("dtype", INT_TYPES, ids=str)
def test_integer_division_by_zero_raises(op, dtype):
    a = torch.tensor([5, 7, 9], dtype=dtype)
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        DIVISIONS[op](a, torch.tensor([1, 0, 1], dtype=dtype))
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        DIVISIONS[op](a, 0)


@pytest.mark.parametrize("op", sorted(DIVISIONS))
def test_a_scalar_that_wraps_to_zero_raises(op):
    # 65536 is 0 as int16: the check sees the divisor in the computation dtype, after the cast
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        DIVISIONS[op](torch.tensor([5], dtype=torch.int16), 65536)


@pytest.mark.parametrize("op", ["floor_divide", "remainder", "fmod", "div_floor"])
@pytest.mark.parametrize("dtype", SIGNED, ids=str)
def test_lowest_by_minus_one_wraps(op, dtype):
    lowest = torch.iinfo(dtype).min
    a = torch.tensor([lowest, 7, -7], dtype=dtype)
    got = DIVISIONS[op](a, -1).tolist()
    quotient = op in ("floor_divide", "div_floor")
    assert got == ([lowest, -7, 7] if quotient else [0, 0, 0])
    assert DIVISIONS[op](a, torch.full((3,), -1, dtype=dtype)).tolist() == got


@pytest.mark.skipif(REFERENCE, reason="upstream 2.13 itself dies of SIGFPE on this call")
@pytest.mark.parametrize("dtype", SIGNED, ids=str)
def test_lowest_by_minus_one_truncating(dtype):
    lowest = torch.iinfo(dtype).min
    assert torch.div(torch.tensor([lowest], dtype=dtype), -1, rounding_mode="trunc").tolist() == [lowest]


def test_division_by_zero_in_a_parallel_loop_raises():
    # big enough for the OpenMP loop: the exception of one chunk is rethrown on the calling thread
    a = torch.arange(1, 200_001)
    b = torch.ones(200_000, dtype=torch.int64)
    b[150_000] = 0
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        a // b
    assert (a // torch.ones_like(b)).equal(a)


def test_division_crashes_do_not_kill_the_process():
    out = assert_survives(
        """
        import torch
        for dtype in (torch.int8, torch.int16, torch.int32, torch.int64):
            lowest = torch.iinfo(dtype).min
            for f in (lambda a: a // -1, lambda a: a % -1, lambda a: torch.fmod(a, -1)):
                f(torch.tensor([lowest], dtype=dtype))
        print("ok")
        """
    )
    assert out.strip() == "ok"


# ---- views: one validation of sizes, strides and offset against the storage ----


def test_as_strided_negative_offset_is_refused():
    with pytest.raises(RuntimeError, match="invalid storage offset"):
        torch.ones(3).as_strided([1], [1], -(10**8))
    with pytest.raises(RuntimeError, match="invalid storage offset"):
        torch.ones(3).as_strided([1], [1], -1)


@pytest.mark.parametrize(
    "size, stride, offset",
    [([4], [1], 0), ([2], [1], 2), ([2, 2], [2, 1], 0), ([1], [1], 3), ([2], [2**62], 0)],
)
def test_as_strided_out_of_bounds_is_refused(size, stride, offset):
    with pytest.raises(RuntimeError, match="out of bounds for storage|overflow"):
        torch.ones(3).as_strided(size, stride, offset)


def test_as_strided_in_bounds_and_empty_views_work():
    x = torch.arange(6.0)
    assert x.as_strided([2, 2], [3, 1], 1).tolist() == [[1.0, 2.0], [4.0, 5.0]]
    assert x.as_strided([0], [1], 100).numel() == 0  # touches no element: any offset
    assert x.as_strided([3], [0], 5).tolist() == [5.0, 5.0, 5.0]


def test_as_strided_in_place_is_validated():
    x = torch.ones(3)
    with pytest.raises(RuntimeError, match="out of bounds for storage"):
        x.as_strided_([5], [1])
    assert x.shape == (3,)


def test_huge_sizes_are_refused():
    with pytest.raises(RuntimeError, match="overflow"):
        torch.empty(3).resize_(2**62)
    with pytest.raises(RuntimeError, match="overflow"):
        torch.empty(2**62)
    with pytest.raises(RuntimeError, match="overflow"):
        torch.empty(2**31, 2**31, 4)
    with pytest.raises(TypeError, match="Overflow"):
        torch.empty(2**63)
    with pytest.raises(RuntimeError, match="negative dimension|overflow"):  # upstream: "numel: ... overflow"
        torch.empty(3).resize_(-1)


def test_view_crashes_do_not_kill_the_process():
    assert_survives(
        """
        import torch
        for call in (lambda: torch.ones(3).as_strided([1], [1], -10**8).clone(),
                     lambda: torch.empty(3).resize_(2**62)[2**61],
                     lambda: torch.empty(2**63)):
            try:
                call()
            except (RuntimeError, TypeError, IndexError):
                pass
        """
    )


# ---- numbers written into tensors: one checked conversion ----


def test_clamp_bounds_promote_and_convert_checked():
    x = torch.tensor([6, 3, 200], dtype=torch.uint8)
    r = x.clamp(-3, 1e10)  # a float bound: the result is float, the int bound is not wrapped first
    assert r.dtype == torch.float32 and r.tolist() == [6.0, 3.0, 200.0]
    assert x.clamp(-3, 100).tolist() == [100, 100, 100]  # -3 as uint8 is 253, as in PyTorch
    with pytest.raises(RuntimeError, match="without overflow"):
        x.clamp(1, 300)
    with pytest.raises(RuntimeError, match="without overflow"):
        torch.tensor([1], dtype=torch.int8).clamp(min=-300)
    # both bounds and one NaN: upstream fills NaN before it reads the other bound (1e300 is not checked)
    for lo, hi in ((float("nan"), 1e300), (-1e300, float("nan"))):
        r = torch.tensor([1, 2, 3]).clip(min=lo, max=hi)
        assert r.dtype == torch.float32 and r.isnan().all()
    assert torch.ones(2, 3).t().clamp(0, float("nan")).isnan().all()
    with pytest.raises(RuntimeError, match="without overflow"):
        torch.tensor([1, 2, 3]).clip(min=0.5, max=1e300)
    with pytest.raises(NotImplementedError, match="clamp is not supported for complex types"):
        torch.ones(2, dtype=torch.complex64).clamp(0, float("nan"))


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan")])
def test_non_finite_into_integers_is_refused(value):
    x = torch.tensor([1, 2, 3])
    mask = torch.tensor([True, False, True])
    with pytest.raises(RuntimeError, match="without overflow"):
        x.masked_fill(mask, value)
    with pytest.raises(RuntimeError, match="without overflow"):
        x[0] = value
    with pytest.raises(RuntimeError, match="without overflow"):
        x[torch.tensor([0])] = value
    with pytest.raises(RuntimeError, match="without overflow"):
        x.scatter(0, torch.tensor([0]), value)
    assert x.tolist() == [1, 2, 3]


def test_numbers_that_fit_are_converted_as_pytorch_does():
    x = torch.tensor([1, 2, 3], dtype=torch.uint8)
    assert x.masked_fill(torch.tensor([True, False, True]), -1).tolist() == [255, 2, 255]
    with pytest.raises(RuntimeError, match="uint8_t without overflow"):
        x.masked_fill(torch.tensor([True, False, True]), 300)
    with pytest.raises(RuntimeError, match="uint8_t without overflow"):
        x[0] = 300
    y = torch.tensor([1, 2, 3])
    y[:] = 2.7
    assert y.tolist() == [2, 2, 2]
    assert torch.tensor([1, 2, 3]).masked_fill(torch.tensor([True, True, False]), 2.5).tolist() == [2, 2, 3]


def test_index_put_needs_matching_dtypes():
    x = torch.tensor([1, 2, 3])
    with pytest.raises(RuntimeError, match="Index put requires the source and destination dtypes match"):
        x.index_put_((torch.tensor([0]),), torch.tensor(float("inf")))
    assert x.tolist() == [1, 2, 3]


# ---- indices ----


def test_uint8_index_is_a_mask_with_a_deprecation_warning():
    x = torch.tensor([10, 20, 30])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = x[torch.tensor([1, 0, 1], dtype=torch.uint8)]
    assert got.tolist() == [10, 30]
    assert any("torch.uint8 is now deprecated" in str(w.message) for w in caught)


@pytest.mark.parametrize("index", [-1, -4, 3])
def test_index_select_refuses_out_of_range_and_negative(index):
    x = torch.tensor([10, 20, 30])
    with pytest.raises(IndexError, match="index out of range in self"):
        x.index_select(0, torch.tensor([index]))
    with pytest.raises(IndexError, match="index out of range in self"):
        x.index_add(0, torch.tensor([index]), torch.tensor([5]))


@pytest.mark.parametrize("index", [-1, 3])
def test_gather_and_scatter_refuse_out_of_range_and_negative(index):
    x = torch.tensor([1.0, 2.0, 3.0])
    idx = torch.tensor([index])
    for call in (lambda: x.gather(0, idx), lambda: x.scatter(0, idx, torch.tensor([5.0]))):
        with pytest.raises(RuntimeError, match=f"index {index} is out of bounds for dimension 0 with size 3"):
            call()


def test_take_and_put_wrap_negative_indices():
    x = torch.tensor([1.0, 2.0, 3.0])
    assert x.take(torch.tensor([-1])).tolist() == [3.0]
    assert x.clone().put_(torch.tensor([-1]), torch.tensor([5.0])).tolist() == [1.0, 2.0, 5.0]


# ---- the bool invariant ----


def test_bool_view_of_bytes_reads_as_true_and_false():
    b = torch.tensor([0, 1, 2, 255], dtype=torch.uint8).view(torch.bool)
    assert b.tolist() == [False, True, True, True]
    assert b.int().tolist() == [0, 1, 1, 1]
    assert (b == True).tolist() == [False, True, True, True]  # noqa: E712
    assert b.logical_not().tolist() == [True, False, False, False]
    assert b.sum().item() == 3
    assert b.all().item() is False and b[1:].all().item() is True
    assert b.nonzero().flatten().tolist() == [1, 2, 3]
    assert torch.where(b, 1, 0).tolist() == [0, 1, 1, 1]


# ---- joins ----


@pytest.mark.parametrize(
    "dtypes, expected",
    [
        ((torch.float64, torch.int32), torch.float64),
        ((torch.int32, torch.float64), torch.float64),
        ((torch.int64, torch.float32), torch.float32),
        ((torch.float64, torch.uint8), torch.float64),
        ((torch.bool, torch.float16), torch.float16),
    ],
)
def test_cat_promotes_over_skipped_empty_inputs(dtypes, expected):
    first, second = dtypes
    assert torch.cat([torch.empty(0, dtype=first), torch.tensor([1, 2]).to(second)]).dtype == expected
    assert torch.cat([torch.tensor([1, 2]).to(first), torch.empty(0, dtype=second)]).dtype == expected
    assert torch.cat([torch.empty(0, dtype=first), torch.empty(0, dtype=second)]).dtype == expected


# ---- threads ----


def test_first_advanced_indexing_from_many_threads_does_not_deadlock():
    # the first advanced index imports torch._indexing; a C++ static guard held across that import
    # (which releases the GIL) deadlocked every run with four threads
    out = assert_survives(
        """
        import threading, torch
        x = torch.arange(20).reshape(4, 5)
        results, barrier = [], threading.Barrier(4)
        def work(i):
            barrier.wait()
            results.append(x[torch.tensor([i]), 3].item())
        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        [t.start() for t in threads]
        [t.join(60) for t in threads]
        print(sorted(results))
        """
    )
    assert out.strip() == "[3, 8, 13, 18]"


def test_threads_doing_ops_indexing_and_backward_get_right_results():
    errors = []

    def work(seed: int) -> None:
        try:
            for step in range(30):
                a = torch.arange(300.0, dtype=torch.float64).reshape(10, 30) + seed + step
                w = torch.full((30, 4), 0.5, dtype=torch.float64, requires_grad=True)
                y = (a @ w)[torch.tensor([1, 3]), 2:].sum()
                y.backward()
                expected = a[[1, 3]].sum(0)
                assert torch.allclose(w.grad[:, 2], expected) and torch.allclose(w.grad[:, 3], expected)
                assert (w.grad[:, :2] == 0).all()
                assert (a // 7).equal(torch.floor_divide(a, 7)) and a.sum().item() == a.numpy().sum()
                # big enough that the bindings release the GIL: the kernels run on several threads at once
                big = torch.arange(50_000, dtype=torch.float64) + seed
                assert (big * 2 - big).equal(big) and big.sum().item() == 50_000 * seed + 49_999 * 25_000
                assert big[big > seed + 49_990].tolist() == [seed + 49_991.0 + i for i in range(9)]
                r = torch.empty(50_000).uniform_()  # one default generator, drawn from by every thread
                assert 0 <= r.min().item() and r.max().item() < 1
        except Exception as e:  # noqa: BLE001  (reported on the main thread)
            errors.append(repr(e))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    assert errors == []


def test_integers_to_negative_integer_powers_are_refused():
    for call in (lambda: torch.tensor([1, 2]).pow(-1), lambda: torch.tensor([0]) ** -2):
        with pytest.raises(RuntimeError, match="Integers to negative integer powers are not allowed"):
            call()
    assert torch.tensor([1, 2]).pow(torch.tensor([-1, 2])).tolist() == [1, 4]  # tensor exponents compute
    assert torch.tensor([2.0]).pow(-1).tolist() == [0.5]


def test_empty_shapes_never_overflow():
    assert torch.zeros(0).as_strided([2**62, 0], [1, 1]).sum().item() == 0
    assert torch.empty(2**62, 0).shape == (2**62, 0)


def test_unflatten_of_a_0_dim_tensor_raises():
    # found by the fuzz (SIGSEGV: the size of dim 0 read from an empty shape)
    for dtype in (torch.uint8, torch.float32):
        with pytest.raises(RuntimeError, match="Dimension specified as 0 but tensor has no dimensions"):
            torch.tensor(3, dtype=dtype).unflatten(0, (1, 1))


def test_in_place_ops_never_resize_an_empty_self():
    x = torch.zeros((0,), dtype=torch.int32)
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
        x.gt_(torch.zeros((1, 0), dtype=torch.int32))
    assert x.shape == (0,)


def test_round_decimals_of_16_bit_floats_scales_in_float32():
    for dtype in (torch.float16, torch.bfloat16):
        x = torch.tensor([-65504.0, 1.2345, 3.14159], dtype=dtype)
        want = torch.round(x.float(), decimals=2).to(dtype)
        assert torch.round(x, decimals=2).tolist() == want.tolist()


def test_set_num_threads_holds_for_threads_started_later():
    # one count for the process, as in PyTorch (OpenMP's own setting is per calling thread)
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        seen = []
        t = threading.Thread(target=lambda: seen.append(torch.get_num_threads()))
        t.start()
        t.join()
        assert seen == [1]
    finally:
        torch.set_num_threads(before)


def test_integer_arithmetic_wraps():
    # two's complement, as in PyTorch (computed in the unsigned type: never undefined behaviour)
    big = torch.tensor([2**62, -(2**63)])
    assert (big * 4).tolist() == [0, 0]
    assert (big + big).tolist() == [-(2**63), 0]
    assert torch.tensor([2**31 - 1], dtype=torch.int32).add(1).tolist() == [-(2**31)]
    assert torch.tensor([3]).pow(41).tolist() == [(3**41 + 2**63) % 2**64 - 2**63]
    assert torch.tensor([2**62, 2**62]).sum().item() == -(2**63)


def test_in_place_shifts_never_resize_an_empty_self():
    # found by the fuzz (seed 1): the shifts are composites whose in-place form copies the result back
    x = torch.zeros((3, 0), dtype=torch.int16)
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
        x.bitwise_right_shift_(torch.tensor([[[-9]]], dtype=torch.int32))
    assert x.shape == (3, 0)


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.uint8], ids=str)
def test_tensor_of_mixed_ints_and_floats_converts_each_number_exactly(dtype):
    # found by the fuzz: the list was parsed as float64 first, and 2**63 - 1 rounded up and wrapped
    if dtype == torch.int64:
        assert torch.tensor([2**63 - 1, -3.0], dtype=dtype).tolist() == [2**63 - 1, -3]
        assert torch.tensor([[-(2**63), -2.7]], dtype=dtype).tolist() == [[-(2**63), -2]]
    assert torch.tensor([True, 2.5], dtype=dtype).tolist() == [1, 2]
    assert torch.tensor([-1, 2.9], dtype=dtype).tolist() == ([255, 2] if dtype == torch.uint8 else [-1, 2])
    with pytest.raises(RuntimeError, match="without overflow"):
        torch.tensor([float("nan"), 1], dtype=dtype)
    with pytest.raises(ValueError, match="Overflow when unpacking long long"):
        torch.tensor([2**63, 1.0], dtype=dtype)
