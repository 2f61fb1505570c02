"""SGD: stochastic gradient descent with momentum, dampening, Nesterov momentum and weight decay."""

from __future__ import annotations

import torch
from torch.optim.optimizer import (
    Optimizer,
    _check_fused,
    _check_fused_param,
    _fusable,
    _get_value,
    _use_grad_for_differentiable,
)

__all__ = ["SGD"]


class SGD(Optimizer):
    """Stochastic gradient descent (optionally with momentum), PyTorch's torch.optim.SGD.

    Per parameter, with g the gradient (negated when `maximize`):
    g += weight_decay * p; b = g on the first step, else b = momentum * b + (1 - dampening) * g;
    g = g + momentum * b (nesterov) or b; p -= lr * g.
    """

    def __init__(
        self,
        params,
        lr=1e-3,
        momentum: float = 0,
        dampening: float = 0,
        weight_decay=0,
        nesterov: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        if isinstance(lr, torch.Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {
            "lr": lr,
            "momentum": momentum,
            "dampening": dampening,
            "weight_decay": weight_decay,
            "nesterov": nesterov,
            "maximize": maximize,
            "foreach": foreach,
            "differentiable": differentiable,
            "fused": fused,
        }
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)
        _check_fused(fused, foreach, differentiable)

    _group_setstate_defaults = {
        "nesterov": False,
        "maximize": False,
        "foreach": None,
        "differentiable": False,
        "fused": False,
    }

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Performs a single optimization step; `closure` reevaluates the model and returns the loss."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            params, grads, momentum_buffers = [], [], []
            for p in group["params"]:
                if p.grad is None:
                    continue
                if group["fused"]:
                    _check_fused_param(p)
                params.append(p)
                grads.append(p.grad)
                if group["momentum"] != 0:
                    momentum_buffers.append(self.state[p].get("momentum_buffer"))
            _sgd_update(
                params,
                grads,
                momentum_buffers,
                weight_decay=group["weight_decay"],
                momentum=group["momentum"],
                lr=group["lr"],
                dampening=group["dampening"],
                nesterov=group["nesterov"],
                maximize=group["maximize"],
            )
            if group["momentum"] != 0:
                for p, buf in zip(params, momentum_buffers):
                    self.state[p]["momentum_buffer"] = buf
        return loss


def _sgd_update(params, grads, momentum_buffers, *, weight_decay, momentum, lr, dampening, nesterov, maximize) -> None:
    """The SGD update of one parameter group, over lists (multi-tensor): `momentum_buffers` holds each
    parameter's buffer or None (a new buffer is stored in its place)."""
    lr = _get_value(lr)
    weight_decay = _get_value(weight_decay)
    if (momentum == 0 or all(b is not None for b in momentum_buffers)) and _fusable(
        params, grads, momentum_buffers if momentum != 0 else []
    ):  # one fused kernel call for the group (torch._fused_sgd_, the same formula); the first momentum step
        # (buffers made from the gradient) takes the loop
        torch._fused_sgd_(
            params, grads, momentum_buffers if momentum != 0 else [], float(lr), float(momentum), float(dampening),
            float(weight_decay), nesterov, maximize,
        )  # fmt: skip
        return
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        if momentum != 0:
            buf = momentum_buffers[i]
            if buf is None:
                buf = grad.detach().clone()
                momentum_buffers[i] = buf
            else:
                buf.mul_(momentum).add_(grad, alpha=1 - dampening)
            grad = grad.add(buf, alpha=momentum) if nesterov else buf
        param.add_(grad, alpha=-lr)
