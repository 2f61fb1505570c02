"""Anomaly detection: NaN produced by a backward node raises naming the node, an error inside a backward
warns with the stack of the forward call first, and the modes nest and restore. Also run on upstream 2.13."""

from __future__ import annotations

import warnings

import pytest

import torch


def test_nan_in_backward_names_the_node():
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    with pytest.warns(UserWarning, match="Anomaly Detection has been enabled"):
        guard = torch.autograd.detect_anomaly()
    with guard:
        assert torch.is_anomaly_enabled() and torch.is_anomaly_check_nan_enabled()
        y = torch.sqrt(x) * 0  # sqrt's backward at 0: inf * 0 = nan
        with pytest.raises(RuntimeError, match=r"Function '\w+Backward\w*' returned nan values in its 0th output"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                y.sum().backward()
    assert not torch.is_anomaly_enabled()
    x.grad = None
    (torch.sqrt(x) * 0).sum().backward()  # off again: the NaN passes silently
    assert torch.isnan(x.grad).any()


def test_check_nan_off_and_set_detect_anomaly():
    x = torch.tensor([0.0], requires_grad=True)
    with torch.autograd.set_detect_anomaly(True, check_nan=False):
        assert torch.is_anomaly_enabled() and not torch.is_anomaly_check_nan_enabled()
        (torch.sqrt(x) * 0).sum().backward()
    assert not torch.is_anomaly_enabled() and torch.is_anomaly_check_nan_enabled()
    torch.set_anomaly_enabled(True)
    try:
        assert torch.is_anomaly_enabled()
    finally:
        torch.set_anomaly_enabled(False)


def test_error_in_backward_warns_with_the_forward_stack():
    class Bad(torch.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            return t * 2

        @staticmethod
        def backward(ctx, g):
            raise ValueError("broken backward")

    x = torch.ones(2, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        guard = torch.autograd.detect_anomaly()
    with guard:
        y = Bad.apply(x)
        with pytest.warns(UserWarning, match="Error detected in"), pytest.raises(ValueError, match="broken backward"):
            y.sum().backward()
