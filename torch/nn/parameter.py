"""Parameter and Buffer: tensors that a Module registers as its learnable state and its persistent state.

A Parameter is a real subclass of torch.Tensor, as PyTorch's: an instance aliases its data's tensor
(Tensor._make_subclass), `type(p)` is Parameter, ops on it return plain tensors, and it prints, pickles and
deep-copies as a Parameter. A Buffer is a plain tensor marked `_is_buffer` (`isinstance(t, Buffer)` checks the
mark, as PyTorch's `_BufferMeta` does).
"""

from __future__ import annotations

import collections

import torch
from torch._C import Tensor

__all__ = [
    "Buffer", "Parameter", "UninitializedBuffer", "UninitializedParameter", "UninitializedTensorMixin", "is_lazy",
]  # fmt: skip


class Parameter(Tensor):
    """A tensor that is a module parameter: assigning one to a Module attribute registers it.

    Parameter(data=None, requires_grad=True) aliases `data` (no copy), detached from its graph.
    """

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True):
        if data is None:
            data = torch.empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"_make_subclass(): argument 'data' (position 2) must be Tensor, not {type(data).__name__}")
        t = Tensor._make_subclass(cls, data.detach())
        t.requires_grad_(requires_grad)
        return t

    def __init__(self, *args, **kwargs) -> None:  # __new__ did the work (Tensor.__init__ is the legacy ctor)
        pass

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __deepcopy__(self, memo):
        """A new Parameter over a copy of the values, with the same requires_grad (not .grad, as PyTorch)."""
        if id(self) in memo:
            return memo[id(self)]
        with torch.no_grad():
            result = type(self)(self.detach().clone(), self.requires_grad)
        memo[id(self)] = result
        return result

    def __reduce_ex__(self, protocol):
        """Pickles as torch._utils._rebuild_parameter(data, requires_grad, hooks), as PyTorch does."""
        from torch import _utils  # noqa: PLC0415

        state = {k: v for k, v in self.__dict__.items() if not k.startswith("_")}
        if state:
            return (
                _utils._rebuild_parameter_with_state,
                (self.detach(), self.requires_grad, collections.OrderedDict(), state),
            )
        return (_utils._rebuild_parameter, (self.detach(), self.requires_grad, collections.OrderedDict()))


class _BufferMeta(type):
    """Makes `isinstance(t, Buffer)` true for tensors carrying the buffer mark."""

    def __instancecheck__(cls, instance):
        return isinstance(instance, Tensor) and bool(getattr(instance, "_is_buffer", False))


class Buffer(metaclass=_BufferMeta):
    """A tensor that is a module buffer: assigning one to a Module attribute registers it as a buffer.

    Buffer(data=None, *, persistent=True) aliases `data`, detached.
    """

    _mark = "_is_buffer"

    def __new__(cls, data: Tensor | None = None, *, persistent: bool = True):
        if data is None:
            data = torch.empty(0)
        t = data.detach()
        t._is_buffer = True
        t.persistent = persistent
        return t


class UninitializedTensorMixin:
    """A parameter or buffer whose shape is not known yet (a lazy module's, until its first forward): empty
    until materialize() gives it a shape and turns it into cls_to_become."""

    cls_to_become: type = Tensor
    requires_grad_default = False  # an UninitializedParameter's is True

    def __new__(cls, requires_grad: bool | None = None, device=None, dtype=None):
        t = Tensor._make_subclass(cls, torch.empty(0, device=device, dtype=dtype))
        t.requires_grad_(cls.requires_grad_default if requires_grad is None else requires_grad)
        return t

    def materialize(self, shape, device=None, dtype=None) -> None:
        """Gives this tensor `shape` in place (uninitialized values; the module initializes them) and makes it
        a cls_to_become (an UninitializedParameter becomes a Parameter)."""
        self.data = torch.empty(
            shape, device=self.device if device is None else device, dtype=self.dtype if dtype is None else dtype
        )
        self.__class__ = self.cls_to_become

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"

    def __reduce_ex__(self, protocol):
        raise RuntimeError(
            f"'{type(self).__name__}' cannot be pickled: run a forward pass of the lazy module first (or "
            "initialize it) to give it a shape"
        )

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.requires_grad, self.device, self.dtype)
        memo[id(self)] = result
        return result


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A parameter whose shape is not known yet; it becomes a Parameter when materialized."""

    cls_to_become = Parameter
    requires_grad_default = True


class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    """A buffer whose shape is not known yet; it becomes a plain tensor when materialized."""

    cls_to_become = Tensor

    def __init__(self, *args, **kwargs) -> None:
        pass


def is_lazy(t) -> bool:
    """Whether t is an uninitialized parameter or buffer."""
    return isinstance(t, UninitializedTensorMixin)


def materialize(t, shape, device=None, dtype=None) -> None:
    """Gives the uninitialized t its shape in place (see UninitializedTensorMixin.materialize)."""
    t.materialize(shape, device, dtype)
