"""torch.special and the kernels behind it (lgamma, digamma, erfinv: math/Unary.h, shared by CPU and CUDA):
closed forms and identities as oracles (digamma at integers and half-integers, its recurrence, erf(erfinv(y))
== y), the composites (entr, ndtr, log_ndtr in both tails, xlog1py, multigammaln) against the formulas with
Python's math, gradients by gradcheck. Also run on upstream 2.13."""

from __future__ import annotations

import math

import numpy as np
import pytest

import torch

EULER = 0.57721566490153286061


def test_digamma_closed_forms_and_recurrence():
    n = torch.arange(1, 12, dtype=torch.float64)
    harmonic = np.cumsum(np.r_[0.0, 1 / np.arange(1, 11)])
    np.testing.assert_allclose(torch.digamma(n).numpy(), harmonic - EULER, rtol=1e-13, atol=1e-15)
    half = n - 0.5
    halves = -EULER - 2 * math.log(2) + np.cumsum(np.r_[0.0, 2 / (2 * np.arange(1, 11) - 1)])
    np.testing.assert_allclose(torch.digamma(half).numpy(), halves, rtol=1e-13, atol=1e-15)
    x = torch.tensor(np.random.default_rng(0).uniform(-7.9, 30, size=200))
    np.testing.assert_allclose((torch.digamma(x + 1) - torch.digamma(x)).numpy(), 1 / x.numpy(), rtol=1e-9, atol=1e-9)
    edge = torch.digamma(torch.tensor([0.0, -0.0, -1.0, -2.0], dtype=torch.float64)).tolist()
    assert edge[0] == -math.inf and edge[1] == math.inf and math.isnan(edge[2]) and math.isnan(edge[3])
    assert torch.special.psi(n).equal(torch.digamma(n))


def test_lgamma_and_erfinv():
    x = np.random.default_rng(1).uniform(-5.5, 40, size=100)
    np.testing.assert_allclose(torch.lgamma(torch.tensor(x)).numpy(), [math.lgamma(v) for v in x], rtol=1e-12)
    assert torch.special.gammaln(torch.tensor([0.5])).item() == pytest.approx(0.5 * math.log(math.pi))
    y = np.random.default_rng(2).uniform(-0.9999, 0.9999, size=200)
    back = [math.erf(v) for v in torch.erfinv(torch.tensor(y)).tolist()]
    np.testing.assert_allclose(back, y, rtol=1e-12, atol=1e-14)
    ends = torch.erfinv(torch.tensor([-1.0, 1.0, 1.5, 0.0])).tolist()
    assert ends[0] == -math.inf and ends[1] == math.inf and math.isnan(ends[2]) and ends[3] == 0.0
    t = torch.tensor([0.25, 3.0])
    assert t.clone().lgamma_().equal(torch.lgamma(t)) and t.clone().digamma_().equal(torch.digamma(t))
    assert torch.tensor([0.5]).erfinv_().equal(torch.erfinv(torch.tensor([0.5])))


def test_composites():
    x = torch.tensor([-1.0, 0.0, 0.5, 2.0], dtype=torch.float64)
    assert torch.special.entr(x).tolist() == [-math.inf, 0.0, -0.5 * math.log(0.5), -2 * math.log(2)]
    np.testing.assert_allclose(
        torch.special.ndtr(x).numpy(), [0.5 * math.erfc(-v / math.sqrt(2)) for v in x.tolist()], rtol=1e-15
    )
    tails = torch.tensor([-1e5, -300.0, -40.0, -25.0, -5.0, 0.0, 5.0, 40.0], dtype=torch.float64)
    want = [-5.00000001243186e09, -4.50066227321187e04, -8.04608442013754e02, -3.16639408008020e02]
    want += [math.log(0.5 * math.erfc(5 / math.sqrt(2))), math.log(0.5), math.log1p(-0.5 * math.erfc(5 / math.sqrt(2)))]
    want += [-0.0]
    np.testing.assert_allclose(torch.special.log_ndtr(tails).numpy(), want, rtol=1e-13)
    a, b = torch.tensor([0.0, 2.0, 0.0]), torch.tensor([-1.0, 1.0, 0.5])
    assert torch.special.xlog1py(a, b).tolist() == pytest.approx([0.0, 2 * math.log(2), 0.0])
    got = torch.special.multigammaln(torch.tensor([2.5, 3.0], dtype=torch.float64), 3)
    want = [3 / 2 * math.log(math.pi) + sum(math.lgamma(v - j / 2) for j in range(3)) for v in (2.5, 3.0)]
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-14)
    with pytest.raises(RuntimeError, match="p has to be greater than or equal to 1"):
        torch.special.multigammaln(torch.tensor([0.9]), 0)
    assert torch.special.expit(torch.tensor([0.0])).item() == 0.5
    assert torch.equal(torch.special.logsumexp(torch.ones(2, 3), 1), torch.logsumexp(torch.ones(2, 3), 1))


@pytest.mark.parametrize(
    "fn",
    [
        torch.special.entr,
        torch.special.ndtr,
        torch.special.log_ndtr,
        lambda x: torch.special.multigammaln(x + 2, 2),
        lambda x: torch.special.xlog1py(x, x),
        lambda x: torch.xlogy(x, x + 1),
    ],
)
def test_gradients(fn):
    x = torch.tensor([0.2, 0.7, 1.9, 3.1], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(fn, (x,))
    far = torch.tensor([-40.0, -25.0, -10.0, 30.0], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(torch.special.log_ndtr, (far,))


def test_x_log_y_gradient_at_x_zero_is_log_y():
    x = torch.zeros(2, dtype=torch.float64, requires_grad=True)
    y = torch.tensor([0.5, 3.0], dtype=torch.float64)
    torch.xlogy(x, y).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.log(y.numpy()))
    x.grad = None
    torch.special.xlog1py(x, y).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.log1p(y.numpy()))
