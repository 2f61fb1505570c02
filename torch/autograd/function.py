"""Custom differentiable operations: subclass `Function` with static `forward(ctx, ...)` and
`backward(ctx, *grads)`, call `apply` (PyTorch's API)."""

from __future__ import annotations

from torch import _C
from torch._C import Tensor
from torch.autograd.graph import _FREED_TENSOR, Node, SavedTensor, edge, saved, set_history

__all__ = ["Function", "FunctionCtx", "once_differentiable"]


class FunctionCtx:
    """The `ctx` of forward/backward: saved tensors and flags."""

    __slots__ = ()

    def save_for_backward(self, *tensors) -> None:
        """Saves tensors (or None) for backward; in-place changes to them are detected."""
        self._to_save = tensors

    def mark_non_differentiable(self, *tensors) -> None:
        """Outputs that never get a gradient (returned with requires_grad=False)."""
        self._non_differentiable = {id(t) for t in tensors}

    def mark_dirty(self, *tensors) -> None:
        """Inputs that forward modified in place."""
        self._dirty = {id(t) for t in tensors}

    def set_materialize_grads(self, value: bool) -> None:
        """Whether None output gradients reach backward as zeros (default True)."""
        self._materialize = value

    @property
    def saved_tensors(self) -> tuple:
        node = self._node
        return tuple(saved(node, s) for s in node._saved)


class BackwardCFunction(Node, FunctionCtx):
    """The node of one Function.apply call; also the `ctx` its forward and backward see."""

    __slots__ = ()

    def apply(self, grads: list) -> tuple:
        fn = self._fn
        grads = list(grads) + [None] * (len(self._out_meta) - len(grads))
        if getattr(self, "_materialize", True):
            grads = [
                _C.zeros(s, dtype=d, device=dev) if g is None else g for g, (s, d, dev) in zip(grads, self._out_meta)
            ]
        res = fn.backward(self, *grads)
        if not isinstance(res, tuple):
            res = (res,)
        n_inputs = len(self._input_positions)
        if len(res) < self._n_args:
            raise RuntimeError(
                f"function {type(self).__name__} returned an incorrect number of gradients (expected "
                f"{self._n_args}, got {len(res)})"
            )
        out = []
        for pos in self._input_positions:
            out.append(res[pos])
        return tuple(out[:n_inputs])

    @property
    def _node(self):
        return self

    def _release(self) -> None:
        self._released = True
        self._saved = tuple(None if s is None else _FREED_TENSOR for s in self._saved)

    @property
    def needs_input_grad(self) -> tuple:
        return self._needs_input_grad


class _FunctionMeta(type):
    """Gives each Function subclass its node class, named `<Name>Backward` as in PyTorch."""

    def __init__(cls, name, bases, attrs) -> None:
        super().__init__(name, bases, attrs)
        cls._backward_cls = type(f"{name}Backward", (BackwardCFunction,), {"_fn": cls})


class Function(metaclass=_FunctionMeta):
    """Base class of custom autograd operations."""

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it with backward mode AD."
        )

    @classmethod
    def apply(cls, *args, **kwargs):
        """Runs forward (without recording its inner ops) and records one node for it."""
        node = cls._backward_cls()
        tensor_pos = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        node._needs_input_grad = tuple(isinstance(a, Tensor) and a._requires_grad for a in args)
        prev = _C._set_grad_enabled(False)
        try:
            out = cls.forward(node, *args, **kwargs)
        finally:
            _C._set_grad_enabled(prev)
        record = prev and any(node._needs_input_grad)
        outs = out if isinstance(out, tuple) else (out,)
        to_save = getattr(node, "_to_save", ())
        if record:
            node._n_args = len(args)
            node._input_positions = tensor_pos
            node.next_functions = tuple(edge(args[i]) for i in tensor_pos)
            non_diff = getattr(node, "_non_differentiable", set())
            fixed = []
            meta = []
            for i, o in enumerate(outs):
                if isinstance(o, Tensor):
                    if any(o is a for a in args) and id(o) not in getattr(node, "_dirty", set()):
                        o = o._alias()  # an input returned as is: a new output object, as PyTorch makes
                    meta.append((tuple(o.shape), o.dtype, o.device))
                    if id(outs[i]) not in non_diff and o.dtype._differentiable:
                        set_history(o, node, i)
                else:
                    meta.append(((), None, None))
                fixed.append(o)
            node._out_meta = meta
            outs = tuple(fixed)
            out_index = {id(o): k for k, o in enumerate(outs)}
            node._saved = tuple(
                None if t is None else SavedTensor(t, node, out_index[id(t)]) if id(t) in out_index else SavedTensor(t)
                for t in to_save
            )
        else:
            node._saved = tuple(None if t is None else SavedTensor(t) for t in to_save)
        return outs if isinstance(out, tuple) else outs[0]


def once_differentiable(fn):
    """Marks a backward that cannot itself be differentiated (runs without recording)."""

    def wrapper(ctx, *args):
        prev = _C._set_grad_enabled(False)
        try:
            return fn(ctx, *args)
        finally:
            _C._set_grad_enabled(prev)

    return wrapper
