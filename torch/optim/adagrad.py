"""Adagrad: per-coordinate steps scaled by the root of the sum of squared gradients."""

from __future__ import annotations

import torch
from torch.optim.optimizer import (
    Optimizer,
    _check_fused,
    _check_fused_param,
    _check_lr,
    _fusable,
    _fused_update,
    _get_value,
    _use_grad_for_differentiable,
)

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """Adagrad, PyTorch's torch.optim.Adagrad.

    Per parameter at step t: g += wd * p; clr = lr / (1 + (t - 1) * lr_decay); s += g^2;
    p -= clr * g / (sqrt(s) + eps). The sums start at `initial_accumulator_value` (state is made for
    every parameter when the optimizer is built, as in PyTorch).
    """

    def __init__(
        self,
        params,
        lr=1e-2,
        lr_decay: float = 0,
        weight_decay: float = 0,
        initial_accumulator_value: float = 0,
        eps: float = 1e-10,
        foreach: bool | None = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        _check_lr(lr)
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError(f"Invalid initial_accumulator_value value: {initial_accumulator_value}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        defaults = {
            "lr": lr,
            "lr_decay": lr_decay,
            "eps": eps,
            "weight_decay": weight_decay,
            "initial_accumulator_value": initial_accumulator_value,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "fused": fused,
        }
        super().__init__(params, defaults)
        _check_fused(fused, foreach, differentiable)
        for group in self.param_groups:
            for p in group["params"]:
                self._init_state(group, p)

    def _init_state(self, group, p) -> None:
        """The step counter and the accumulator of a parameter that has none yet."""
        state = self.state[p]
        if group["fused"]:
            _check_fused_param(p)
        state["step"] = self._new_step(group, p)
        state["sum"] = torch.full_like(
            p, self.defaults["initial_accumulator_value"], memory_format=torch.preserve_format
        )

    _group_setstate_defaults = {
        "foreach": None,
        "maximize": False,
        "differentiable": False,
        "fused": None,
    }

    def share_memory(self) -> None:
        """Moves the accumulators to shared memory (for Hogwild-style training)."""
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p]["sum"].share_memory_()

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Performs a single optimization step; `closure` reevaluates the model and returns the loss."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            params, grads, state_sums, steps = [], [], [], []
            for p in group["params"]:
                if p.grad is None:
                    continue
                if len(self.state[p]) == 0:
                    self._init_state(group, p)
                params.append(p)
                grads.append(p.grad)
                state_sums.append(self.state[p]["sum"])
                steps.append(self.state[p]["step"])
            _adagrad_update(
                params,
                grads,
                state_sums,
                steps,
                lr=group["lr"],
                weight_decay=group["weight_decay"],
                lr_decay=group["lr_decay"],
                eps=group["eps"],
                maximize=group["maximize"],
            )
        return loss


def _adagrad_update(params, grads, state_sums, steps, *, lr, weight_decay, lr_decay, eps, maximize) -> None:
    """The Adagrad update of one parameter group, over lists (multi-tensor)."""
    lr = _get_value(lr)
    if _fusable(params, grads, state_sums):  # one kernel call per step count
        _fused_update(
            steps,
            (params, grads, state_sums),
            lambda step, p, g, s: torch._fused_adagrad_(
                p, g, s, float(lr), float(weight_decay), float(lr_decay), float(eps), step, maximize
            ),
        )
        return
    for param, grad, state_sum, step_t in zip(params, grads, state_sums, steps):
        step_t += 1
        step = _get_value(step_t)
        grad = grad if not maximize else -grad
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        clr = lr / (1 + (step - 1) * lr_decay)
        state_sum.add_(grad * grad)
        std = state_sum.sqrt().add_(eps)
        param.add_(grad / std, alpha=-clr)
