"""RAdam: Adam with a rectified adaptive learning rate (Liu et al.)."""

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

__all__ = ["RAdam"]


class RAdam(Optimizer):
    """RAdam, PyTorch's torch.optim.RAdam.

    Per parameter at step t: weight decay (g += wd * p, or p *= 1 - lr * wd when decoupled);
    m = lerp(m, g, 1 - beta1); v = beta2 * v + (1 - beta2) * g^2; m_hat = m / (1 - beta1^t);
    rho_inf = 2 / (1 - beta2) - 1, rho_t = rho_inf - 2 t beta2^t / (1 - beta2^t); when rho_t > 5,
    p -= lr * m_hat * r_t * sqrt(1 - beta2^t) / (sqrt(v) + eps) with
    r_t = sqrt((rho_t - 4)(rho_t - 2) rho_inf / ((rho_inf - 4)(rho_inf - 2) rho_t)), else p -= lr * m_hat.
    """

    def __init__(
        self,
        params,
        lr=1e-3,
        betas=(0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        decoupled_weight_decay: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
    ) -> None:
        _check_adam_args(lr, betas, eps, weight_decay)
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "decoupled_weight_decay": decoupled_weight_decay,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    _group_setstate_defaults = {
        "foreach": None,
        "maximize": False,
        "differentiable": False,
        "decoupled_weight_decay": False,
        "capturable": False,
    }

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Performs a single optimization step; `closure` reevaluates the model and returns the loss."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            params, grads, exp_avgs, exp_avg_sqs, steps = self._gather(group, ("exp_avg", "exp_avg_sq"))
            beta1, beta2 = group["betas"]
            _radam_update(
                params,
                grads,
                exp_avgs,
                exp_avg_sqs,
                steps,
                beta1=beta1,
                beta2=beta2,
                lr=group["lr"],
                weight_decay=group["weight_decay"],
                eps=group["eps"],
                decoupled_weight_decay=group["decoupled_weight_decay"],
                maximize=group["maximize"],
            )
        return loss


def _radam_update(
    params,
    grads,
    exp_avgs,
    exp_avg_sqs,
    steps,
    *,
    beta1,
    beta2,
    lr,
    weight_decay,
    eps,
    decoupled_weight_decay,
    maximize,
) -> None:
    """The RAdam update of one parameter group, over lists (multi-tensor)."""
    lr = _get_value(lr)
    if _fusable(params, grads, exp_avgs, exp_avg_sqs):  # one kernel call per step count
        args = (float(lr), float(beta1), float(beta2), float(eps), float(weight_decay))
        _fused_update(
            steps,
            (params, grads, exp_avgs, exp_avg_sqs),
            lambda step, *lists: torch._fused_radam_(*lists, *args, step, decoupled_weight_decay, maximize),
        )
        return
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg, exp_avg_sq, step_t = exp_avgs[i], exp_avg_sqs[i], steps[i]
        step_t += 1
        step = _get_value(step_t)
        if weight_decay != 0:
            if decoupled_weight_decay:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).add_(grad * grad, alpha=1 - beta2)
        bias_correction1 = 1 - beta1**step
        bias_correction2 = 1 - beta2**step
        bias_corrected_exp_avg = exp_avg / bias_correction1
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2
        if rho_t > 5.0:
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            adaptive_lr = bias_correction2**0.5 / exp_avg_sq.sqrt().add_(eps)
            param.add_(bias_corrected_exp_avg * lr * adaptive_lr * rect, alpha=-1.0)
        else:
            param.add_(bias_corrected_exp_avg * lr, alpha=-1.0)
