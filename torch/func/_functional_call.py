"""torch.func.functional_call and stack_module_state: modules as functions of their parameters."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch
from torch._C import Tensor
from torch.nn.utils.stateless import _functional_call

__all__ = ["functional_call", "stack_module_state"]


def functional_call(
    module: torch.nn.Module,
    parameter_and_buffer_dicts: dict[str, Tensor] | Sequence[dict[str, Tensor]],
    args: Any = None,
    kwargs: dict[str, Any] | None = None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
) -> Any:
    """Calls `module(*args, **kwargs)` with its parameters and buffers replaced by the given tensors.

    parameter_and_buffer_dicts maps dotted names (as in named_parameters()/named_buffers()) to tensors;
    a list/tuple of such dicts is merged (a key in two of them raises). Names not given keep the
    module's own tensors. The module's tensors are restored afterwards, even when the call raises.
    `args` that is not a tuple is the single positional argument.

    tie_weights: a value given for one of several tied names (one tensor registered under several
    names) is used for all of them; different values for tied names raise ValueError.
    strict: raise RuntimeError listing missing or unexpected keys.

    This is how a module enters the function transforms, e.g. per-sample gradients:
    ``vmap(grad(lambda p, x, y: loss(functional_call(model, p, (x,)), y)), in_dims=(None, 0, 0))``.
    """
    if isinstance(parameter_and_buffer_dicts, dict):
        parameters_and_buffers = parameter_and_buffer_dicts
    elif isinstance(parameter_and_buffer_dicts, Sequence):
        if not all(isinstance(d, dict) for d in parameter_and_buffer_dicts):
            raise ValueError("Expected all elements of parameter_and_buffer_dicts to be dictionaries")
        counts: dict[str, int] = {}
        for d in parameter_and_buffer_dicts:
            for k in d:
                counts[k] = counts.get(k, 0) + 1
        repeated = [k for k, n in counts.items() if n > 1]
        if repeated:
            raise ValueError(f"{repeated} appeared in multiple dictionaries; behavior of functional call is ambiguous")
        parameters_and_buffers = {k: v for d in parameter_and_buffer_dicts for k, v in d.items()}
    else:
        raise ValueError(
            "Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of dicts, "
            f"but got {type(parameter_and_buffer_dicts)}"
        )
    return _functional_call(module, parameters_and_buffers, args, kwargs, tie_weights=tie_weights, strict=strict)


def _stacked_leaf(tensors, name: str) -> Tensor:
    if all(t.requires_grad for t in tensors):
        return torch.stack(tensors).detach().requires_grad_()
    if any(t.requires_grad for t in tensors):
        raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
    return torch.stack(tensors)


def stack_module_state(models) -> tuple[dict[str, Any], dict[str, Any]]:
    """(params, buffers): each model's parameters and buffers stacked along a new dim 0, by name.

    For ensembling M models of one class with vmap:
    ``vmap(lambda p, b, x: functional_call(models[0], (p, b), (x,)), in_dims=(0, 0, None))(params, buffers, x)``.
    The stacked parameters are new leaves (they require grad, unrelated to the models' own parameters,
    so an optimizer can take them); buffers are stacked as they are.
    """
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or all(not m.training for m in models)):
        raise RuntimeError("stack_module_state: Expected all models to have the same training/eval mode.")
    if not all(type(m) is type(models[0]) for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")
    all_params = [dict(m.named_parameters()) for m in models]
    params = {k: _stacked_leaf(tuple(p[k] for p in all_params), k) for k in all_params[0]}
    all_buffers = [dict(m.named_buffers()) for m in models]
    buffers = {k: _stacked_leaf(tuple(b[k] for b in all_buffers), k) for k in all_buffers[0]}
    return params, buffers
