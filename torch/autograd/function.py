"""Custom differentiable operations: subclass `Function` with static `forward(ctx, ...)` and
`backward(ctx, *grads)` (or `vjp`), call `apply` (PyTorch's API). The newer form is supported too: a
`forward(...)` without ctx and a `setup_context(ctx, inputs, output)` that saves what backward needs; its
inputs are the call's arguments with forward's defaults filled in, as upstream's."""

from __future__ import annotations

import functools
import inspect

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

    def save_for_forward(self, *tensors) -> None:
        """Saves tensors for a forward-mode jvp (recorded; this torch has no forward-mode AD)."""
        self.saved_for_forward = tensors

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
        backward_fn = fn._user_backward()
        grads = list(grads) + [None] * (len(self._out_meta) - len(grads))
        if getattr(self, "_materialize", True):
            grads = [
                _C.zeros(s, dtype=d, device=dev) if g is None else g for g, (s, d, dev) in zip(grads, self._out_meta)
            ]
        res = backward_fn(self, *grads)
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

    vjp = backward  # upstream's alias: a Function defines one of the two

    @staticmethod
    def setup_context(ctx, inputs: tuple, output):
        """Saves what backward needs, for a forward that takes no ctx: inputs are the arguments of apply
        (forward's defaults filled in), output what forward returned."""
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def jvp(ctx, *grad_inputs):
        """The forward-mode derivative; this torch has no forward-mode AD (torch.func.jvp runs on reverse mode)."""
        raise NotImplementedError(
            "You must implement the jvp function for custom autograd.Function to use it with forward mode AD."
        )

    @classmethod
    def _user_backward(cls):
        backward, vjp = cls.backward, cls.vjp
        if backward is not Function.backward and vjp is not Function.vjp:
            raise RuntimeError("Implementing both 'backward' and 'vjp' for a custom Function is not allowed.")
        return vjp if vjp is not Function.vjp else backward

    @classmethod
    def apply(cls, *args, **kwargs):
        """Runs forward (without recording its inner ops) and records one node for it."""
        node = cls._backward_cls()
        uses_setup_context = cls.setup_context is not Function.setup_context
        if uses_setup_context:
            bound = inspect.signature(cls.forward).bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = bound.args, {}
        tensor_pos = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        node._needs_input_grad = tuple(isinstance(a, Tensor) and a._requires_grad for a in args)
        prev = _C._set_grad_enabled(False)
        try:
            if uses_setup_context:
                out = cls.forward(*args)
                cls.setup_context(node, args, out)
            else:
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


class _DelayedError(Function):
    """The grad_fn that once_differentiable gives a backward's outputs when it ran under create_graph: the
    second differentiation raises instead of silently treating the gradient as a constant."""

    @staticmethod
    def forward(ctx, *outputs):
        return outputs if len(outputs) > 1 else outputs[0]

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError("trying to differentiate twice a function that was marked with @once_differentiable")


def once_differentiable(fn):
    """Marks a backward that cannot itself be differentiated: it runs without recording, and where a
    gradient of it is asked for (create_graph), backpropagating through its outputs raises (upstream's
    DelayedError) rather than missing its contribution."""

    @functools.wraps(fn)
    def wrapper(ctx, *args):
        prev = _C._set_grad_enabled(False)
        try:
            outputs = fn(ctx, *args)
        finally:
            _C._set_grad_enabled(prev)
        if not prev or not any(isinstance(a, Tensor) and a._requires_grad for a in args):
            return outputs
        single = not isinstance(outputs, tuple)
        outs = (outputs,) if single else outputs

        def fake_requires_grad(o):
            if isinstance(o, Tensor) and o.dtype._differentiable:
                o = o.detach()
                o.requires_grad_(True)
            return o

        wrapped = _DelayedError.apply(*[fake_requires_grad(o) for o in outs])
        wrapped = wrapped if isinstance(wrapped, tuple) else (wrapped,)
        return wrapped[0] if single else wrapped

    return wrapper
