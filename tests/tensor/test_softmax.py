"""softmax / log_softmax (torch., Tensor. and nn.functional.): values against NumPy, stability for
large inputs, dtypes, gradients by finite differences, PyTorch's implicit-dim rule in F."""

from __future__ import annotations

import numpy as np
import pytest

import torch
import torch.nn.functional as F
from torch.autograd import gradcheck, gradgradcheck


def np_log_softmax(x: np.ndarray, dim: int) -> np.ndarray:
    m = x.max(axis=dim, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=dim, keepdims=True))


@pytest.mark.parametrize("shape, dim", [((5,), 0), ((3, 4), 1), ((3, 4), 0), ((2, 3, 4), -1), ((2, 3, 4), 1), ((), 0)])
def test_values_match_numpy(shape, dim):
    x = np.asarray(np.random.default_rng(0).normal(size=shape) * 5, dtype=np.float32)
    t = torch.from_numpy(x.copy())
    want = np_log_softmax(x.astype(np.float64), dim)
    for got in (torch.log_softmax(t, dim), t.log_softmax(dim), F.log_softmax(t, dim)):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-5)
    for got in (torch.softmax(t, dim), t.softmax(dim), F.softmax(t, dim=dim)):
        np.testing.assert_allclose(got.numpy(), np.exp(want), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(got.sum(dim).numpy(), np.ones_like(got.sum(dim).numpy()), rtol=1e-5)


def test_non_contiguous_input():
    x = np.random.default_rng(1).normal(size=(4, 6)).astype(np.float32)
    t = torch.from_numpy(x.copy()).t()[::2]
    np.testing.assert_allclose(t.softmax(1).numpy(), np.exp(np_log_softmax(x.T[::2].astype(np.float64), 1)), rtol=1e-5)


def test_large_inputs_do_not_overflow():
    t = torch.tensor([[1000.0, 1001.0, 1002.0], [-1000.0, -1000.0, -1000.0]])
    s = t.softmax(1)
    assert torch.isfinite(s).all() and torch.allclose(s.sum(1), torch.ones(2))
    assert torch.isfinite(t.log_softmax(1)).all()


def test_dtypes():
    t = torch.arange(6).reshape(2, 3)
    assert t.softmax(1, dtype=torch.float64).dtype == torch.float64
    assert torch.rand(3, dtype=torch.float64).log_softmax(0).dtype == torch.float64
    assert torch.rand(3).half().softmax(0).dtype == torch.float16
    with pytest.raises(RuntimeError):
        t.softmax(1)


def test_gradients():
    x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    for dim in (0, 1):
        assert gradcheck(lambda a, d=dim: torch.softmax(a, d), (x,))
        assert gradcheck(lambda a, d=dim: torch.log_softmax(a, d), (x,))
    assert gradgradcheck(lambda a: torch.log_softmax(a, 1), (x,))


def test_functional_implicit_dim_warns_and_picks_like_pytorch():
    t = torch.rand(2, 3)
    with pytest.warns(UserWarning, match="Implicit dimension choice"):
        got = F.softmax(t)
    assert torch.allclose(got, t.softmax(1))
    with pytest.warns(UserWarning):
        assert torch.allclose(F.log_softmax(torch.rand(2, 3, 4)), torch.log_softmax(torch.rand(2, 3, 4), 0)) is not None


@pytest.mark.parametrize("shape, dim", [((3, 2053), 1), ((2, 1100, 3), 1), ((5, 7, 1030), 1), ((2000, 3), 0)])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16])
def test_long_rows_and_columns(device, shape, dim, dtype):
    """Rows and columns longer than one vector block (the vectorized float32 paths and their tails)."""
    x = np.random.default_rng(2).normal(size=shape) * 8
    t = torch.tensor(x, dtype=dtype, device=device)
    want = np_log_softmax(t.double().cpu().numpy(), dim)
    tol = {torch.float32: 1e-5, torch.float64: 1e-12, torch.float16: 2e-3, torch.bfloat16: 2e-2}[dtype]
    np.testing.assert_allclose(t.log_softmax(dim).double().cpu().numpy(), want, rtol=tol, atol=tol * 10)
    np.testing.assert_allclose(t.softmax(dim).double().cpu().numpy(), np.exp(want), rtol=tol * 10, atol=tol)


@pytest.mark.parametrize("dim", [0, 1])
def test_nan_poisons_its_line_only(device, dim):
    x = torch.randn(40, 40, device=device)
    x[3, 5] = float("nan")
    for out in (x.softmax(dim), x.log_softmax(dim)):
        line = out[:, 5] if dim == 0 else out[3]
        assert torch.isnan(line).all()
        others = out[:, 6] if dim == 0 else out[4]
        assert not torch.isnan(others).any()


def test_backward_matches_the_formula_on_long_rows():
    x = torch.randn(4, 3000, dtype=torch.float64, requires_grad=True)
    g = torch.randn(4, 3000, dtype=torch.float64)
    y = x.softmax(1)
    (gx,) = torch.autograd.grad(y, x, g)
    expected = y.detach() * (g - (g * y.detach()).sum(1, keepdim=True))
    assert torch.allclose(gx, expected, rtol=1e-10, atol=1e-12)
    ly = x.log_softmax(0)
    (gl,) = torch.autograd.grad(ly, x, g)
    assert torch.allclose(gl, g - ly.detach().exp() * g.sum(0, keepdim=True), rtol=1e-10, atol=1e-12)
