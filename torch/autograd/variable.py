"""torch.autograd.Variable: the pre-0.4 wrapper, now an alias of Tensor kept for old code (PyTorch's API).

`isinstance(t, Variable)` holds for every tensor, and `Variable(data, requires_grad=False)` returns a
tensor: `data` detached (sharing its storage) with the requested requires_grad.
"""

from __future__ import annotations

import operator
import warnings

from torch import _C
from torch._C import Tensor

__all__ = ["VariableMeta", "Variable"]


class VariableMeta(type):
    """Makes every Tensor an instance of Variable."""

    def __instancecheck__(cls, other) -> bool:
        return isinstance(other, Tensor)


class _ImperativeEngine:
    """`Variable._execution_engine`: old code calls its run_backward directly."""

    def run_backward(
        self,
        tensors,
        grad_tensors,
        keep_graph,
        create_graph,
        inputs=(),
        allow_unreachable=False,
        accumulate_grad=True,
    ):
        """Backpropagates from `tensors`: into the leaves' .grad (accumulate_grad) or returning the gradients of
        `inputs` as a tuple."""
        from torch.autograd.engine import run_backward  # noqa: PLC0415

        ins = list(inputs) if inputs else None
        grads = None if grad_tensors is None else list(grad_tensors)
        res = run_backward(
            list(tensors), grads, bool(keep_graph), bool(create_graph), ins, accumulate_grad, allow_unreachable
        )
        return tuple(res) if res is not None and not accumulate_grad else None

    def queue_callback(self, callback) -> None:
        """Runs ``callback()`` when the backward pass in progress ends (after its last node)."""
        from torch.autograd.graph import current_pass  # noqa: PLC0415

        current = current_pass()
        if current is None:
            raise RuntimeError("Final callbacks can only be installed during backward pass.")
        current.callbacks.append(callback)


_VOLATILE = "volatile was removed and now has no effect. Use `with torch.no_grad():` instead."


class Variable(metaclass=VariableMeta):
    """Legacy constructor: `Variable(data=None, requires_grad=False, volatile=False, _grad_fn=None, name=None)`
    returns `data.detach()` (an empty tensor without data) with the given requires_grad."""

    _execution_engine = _ImperativeEngine()

    def __new__(cls, data=None, requires_grad=False, volatile=False, _grad_fn=None, name=None, **kwargs):
        for key in kwargs:
            raise TypeError(f"'{key}' is an invalid keyword argument for this function")
        requires_grad = bool(operator.index(requires_grad))
        volatile = bool(operator.index(volatile))
        if name is not None and not isinstance(name, str):
            raise TypeError(f"argument 5 must be str or None, not {type(name).__name__}")
        if volatile:
            warnings.warn(_VOLATILE, UserWarning, stacklevel=2)
        if volatile and requires_grad:
            raise ValueError("Variable can't be volatile and require_grad at the same time!")
        if _grad_fn is not None:
            from torch.autograd.graph import Node  # noqa: PLC0415

            if not isinstance(_grad_fn, Node):
                raise TypeError(f"_grad_fn has to be a Function object or None, but got {type(_grad_fn).__name__}")
            raise RuntimeError(
                "_grad_fn argument to legacy Variable constructor is no longer supported.  Instead, please invoke "
                "your _grad_fn to produce a variable with it as the _grad_fn."
            )
        if data is None:
            var = _C.empty(0)
        elif isinstance(data, Tensor):
            var = data.detach()
        else:
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        var.requires_grad_(requires_grad)
        return var
