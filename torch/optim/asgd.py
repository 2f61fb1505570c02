"""ASGD: averaged stochastic gradient descent (Polyak and Juditsky), with PyTorch's step-size schedule."""

from __future__ import annotations

import torch
from torch.optim.optimizer import Optimizer, _check_lr, _get_value, _scalar_dtype, _use_grad_for_differentiable

__all__ = ["ASGD"]


class ASGD(Optimizer):
    """ASGD, PyTorch's torch.optim.ASGD.

    Per parameter at step t, with g the gradient (negated when `maximize`) and eta, mu the state:
    g += wd * p; p *= 1 - lambd * eta; p -= eta * g; ax += mu * (p - ax) (ax = p while mu == 1);
    then eta = lr / (1 + lambd * lr * t)^alpha and mu = 1 / max(1, t - t0). The averaged parameters are
    `state["ax"]`. `eta` and `mu` are 0-d tensors of the default float dtype, on the parameter's device.
    """

    def __init__(
        self,
        params,
        lr=1e-2,
        lambd: float = 1e-4,
        alpha: float = 0.75,
        t0: float = 1e6,
        weight_decay: float = 0,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
        capturable: bool = False,
    ) -> None:
        _check_lr(lr)
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {
            "lr": lr,
            "lambd": lambd,
            "alpha": alpha,
            "t0": t0,
            "weight_decay": weight_decay,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "capturable": capturable,
        }
        super().__init__(params, defaults)

    _group_setstate_defaults = {"foreach": None, "maximize": False, "differentiable": False, "capturable": False}

    def __setstate__(self, state) -> None:
        super().__setstate__(state)
        for group in self.param_groups:  # older pickles keep eta and mu as Python numbers
            for p in group["params"]:
                p_state = self.state.get(p, {})
                for name in ("eta", "mu"):
                    if name in p_state and not torch.is_tensor(p_state[name]):
                        p_state[name] = torch.tensor(p_state[name], dtype=_scalar_dtype(), device=p.device)

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Performs a single optimization step; `closure` reevaluates the model and returns the loss."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:

            def init(p, state, group=group):
                dtype = _scalar_dtype()
                state["step"] = torch.zeros((), dtype=dtype, device=p.device)
                state["eta"] = torch.as_tensor(_get_value(group["lr"]), dtype=dtype, device=p.device).clone().detach()
                state["mu"] = torch.ones((), dtype=dtype, device=p.device)
                state["ax"] = torch.zeros_like(p, memory_format=torch.preserve_format)

            params, grads, steps = self._gather(group, (), init)
            _asgd_update(
                params,
                grads,
                [self.state[p]["ax"] for p in params],
                [self.state[p]["mu"] for p in params],
                [self.state[p]["eta"] for p in params],
                steps,
                lambd=group["lambd"],
                lr=group["lr"],
                t0=group["t0"],
                alpha=group["alpha"],
                weight_decay=group["weight_decay"],
                maximize=group["maximize"],
                capturable=group["capturable"],
            )
        return loss


def _asgd_update(params, grads, axs, mus, etas, steps, *, lambd, lr, t0, alpha, weight_decay, maximize, capturable):
    """The ASGD update of one parameter group, over lists (multi-tensor); complex parameters step as pairs
    of reals. With `capturable`, eta, mu and the step stay tensors (no host reads)."""
    lr = _get_value(lr)
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        mu, ax, eta, step_t = mus[i], axs[i], etas[i], steps[i]
        if torch.is_complex(param):
            grad, param, ax = torch.view_as_real(grad), torch.view_as_real(param), torch.view_as_real(ax)
        step_t += 1
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        if capturable:
            param.mul_(1 - lambd * eta)
            param.addcmul_(grad, eta, value=-1)
        else:
            eta_value = _get_value(eta)
            param.mul_(1 - lambd * eta_value)  # decay term
            param.add_(grad, alpha=-eta_value)
        if capturable or _get_value(mu) != 1:  # averaging
            ax.add_(param.sub(ax).mul_(mu))
        else:
            ax.copy_(param)
        if capturable:
            eta.copy_(lr / ((1 + lambd * lr * step_t) ** alpha))
            mu.copy_(1 / torch.maximum(step_t - t0, torch.ones_like(step_t)))
        else:
            step = _get_value(step_t)
            eta.fill_(lr / ((1 + lambd * lr * step) ** alpha))
            mu.fill_(1 / max(1, step - t0))
