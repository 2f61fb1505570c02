"""torch.utils.deterministic.fill_uninitialized_memory: under use_deterministic_algorithms(True), the memory of
torch.empty and its kin (and what resize_ adds) holds NaN / the integer dtype's largest value / True."""

import math

import pytest

import torch
import torch.utils.deterministic as deterministic


@pytest.fixture
def deterministic_mode():
    prev_mode = torch.are_deterministic_algorithms_enabled()
    prev_fill = deterministic.fill_uninitialized_memory
    torch.use_deterministic_algorithms(True)
    yield
    torch.use_deterministic_algorithms(prev_mode)
    deterministic.fill_uninitialized_memory = prev_fill


def _all(t, value):
    flat = t.reshape(-1).tolist()
    if isinstance(value, float) and math.isnan(value):
        return all(math.isnan(v) for v in flat)
    return all(v == value for v in flat)


def test_default_is_true():
    assert deterministic.fill_uninitialized_memory is True


@pytest.mark.parametrize(
    "dtype, value",
    [
        (torch.float32, float("nan")),
        (torch.float64, float("nan")),
        (torch.float16, float("nan")),
        (torch.int32, 2**31 - 1),
        (torch.int64, 2**63 - 1),
        (torch.int16, 2**15 - 1),
        (torch.uint8, 255),
        (torch.bool, True),
    ],
)
def test_factories_fill(deterministic_mode, dtype, value):
    like = torch.zeros(2, 3, dtype=dtype)
    for t in (
        torch.empty(2, 3, dtype=dtype),
        torch.empty_like(like),
        torch.empty_strided((2, 3), (1, 2), dtype=dtype),
        like.new_empty((4,)),
        like.new_empty_strided((2, 2), (2, 1)),
        torch.empty_permuted((2, 3), (1, 0), dtype=dtype),
    ):
        assert t.dtype == dtype
        assert _all(t, value)


def test_complex_is_nan_plus_zero_j(deterministic_mode):
    t = torch.empty(3, dtype=torch.complex64)
    assert all(math.isnan(v.real) and v.imag == 0 for v in t.tolist())


def test_resize_fills_only_the_new_memory(deterministic_mode):
    x = torch.zeros(2)
    x.resize_(5)
    assert x[:2].tolist() == [0.0, 0.0]
    assert _all(x[2:], float("nan"))
    y = torch.zeros(3, dtype=torch.int64)
    y.resize_as_(torch.zeros(2, 3))
    assert y.view(-1)[:3].tolist() == [0, 0, 0] and _all(y.view(-1)[3:], 2**63 - 1)


def test_requires_grad_and_off_switches(deterministic_mode):
    t = torch.empty(2, requires_grad=True)
    assert t.requires_grad and t.is_leaf and _all(t.detach(), float("nan"))
    deterministic.fill_uninitialized_memory = False
    assert deterministic.fill_uninitialized_memory is False
    torch.empty(4)  # no longer filled (its contents are unspecified)
    with pytest.raises(RuntimeError, match="expected a bool, but got int"):
        deterministic.fill_uninitialized_memory = 1
    deterministic.fill_uninitialized_memory = True
    assert _all(torch.empty(3), float("nan"))
    torch.use_deterministic_algorithms(False)
    assert torch.empty(3).shape == (3,)


def test_a_profile_around_the_switch_keeps_the_fill_right():
    prev = torch.are_deterministic_algorithms_enabled()
    try:
        with torch.profiler.profile():
            torch.use_deterministic_algorithms(True)
        assert _all(torch.empty(3, dtype=torch.int64), 2**63 - 1)
        with torch.profiler.profile():
            torch.use_deterministic_algorithms(False)
        torch.use_deterministic_algorithms(True)
        assert _all(torch.empty(3), float("nan"))
    finally:
        torch.use_deterministic_algorithms(prev)
