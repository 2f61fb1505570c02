"""RMSprop: gradient steps scaled by a running mean of squared gradients (optionally centered)."""

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

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    """RMSprop, PyTorch's torch.optim.RMSprop.

    Per parameter: g += wd * p; v = alpha * v + (1 - alpha) * g^2; with `centered`, a = lerp(a, g, 1 - alpha)
    and the denominator is sqrt(v - a^2) + eps, else sqrt(v) + eps; with momentum,
    b = momentum * b + g / denom and p -= lr * b, else p -= lr * g / denom.
    """

    def __init__(
        self,
        params,
        lr=1e-2,
        alpha: float = 0.99,
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum: float = 0,
        centered: bool = False,
        capturable: bool = False,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        _check_lr(lr)
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        defaults = {
            "lr": lr,
            "momentum": momentum,
            "alpha": alpha,
            "eps": eps,
            "centered": centered,
            "weight_decay": weight_decay,
            "capturable": capturable,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    _group_setstate_defaults = {
        "momentum": 0,
        "centered": False,
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
            momentum, centered = group["momentum"] > 0, group["centered"]
            names = ("square_avg",) + (("momentum_buffer",) if momentum else ()) + (("grad_avg",) if centered else ())
            params, grads, square_avgs, *optional, steps = self._gather(group, names)
            momentum_buffers = optional.pop(0) if momentum else []
            grad_avgs = optional.pop(0) if centered else []
            _rmsprop_update(
                params,
                grads,
                square_avgs,
                grad_avgs,
                momentum_buffers,
                steps,
                lr=group["lr"],
                alpha=group["alpha"],
                eps=group["eps"],
                weight_decay=group["weight_decay"],
                momentum=group["momentum"],
                centered=group["centered"],
                maximize=group["maximize"],
            )
        return loss


def _rmsprop_update(
    params,
    grads,
    square_avgs,
    grad_avgs,
    momentum_buffers,
    steps,
    *,
    lr,
    alpha,
    eps,
    weight_decay,
    momentum,
    centered,
    maximize,
) -> None:
    """The RMSprop update of one parameter group, over lists (multi-tensor)."""
    lr = _get_value(lr)
    if _fusable(params, grads, square_avgs, grad_avgs, momentum_buffers):  # one kernel call per step count
        args = (float(lr), float(alpha), float(eps), float(weight_decay), float(momentum), centered, maximize)
        _fused_update(
            steps,
            (params, grads, square_avgs, grad_avgs, momentum_buffers),
            lambda step, *lists: torch._fused_rmsprop_(*lists, *args),
        )
        return
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        square_avg = square_avgs[i]
        steps[i] += 1
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        square_avg.mul_(alpha).add_(grad * grad, alpha=1 - alpha)
        if centered:
            grad_avg = grad_avgs[i]
            grad_avg.lerp_(grad, 1 - alpha)
            avg = square_avg.sub(grad_avg * grad_avg).sqrt_()
        else:
            avg = square_avg.sqrt()
        avg = avg.add_(eps)
        if momentum > 0:
            buf = momentum_buffers[i]
            buf.mul_(momentum).add_(grad / avg)
            param.add_(buf, alpha=-lr)
        else:
            param.add_(grad / avg, alpha=-lr)
