"""relu forward against NumPy and its backward (threshold_backward) against float64 central differences."""

from __future__ import annotations

import numpy as np
import pytest

import torch


def threshold_backward(grad, x, threshold):
    fn = getattr(torch, "threshold_backward", None) or torch.ops.aten.threshold_backward
    return fn(grad, x, threshold)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.int32])
def test_relu_values(dtype):
    a = np.arange(-6, 6).reshape(3, 4)
    t = torch.from_numpy(a.copy()).to(dtype)
    np.testing.assert_array_equal(torch.relu(t).numpy(), np.maximum(a, 0))
    np.testing.assert_array_equal(torch.relu(t.transpose(0, 1)).numpy(), np.maximum(a.T, 0))
    np.testing.assert_array_equal(torch.nn.functional.relu(t).numpy(), np.maximum(a, 0))


def test_relu_inplace():
    t = torch.from_numpy(np.array([-1.0, 2.0, -3.0]))
    out = torch.nn.functional.relu(t, inplace=True)
    assert out is t
    assert t.tolist() == [0.0, 2.0, 0.0]


def test_relu_bool_rejected():
    with pytest.raises(RuntimeError, match="Boolean inputs not supported for relu"):
        torch.relu(torch.ones(2, dtype=torch.bool))


def test_relu_backward_matches_finite_differences():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(4, 5))
    x[np.abs(x) < 1e-3] = 0.5  # keep away from the kink
    g = rng.normal(size=(4, 5))
    h = 1e-6
    numeric = (np.maximum(x + h, 0) - np.maximum(x - h, 0)) / (2 * h) * g
    got = threshold_backward(torch.from_numpy(g), torch.from_numpy(x), 0).numpy()
    np.testing.assert_allclose(got, numeric, rtol=1e-6, atol=1e-8)


def test_relu_backward_broadcasts_grad():
    x = torch.from_numpy(np.array([[-1.0, 1.0], [2.0, -2.0]]))
    g = torch.from_numpy(np.array([10.0, 20.0]))
    assert threshold_backward(g, x, 0).tolist() == [[0.0, 20.0], [10.0, 0.0]]
