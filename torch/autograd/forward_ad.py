"""torch.autograd.forward_ad: dual tensors and their tangents (upstream's API), computed on the reverse-mode tape.

There are no per-op forward (JVP) formulas here. ``make_dual(x, t)`` returns a tensor the tape records (a fresh
leaf aliasing ``x``'s storage, or a view of ``x`` when ``x`` is in a graph already), and ``unpack_dual(y)`` takes
the tangent ``J t`` by differentiating the linear map ``u -> J^T u`` (one create_graph backward pass from ``y``)
with respect to ``u``: exact, as ``torch.func.jvp`` here, at the cost of two backward passes per unpack and of
the ops' double-backward support. What follows from that, unlike upstream:

- the ops between ``make_dual`` and ``unpack_dual`` must be recorded: the level turns grad mode on (even inside
  an outer ``torch.no_grad()``), but ops run under a ``torch.no_grad()`` block inside it are not recorded, and
  their tangent comes back ``None``;
- a dual tensor and what is computed from it have ``requires_grad=True`` inside the level (``unpack_dual``'s
  primal is detached again unless it reaches a graph of the caller's), and writing in place into a dual tensor
  raises (it is a leaf of the tape) instead of updating its tangent.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from torch import _C
from torch._C import Tensor
from torch.autograd._own_leaves import OwnLeaves

__all__ = ["UnpackedDualTensor", "dual_level", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual"]

_current_level = -1
_LEVELS: list = []  # the active level's state (at most one: upstream does not nest them either)


class _Level:
    """One dual level: the transform call whose leaves are its dual tensors, and each dual's tangent."""

    def __init__(self) -> None:
        self.call = OwnLeaves()  # outer_grad: the mode at entry (results join the caller's graphs only under it)
        self.duals: list = []  # (dual tensor, tangent, primal)
        self.index: dict = {}  # id(dual tensor) -> position in duals
        self.prev_grad_mode = _C._set_grad_enabled(True)  # the tape must record what the level computes


def enter_dual_level() -> int:
    """Enters a new forward-AD level (the default one of make_dual/unpack_dual) and returns it."""
    global _current_level
    if _LEVELS:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _LEVELS.append(_Level())
    _current_level = 0
    return _current_level


def exit_dual_level(*, level=None) -> None:
    """Exits the level: every tangent associated with it is deleted."""
    global _current_level
    if level is None:
        level = _current_level
    if level != _current_level:
        raise RuntimeError(
            "Trying to exit a forward AD level that was not the last one that was created. This is not supported."
        )
    if level < 0 or not _LEVELS:
        raise RuntimeError("Dual level must be a positive number.")
    if _LEVELS:
        _C._set_grad_enabled(_LEVELS.pop().prev_grad_mode)
    _current_level = level - 1


def _level(level):
    if level is None:
        level = _current_level
    if level < 0 or not _LEVELS or level != _current_level:
        return None
    return _LEVELS[-1]


def make_dual(tensor, tangent, *, level=None):
    """A dual tensor: ``tensor``'s value (aliasing its storage) with ``tangent`` as its forward gradient.

    Example::

        >>> with dual_level():
        ...     inp = make_dual(x, v)
        ...     out = f(inp)
        ...     y, jvp = unpack_dual(out)
    """
    state = _level(level)
    if state is None:
        raise RuntimeError(
            "Trying to create a dual Tensor for forward AD but no level exists, make sure to enter_dual_level() first."
        )
    if not (tensor.is_floating_point() or tensor.is_complex()):
        raise ValueError(f"Expected primal to be floating point or complex, but got: {tensor.dtype}")
    if not (tangent.is_floating_point() or tangent.is_complex()):
        raise ValueError(f"Expected tangent to be floating point or complex, but got: {tangent.dtype}")
    if tuple(tangent.shape) != tuple(tensor.shape):
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the original Tensor, this is "
            f"not supported. Tensor is of size {list(tensor.shape)} while the given forward gradient is of size "
            f"{list(tangent.shape)}."
        )
    if tangent.device != tensor.device:
        raise RuntimeError(
            f"Expected tangent to be on the same device as the primal ({tensor.device}), but got: {tangent.device}"
        )
    import torch  # noqa: PLC0415

    with torch.enable_grad():
        dual = state.call.differentiable(tensor)
    state.index[id(dual)] = len(state.duals)
    state.duals.append((dual, tangent, tensor))
    return dual


class UnpackedDualTensor(NamedTuple):
    """What unpack_dual returns: the primal and the tangent (None without one) of a dual tensor."""

    primal: Tensor
    tangent: Tensor | None


def _tangent(state: _Level, tensor: Tensor):
    """J t for ``tensor`` as a function of the level's dual tensors (None where it depends on none)."""
    import torch  # noqa: PLC0415

    if not (tensor.is_floating_point() or tensor.is_complex()) or not tensor.requires_grad:
        return None
    duals = [d for d, _, _ in state.duals]
    with torch.enable_grad():
        u = torch.zeros_like(tensor).requires_grad_()
        gs = torch.autograd.grad(tensor, duals, u, retain_graph=True, create_graph=True, allow_unused=True)
        used = [(g, state.duals[k][1]) for k, g in enumerate(gs) if g is not None]
        if not used:
            return None
        linear = [(g, t) for g, t in used if g.requires_grad]
        if not linear:  # J^T u does not depend on u: J is zero
            return torch.zeros_like(tensor)
        need = state.call.outer_grad and (any(state.call.escapes(t) for _, t in linear) or state.call.escapes(tensor))
        (jv,) = torch.autograd.grad(
            [g for g, _ in linear],
            [u],
            [t.to(g.dtype) for g, t in linear],
            retain_graph=True,
            create_graph=need,
            allow_unused=True,
        )
    return torch.zeros_like(tensor) if jv is None else jv


def unpack_dual(tensor, *, level=None):
    """``(primal, tangent)`` of ``tensor``: its value and its forward gradient at the level (``None`` if it has
    none: no level, or ``tensor`` does not depend on a dual tensor of it).

    Example::

        >>> with dual_level():
        ...     inp = make_dual(x, x_t)
        ...     out = f(inp)
        ...     y, jvp = unpack_dual(out)
    """
    state = _level(level)
    if state is None:
        return UnpackedDualTensor(tensor, None)
    k = state.index.get(id(tensor))
    if k is not None and state.duals[k][0] is tensor:
        _, tangent, primal = state.duals[k]
        return UnpackedDualTensor(primal.view_as(primal), tangent)
    return UnpackedDualTensor(state.call.finish(tensor), _tangent(state, tensor))


class dual_level:  # noqa: N801  (upstream's name)
    """Context manager (and decorator) for forward AD: make_dual and unpack_dual work inside it, and its tangents
    are deleted on exit.

    Example::

        >>> with dual_level():
        ...     inp = make_dual(x, x_t)
        ...     _, grad = unpack_dual(your_fn(inp))
        >>> grad is None
        False
    """

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc) -> None:
        exit_dual_level()

    def __call__(self, fn):
        """Use as a decorator: ``fn`` runs inside a dual level."""

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with dual_level():
                return fn(*args, **kwargs)

        return wrapper
