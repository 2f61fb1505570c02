"""Adam (and, with decoupled_weight_decay=True, AdamW): adaptive moment estimation."""

from __future__ import annotations

import torch
from torch.optim.optimizer import (
    Optimizer,
    _by_step,
    _check_adam_args,
    _check_fused,
    _check_fused_param,
    _fusable,
    _get_value,
    _use_grad_for_differentiable,
)

__all__ = ["Adam"]


class Adam(Optimizer):
    """Adam, PyTorch's torch.optim.Adam.

    Per parameter at step t, with g the gradient (negated when `maximize`):
    weight decay (g += wd * p, or p *= 1 - lr * wd when decoupled); m = lerp(m, g, 1 - beta1);
    v = beta2 * v + (1 - beta2) * g^2; v_max = max(v_max, v) with amsgrad;
    p -= lr / (1 - beta1^t) * m / (sqrt(v or v_max) / sqrt(1 - beta2^t) + eps).
    """

    def __init__(
        self,
        params,
        lr=1e-3,
        betas=(0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        amsgrad: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
        decoupled_weight_decay: bool = False,
    ) -> None:
        if isinstance(lr, torch.Tensor) and foreach and not capturable:
            raise ValueError("lr as a Tensor is not supported for capturable=False and foreach=True")
        _check_adam_args(lr, betas, eps, weight_decay)
        if not (
            (isinstance(betas[0], float) and isinstance(betas[1], float))
            or (isinstance(betas[0], torch.Tensor) and isinstance(betas[1], torch.Tensor))
        ):
            raise ValueError("betas must be either both floats or both Tensors")
        for i, beta in enumerate(betas):
            if isinstance(beta, torch.Tensor):
                if not capturable and foreach:
                    raise ValueError(f"betas[{i}] as a Tensor is not supported for capturable=False and foreach=True")
                if beta.numel() != 1:
                    raise ValueError(f"Tensor betas[{i}] must be 1-element")
        betas = tuple(b.squeeze() if isinstance(b, torch.Tensor) and b.dim() != 0 else b for b in betas)
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "amsgrad": amsgrad,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "differentiable": differentiable,
            "fused": fused,
            "decoupled_weight_decay": decoupled_weight_decay,
        }
        super().__init__(params, defaults)
        _check_fused(fused, foreach, differentiable)

    _group_setstate_defaults = {
        "amsgrad": False,
        "maximize": False,
        "foreach": None,
        "capturable": False,
        "differentiable": False,
        "decoupled_weight_decay": False,
        "fused": None,
    }

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Performs a single optimization step; `closure` reevaluates the model and returns the loss."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            if group["fused"]:  # before any state is made: a refused parameter leaves none behind
                for p in group["params"]:
                    if p.grad is not None and len(self.state[p]) == 0:
                        _check_fused_param(p)
            names = ("exp_avg", "exp_avg_sq") + (("max_exp_avg_sq",) if group["amsgrad"] else ())
            params, grads, exp_avgs, exp_avg_sqs, *amsgrad, steps = self._gather(group, names)
            max_exp_avg_sqs = amsgrad[0] if amsgrad else []
            beta1, beta2 = group["betas"]
            _adam_update(
                params,
                grads,
                exp_avgs,
                exp_avg_sqs,
                max_exp_avg_sqs,
                steps,
                amsgrad=group["amsgrad"],
                beta1=beta1,
                beta2=beta2,
                lr=group["lr"],
                weight_decay=group["weight_decay"],
                eps=group["eps"],
                maximize=group["maximize"],
                decoupled_weight_decay=group["decoupled_weight_decay"],
            )
        return loss


def _adam_update(
    params,
    grads,
    exp_avgs,
    exp_avg_sqs,
    max_exp_avg_sqs,
    steps,
    *,
    amsgrad,
    beta1,
    beta2,
    lr,
    weight_decay,
    eps,
    maximize,
    decoupled_weight_decay,
) -> None:
    """The Adam/AdamW update of one parameter group, over lists (multi-tensor): one fused kernel call per
    step count where the group allows it (torch._fused_adam_, the same formula), this loop otherwise."""
    lr, beta1, beta2 = _get_value(lr), _get_value(beta1), _get_value(beta2)
    if _fusable(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs if amsgrad else []):
        for step_t in steps:
            step_t += 1
        for step, idx in _by_step(steps).items():
            pick = lambda lst, idx=idx: [lst[i] for i in idx]  # noqa: E731
            torch._fused_adam_(
                pick(params), pick(grads), pick(exp_avgs), pick(exp_avg_sqs),
                pick(max_exp_avg_sqs) if amsgrad else [], float(lr), float(beta1), float(beta2),
                float(_get_value(weight_decay)), float(eps), step, amsgrad, maximize, decoupled_weight_decay,
            )  # fmt: skip
        return
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg, exp_avg_sq, step_t = exp_avgs[i], exp_avg_sqs[i], steps[i]
        step_t += 1
        if weight_decay != 0:
            if decoupled_weight_decay:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).add_(grad * grad, alpha=1 - beta2)
        step = _get_value(step_t)
        bias_correction1 = 1 - beta1**step
        bias_correction2 = 1 - beta2**step
        step_size = lr / bias_correction1
        bias_correction2_sqrt = bias_correction2**0.5
        if amsgrad:
            torch.maximum(max_exp_avg_sqs[i], exp_avg_sq, out=max_exp_avg_sqs[i])
            denom = (max_exp_avg_sqs[i].sqrt() / bias_correction2_sqrt).add_(eps)
        else:
            denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
        param.add_(exp_avg / denom, alpha=-step_size)
