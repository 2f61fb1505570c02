"""Stochastic weight averaging (PyTorch's torch.optim.swa_utils): AveragedModel (SWA and EMA averages of a
model's parameters), the SWALR schedule, and update_bn (BatchNorm statistics recomputed over data)."""

from __future__ import annotations

import itertools
import math
import warnings
from copy import deepcopy
from typing import Any

import torch
from torch.autograd.grad_mode import no_grad
from torch.nn import Module
from torch.optim.lr_scheduler import LRScheduler, _format_param
from torch.optim.optimizer import _get_value

__all__ = [
    "AveragedModel",
    "update_bn",
    "SWALR",
    "get_ema_multi_avg_fn",
    "get_swa_multi_avg_fn",
    "get_ema_avg_fn",
    "get_swa_avg_fn",
]


def _check_decay(decay) -> None:
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in [0,1] range.")


def get_ema_multi_avg_fn(decay=0.999):
    """The in-place EMA over lists of parameters: W_ema = decay * W_ema + (1 - decay) * W_model."""
    _check_decay(decay)

    @no_grad()
    def ema_update(ema_param_list, current_param_list, _) -> None:
        if torch.is_floating_point(ema_param_list[0]) or torch.is_complex(ema_param_list[0]):
            for p_ema, p_model in zip(ema_param_list, current_param_list):
                p_ema.lerp_(p_model, 1 - decay)
        else:  # lerp takes floating-point tensors only
            for p_ema, p_model in zip(ema_param_list, current_param_list):
                p_ema.copy_(p_ema * decay + p_model * (1 - decay))

    return ema_update


def get_swa_multi_avg_fn():
    """The in-place equal-weight (SWA) average over lists of parameters: W += (W_model - W) / (n + 1)."""

    @no_grad()
    def swa_update(averaged_param_list, current_param_list, num_averaged) -> None:
        if torch.is_floating_point(averaged_param_list[0]) or torch.is_complex(averaged_param_list[0]):
            weight = _get_value(1 / (num_averaged + 1))
            for p_avg, p_model in zip(averaged_param_list, current_param_list):
                p_avg.lerp_(p_model, weight)
        else:
            for p_avg, p_model in zip(averaged_param_list, current_param_list):
                diff = p_model - p_avg
                if isinstance(num_averaged, torch.Tensor):
                    p_avg.addcdiv_(diff, num_averaged + 1)
                else:
                    p_avg.add_(diff, alpha=1.0 / (num_averaged + 1))

    return swa_update


def get_ema_avg_fn(decay=0.999):
    """The EMA of one parameter, returned: decay * W_ema + (1 - decay) * W_model."""
    _check_decay(decay)

    @no_grad()
    def ema_update(ema_param, current_param, num_averaged):
        return decay * ema_param + (1 - decay) * current_param

    return ema_update


def get_swa_avg_fn():
    """The equal-weight (SWA) average of one parameter, returned: W + (W_model - W) / (n + 1)."""

    @no_grad()
    def swa_update(averaged_param, current_param, num_averaged):
        return averaged_param + (current_param - averaged_param) / (num_averaged + 1)

    return swa_update


def _group_by_device_and_dtype(averaged: list, current: list) -> dict:
    """{(device, dtype): ([averaged tensors], [current tensors])}, in first-seen order."""
    groups: dict = {}
    for a, c in zip(averaged, current):
        lists = groups.setdefault((a.device, a.dtype), ([], []))
        lists[0].append(a)
        lists[1].append(c)
    return groups


class AveragedModel(Module):
    """A copy of `model` (on `device`, where given) whose parameters are running averages of `model`'s.

    `update_parameters(model)` copies the parameters on its first call, then averages: with `avg_fn(avg,
    current, n_averaged) -> new` per tensor, or `multi_avg_fn(avgs, currents, n_averaged)` in place per
    (device, dtype) list, or (neither given) the equal-weight SWA average. With `use_buffers`, the buffers
    are averaged too; without, they are copied from `model`. `n_averaged` (a long buffer) counts the calls.
    """

    def __init__(self, model: Module, device=None, avg_fn=None, multi_avg_fn=None, use_buffers=False) -> None:
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", torch.tensor(0, dtype=torch.long, device=device))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args, **kwargs):
        """The averaged module's forward."""
        return self.module(*args, **kwargs)

    def update_parameters(self, model: Module) -> None:
        """Averages `model`'s parameters (and, with use_buffers, buffers) into this model's."""
        if self.use_buffers:
            self_param = itertools.chain(self.module.parameters(), self.module.buffers())
            model_param = itertools.chain(model.parameters(), model.buffers())
        else:
            self_param, model_param = self.parameters(), model.parameters()
        self_detached, model_detached = [], []
        copy_param = bool(self.n_averaged == 0)
        for p_averaged, p_model in zip(self_param, model_param):
            p_model_ = p_model.detach().to(p_averaged.device)
            self_detached.append(p_averaged.detach())
            model_detached.append(p_model_)
            if copy_param:
                p_averaged.detach().copy_(p_model_)

        if self.n_averaged > 0:
            if self.multi_avg_fn is not None or self.avg_fn is None:
                for (device, _), (self_params, model_params) in _group_by_device_and_dtype(
                    self_detached, model_detached
                ).items():
                    n_averaged = self.n_averaged.to(device)
                    if self.multi_avg_fn is not None:
                        self.multi_avg_fn(self_params, model_params, n_averaged)
                    else:
                        avg_fn = get_swa_avg_fn()
                        for p_averaged, p_model in zip(self_params, model_params):
                            p_averaged.copy_(avg_fn(p_averaged, p_model, n_averaged))
            else:
                for p_averaged, p_model in zip(self_detached, model_detached):
                    n_averaged = self.n_averaged.to(p_averaged.device)
                    p_averaged.detach().copy_(self.avg_fn(p_averaged.detach(), p_model, n_averaged))

        if not self.use_buffers:  # buffers follow the source model
            for b_swa, b_model in zip(self.module.buffers(), model.buffers()):
                b_swa.detach().copy_(b_model.detach().to(b_swa.device))
        self.n_averaged += 1


@no_grad()
def update_bn(loader, model: Module, device=None) -> None:
    """Recomputes the BatchNorm running statistics of `model` in one pass over `loader` (each batch a tensor,
    or a list/tuple whose first element is the input), as a cumulative average; restores the layers'
    momenta and the model's train/eval mode."""
    momenta = {}
    for module in model.modules():
        if isinstance(module, torch.nn.modules.batchnorm._BatchNorm):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None
    for input in loader:
        if isinstance(input, (list, tuple)):
            input = input[0]
        if device is not None:
            input = input.to(device)
        model(input)
    for bn_module in momenta:
        bn_module.momentum = momenta[bn_module]
    model.train(was_training)


class SWALR(LRScheduler):
    """Anneals each group's lr to its `swa_lr` over `anneal_epochs` epochs, "cos" or "linear", then holds it.

    At step s (t = s / anneal_epochs, clipped to [0, 1], and a = anneal(t)): lr = swa_lr * a + lr0 * (1 - a),
    where lr0 is the starting lr recovered from the current one: (lr - a' * swa_lr) / (1 - a') for the
    previous step's a' (lr0 = swa_lr where a' = 1). anneal(t) = t, or (1 - cos(pi t)) / 2.
    """

    def __init__(self, optimizer, swa_lr, anneal_epochs=10, anneal_strategy="cos", last_epoch=-1) -> None:
        swa_lrs = _format_param("swa_lr", optimizer, swa_lr)
        for swa_lr, group in zip(swa_lrs, optimizer.param_groups):
            group["swa_lr"] = swa_lr
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}")
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t):
        return t

    @staticmethod
    def _cosine_anneal(t):
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self) -> list:
        """The learning rates of the current step (see the class docstring)."""
        if not self._get_lr_called_within_step:
            warnings.warn(
                "To get the last learning rate computed by the scheduler, please use `get_last_lr()`.",
                UserWarning,
                stacklevel=2,
            )
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_t = max(0, min(1, (step - 1) / max(1, self.anneal_epochs)))
        prev_alpha = self.anneal_func(prev_t)
        prev_lrs = [self._get_initial_lr(g["lr"], g["swa_lr"], prev_alpha) for g in self.optimizer.param_groups]
        t = max(0, min(1, step / max(1, self.anneal_epochs)))
        alpha = self.anneal_func(t)
        return [g["swa_lr"] * alpha + lr * (1 - alpha) for g, lr in zip(self.optimizer.param_groups, prev_lrs)]

    def _set_anneal_func(self, anneal_strategy) -> None:
        self._anneal_strategy = anneal_strategy
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else self._linear_anneal

    def state_dict(self) -> dict[str, Any]:
        """The scheduler's state: every attribute but the optimizer and the anneal function."""
        return {key: value for key, value in self.__dict__.items() if key not in ("optimizer", "anneal_func")}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Loads a state from `state_dict` (the anneal function follows the saved strategy)."""
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)
