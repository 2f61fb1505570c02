"""Results computed outside the graph (from detached inputs, or by ops without a derivative) recorded as
functions of their inputs with the gradients upstream's formulas give ops that are locally constant in them:
zeros (`zeros_like` formulas: cdist with p = 0, copysign's sign source), no gradient at all (an undefined
formula: vector_norm with ord = 0), or the output gradient itself (nextafter's input)."""

from __future__ import annotations

import torch
from torch._C import Tensor
from torch.autograd._formulas import sum_to
from torch.autograd.function import Function

__all__ = ["record_stepwise"]

_KINDS = ("zeros", "none", "grad")


class _Stepwise(Function):
    """`result` as is, its backward giving each input the gradient its kind names."""

    @staticmethod
    def forward(ctx, result: Tensor, kinds: tuple, *inputs):
        ctx.kinds = kinds
        ctx.metas = [(tuple(t.shape), t.dtype) for t in inputs]
        return result

    @staticmethod
    def backward(ctx, grad):
        grads = []
        for kind, (shape, dtype) in zip(ctx.kinds, ctx.metas):
            if kind == "none":
                grads.append(None)
            elif kind == "zeros":
                grads.append(torch.zeros(shape, dtype=dtype, device=grad.device))
            else:
                g = sum_to(grad, shape)
                grads.append((g.real if g.is_complex() and not dtype.is_complex else g).to(dtype))
        return (None, None, *grads)


def record_stepwise(result: Tensor, inputs, kinds) -> Tensor:
    """`result`, recorded as a function of the tensors `inputs` where grad mode is on and one of them requires
    grad; kinds[i] is inputs[i]'s gradient: "zeros", "none" (None: not used in the graph) or "grad" (the output
    gradient, summed to the input's shape). A result that requires grad keeps its own graph's gradient too."""
    inputs, kinds = tuple(inputs), tuple(kinds)
    if any(k not in _KINDS for k in kinds) or len(kinds) != len(inputs):
        raise ValueError(f"record_stepwise: one kind of {_KINDS} per input, got {kinds} for {len(inputs)} inputs")
    if not torch.is_grad_enabled() or not any(t.requires_grad for t in inputs):
        return result
    if result.requires_grad:
        inputs, kinds = (*inputs, result), (*kinds, "grad")
    return _Stepwise.apply(result.detach(), kinds, *inputs)
