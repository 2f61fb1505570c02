"""Rprop: resilient backpropagation, steps of a per-coordinate size adapted by the gradient's sign."""

from __future__ import annotations

import torch
from torch.optim.optimizer import Optimizer, _check_lr, _get_value, _use_grad_for_differentiable

__all__ = ["Rprop"]


class Rprop(Optimizer):
    """Rprop, PyTorch's torch.optim.Rprop.

    Per coordinate, with g the gradient (negated when `maximize`) and g_prev the last one kept:
    where g * g_prev > 0 the step size grows, min(size * etaplus, max_size); where it is < 0 it shrinks,
    max(size * etaminus, min_size), and g is taken as 0; else it stays. Then p -= size * sign(g) and
    g_prev = g. Step sizes start at `lr`.
    """

    def __init__(
        self,
        params,
        lr=1e-2,
        etas: tuple[float, float] = (0.5, 1.2),
        step_sizes: tuple[float, float] = (1e-6, 50),
        *,
        capturable: bool = False,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        _check_lr(lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = {
            "lr": lr,
            "etas": etas,
            "step_sizes": step_sizes,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "capturable": capturable,
        }
        super().__init__(params, defaults)

    _group_setstate_defaults = {"foreach": None, "maximize": False, "differentiable": False, "capturable": False}

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Performs a single optimization step; `closure` reevaluates the model and returns the loss."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:

            def init(p, state, group=group):
                lr = _get_value(group["lr"])
                fill = complex(lr, lr) if p.dtype.is_complex else lr  # real and imaginary parts step alike
                state["step_size"] = torch.full_like(p.grad, fill)

            params, grads, prevs, steps = self._gather(group, ("prev",), init)
            etaminus, etaplus = group["etas"]
            step_size_min, step_size_max = group["step_sizes"]
            _rprop_update(
                params,
                grads,
                prevs,
                [self.state[p]["step_size"] for p in params],
                steps,
                step_size_min=step_size_min,
                step_size_max=step_size_max,
                etaminus=etaminus,
                etaplus=etaplus,
                maximize=group["maximize"],
                capturable=group["capturable"],
                differentiable=group["differentiable"],
            )
        return loss


def _rprop_update(
    params,
    grads,
    prevs,
    step_sizes,
    steps,
    *,
    step_size_min,
    step_size_max,
    etaminus,
    etaplus,
    maximize,
    capturable,
    differentiable,
) -> None:
    """The Rprop update of one parameter group, over lists (multi-tensor); complex parameters step as pairs
    of reals."""
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        prev, step_size = prevs[i], step_sizes[i]
        steps[i] += 1
        if torch.is_complex(param):
            grad, prev = torch.view_as_real(grad), torch.view_as_real(prev)
            param, step_size = torch.view_as_real(param), torch.view_as_real(step_size)
        sign = grad.mul(prev.clone() if differentiable else prev).sign()
        if capturable:
            sign.copy_(torch.where(sign.gt(0), etaplus, sign))
            sign.copy_(torch.where(sign.lt(0), etaminus, sign))
            sign.copy_(torch.where(sign.eq(0), 1, sign))
        else:
            sign[sign.gt(0)] = etaplus
            sign[sign.lt(0)] = etaminus
            sign[sign.eq(0)] = 1
        step_size.mul_(sign).clamp_(step_size_min, step_size_max)
        grad = grad.clone(memory_format=torch.preserve_format)  # where the sign flipped, the gradient counts as 0
        if capturable:
            grad.copy_(torch.where(sign.eq(etaminus), 0, grad))
        else:
            grad[sign.eq(etaminus)] = 0
        param.addcmul_(grad.sign(), step_size, value=-1)
        prev.copy_(grad)
