"""clamp / clip with tensor bounds (PyTorch's `clamp.Tensor` overload), written with `where` so that
autograd and every device come for free. Number bounds go straight to the generated kernel."""

from __future__ import annotations

import torch
from torch._C import Tensor
from torch._shift import _NAMES  # PyTorch's dtype names, as its messages print them

_clamp, _clamp_ = torch._C.clamp, torch._C.clamp_


def _overload(min, max) -> tuple:
    """(tensor overload?, min, max) as PyTorch's parser picks them: tensor bounds (at least one) take
    the tensor overload; number bounds, or none, the number one (whose kernel raises for none); a
    number mixed with a 0-dim tensor the number one too (the tensor as its value); any other mix is
    a TypeError."""
    tensors = [isinstance(b, Tensor) for b in (min, max) if b is not None]
    if not any(tensors):
        return False, min, max
    if all(tensors):
        return True, min, max
    if all(b.dim() == 0 for b in (min, max) if isinstance(b, Tensor)):
        return False, *(b.item() if isinstance(b, Tensor) else b for b in (min, max))
    got = ", ".join(f"{n}={type(b).__name__}" for n, b in (("min", min), ("max", max)))
    raise TypeError(
        f"clamp() received an invalid combination of arguments - got (Tensor, {got}), but expected one of:\n"
        " * (Tensor input, Tensor min = None, Tensor max = None)\n"
        " * (Tensor input, Number min = None, Number max = None)"
    )


def _clamp_tensors(input: Tensor, min: Tensor | None, max: Tensor | None) -> Tensor:
    # a NaN bound gives NaN, and on a tie the input wins (its gradient, PyTorch's convention)
    out = input
    if min is not None:
        out = torch.where((out < min) | min.isnan(), min, out)
    if max is not None:
        out = torch.where((out > max) | max.isnan(), max, out)
    return out


def clamp(input: Tensor, min=None, max=None, *, out: Tensor | None = None) -> Tensor:
    """Every element of input limited to [min, max]: bounds are numbers or tensors (broadcast with input;
    the result's dtype promotes all three). NaN stays NaN; a NaN bound gives NaN. With out=, the result
    goes there, resized to the result's shape; as in PyTorch, out must have the result's dtype with
    number bounds, and the result must cast to out's dtype with tensor bounds."""
    tensors, min, max = _overload(min, max)
    if not tensors:
        return _clamp(input, min, max) if out is None else _clamp(input, min, max, out=out)
    if out is None:
        return _clamp_tensors(input, min, max)
    if torch.is_grad_enabled() and any(isinstance(t, Tensor) and t.requires_grad for t in (input, min, max)):
        raise RuntimeError(
            "clamp(): functions with out=... arguments don't support automatic differentiation, "
            "but one of the arguments requires grad."
        )
    result = _clamp_tensors(input, min, max)
    if not torch.can_cast(result.dtype, out.dtype):  # this overload casts into out, as PyTorch's
        raise RuntimeError(
            f"result type {_NAMES[result.dtype]} can't be cast to the desired output type {_NAMES[out.dtype]}"
        )
    if out.shape != result.shape:
        out.resize_(result.shape)
    return out.copy_(result)


def clamp_(input: Tensor, min=None, max=None) -> Tensor:
    """clamp in place: the promoted result must be castable to input's dtype."""
    tensors, min, max = _overload(min, max)
    if not tensors:
        return _clamp_(input, min, max)
    out = _clamp_tensors(input, min, max)
    if (out.dtype.is_floating_point and not input.dtype.is_floating_point) or (
        input.dtype == torch.bool and out.dtype != torch.bool
    ):
        raise RuntimeError(
            f"result type {_NAMES[out.dtype]} can't be cast to the desired output type {_NAMES[input.dtype]}"
        )
    if out.shape != input.shape:
        raise RuntimeError(f"output with shape {list(input.shape)} doesn't match the broadcast shape {list(out.shape)}")
    return input.copy_(out)
