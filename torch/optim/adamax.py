"""Adamax: Adam with the infinity norm of past gradients in place of their second moment."""

from __future__ import annotations

import torch
from torch.optim.optimizer import (
    Optimizer,
    _check_adam_args,
    _fusable,
    _fused_update,
    _get_value,
    _use_grad_for_differentiable,
)

__all__ = ["Adamax"]


class Adamax(Optimizer):
    """Adamax, PyTorch's torch.optim.Adamax.

    Per parameter at step t: g += wd * p; m = lerp(m, g, 1 - beta1); u = max(beta2 * u, |g| + eps);
    p -= lr / (1 - beta1^t) * m / u.
    """

    def __init__(
        self,
        params,
        lr=2e-3,
        betas=(0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        foreach: bool | None = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        capturable: bool = False,
    ) -> None:
        _check_adam_args(lr, betas, eps, weight_decay)
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "capturable": capturable,
        }
        super().__init__(params, defaults)

    _group_setstate_defaults = {
        "foreach": None,
        "maximize": False,
        "differentiable": False,
        "capturable": False,
    }

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Performs a single optimization step; `closure` reevaluates the model and returns the loss."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            params, grads, exp_avgs, exp_infs, steps = self._gather(group, ("exp_avg", "exp_inf"))
            beta1, beta2 = group["betas"]
            _adamax_update(
                params,
                grads,
                exp_avgs,
                exp_infs,
                steps,
                eps=group["eps"],
                beta1=beta1,
                beta2=beta2,
                lr=group["lr"],
                weight_decay=group["weight_decay"],
                maximize=group["maximize"],
            )
        return loss


def _adamax_update(params, grads, exp_avgs, exp_infs, steps, *, eps, beta1, beta2, lr, weight_decay, maximize) -> None:
    """The Adamax update of one parameter group, over lists (multi-tensor)."""
    lr = _get_value(lr)
    if _fusable(params, grads, exp_avgs, exp_infs):  # one kernel call per step count
        args = (float(lr), float(beta1), float(beta2), float(eps), float(weight_decay))
        _fused_update(
            steps,
            (params, grads, exp_avgs, exp_infs),
            lambda step, *lists: torch._fused_adamax_(*lists, *args, step, maximize),
        )
        return
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg, exp_inf, step_t = exp_avgs[i], exp_infs[i], steps[i]
        step_t += 1
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        exp_avg.lerp_(grad, 1 - beta1)
        torch.maximum(exp_inf.mul_(beta2), grad.abs().add_(eps), out=exp_inf)
        clr = lr / (1 - beta1 ** _get_value(step_t))
        param.add_(exp_avg / exp_inf, alpha=-clr)
