"""Adadelta: steps scaled by the ratio of running RMS of updates and of gradients."""

from __future__ import annotations

import torch
from torch.optim.optimizer import (
    Optimizer,
    _check_lr,
    _fusable,
    _fused_update,
    _get_value,
    _use_grad_for_differentiable,
)

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    """Adadelta, PyTorch's torch.optim.Adadelta.

    Per parameter: g += wd * p; v = rho * v + (1 - rho) * g^2; d = sqrt(u + eps) / sqrt(v + eps) * g;
    u = rho * u + (1 - rho) * d^2; p -= lr * d.
    """

    def __init__(
        self,
        params,
        lr=1.0,
        rho: float = 0.9,
        eps: float = 1e-6,
        weight_decay: float = 0,
        foreach: bool | None = None,
        *,
        capturable: bool = False,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        _check_lr(lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {
            "lr": lr,
            "rho": rho,
            "eps": eps,
            "weight_decay": weight_decay,
            "maximize": maximize,
            "capturable": capturable,
            "foreach": foreach,
            "differentiable": differentiable,
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
            params, grads, square_avgs, acc_deltas, steps = self._gather(group, ("square_avg", "acc_delta"))
            _adadelta_update(
                params,
                grads,
                square_avgs,
                acc_deltas,
                steps,
                lr=group["lr"],
                rho=group["rho"],
                eps=group["eps"],
                weight_decay=group["weight_decay"],
                maximize=group["maximize"],
            )
        return loss


def _adadelta_update(params, grads, square_avgs, acc_deltas, steps, *, lr, rho, eps, weight_decay, maximize) -> None:
    """The Adadelta update of one parameter group, over lists (multi-tensor)."""
    lr = _get_value(lr)
    if _fusable(params, grads, square_avgs, acc_deltas):  # one kernel call per step count
        args = (float(lr), float(rho), float(eps), float(weight_decay), maximize)
        _fused_update(
            steps, (params, grads, square_avgs, acc_deltas), lambda step, *lists: torch._fused_adadelta_(*lists, *args)
        )
        return
    for param, grad, square_avg, acc_delta, step in zip(params, grads, square_avgs, acc_deltas, steps):
        step += 1
        grad = grad if not maximize else -grad
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        square_avg.mul_(rho).add_(grad * grad, alpha=1 - rho)
        std = square_avg.add(eps).sqrt_()
        delta = acc_delta.add(eps).sqrt_()
        delta.div_(std).mul_(grad)
        acc_delta.mul_(rho).add_(delta * delta, alpha=1 - rho)
        param.add_(delta, alpha=-lr)
