"""NAdam: Adam with Nesterov momentum (Dozat), with the momentum-decay schedule of PyTorch."""

from __future__ import annotations

import torch
from torch.optim.optimizer import (
    Optimizer,
    _check_adam_args,
    _fusable,
    _fused_update,
    _get_value,
    _scalar_dtype,
    _use_grad_for_differentiable,
)

__all__ = ["NAdam"]


class NAdam(Optimizer):
    """NAdam, PyTorch's torch.optim.NAdam.

    Per parameter at step t: weight decay (g += wd * p, or p *= 1 - lr * wd when decoupled);
    mu_t = beta1 * (1 - 0.5 * 0.96^(t * momentum_decay)); P *= mu_t (the running product);
    m = lerp(m, g, 1 - beta1); v = beta2 * v + (1 - beta2) * g^2; d = sqrt(v / (1 - beta2^t)) + eps;
    p -= lr * (1 - mu_t) / (1 - P) * g / d + lr * mu_{t+1} / (1 - P * mu_{t+1}) * m / d.
    """

    def __init__(
        self,
        params,
        lr=2e-3,
        betas=(0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum_decay: float = 4e-3,
        decoupled_weight_decay: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
    ) -> None:
        _check_adam_args(lr, betas, eps, weight_decay)
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "momentum_decay": momentum_decay,
            "decoupled_weight_decay": decoupled_weight_decay,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    _group_setstate_defaults = {
        "maximize": False,
        "foreach": None,
        "capturable": False,
        "differentiable": False,
        "decoupled_weight_decay": False,
    }

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Performs a single optimization step; `closure` reevaluates the model and returns the loss."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:

            def mu_product(p, state, group=group):
                device = p.device if group["capturable"] else "cpu"
                state["mu_product"] = torch.ones((), dtype=_scalar_dtype(), device=device)

            params, grads, exp_avgs, exp_avg_sqs, steps = self._gather(group, ("exp_avg", "exp_avg_sq"), mu_product)
            mu_products = [self.state[p]["mu_product"] for p in params]
            beta1, beta2 = group["betas"]
            _nadam_update(
                params,
                grads,
                exp_avgs,
                exp_avg_sqs,
                mu_products,
                steps,
                beta1=beta1,
                beta2=beta2,
                lr=group["lr"],
                weight_decay=group["weight_decay"],
                momentum_decay=group["momentum_decay"],
                eps=group["eps"],
                decoupled_weight_decay=group["decoupled_weight_decay"],
                maximize=group["maximize"],
            )
        return loss


def _nadam_update(
    params,
    grads,
    exp_avgs,
    exp_avg_sqs,
    mu_products,
    steps,
    *,
    beta1,
    beta2,
    lr,
    weight_decay,
    momentum_decay,
    eps,
    decoupled_weight_decay,
    maximize,
) -> None:
    """The NAdam update of one parameter group, over lists (multi-tensor)."""
    lr = _get_value(lr)
    if _fusable(params, grads, exp_avgs, exp_avg_sqs):  # one kernel call per (step count, mu product)
        for mu_product, step_t in zip(mu_products, steps):  # the product of mu over this step too, as below
            mu_product *= beta1 * (1.0 - 0.5 * 0.96 ** ((_get_value(step_t) + 1) * momentum_decay))
        products = [float(_get_value(m)) for m in mu_products]
        where = {id(p): i for i, p in enumerate(params)}

        def call(step, p, g, m, v):
            mu = beta1 * (1.0 - 0.5 * 0.96 ** (step * momentum_decay))
            mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1) * momentum_decay))
            torch._fused_nadam_(
                p,
                g,
                m,
                v,
                float(lr),
                float(beta1),
                float(beta2),
                float(eps),
                float(weight_decay),
                mu,
                mu_next,
                products[where[id(p[0])]],
                step,
                decoupled_weight_decay,
                maximize,
            )

        _fused_update(steps, (params, grads, exp_avgs, exp_avg_sqs), call, key=lambda i: products[i])
        return
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg, exp_avg_sq, mu_product, step_t = exp_avgs[i], exp_avg_sqs[i], mu_products[i], steps[i]
        step_t += 1
        step = _get_value(step_t)
        bias_correction2 = 1 - beta2**step
        if weight_decay != 0:
            if decoupled_weight_decay:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)
        mu = beta1 * (1.0 - 0.5 * 0.96 ** (step * momentum_decay))
        mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1) * momentum_decay))
        mu_product *= mu
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).add_(grad * grad, alpha=1 - beta2)
        denom = exp_avg_sq.div(bias_correction2).sqrt().add_(eps)
        product = _get_value(mu_product)
        param.add_(grad / denom, alpha=-lr * (1.0 - mu) / (1.0 - product))
        param.add_(exp_avg / denom, alpha=-lr * mu_next / (1.0 - product * mu_next))
