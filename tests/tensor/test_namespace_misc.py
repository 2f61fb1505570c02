"""torch's constants, layout, window functions, isin, unravel_index, trapz/cumulative_trapezoid, rsub, range,
empty_strided and the torch.<op>_ forms, against NumPy (also run on upstream 2.13)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import torch


def test_constants_and_layout():
    assert (torch.e, torch.pi, torch.inf) == (math.e, math.pi, math.inf) and math.isnan(torch.nan)
    assert torch.newaxis is None
    assert torch.ones(1).layout == torch.strided and repr(torch.strided) == "torch.strided"


@pytest.mark.parametrize(
    "name, ref", [("hann_window", np.hanning), ("hamming_window", np.hamming), ("blackman_window", np.blackman),
                  ("bartlett_window", np.bartlett)],
)  # fmt: skip
def test_windows(name, ref):
    fn = getattr(torch, name)
    np.testing.assert_allclose(fn(7, False, dtype=torch.float64).numpy(), ref(7), atol=1e-15)
    np.testing.assert_allclose(fn(8, dtype=torch.float64).numpy(), ref(9)[:-1], atol=1e-15)  # periodic
    assert fn(1).tolist() == [1.0] and fn(0).shape == (0,) and fn(5).dtype == torch.float32


def test_isin_unravel_trapz():
    a, b = np.array([[1, 5, 3], [9, 2, 2]]), np.array([2, 9, 11])
    np.testing.assert_array_equal(torch.isin(torch.tensor(a), torch.tensor(b)).numpy(), np.isin(a, b))
    np.testing.assert_array_equal(torch.isin(torch.tensor(a), torch.tensor(b), invert=True).numpy(), ~np.isin(a, b))
    assert torch.isin(torch.tensor([1.0, 2.0]), 2.0).tolist() == [False, True]
    got = torch.unravel_index(torch.tensor([5, 7, 0, 22]), (2, 3, 4))
    for g, w in zip(got, np.unravel_index([5, 7, 0, 22], (2, 3, 4))):
        np.testing.assert_array_equal(g.numpy(), w)
    y = np.array([[1.0, 2, 4, 7], [0, 1, 0, 1]])
    x = np.array([0.0, 1, 3, 4])
    np.testing.assert_allclose(torch.trapz(torch.tensor(y), torch.tensor(x)).numpy(), np.trapezoid(y, x))
    want = np.cumsum((y[:, 1:] + y[:, :-1]) * np.diff(x) / 2, axis=1)
    np.testing.assert_allclose(torch.cumulative_trapezoid(torch.tensor(y), torch.tensor(x)).numpy(), want)


def test_small_functions():
    assert torch.rsub(torch.tensor([1.0, 2.0]), 5, alpha=2).tolist() == [3.0, 1.0]
    assert torch.rsub(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 3.0])).tolist() == [2.0, 1.0]
    assert torch.scalar_tensor(3).dtype == torch.float32 and torch.fill(torch.ones(2), 3.0).tolist() == [3.0, 3.0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert torch.range(0, 1, 0.25).tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    t = torch.empty_strided((2, 3), (1, 2))
    assert t.shape == (2, 3) and t.stride() == (1, 2)
    x = torch.tensor([0.5])
    assert torch.arccos_(x) is x and x.item() == pytest.approx(math.acos(0.5))
    assert torch.zero_(torch.ones(2)).tolist() == [0.0, 0.0]
    assert not torch.detach(torch.ones(2, requires_grad=True)).requires_grad and not torch.is_complex(torch.ones(1))
    assert torch.zeros(2, 3).select_scatter(torch.ones(3), 0, 1).tolist() == [[0.0] * 3, [1.0] * 3]


def test_nextafter_renorm_index_reduce():
    a = np.array([1.0, 0.0, -1.0, 2.0, np.inf], dtype=np.float32)
    b = np.array([2.0, -1.0, 0.0, 2.0, 0.0], dtype=np.float32)
    np.testing.assert_array_equal(torch.nextafter(torch.tensor(a), torch.tensor(b)).numpy(), np.nextafter(a, b))
    np.testing.assert_array_equal(
        torch.nextafter(torch.tensor([1.0], dtype=torch.float64), torch.tensor([0.0], dtype=torch.float64)).numpy(),
        np.nextafter(np.array([1.0]), 0.0),
    )
    x = np.array([[1.0, 2, 3], [4, 5, 6]])
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    want = np.where(norms > 5, x * 5 / (norms + 1e-7), x)
    np.testing.assert_allclose(torch.renorm(torch.tensor(x), 2, 0, 5).numpy(), want)
    got = torch.ones(5).index_reduce(0, torch.tensor([0, 4, 2, 0]), torch.tensor([2.0, 3, 4, 5]), "prod")
    assert got.tolist() == [10.0, 1.0, 4.0, 1.0, 3.0]
    got = torch.ones(3).index_reduce(0, torch.tensor([0, 0]), torch.tensor([2.0, 4]), "mean", include_self=False)
    assert got.tolist() == [3.0, 1.0, 1.0]


def test_legacy_and_per_element_methods():
    x = torch.tensor([[1.0, 2, 3], [4, 5, 6]])
    assert x.new([1, 2]).dtype == torch.float32 and x.new(2, 3).shape == (2, 3) and x.new().shape == (0,)
    assert torch.tensor([1.0, 2]).apply_(lambda v: v * 10).tolist() == [10.0, 20.0]
    assert torch.tensor([1.0, 2]).map_(torch.tensor([3.0, 4]), lambda a, b: a + b).tolist() == [4.0, 6.0]

    class Sub(torch.Tensor):
        pass

    assert type(x.as_subclass(Sub)) is Sub
    assert x.hardshrink(2.5).tolist() == [[0.0, 0.0, 3.0], [4.0, 5.0, 6.0]]
    assert torch.mvlgamma(torch.tensor([2.5]), 2).item() == pytest.approx(
        0.5 * math.log(math.pi) + math.lgamma(2.5) + math.lgamma(2.0)
    )


def test_every_torch_in_place_function_has_its_method():
    x = torch.tensor([180.0])
    assert torch.deg2rad_(x) is x and x.item() == pytest.approx(math.pi)
    assert torch.rad2deg_(x) is x and x.item() == pytest.approx(180.0)
    for name in ("arccos_", "fix_", "gcd_", "lcm_", "ldexp_", "logit_", "negative_", "square_", "xlogy_", "zero_"):
        assert hasattr(torch, name) and hasattr(torch.Tensor, name), name


def test_angle_bitwise_not_in_place_const_data_ptr():
    got = torch.angle(torch.tensor([-1.0, 0.0, 2.0, float("nan"), -0.0], dtype=torch.float64))
    np.testing.assert_array_equal(got.numpy(), np.angle(np.array([-1.0, 0.0, 2.0, np.nan, 0.0])))
    assert torch.angle(torch.tensor([-1, 2])).dtype == torch.float32
    x = torch.tensor([-1.0, 2.0], requires_grad=True)
    torch.angle(x).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0]
    u = torch.tensor([5], dtype=torch.uint8)
    assert u.bitwise_not_() is u and u.tolist() == [250]
    t = torch.ones(2)
    assert t.const_data_ptr() == t.data_ptr()
