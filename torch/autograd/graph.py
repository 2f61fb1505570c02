"""The autograd graph: nodes, edges, saved tensors, per-tensor state, and how ops are recorded.

When grad mode is on and an input requires grad, torch._C calls the recorder `_recorder_for(op)`
gives it (out-of-place ops), or the function `_inplace_for(op)` gives it and then `_finish_inplace`
(in-place ops). The node classes that know each op's formulas are generated from
aten/derivatives.yaml into torch/autograd/_generated.py.
"""

from __future__ import annotations

import atexit
import functools
import sys
import weakref

from torch import _C
from torch._C import Tensor

__all__ = ["Node"]

_FREED = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they have "
    "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if "
    "you need to access saved tensors after calling backward."
)


class AutogradMeta:
    """What autograd knows about one tensor (shared by all Python objects of the tensor).

    Class-level defaults, no __init__: an op's output gets one with just grad_fn and output_nr set.
    """

    grad_fn = None
    output_nr = 0
    grad = None
    hooks = None
    retains_grad = False
    accumulator = None  # weakref to the leaf's AccumulateGrad
    post_acc_hooks = None


def meta(t: Tensor) -> AutogradMeta:
    """The tensor's AutogradMeta, created on first use."""
    m = t._autograd_meta
    if m is None:
        m = AutogradMeta()
        t._autograd_meta = m
    return m


class Node:
    """A function of the backward graph: maps gradients of its outputs to gradients of its inputs.

    `next_functions` holds one (node, output_nr) edge per input ((None, 0) for an input that
    needs no gradient), as in PyTorch.
    """

    __slots__ = ("__weakref__", "__dict__")
    # class-level defaults: creating a node sets nothing but what its op needs
    next_functions: tuple = ()
    _saved_names: tuple = ()  # the slots holding SavedTensors (generated node classes set it)
    _released = False
    _pre_hooks = None  # {output_nr: [hook(grad) -> grad | None]}, -1: hooks on the whole node
    _hooks = None

    def name(self) -> str:
        """The node's class name, e.g. 'MulBackward0'."""
        return type(self).__name__

    def apply(self, grads: list) -> tuple:  # pragma: no cover - every node class overrides it
        raise NotImplementedError

    def __call__(self, *grads):
        return self.apply(list(grads))

    def _release(self) -> None:
        """Frees the saved tensors (after a backward pass without retain_graph)."""
        self._released = True
        for k in self._saved_names:
            if getattr(self, k, None) is not None:
                setattr(self, k, _FREED_TENSOR)

    def register_hook(self, fn):
        """fn(grad_inputs, grad_outputs) runs after this node; a non-None result replaces grad_inputs."""
        if self._hooks is None:
            self._hooks = []
        self._hooks.append(fn)
        return _RemovableHandle(self._hooks, fn)

    def register_prehook(self, fn):
        """fn(grad_outputs) runs before this node; a non-None result replaces grad_outputs."""
        if self._pre_hooks is None:
            self._pre_hooks = {}
        self._pre_hooks.setdefault(-1, []).append(fn)
        return _RemovableHandle(self._pre_hooks[-1], fn)

    def __repr__(self) -> str:
        return f"<{self.name()} object at {hex(id(self))}>"

    @property
    def metadata(self) -> dict:
        return self.__dict__


class _RemovableHandle:
    """What register_hook returns: `.remove()` unregisters the hook."""

    def __init__(self, hooks: list, fn) -> None:
        self._hooks, self._fn = hooks, fn

    def remove(self) -> None:
        if self._fn in self._hooks:
            self._hooks.remove(self._fn)


class AccumulateGrad(Node):
    """The sink of a leaf tensor: sums the gradients that reach it into `.grad`."""

    __slots__ = ("variable",)

    def __init__(self, variable: Tensor) -> None:
        self.variable = variable

    def apply(self, grads: list) -> tuple:
        g = grads[0]
        if g is None:
            return ()
        var = self.variable
        m = meta(var)
        if m.hooks:
            for hook in list(m.hooks):
                r = hook(g)
                if r is not None:
                    g = r
        if m.grad is None:
            if _C.is_grad_enabled():  # create_graph: .grad keeps the gradient's own graph
                m.grad = g
            elif sys.getrefcount(g) <= _STEAL_REFS and g.is_contiguous() and g._base is None and not g._requires_grad:
                m.grad = g  # a fresh gradient no one else holds (PyTorch steals it too): no copy
            else:  # the user's tensor, or one shared with another edge: .grad gets its own copy
                m.grad = g.detach().clone()
        elif _C.is_grad_enabled():  # create_graph: keep the graph of the sum
            m.grad = m.grad + g
        else:
            m.grad.add_(g)
        if m.post_acc_hooks:
            for hook in list(m.post_acc_hooks):
                hook(var)
        return ()


# references to a gradient only the engine holds, seen from AccumulateGrad.apply: the node's input
# buffer, the list passed to apply, the local `g`, and getrefcount's own argument
_STEAL_REFS = 4


def accumulator(t: Tensor) -> AccumulateGrad:
    """The (one) AccumulateGrad node of leaf `t`."""
    m = meta(t)
    acc = m.accumulator() if m.accumulator is not None else None
    if acc is None:
        acc = AccumulateGrad(t)
        m.accumulator = weakref.ref(acc)
    return acc


def edge(t) -> tuple:
    """The (node, output_nr) through which a gradient reaches `t`; (None, 0) if it needs none."""
    if type(t) is not Tensor or not t._requires_grad:
        return (None, 0)
    m = t._autograd_meta
    if m is not None and m.grad_fn is not None:
        return (m.grad_fn, m.output_nr)
    return (accumulator(t), 0)


class SavedTensor:
    """A tensor saved for backward, with the version it had (in-place changes are detected)."""

    __slots__ = ("tensor", "version", "output_nr", "node_ref")

    def __init__(self, t: Tensor, node: Node | None = None, output_nr: int = 0) -> None:
        if node is not None:  # an output of `node`: keep a plain alias to avoid a reference cycle
            self.tensor = t._alias()
            self.node_ref = weakref.ref(node)
        else:
            self.tensor = t
            self.node_ref = None
        self.version = t._version
        self.output_nr = output_nr

    def unpack(self, node: Node) -> Tensor:
        t = self.tensor
        if t._version != self.version:
            producer = node.name() if self.node_ref is None else self.node_ref().name()
            raise RuntimeError(
                "one of the variables needed for gradient computation has been modified by an inplace "
                f"operation: [torch.{t.type().rsplit('.', 1)[-1]} {list(t.shape)}], which is output "
                f"{self.output_nr} of {producer}, is at version {t._version}; expected version {self.version} "
                "instead. Hint: enable anomaly detection to find the operation that failed to compute its "
                "gradient, with torch.autograd.set_detect_anomaly(True)."
            )
        if self.node_ref is not None and _C.is_grad_enabled():  # double backward through an output
            owner = self.node_ref()
            if owner is not None:
                t = t._alias()
                set_history(t, owner, self.output_nr)
        return t


_FREED_TENSOR = object()  # what a saved tensor becomes once its graph is freed


def saved(node: Node, value):
    """Unpacks a SavedTensor (raising once the graph is freed); other values pass through."""
    if type(value) is SavedTensor:
        return value.unpack(node)
    if value is _FREED_TENSOR:
        raise RuntimeError(_FREED)
    return value


def set_history(t: Tensor, node: Node, output_nr: int = 0) -> None:
    """Makes `t` an output of `node`: it requires grad and its grad_fn is `node`."""
    m = t._autograd_meta
    if m is None:
        m = AutogradMeta()
        m.grad_fn = node
        if output_nr:
            m.output_nr = output_nr
        t._autograd_meta = m
    else:
        m.grad_fn = node
        m.output_nr = output_nr
    t._requires_grad = True


def _is_differentiable(t) -> bool:
    return type(t) is Tensor and t.dtype.is_floating_point


class NotImplementedNode(Node):
    """The grad_fn of an op that has no formula in derivatives.yaml: backward through it fails."""

    __slots__ = ("op",)

    def apply(self, grads: list) -> tuple:
        raise RuntimeError(f"the derivative for '{self.op}' is not implemented.")


NotImplementedNode.__name__ = NotImplementedNode.__qualname__ = "NotImplemented"  # PyTorch's node name

_NO_ENTRY = object()


def _outputs(result) -> list:
    return list(result) if isinstance(result, tuple) else [result]


def _not_implemented(name: str, args: tuple) -> NotImplementedNode:
    node = NotImplementedNode()
    node.op = name.partition(".")[0]
    node.next_functions = tuple(edge(a) for a in args if type(a) is Tensor)
    return node


def _record_unknown(name: str, args: tuple, result) -> None:
    """An op without a derivatives.yaml entry: its floating outputs get a grad_fn that raises."""
    outs = _outputs(result)
    if not any(_is_differentiable(o) for o in outs):
        return
    node = _not_implemented(name, args)
    for i, o in enumerate(outs):
        if _is_differentiable(o):
            set_history(o, node, i)


def _no_record(args: tuple, result) -> None:
    """An op declared non-differentiable (output_differentiability: [False])."""


def _recorder_for(name: str):
    """The function torch._C calls (with the op's arguments and result) to record op `name`."""
    rec = RECORDERS.get(name, _NO_ENTRY)
    if rec is _NO_ENTRY:
        return functools.partial(_record_unknown, name)
    return _no_record if rec is None else rec


def _check_inplace(self: Tensor) -> None:
    """PyTorch's errors for in-place ops on leaves that require grad (and on views of them)."""
    base = self._base
    if base is not None:
        if base._requires_grad and (base._autograd_meta is None or base._autograd_meta.grad_fn is None):
            raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
        return
    if self._requires_grad and (self._autograd_meta is None or self._autograd_meta.grad_fn is None):
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")


def _begin_unknown(name: str, args: tuple):
    _check_inplace(args[0])
    return (_not_implemented(name, args), None)


def _checked(begin):
    def run(args: tuple):
        _check_inplace(args[0])
        return begin(args)

    return run


def _inplace_for(name: str):
    """The function torch._C calls before in-place op `name` runs on args[0]: it checks, builds the
    node and saves originals; _finish_inplace completes the record after the op."""
    begin = INPLACE.get(name)
    return functools.partial(_begin_unknown, name) if begin is None else _checked(begin)


def _finish_inplace(pending, self: Tensor) -> None:
    """After the in-place op: self (or, for a view, its base) takes the new history."""
    node, finish = pending
    if node is None:  # no differentiable input needs a gradient
        return
    if finish is not None:
        finish(node, self)
    if not self.dtype.is_floating_point:
        return
    base = self._base
    if base is None:
        set_history(self, node, 0)
        return
    # a view modified in place: the base's history goes through CopySlices(node)
    from torch.autograd._views import rebase_view  # noqa: PLC0415 - only views need it

    rebase_view(base, self, node)


def install() -> None:
    """Hands the record hooks to torch._C (called once at import)."""
    _C._set_autograd_hooks(_recorder_for, _inplace_for, _finish_inplace)
    atexit.register(_C._set_autograd_hooks, None, None, None)  # let torch._C's teardown find no references


from torch.autograd._generated import INPLACE, RECORDERS  # noqa: E402
from torch.autograd._views import record_getitem  # noqa: E402

RECORDERS["__getitem__"] = record_getitem
