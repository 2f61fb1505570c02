"""The autograd graph: nodes, edges, saved tensors and per-tensor state.

Ops are recorded into it by torch/autograd/_recording.py (the hooks torch._C calls), with the node
classes generated from aten/derivatives.yaml into torch/autograd/_generated.py.
"""

from __future__ import annotations

import functools
import itertools
import re
import sys
import threading
import weakref
from collections import defaultdict
from typing import NamedTuple

from torch import _C
from torch._C import Tensor
from torch.autograd.anomaly_mode import STATE as _ANOMALY
from torch.autograd.anomaly_mode import record_trace

__all__ = [
    "GradientEdge",
    "Node",
    "disable_saved_tensors_hooks",
    "get_gradient_edge",
    "increment_version",
    "register_multi_grad_hook",
    "save_on_cpu",
    "saved_tensors_hooks",
]

_FREED = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they have "
    "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if "
    "you need to access saved tensors after calling backward."
)


SAME_DTYPE = object()  # AutogradMeta.grad_dtype's default: the tensor's own dtype


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
    grad_dtype = SAME_DTYPE  # a leaf's: the dtype gradients are cast to (None: any)


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
        target = var.dtype if m.grad_dtype is SAME_DTYPE else m.grad_dtype
        if target is not None and g.dtype != target:
            g = g.to(target)
        if m.grad is None:
            if _C.is_grad_enabled():  # create_graph: .grad keeps the gradient's own graph
                m.grad = g
            elif (
                sys.getrefcount(g) <= _STEAL_REFS
                and g._base is None
                and not g._requires_grad
                and _obeys_layout_contract(g, var)
            ):
                m.grad = g  # a fresh gradient no one else holds (PyTorch steals it too): no copy
            else:  # the user's tensor, one shared with another edge, or of another layout: a copy of its own
                m.grad = _clone_obeying_layout_contract(g, var)
        elif _C.is_grad_enabled():  # create_graph: keep the graph of the sum
            m.grad = m.grad + g
        else:
            m.grad.add_(g)
        if m.post_acc_hooks:
            for hook in list(m.post_acc_hooks):
                hook(var)
        return ()


def _dense(t: Tensor) -> bool:
    """Whether t's elements fill its memory without gaps or overlaps (in some order of its dims)."""
    expected = 1
    for stride, size in sorted((st, sz) for sz, st in zip(t.shape, t.stride()) if sz != 1):
        if stride != expected:
            return False
        expected *= size
    return True


def _obeys_layout_contract(g: Tensor, var: Tensor) -> bool:
    """PyTorch's layout contract for `.grad`: the strides of its parameter where that is dense (size-1 dims
    aside), else contiguous. So p.grad of a contiguous parameter is contiguous even where the backward made
    a transposed view (a linear layer's weight), as optimizers' fused kernels and users expect."""
    if var.is_contiguous() or not _dense(var):
        return g.is_contiguous()
    return all(a == b for size, a, b in zip(var.shape, g.stride(), var.stride()) if size != 1)


def _clone_obeying_layout_contract(g: Tensor, var: Tensor) -> Tensor:
    """A copy of g laid out as _obeys_layout_contract asks."""
    g = g.detach()
    if var.is_contiguous() or not _dense(var):
        return g.clone() if g.is_contiguous() else g.contiguous()
    out = _C.empty_like(var, dtype=g.dtype, device=g.device)
    out.copy_(g)
    return out


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
    if not isinstance(t, Tensor) or not t._requires_grad:
        return (None, 0)
    m = t._autograd_meta
    if m is not None and m.grad_fn is not None:
        return (m.grad_fn, m.output_nr)
    return (accumulator(t), 0)


_BACKWARD_SUFFIX = re.compile(r"Backward\d*$")


class SavedTensor:
    """A tensor saved for backward, with the version it had (in-place changes are detected)."""

    __slots__ = ("tensor", "version", "output_nr", "node_ref", "packed", "unpack_hook", "grad_edge")

    def __init__(self, t: Tensor, node: Node | None = None, output_nr: int = 0) -> None:
        self.unpack_hook = None
        self.output_nr = output_nr
        self.node_ref = weakref.ref(node) if node is not None else None
        self.version = t._version
        if _SAVED_TENSORS_HOOKS:  # torch.autograd.graph.saved_tensors_hooks: the pack hook keeps it
            pack_hook, self.unpack_hook = _SAVED_TENSORS_HOOKS[-1]
            # where a gradient reached the original (for double backward through the unpacked tensor)
            self.grad_edge = edge(t) if node is None else None
            self.tensor = None
            self.packed = pack_hook(t)
            return
        if node is not None:  # an output of `node`: keep a plain alias to avoid a reference cycle
            self.tensor = t._alias()
        else:
            self.tensor = t

    def _producer(self) -> str:
        """', which is output k of Op,' for a tensor some node produced (PyTorch's wording: the forward op's name,
        ExpBackward0 -> Exp); '' for a leaf."""
        node, output_nr = None, self.output_nr
        if self.node_ref is not None:
            node = self.node_ref()
        elif self.tensor._autograd_meta is not None and self.tensor._autograd_meta.grad_fn is not None:
            node, output_nr = self.tensor._autograd_meta.grad_fn, self.tensor._autograd_meta.output_nr
        if node is None:
            return ""
        return f", which is output {output_nr} of {_BACKWARD_SUFFIX.sub('', node.name())},"

    def unpack(self, node: Node) -> Tensor:
        if self.unpack_hook is not None:
            return self._unpack_hooked()
        t = self.tensor
        if t._version != self.version:
            raise RuntimeError(
                "one of the variables needed for gradient computation has been modified by an inplace "
                f"operation: [torch.{t.type().rsplit('.', 1)[-1]} {list(t.shape)}]{self._producer()} is at "
                f"version {t._version}; expected version {self.version} instead. Hint: enable anomaly detection to "
                "find the operation that failed to compute its gradient, with "
                "torch.autograd.set_detect_anomaly(True)."
            )
        if self.node_ref is not None and _C.is_grad_enabled():  # double backward through an output
            owner = self.node_ref()
            if owner is not None:
                t = t._alias()
                set_history(t, owner, self.output_nr)
        return t

    def _unpack_hooked(self) -> Tensor:
        """The unpack hook's tensor, given the original's place in the graph where a gradient of it is
        being recorded (no version check: upstream makes none once the hooks hold the tensor)."""
        t = self.unpack_hook(self.packed)
        if not isinstance(t, Tensor):
            raise TypeError(
                f"Output of saved tensor unpack_hook expected to be a Tensor but got result of type {type(t).__name__}"
            )
        if not _C.is_grad_enabled():
            return t
        if self.node_ref is not None:
            owner = self.node_ref()
            if owner is not None:
                t = t._alias()
                set_history(t, owner, self.output_nr)
        elif self.grad_edge[0] is not None:
            t = t._alias()
            set_history(t, *self.grad_edge)
        return t


_FREED_TENSOR = object()  # what a saved tensor becomes once its graph is freed

_SAVED_TENSORS_HOOKS: list = []  # the stack of (pack_hook, unpack_hook) of saved_tensors_hooks blocks
_HOOKS_DISABLED: list = []  # the error messages of disable_saved_tensors_hooks blocks


class saved_tensors_hooks:  # noqa: N801  (upstream's name)
    """`with saved_tensors_hooks(pack_hook, unpack_hook):` every tensor an op saves for backward inside the
    block is stored as pack_hook(tensor), and backward gets unpack_hook(packed) in its place (to offload
    activations to the CPU, compress them, or recompute them). Blocks nest; the innermost applies."""

    def __init__(self, pack_hook, unpack_hook) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        if _HOOKS_DISABLED:
            raise RuntimeError(_HOOKS_DISABLED[-1])
        _SAVED_TENSORS_HOOKS.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc) -> None:
        _SAVED_TENSORS_HOOKS.pop()


class save_on_cpu(saved_tensors_hooks):  # noqa: N801  (upstream's name)
    """Saved tensors go to CPU memory (pinned with pin_memory) and come back to their device for backward."""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        def pack_to_cpu(tensor):
            if not pin_memory:
                return (tensor.device, tensor.cpu())
            packed = _C.empty(list(tensor.shape), dtype=tensor.dtype, device="cpu", pin_memory=True)
            packed.copy_(tensor)
            return (tensor.device, packed)

        def unpack_from_cpu(packed):
            device, tensor = packed
            return tensor.to(device, non_blocking=pin_memory)

        super().__init__(pack_to_cpu, unpack_from_cpu)


class disable_saved_tensors_hooks:  # noqa: N801  (upstream's name)
    """Inside the block, entering saved_tensors_hooks raises RuntimeError(error_message) (for code whose
    saved tensors must not be intercepted)."""

    def __init__(self, error_message: str) -> None:
        self.error_message = error_message

    def __enter__(self):
        _HOOKS_DISABLED.append(self.error_message)
        return self

    def __exit__(self, *exc) -> None:
        _HOOKS_DISABLED.pop()


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
    if _ANOMALY.enabled:
        record_trace(node)


class NotImplementedNode(Node):
    """The grad_fn of an op that has no formula in derivatives.yaml: backward through it fails."""

    __slots__ = ("op",)

    def apply(self, grads: list) -> tuple:
        raise RuntimeError(f"the derivative for '{self.op}' is not implemented.")


NotImplementedNode.__name__ = NotImplementedNode.__qualname__ = "NotImplemented"  # PyTorch's node name


class GradientEdge(NamedTuple):
    """Where a tensor's gradient is computed in the graph: ``(node, output_nr)``. ``torch.autograd.grad`` and
    ``backward`` take one in place of a tensor (``autograd.grad(loss, get_gradient_edge(x))`` equals
    ``autograd.grad(loss, x)``), which keeps working after the tensor itself is gone."""

    node: Node
    output_nr: int
    ownership_token: Node | None = None  # upstream keeps C++ graphs alive with it; here `node` does


def get_gradient_edge(tensor: Tensor) -> GradientEdge:
    """The GradientEdge of ``tensor``: its grad_fn and output number, or a leaf's AccumulateGrad node."""
    if not tensor._requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does not require gradients")
    node, output_nr = edge(tensor)
    if type(node) is not AccumulateGrad:  # what grad(edge, ...) checks its grad_outputs against
        _EDGE_METADATA.setdefault(node, {})[output_nr] = (tuple(tensor.shape), tensor.dtype, tensor.device)
    return GradientEdge(node, output_nr)


_EDGE_METADATA: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # node -> {output_nr: metadata}


def edge_metadata(node, output_nr: int):
    """(shape, dtype, device) of the tensor whose gradient edge is (node, output_nr), where known: a leaf's, or
    one get_gradient_edge recorded; else None."""
    if type(node) is AccumulateGrad:
        v = node.variable
        return tuple(v.shape), v.dtype, v.device
    return _EDGE_METADATA.get(node, {}).get(output_nr)


def increment_version(tensor) -> None:
    """Marks ``tensor`` (or each tensor of an iterable) as modified in place, for a write autograd did not see
    (a custom kernel through ``data_ptr``): backward through a graph that saved it then raises."""
    for t in (tensor,) if isinstance(tensor, Tensor) else tensor:
        t._bump_version()


# The backward passes running on this thread, innermost last (the engine pushes and pops them): what
# register_multi_grad_hook asks of the pass its hooks run in (upstream's _current_graph_task_id and
# _will_engine_execute_node).
_PASSES = threading.local()


class BackwardPass:
    """One run of the engine: an id, whether it has inputs (grad, backward(inputs=)), and the nodes it executes
    (those a gradient reaches and that lead to an input; set once the engine has walked the graph)."""

    __slots__ = ("id", "has_inputs", "nodes", "callbacks")
    _ids = itertools.count(1)  # next() is atomic: two threads' passes never share an id

    def __init__(self, has_inputs: bool) -> None:
        self.id = next(BackwardPass._ids)
        self.has_inputs = has_inputs
        self.nodes = frozenset()
        self.callbacks = []  # Variable._execution_engine.queue_callback's: run when the pass ends


def current_pass() -> BackwardPass | None:
    """The innermost backward pass running on this thread, or None outside backward."""
    stack = getattr(_PASSES, "stack", None)
    return stack[-1] if stack else None


def grad_copy(g: Tensor) -> Tensor:
    """A non-leaf's first .grad (retain_grad, backward(inputs=[non-leaf])): a copy of the gradient, which keeps
    its graph under create_graph (grad mode is on in such a pass), as upstream's."""
    return g.clone() if _C.is_grad_enabled() else g.detach().clone()


def _pass_id() -> int:
    current = current_pass()
    if current is None:
        raise AssertionError("expected this hook to be called inside a backward call")
    return current.id


def _will_execute(node) -> bool:
    current = current_pass()
    return current is not None and node in current.nodes


class _MultiHandle:
    """What register_multi_grad_hook returns: ``.remove()`` removes the hook from every tensor."""

    def __init__(self, handles: tuple) -> None:
        self.handles = handles

    def remove(self) -> None:
        """Removes the hook from every tensor."""
        for handle in self.handles:
            handle.remove()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


def register_multi_grad_hook(tensors, fn, *, mode: str = "all"):
    """A backward hook over several tensors. ``mode="all"``: ``fn(grads)`` runs once per backward pass, after the
    gradient of every tensor that the pass computes (``None`` for the others: not in the graph, or not needed
    for the pass's ``inputs``). ``mode="any"``: ``fn(grad)`` runs once per pass, on the first of them.
    Returns a handle whose ``remove()`` unregisters it."""
    supported_modes = ("all", "any")
    if mode not in supported_modes:
        raise ValueError(f"Expects mode to be one of {supported_modes} but got {mode}")
    lock = threading.Lock()
    tensors = tuple(tensors)
    if mode == "all":
        count: dict = {}
        expected: dict = {}
        buffer: dict = {}
        nodes = [edge(t)[0] for t in tensors]

        def get_inner_hook(idx: int):
            def inner_hook(grad) -> None:
                pid = _pass_id()
                with lock:
                    seen = count.get(pid, 0)
                    count[pid] = seen + 1
                    if seen == 0:
                        expected[pid] = sum(map(_will_execute, nodes))
                        buffer[pid] = [None] * len(tensors)
                    buffer[pid][idx] = grad
                    done = seen == expected[pid] - 1
                    grads = buffer[pid]
                    if done:
                        del count[pid], expected[pid], buffer[pid]
                if done:
                    fn(grads)

            return inner_hook

        handles = tuple(t.register_hook(get_inner_hook(i)) for i, t in enumerate(tensors))
    else:
        ran: dict = defaultdict(bool)

        @functools.wraps(fn)
        def wrapped_fn(grad) -> None:
            pid = _pass_id()
            with lock:
                prev, ran[pid] = ran[pid], True
            if not prev:
                fn(grad)

        handles = tuple(t.register_hook(wrapped_fn) for t in tensors if t._requires_grad)
    return _MultiHandle(handles)
