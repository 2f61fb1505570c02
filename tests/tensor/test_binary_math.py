"""What the op table does not express for torch/_refs/binary_math.py and result_type: NaN and signed-zero
rules, Python-number operands, dtypes and PyTorch's errors (values against NumPy; also run on upstream)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import torch

NAN = float("nan")


@pytest.mark.parametrize(
    "a, b, want",
    [
        (torch.tensor([1], dtype=torch.int32), torch.tensor(1.0, dtype=torch.float64), torch.float64),
        (torch.tensor([1], dtype=torch.int32), torch.tensor(1, dtype=torch.int64), torch.int32),
        (torch.tensor([1], dtype=torch.int32), 2.5, torch.float32),
        (torch.tensor([1], dtype=torch.float16), 2.5, torch.float16),
        (torch.tensor([True]), 3, torch.int64),
        (torch.tensor([1], dtype=torch.uint8), torch.tensor([1], dtype=torch.int8), torch.int16),
        (torch.tensor(1, dtype=torch.int8), torch.tensor(1.0, dtype=torch.float16), torch.float16),
        (2, 3.0, torch.float32),
        (2, 3, torch.int64),
    ],
)
def test_result_type(a, b, want):
    assert torch.result_type(a, b) == want


def test_nan_and_signed_zero_rules():
    a = torch.tensor([1.0, NAN, NAN, 2.0])
    b = torch.tensor([NAN, 3.0, NAN, -1.0])
    np.testing.assert_array_equal(torch.fmax(a, b).numpy(), np.fmax(a.numpy(), b.numpy()))
    np.testing.assert_array_equal(torch.fmin(a, b).numpy(), np.fmin(a.numpy(), b.numpy()))
    signs = torch.copysign(torch.tensor([1.0, 1.0, 1.0, 1.0]), torch.tensor([-0.0, 0.0, -NAN, -2.0]))
    assert signs.tolist() == [-1.0, 1.0, -1.0, -1.0]
    x = torch.xlogy(torch.tensor([0.0, 0.0, 1.0]), torch.tensor([0.0, NAN, math.e]))
    assert x[0].item() == 0.0 and math.isnan(x[1].item()) and x[2].item() == pytest.approx(1.0)
    h = torch.heaviside(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor([0.5]))
    assert h.tolist() == [0.0, 0.5, 1.0]
    big = torch.tensor([3e30, 1e-30], dtype=torch.float32)
    np.testing.assert_allclose(torch.hypot(big, big * 4 / 3).numpy(), [5e30, 5e-30 / 3], rtol=1e-6)


def test_numbers_and_dtypes():
    assert torch.copysign(torch.tensor([1, 2]), torch.tensor([-1, 1])).dtype == torch.float32
    assert torch.copysign(torch.tensor([1.0, 2.0]), -1).tolist() == [-1.0, -2.0]
    assert torch.xlogy(2, torch.tensor([3.0])).item() == pytest.approx(2 * math.log(3))
    assert torch.xlogy(torch.tensor([2]), 3).dtype == torch.float32
    assert torch.ldexp(torch.tensor([1.0, 2.0]), torch.tensor([3, 4])).tolist() == [8.0, 32.0]
    assert torch.float_power(torch.tensor([2]), 2).dtype == torch.float64
    assert torch.logit(torch.tensor([1, 0])).dtype == torch.float32
    np.testing.assert_allclose(
        torch.logit(torch.tensor([0.0, 0.3, 1.0]), eps=0.1).numpy(), np.log(np.array([0.1, 0.3, 0.9]) / [0.9, 0.7, 0.1])
    )
    assert torch.true_divide(torch.tensor([3]), torch.tensor([2])).tolist() == [1.5]


def test_errors():
    with pytest.raises(NotImplementedError, match="hypot"):
        torch.hypot(torch.tensor([3]), torch.tensor([4]))
    with pytest.raises(RuntimeError, match="heaviside is not yet implemented for tensors with different dtypes"):
        torch.heaviside(torch.tensor([1.0]), torch.tensor([1]))
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type"):
        torch.tensor([1, 2]).copysign_(torch.tensor([-1.0, 1.0]))
    with pytest.raises(RuntimeError, match="requires dtype Double"):
        torch.tensor([2.0]).float_power_(2)
