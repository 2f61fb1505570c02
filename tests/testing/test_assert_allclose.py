"""The deprecated torch.testing.assert_allclose: its warning, its dtype-free comparison and old tolerances.
Runs against upstream PyTorch too (TORCH_REFERENCE)."""

from __future__ import annotations

import pytest

import torch


def test_warns_and_compares_without_dtype_check():
    with pytest.warns(FutureWarning, match="assert_allclose\\(\\)` is deprecated"):
        torch.testing.assert_allclose(torch.tensor([1, 2]), torch.tensor([1.0, 2.0]))


def test_default_tolerances_and_nan():
    with pytest.warns(FutureWarning):
        torch.testing.assert_allclose(torch.tensor([1.0, float("nan")]), [1.0 + 1e-6, float("nan")])
    with pytest.warns(FutureWarning), pytest.raises(AssertionError):
        torch.testing.assert_allclose(torch.tensor([1.0]), torch.tensor([1.001]))
    with pytest.warns(FutureWarning):
        torch.testing.assert_allclose(torch.tensor([1.0], dtype=torch.float16), torch.tensor([1.0009]))
    with pytest.warns(FutureWarning), pytest.raises(AssertionError):
        torch.testing.assert_allclose(torch.tensor([3]), torch.tensor([4]))  # integers: exact
