"""mode, quantile's interpolations and NaN rules, gcd/lcm, frexp, Tensor.unfold as a view, the conjugation
helpers of the real dtypes, and their errors, against NumPy (also run on upstream 2.13)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import torch

NAN = float("nan")


def test_quantile_interpolations_and_nans():
    a = np.random.default_rng(0).normal(size=(3, 11))
    q = [0.0, 0.1, 0.25, 0.5, 0.73, 1.0]
    for method in ("linear", "lower", "higher", "midpoint", "nearest"):
        got = torch.quantile(torch.tensor(a), torch.tensor(q, dtype=torch.float64), dim=1, interpolation=method)
        np.testing.assert_allclose(got.numpy(), np.quantile(a, q, axis=1, method=method), rtol=1e-12)
    assert math.isnan(torch.quantile(torch.tensor([1.0, NAN, 3.0]), 0.5).item())
    got = torch.nanquantile(torch.tensor([[1.0, NAN, 3.0], [NAN, NAN, NAN]]), 0.5, dim=1)
    assert got[0].item() == 2.0 and math.isnan(got[1].item())
    assert torch.quantile(torch.tensor(a), 0.3, dim=0, keepdim=True).shape == (1, 11)
    with pytest.raises(RuntimeError, match=r"q must be in the range \[0, 1\] but got 1.5"):
        torch.quantile(torch.tensor(a), 1.5)
    with pytest.raises(RuntimeError, match="input tensor must be either float or double dtype"):
        torch.quantile(torch.tensor([1, 2]), 0.5)


def test_mode():
    v, i = torch.mode(torch.tensor([[1, 2, 2, 3, 3], [4, 4, 1, 1, 0]]), 1)
    assert v.tolist() == [2, 1] and i.tolist() == [2, 3]  # the smallest on a tie, its last occurrence
    v, i = torch.mode(torch.tensor([[1.0, 2], [1, 3], [2, 2]]), 0, keepdim=True)
    assert v.tolist() == [[1.0, 2.0]] and i.tolist() == [[1, 2]]


def test_gcd_lcm_frexp():
    a, b = np.array([12, -18, 0, 7, 100]), np.array([8, 12, 0, 0, -75])
    np.testing.assert_array_equal(torch.gcd(torch.tensor(a), torch.tensor(b)).numpy(), np.gcd(a, b))
    np.testing.assert_array_equal(torch.lcm(torch.tensor(a), torch.tensor(b)).numpy(), np.lcm(a, b))
    with pytest.raises(RuntimeError, match="not implemented for 'Float'"):
        torch.gcd(torch.tensor([1.0]), torch.tensor([2.0]))
    x = np.array([8.0, 0.3, 0.0, -5.0, 0.75, 1.0, 1e-300, 2.0**-1074, 0.9999999999999999])
    m, e = torch.frexp(torch.tensor(x))
    want_m, want_e = np.frexp(x)
    np.testing.assert_array_equal(m.numpy(), want_m)
    np.testing.assert_array_equal(e.numpy(), want_e)
    assert e.dtype == torch.int32


def test_unfold_is_a_view_of_windows():
    x = torch.arange(10.0)
    w = x.unfold(0, 3, 2)
    np.testing.assert_array_equal(w.numpy(), np.lib.stride_tricks.sliding_window_view(np.arange(10.0), 3)[::2])
    x[2] = 100.0
    assert w[0, 2].item() == 100.0 and w[1, 0].item() == 100.0  # shares x's memory
    assert torch.arange(24.0).reshape(2, 3, 4).unfold(2, 2, 1).stride() == (12, 4, 1, 1)
    with pytest.raises(RuntimeError, match="maximum size for tensor at dimension 0 is 4 but size is 5"):
        torch.arange(4.0).unfold(0, 5, 1)


def test_conjugation_of_real_tensors():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert torch.equal(x.conj(), x) and not x.is_conj() and not x.is_neg() and torch.equal(x.resolve_conj(), x)
    assert torch.equal(x.real, x) and bool(torch.isreal(x).all())
    with pytest.raises(RuntimeError, match="imag is not implemented for tensors with non-complex dtypes"):
        x.imag  # noqa: B018
    assert torch.equal(x.mH, x.t()) and x.adjoint().shape == (2, 2)
    assert torch.ones(2, 3, 4).mH.shape == (2, 4, 3)
