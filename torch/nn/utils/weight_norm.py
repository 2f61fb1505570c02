"""Weight normalization (https://arxiv.org/abs/1602.07868), the older forward-pre-hook implementation.

Prefer :func:`torch.nn.utils.parametrizations.weight_norm`, which is built on parametrizations.
"""

from __future__ import annotations

import warnings

import torch
from torch.nn.modules.module import Module
from torch.nn.parameter import Parameter, UninitializedParameter

__all__ = ["WeightNorm", "weight_norm", "remove_weight_norm"]


def _norm_except_dim(v: torch.Tensor, pow: float = 2, dim: int = 0) -> torch.Tensor:
    # torch.norm_except_dim: the `pow`-norm over every dim but `dim`, shaped to broadcast against v
    # (dim=-1 means the norm of the whole tensor, a 0-dim result).
    if dim == -1:
        return v.norm(pow)
    if dim == 0:
        out = [1] * v.dim()
        out[0] = v.size(0)
        return v.contiguous().view(v.size(0), -1).norm(pow, dim=1).view(out)
    if dim == v.dim() - 1:
        out = [1] * v.dim()
        out[-1] = v.size(-1)
        return v.contiguous().view(-1, v.size(-1)).norm(pow, dim=0).view(out)
    return _norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


def _weight_norm(v: torch.Tensor, g: torch.Tensor, dim: int = 0) -> torch.Tensor:
    # torch._weight_norm: v * (g / ||v||), the norm over every dim but `dim` (-1: the whole tensor).
    return v * (g / _norm_except_dim(v, 2, dim))


class WeightNorm:
    """The forward pre-hook recomputing ``module.<name>`` as ``<name>_g * <name>_v / ||<name>_v||``."""

    name: str
    dim: int

    def __init__(self, name: str, dim: int) -> None:
        if dim is None:
            dim = -1
        self.name = name
        self.dim = dim

    def compute_weight(self, module: Module):
        """The weight from the module's current ``<name>_g`` and ``<name>_v``."""
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return _weight_norm(v, g, self.dim)

    @staticmethod
    def apply(module, name: str, dim: int) -> WeightNorm:
        """Replaces ``module.<name>`` by parameters ``<name>_g``, ``<name>_v`` and registers the hook."""
        warnings.warn(
            "`torch.nn.utils.weight_norm` is deprecated in favor of `torch.nn.utils.parametrizations.weight_norm`.",
            FutureWarning,
            stacklevel=3,
        )
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter {name}")
        if dim is None:
            dim = -1
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        if isinstance(weight, UninitializedParameter):
            raise ValueError(
                "The module passed to `WeightNorm` can't have uninitialized parameters. "
                "Make sure to run the dummy forward before applying weight normalization"
            )
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(_norm_except_dim(weight, 2, dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module: Module) -> None:
        """Puts the current weight back as a plain parameter ``module.<name>``."""
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module: Module, inputs) -> None:
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module: Module, name: str = "weight", dim: int = 0) -> Module:
    """Applies weight normalization ``w = g * v / ||v||`` to ``module.<name>`` (deprecated: use
    :func:`torch.nn.utils.parametrizations.weight_norm`); returns ``module``.

    The parameter is replaced by ``<name>_g`` (the magnitude, norm over every dim but ``dim``; ``dim=None``:
    one norm for the whole tensor) and ``<name>_v`` (the direction), and a forward pre-hook recomputes
    ``module.<name>`` before every forward."""
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module: Module, name: str = "weight") -> Module:
    """Removes the weight normalization hook of ``module.<name>``, leaving the current weight as a parameter;
    returns ``module``."""
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")
