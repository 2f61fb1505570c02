"""Adafactor (Shazeer and Stern): second moments factored into row and column means, relative step sizes."""

from __future__ import annotations

import torch
from torch.autograd.grad_mode import no_grad
from torch.optim.optimizer import Optimizer, _get_value

__all__ = ["Adafactor"]


class Adafactor(Optimizer):
    """Adafactor, PyTorch's torch.optim.Adafactor.

    Per parameter at step t, with G the gradient (negated when `maximize`): 1 - beta2_t = t^beta2_decay;
    rho = min(lr, 1 / sqrt(t)); alpha = max(eps2, RMS(p)) * rho; p *= 1 - lr * weight_decay. A parameter of
    2 or more dims keeps R (the mean of G^2 over the last dim) and C (over the one before) as running
    averages with weight 1 - beta2_t, and V = R @ C / max(mean(R), eps1); a vector keeps V itself as
    the running average of G^2. Then U = G / max(sqrt(V), eps1) and p -= alpha * U / max(1, RMS(U) / d).
    eps1=None takes the machine epsilon of the (first) parameter's dtype.
    """

    def __init__(
        self,
        params,
        lr=1e-2,
        beta2_decay: float = -0.8,
        eps: tuple[float | None, float] = (None, 1e-3),
        d: float = 1.0,
        weight_decay: float = 0.0,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
    ) -> None:
        if isinstance(lr, torch.Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 >= beta2_decay:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not 0.0 <= eps[0]:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not 0.0 <= eps[1]:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not 1.0 <= d:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")
        defaults = {
            "lr": lr,
            "beta2_decay": beta2_decay,
            "eps": eps,
            "d": d,
            "weight_decay": weight_decay,
            "foreach": foreach,
            "maximize": maximize,
        }
        super().__init__(params, defaults)

    _group_setstate_defaults = {"foreach": None}

    @no_grad()
    def step(self, closure=None):
        """Performs a single optimization step; `closure` reevaluates the model and returns the loss."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            params, grads, row_vars, col_vars, variances, steps = [], [], [], [], [], []
            for p in group["params"]:
                if p.grad is None:
                    continue
                if torch.is_complex(p):
                    raise RuntimeError("Adafactor does not support complex parameters")
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = self._new_step(group, p)
                    if p.grad.dim() > 1:  # factored: the row and column means, reduced over the last 2 dims
                        row_shape, col_shape = list(p.grad.shape), list(p.grad.shape)
                        row_shape[-1], col_shape[-2] = 1, 1
                        state["row_var"] = p.grad.new_zeros(row_shape)
                        state["col_var"] = p.grad.new_zeros(col_shape)
                    else:
                        state["variance"] = torch.zeros_like(p.grad, memory_format=torch.preserve_format)
                params.append(p)
                grads.append(p.grad)
                row_vars.append(state.get("row_var"))
                col_vars.append(state.get("col_var"))
                variances.append(state.get("variance"))
                steps.append(state["step"])
            eps1, eps2 = group["eps"]
            _adafactor_update(
                params,
                grads,
                row_vars,
                col_vars,
                variances,
                steps,
                d=group["d"],
                lr=group["lr"],
                beta2_decay=group["beta2_decay"],
                weight_decay=group["weight_decay"],
                eps1=eps1,
                eps2=eps2,
                maximize=group["maximize"],
            )
        return loss


def _adafactor_update(
    params, grads, row_vars, col_vars, variances, steps, *, d, lr, beta2_decay, weight_decay, eps1, eps2, maximize
) -> None:
    """The Adafactor update of one parameter group, over lists (multi-tensor); row_vars/col_vars hold None
    for vectors, variances None for factored parameters."""
    lr = _get_value(lr)
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        step_t, row_var, col_var, variance = steps[i], row_vars[i], col_vars[i], variances[i]
        if eps1 is None:
            eps1 = torch.finfo(param.dtype).eps
        step_t += 1
        step = _get_value(step_t)
        one_minus_beta2_t = step**beta2_decay
        rho_t = min(lr, 1 / (step**0.5))
        alpha = max(eps2, param.norm(2).item() / (param.numel() ** 0.5)) * rho_t
        if weight_decay != 0:
            param.mul_(1 - lr * weight_decay)
        if grad.dim() > 1:
            row_mean = torch.norm(grad, dim=-1, keepdim=True).square_().div_(grad.size(-1))  # mean(g^2, -1)
            row_var.lerp_(row_mean, one_minus_beta2_t)
            col_mean = torch.norm(grad, dim=-2, keepdim=True).square_().div_(grad.size(-2))  # mean(g^2, -2)
            col_var.lerp_(col_mean, one_minus_beta2_t)
            var_estimate = row_var @ col_var
            var_estimate.div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))
        else:
            variance.lerp_(grad * grad, one_minus_beta2_t)
            var_estimate = variance.clone()
        update = var_estimate.clamp_(min=eps1 * eps1).rsqrt_()  # eps1 squared: it bounds sqrt(V)
        update.mul_(grad)
        denom = max(1.0, update.norm(2).item() / ((update.numel() ** 0.5) * d))
        param.add_(update, alpha=-alpha / denom)
