"""LBFGS on the Rosenbrock function, with and without the strong-Wolfe line search: the iterates,
losses and evaluation counts upstream PyTorch 2.13 gives (hard-coded), and convergence to (1, 1)."""

from __future__ import annotations

import numpy as np
import pytest

import torch

# (loss returned by step, x after the step, state func_evals, state n_iter) for three steps from (-1.5, 2)
UPSTREAM = {
    None: [
        (12.5, [-0.781122729831648, 0.6131352916809746], 20, 20),
        (3.173287752667091, [0.08303252319322772, 0.005052944696990406], 40, 40),
        (0.8411684492507328, [1.054969018030194, 0.8137053551938505], 60, 60),
    ],
    "strong_wolfe": [
        (12.5, [-0.08511855589860293, -0.028757058413769698], 25, 19),
        (1.3070983150500495, [0.9995835472529905, 0.9991550319577943], 50, 38),
        (1.884048137837783e-07, [0.9999979943196398, 0.9999973438921637], 53, 41),
    ],
}


def _rosenbrock_closure(opt, x):
    def closure():
        opt.zero_grad()
        loss = (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2
        loss.backward()
        return loss

    return closure


@pytest.mark.parametrize("line_search_fn", [None, "strong_wolfe"])
def test_rosenbrock_matches_upstream(line_search_fn):
    x = torch.tensor([-1.5, 2.0], dtype=torch.float64, requires_grad=True)
    opt = torch.optim.LBFGS([x], lr=1, max_iter=20, line_search_fn=line_search_fn)
    closure = _rosenbrock_closure(opt, x)
    for loss_expected, x_expected, evals, n_iter in UPSTREAM[line_search_fn]:
        loss = opt.step(closure)
        np.testing.assert_allclose(float(loss.detach()), loss_expected, rtol=1e-6)
        np.testing.assert_allclose(x.detach().numpy(), x_expected, rtol=1e-5, atol=1e-8)
        assert opt.state[x]["func_evals"] == evals
        assert opt.state[x]["n_iter"] == n_iter


def test_strong_wolfe_converges():
    x = torch.tensor([-1.5, 2.0], dtype=torch.float64, requires_grad=True)
    opt = torch.optim.LBFGS(
        [x], line_search_fn="strong_wolfe", max_iter=100, tolerance_grad=1e-12, tolerance_change=1e-15
    )
    opt.step(_rosenbrock_closure(opt, x))
    np.testing.assert_allclose(x.detach().numpy(), [1.0, 1.0], atol=1e-6)


def test_quadratic_over_several_tensors():
    """A separable quadratic over two tensors: L-BFGS finds its minimum."""
    a = torch.zeros(3, dtype=torch.float64, requires_grad=True)
    b = torch.zeros((2, 2), dtype=torch.float64, requires_grad=True)
    ta = torch.tensor([1.0, -2.0, 3.0], dtype=torch.float64)
    tb = torch.tensor([[0.5, 0.25], [-1.0, 2.0]], dtype=torch.float64)
    opt = torch.optim.LBFGS([a, b], history_size=5, max_iter=50)

    def closure():
        opt.zero_grad()
        loss = ((a - ta) ** 2 * torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)).sum() + ((b - tb) ** 2).sum()
        loss.backward()
        return loss

    opt.step(closure)
    np.testing.assert_allclose(a.detach().numpy(), ta.numpy(), atol=1e-6)
    np.testing.assert_allclose(b.detach().numpy(), tb.numpy(), atol=1e-6)


def test_errors():
    a = torch.zeros(1, requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    with pytest.raises(ValueError, match=r"LBFGS doesn't support per-parameter options \(parameter groups\)"):
        torch.optim.LBFGS([{"params": [a]}, {"params": [b]}])
    opt = torch.optim.LBFGS([a], line_search_fn="backtracking")

    def closure():
        opt.zero_grad()
        loss = ((a - 1) ** 2).sum()
        loss.backward()
        return loss

    with pytest.raises(RuntimeError, match="only 'strong_wolfe' is supported"):
        opt.step(closure)
