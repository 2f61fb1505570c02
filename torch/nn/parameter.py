"""Parameter and Buffer: tensors that a Module registers as its learnable state and its persistent state.

torch._C.Tensor cannot be subclassed from Python here (it has no Python-level constructor), so a Parameter is
a torch.Tensor marked `_is_param`; `isinstance(t, Parameter)` checks that mark, as PyTorch's own
`_ParameterMeta` does for tensors flagged that way.
"""

from __future__ import annotations

import torch

__all__ = ["Buffer", "Parameter", "UninitializedBuffer", "UninitializedParameter"]


class _ParameterMeta(type):
    """Makes `isinstance(t, Parameter)` true for tensors carrying the parameter mark."""

    def __instancecheck__(cls, instance):
        return isinstance(instance, torch.Tensor) and bool(getattr(instance, cls._mark, False))


class Parameter(metaclass=_ParameterMeta):
    """A tensor that is a module parameter: assigning one to a Module attribute registers it.

    Parameter(data=None, requires_grad=True) aliases `data` (no copy), detached from its graph.
    """

    _mark = "_is_param"

    def __new__(cls, data: torch.Tensor | None = None, requires_grad: bool = True):
        if data is None:
            data = torch.empty(0)
        if not isinstance(data, torch.Tensor):
            raise TypeError(f"Parameter data must be a Tensor, but got {type(data).__name__}")
        t = data.detach()
        t.requires_grad_(requires_grad)
        setattr(t, cls._mark, True)
        return t


class Buffer(metaclass=_ParameterMeta):
    """A tensor that is a module buffer: assigning one to a Module attribute registers it as a buffer.

    Buffer(data=None, *, persistent=True) aliases `data`, detached.
    """

    _mark = "_is_buffer"

    def __new__(cls, data: torch.Tensor | None = None, *, persistent: bool = True):
        if data is None:
            data = torch.empty(0)
        t = data.detach()
        t._is_buffer = True
        t.persistent = persistent
        return t


class UninitializedParameter(metaclass=_ParameterMeta):
    """A parameter whose shape is not known yet (a lazy module's, until its first forward): an empty parameter
    marked uninitialized; is_lazy() tells, materialize() gives it its shape in place."""

    _mark = "_is_uninitialized"

    def __new__(cls, requires_grad: bool = True, device=None, dtype=None):
        t = Parameter(torch.empty(0, device=device, dtype=dtype), requires_grad)
        t._is_uninitialized = True
        return t


class UninitializedBuffer(metaclass=_ParameterMeta):
    """A buffer whose shape is not known yet (a lazy module's, until its first forward)."""

    _mark = "_is_uninitialized"

    def __new__(cls, requires_grad: bool = False, device=None, dtype=None):
        t = Buffer(torch.empty(0, device=device, dtype=dtype))
        t._is_uninitialized = True
        return t


def is_lazy(t) -> bool:
    """Whether t is an uninitialized parameter or buffer."""
    return isinstance(t, torch.Tensor) and bool(getattr(t, "_is_uninitialized", False))


def materialize(t, shape, device=None, dtype=None) -> None:
    """Gives the uninitialized t its shape in place (uninitialized values; the module initializes them)."""
    t.data = torch.empty(
        shape, device=t.device if device is None else device, dtype=t.dtype if dtype is None else dtype
    )
    t._is_uninitialized = False
