"""End to end: fitting a linear regression with each first-order optimizer (and LBFGS) converges to the
least-squares solution."""

from __future__ import annotations

import numpy as np
import pytest

import torch

RNG = np.random.default_rng(0)
X = RNG.standard_normal((64, 3))
W_TRUE = np.array([1.5, -2.0, 0.5])
Y = X @ W_TRUE + 0.3 + 0.01 * RNG.standard_normal(64)
W_LSTSQ = np.linalg.lstsq(np.c_[X, np.ones(64)], Y, rcond=None)[0]


@pytest.mark.parametrize(
    ("opt_cls", "options", "steps"),
    [
        (torch.optim.SGD, {"lr": 0.1}, 300),
        (torch.optim.SGD, {"lr": 0.05, "momentum": 0.9, "nesterov": True}, 300),
        (torch.optim.Adam, {"lr": 0.05}, 600),
        (torch.optim.AdamW, {"lr": 0.05, "weight_decay": 0.0}, 600),
        (torch.optim.RMSprop, {"lr": 0.01}, 800),
        (torch.optim.Adagrad, {"lr": 0.5}, 600),
        (torch.optim.Adadelta, {"lr": 10.0}, 600),
        (torch.optim.Adamax, {"lr": 0.05}, 800),
        (torch.optim.NAdam, {"lr": 0.05}, 600),
        (torch.optim.RAdam, {"lr": 0.05}, 800),
    ],
    ids=lambda x: getattr(x, "__name__", None),
)
def test_linear_regression_converges(opt_cls, options, steps, device):
    x = torch.tensor(X, device=device)
    y = torch.tensor(Y, device=device)
    w = torch.zeros(3, dtype=torch.float64, device=device, requires_grad=True)
    b = torch.zeros(1, dtype=torch.float64, device=device, requires_grad=True)
    opt = opt_cls([w, b], **options)
    scheduler = torch.optim.lr_scheduler.StepLR(opt, step_size=steps // 2, gamma=0.1)
    for _ in range(steps):
        opt.zero_grad()
        loss = ((x @ w + b - y) ** 2).mean()
        loss.backward()
        opt.step()
        scheduler.step()
    fitted = np.r_[w.detach().cpu().numpy(), b.detach().cpu().numpy()]
    np.testing.assert_allclose(fitted, W_LSTSQ, atol=1e-2)


def test_lbfgs_linear_regression():
    x, y = torch.tensor(X), torch.tensor(Y)
    w = torch.zeros(3, dtype=torch.float64, requires_grad=True)
    b = torch.zeros(1, dtype=torch.float64, requires_grad=True)
    opt = torch.optim.LBFGS([w, b], line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = ((x @ w + b - y) ** 2).mean()
        loss.backward()
        return loss

    opt.step(closure)
    np.testing.assert_allclose(np.r_[w.detach().numpy(), b.detach().numpy()], W_LSTSQ, atol=1e-5)
