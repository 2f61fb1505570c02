"""TransformedDistribution and its transforms: log_prob against the change-of-variables formula computed
independently (scipy.stats where the result is a named distribution), cdf/icdf through monotone maps
(increasing and decreasing), inverses, Jacobians against autograd, and reparameterized samples."""

from __future__ import annotations

import numpy as np
import pytest

import torch
from torch.distributions import Normal, TransformedDistribution
from torch.distributions.transforms import (
    AffineTransform,
    ComposeTransform,
    ExpTransform,
    PowerTransform,
    SigmoidTransform,
    SoftplusTransform,
    TanhTransform,
)

st = pytest.importorskip("scipy.stats")
F64 = torch.float64


def test_exp_of_a_normal_is_lognormal():
    d = TransformedDistribution(Normal(torch.tensor([0.3], dtype=F64), torch.tensor([1.2], dtype=F64)), ExpTransform())
    x = np.array([0.2, 1.0, 4.5])
    want = st.lognorm.logpdf(x, 1.2, scale=np.exp(0.3))
    np.testing.assert_allclose(d.log_prob(torch.tensor(x).unsqueeze(-1)).squeeze(-1).numpy(), want, rtol=1e-12)
    np.testing.assert_allclose(
        d.cdf(torch.tensor([[2.0]], dtype=F64)).item(), st.lognorm.cdf(2.0, 1.2, scale=np.exp(0.3))
    )
    np.testing.assert_allclose(
        d.icdf(torch.tensor([[0.7]], dtype=F64)).item(), st.lognorm.ppf(0.7, 1.2, scale=np.exp(0.3))
    )


def test_a_decreasing_affine_map_flips_the_cdf():
    d = TransformedDistribution(
        Normal(torch.tensor(0.0, dtype=F64), torch.tensor(1.0, dtype=F64)), AffineTransform(1.0, -2.0)
    )
    np.testing.assert_allclose(d.log_prob(torch.tensor(0.5, dtype=F64)).item(), st.norm.logpdf(0.5, 1.0, 2.0))
    np.testing.assert_allclose(d.cdf(torch.tensor(0.5, dtype=F64)).item(), st.norm.cdf(0.5, 1.0, 2.0))
    np.testing.assert_allclose(d.icdf(torch.tensor(0.3, dtype=F64)).item(), st.norm.ppf(0.3, 1.0, 2.0))


@pytest.mark.parametrize(
    "transform",
    [
        ExpTransform(),
        SigmoidTransform(),
        TanhTransform(),
        SoftplusTransform(),
        AffineTransform(0.5, 3.0),
        ComposeTransform([ExpTransform(), PowerTransform(2.0)]),
    ],
    ids=["exp", "sigmoid", "tanh", "softplus", "affine", "exp-then-square"],
)
def test_inverse_and_jacobian_against_autograd(transform):
    x = torch.linspace(-2.0, 2.0, 9, dtype=F64)
    y = transform(x)
    torch.testing.assert_close(transform.inv(y), x)
    xr = x.clone().requires_grad_()
    (dy,) = torch.autograd.grad(transform(xr).sum(), xr)
    torch.testing.assert_close(transform.log_abs_det_jacobian(x, y), dy.abs().log())
    torch.testing.assert_close(transform.inv.log_abs_det_jacobian(y, x), -dy.abs().log())


def test_log_prob_is_the_change_of_variables_and_rsample_is_differentiable():
    loc = torch.tensor([0.2, -1.0], dtype=F64, requires_grad=True)
    base = Normal(loc, torch.tensor([0.5, 2.0], dtype=F64))
    d = TransformedDistribution(base, [AffineTransform(1.0, 2.0), TanhTransform()])
    u = torch.tensor([0.1, -0.3], dtype=F64)
    y = torch.tanh(1.0 + 2.0 * u)
    want = base.log_prob(u) - np.log(2.0) - torch.log1p(-(y**2))
    torch.testing.assert_close(d.log_prob(y), want)
    torch.manual_seed(0)
    s = d.rsample((5,))
    assert s.shape == (5, 2) and bool(((s > -1) & (s < 1)).all())
    s.sum().backward()
    assert loc.grad is not None and torch.isfinite(loc.grad).all()
    with pytest.raises(ValueError, match="must be a Transform or list"):
        TransformedDistribution(base, "x")


def test_event_dims_of_the_base_and_of_vector_transforms():
    x = torch.tensor([[0.3, 1.2], [0.7, 0.2], [2.0, 1.1]], dtype=F64)
    base = torch.distributions.Independent(Normal(torch.zeros(3, 2, dtype=F64), torch.ones(3, 2, dtype=F64)), 1)
    d = TransformedDistribution(base, ExpTransform())
    assert d.batch_shape == (3,) and d.event_shape == (2,)
    want = st.lognorm.logpdf(x.numpy(), 1.0).sum(-1)
    np.testing.assert_allclose(d.log_prob(x).numpy(), want, rtol=1e-12)
    scale = torch.tensor([1.0, 2.0], dtype=F64)
    d2 = TransformedDistribution(
        Normal(torch.zeros(1, 2, dtype=F64), torch.ones(1, 2, dtype=F64)), AffineTransform(0, scale, event_dim=1)
    )
    assert d2.batch_shape == (1,) and d2.event_shape == (2,)
    y = torch.tensor([[0.5, -1.0]], dtype=F64)
    np.testing.assert_allclose(d2.log_prob(y).numpy(), st.norm.logpdf(y.numpy(), 0, scale.numpy()).sum(-1), rtol=1e-12)
    assert ExpTransform() == ExpTransform() and ExpTransform() != SigmoidTransform()
    assert AffineTransform(0.0, 1.0) == AffineTransform(0.0, 1.0)
