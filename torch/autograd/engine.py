"""The backward engine: runs the graph's nodes in dependency order (each node once, after every
node that feeds it), sums gradients per edge, accumulates into leaves' .grad (backward) or
captures the gradients of given inputs (grad), and frees saved tensors unless retain_graph.
"""

from __future__ import annotations

import math
from collections import deque

from torch import _C
from torch._C import Tensor
from torch.autograd import anomaly_mode
from torch.autograd.anomaly_mode import STATE as _ANOMALY
from torch.autograd.graph import (
    _PASSES,
    AccumulateGrad,
    BackwardPass,
    GradientEdge,
    current_pass,
    edge,
    edge_metadata,
    grad_copy,
    meta,
)


def _shape_str(shape) -> str:
    return f"torch.Size([{', '.join(map(str, shape))}])"


def _check_root_grad(i: int, g, shape: tuple, dtype, requires_grad: bool = True) -> None:
    """PyTorch's checks of the gradient output i starts with: an implicit one only for a real scalar, a given
    one of the output's shape."""
    if g is None:
        if requires_grad and math.prod(shape) != 1:
            raise RuntimeError("grad can be implicitly created only for scalar outputs")
        if requires_grad and not dtype.is_floating_point:
            raise RuntimeError(f"grad can be implicitly created only for real scalar outputs but got {dtype}")
    elif isinstance(g, Tensor) and tuple(g.shape) != shape:
        raise RuntimeError(
            f"Mismatch in shape: grad_output[{i}] has a shape of {_shape_str(g.shape)} and output[{i}] has a "
            f"shape of {_shape_str(shape)}."
        )


def _root_grads(outputs: list, grad_outputs: list | None, create_graph: bool) -> list:
    """The gradient each output starts with (ones for scalars), checked like PyTorch. A GradientEdge output is
    checked against the metadata of its tensor where known (a leaf's, or get_gradient_edge's record); one built
    by hand has none, and its grad_outputs must be given."""
    grads = []
    for i, out in enumerate(outputs):
        g = None if grad_outputs is None else grad_outputs[i]
        if isinstance(out, GradientEdge):
            metadata = edge_metadata(out.node, out.output_nr)
            if metadata is None:
                if not isinstance(g, Tensor):
                    raise RuntimeError(
                        f"grad_outputs[{i}] must be a Tensor: the shape of output {i} (a GradientEdge) is unknown"
                    )
            else:
                shape, dtype, device = metadata
                _check_root_grad(i, g, shape, dtype)
                if not isinstance(g, Tensor):
                    g = _C.full(list(shape), 1 if g is None else g, dtype=dtype, device=device)
            grads.append(g)
            continue
        _check_root_grad(i, g, tuple(out.shape), out.dtype, out._requires_grad)
        if g is None:
            g = _C.ones_like(out)
        elif not isinstance(g, Tensor):
            g = _C.full_like(out, g)
        grads.append(g)
    return grads


def _graph(roots: list) -> dict:
    """{node: number of edges into it} over every node reachable from `roots`."""
    deps: dict = {}
    stack = [n for n in roots if n is not None]
    seen = set(stack)
    while stack:
        node = stack.pop()
        for nxt, _ in node.next_functions:
            if nxt is None:
                continue
            deps[nxt] = deps.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return deps


def _needed(roots: list, targets: set) -> set:
    """Nodes from which a target node can be reached (only they must run for autograd.grad)."""
    memo: dict = {}
    for root in roots:
        if root is None or root in memo:
            continue
        stack = [(root, iter(root.next_functions))]
        memo[root] = root in targets
        while stack:
            node, it = stack[-1]
            for nxt, _ in it:
                if nxt is None:
                    continue
                if nxt not in memo:
                    memo[nxt] = nxt in targets
                    stack.append((nxt, iter(nxt.next_functions)))
                    break
                if memo[nxt]:
                    memo[node] = True
            else:
                stack.pop()
                if stack and memo[node]:
                    memo[stack[-1][0]] = True
    return {n for n, ok in memo.items() if ok}


def _apply_checked(node, grads: list):
    """node.apply under anomaly detection: a failure first warns with the forward call's stack, and NaN
    results raise (with check_nan)."""
    try:
        grads_in = node.apply(grads)
    except Exception:
        anomaly_mode.warn_trace(node)
        raise
    if _ANOMALY.check_nan:
        anomaly_mode.check_nan(node, grads_in)
    return grads_in


def _add(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return a + b


def _tensor_pre_hooks(node, buf: dict) -> None:
    """Hooks registered on non-leaf tensors (and retain_grad), per output of `node`."""
    for nr, hooks in node._pre_hooks.items():
        if nr >= 0 and buf.get(nr) is not None:
            for hook in list(hooks):
                r = hook(buf[nr])
                if r is not None:
                    buf[nr] = r


def _capture(node, buf: dict, capture: dict, inputs, results, accumulate: bool) -> None:
    """Records the gradients of the tensors given as `inputs` (grad / backward(inputs=...))."""
    for nr, g in buf.items():
        i = capture.get((node, nr))
        if i is None:
            continue
        if type(node) is AccumulateGrad and not accumulate:  # (with accumulate, AccumulateGrad runs them)
            for hook in meta(node.variable).hooks or ():
                r = hook(g)
                if r is not None:
                    g = r
        if results is not None:
            results[i] = g
        if accumulate and type(node) is not AccumulateGrad and isinstance(inputs[i], Tensor):  # inputs=[non-leaf]
            m = meta(inputs[i])
            if m.retains_grad:  # its retain_grad hook (run before this) has accumulated it already
                continue
            m.grad = grad_copy(g) if m.grad is None else m.grad + g


def _should_run(node, needed, capture: dict, accumulate: bool) -> bool:
    if needed is not None and node not in needed:
        return False
    if type(node) is AccumulateGrad:
        return accumulate and (not capture or (node, 0) in capture)
    return True


def backward_has_inputs() -> bool:
    """Whether the innermost backward pass running on this thread is torch.autograd.grad or backward(inputs=...):
    a node that backpropagates on its own (reentrant checkpoint) cannot serve those."""
    current = current_pass()
    return current is not None and current.has_inputs


def run_backward(
    outputs: list,
    grad_outputs: list | None,
    retain_graph: bool,
    create_graph: bool,
    inputs: list | None = None,
    accumulate: bool = True,
    allow_unused: bool = False,
):
    """Backpropagates from `outputs`. With accumulate, sums into the .grad of leaves (only those in
    `inputs` when given); otherwise returns the gradients of `inputs` (torch.autograd.grad). The pass is on
    this thread's stack of passes (graph.current_pass) while it runs, and its queued callbacks run at its end."""
    stack = getattr(_PASSES, "stack", None)
    if stack is None:
        stack = _PASSES.stack = []
    current = BackwardPass(inputs is not None)
    stack.append(current)
    try:
        result = _run_backward(current, outputs, grad_outputs, retain_graph, create_graph, inputs, accumulate,
                               allow_unused)  # fmt: skip
        while current.callbacks:  # queue_callback's, in order (one may queue more)
            current.callbacks.pop(0)()
        return result
    finally:
        stack.pop()


def _run_backward(current, outputs, grad_outputs, retain_graph, create_graph, inputs, accumulate, allow_unused):
    for i, out in enumerate(outputs):
        if not isinstance(out, GradientEdge) and not out._requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
    prev = _C._set_grad_enabled(create_graph)  # the backward pass records only for create_graph
    try:
        root_grads = _root_grads(outputs, grad_outputs, create_graph)
    finally:
        _C._set_grad_enabled(prev)
    roots = [(o.node, o.output_nr) if isinstance(o, GradientEdge) else edge(o) for o in outputs]

    # what to capture (grad) or restrict accumulation to (backward(inputs=...))
    capture: dict = {}  # (node, nr) -> index into inputs
    if inputs is not None:
        for i, t in enumerate(inputs):
            if isinstance(t, GradientEdge):
                capture[(t.node, t.output_nr)] = i
                continue
            if not isinstance(t, Tensor):
                raise TypeError("grad requires Tensor inputs")
            if not t._requires_grad:
                raise RuntimeError("One of the differentiated Tensors does not require grad")
            capture[edge(t)] = i
    root_nodes = [n for n, _ in roots]
    needed = reach = None
    if inputs is not None:  # the nodes between the roots and the inputs; an input's own node runs only if an
        reach = _needed(root_nodes, {n for n, _ in capture})  # input lies beyond it (its graph stays usable)
        needed = {n for n in reach if type(n) is AccumulateGrad or any(nxt in reach for nxt, _ in n.next_functions)}

    deps = _graph(root_nodes)
    current.nodes = reach if inputs is not None else deps.keys() | set(root_nodes)  # what the pass executes
    buffers: dict = {}
    for (node, nr), g in zip(roots, root_grads):
        buf = buffers.setdefault(node, {})
        buf[nr] = _add(buf.get(nr), g)
    results = [None] * len(inputs) if inputs is not None else None

    prev = _C._set_grad_enabled(create_graph)
    try:
        ready = [n for n in dict.fromkeys(root_nodes) if n not in deps]
        leaves: deque = deque()  # ready AccumulateGrads: first, in their edges' order (upstream runs them first)
        while ready or leaves:
            node = leaves.popleft() if leaves else ready.pop()
            buf = buffers.pop(node, None)
            grads_in = ()
            if buf:
                if node._pre_hooks and (reach is None or node in reach):  # a tensor's hooks: where it is computed
                    _tensor_pre_hooks(node, buf)
                if capture:
                    _capture(node, buf, capture, inputs, results, accumulate)
                if _should_run(node, needed, capture, accumulate):
                    grads = [buf.get(k) for k in range(max(buf) + 1)] if len(buf) > 1 or 0 not in buf else [buf[0]]
                    if node._pre_hooks and -1 in node._pre_hooks:
                        for hook in list(node._pre_hooks[-1]):
                            r = hook(tuple(grads))
                            if r is not None:
                                grads = list(r)
                    if _ANOMALY.enabled:
                        grads_in = _apply_checked(node, grads)
                    else:
                        grads_in = node.apply(grads)
                    if node._hooks:
                        for hook in list(node._hooks):
                            r = hook(tuple(grads_in), tuple(grads))
                            if r is not None:
                                grads_in = tuple(r)
                    if not retain_graph:
                        node._release()
            k = 0
            n_in = len(grads_in)
            for nxt, nr in node.next_functions:
                if nxt is not None:
                    g = grads_in[k] if k < n_in else None
                    if g is not None:
                        b = buffers.get(nxt)
                        if b is None:
                            buffers[nxt] = {nr: g}
                        else:
                            b[nr] = _add(b.get(nr), g)
                    left = deps[nxt] - 1
                    deps[nxt] = left
                    if left == 0:
                        (leaves if type(nxt) is AccumulateGrad else ready).append(nxt)
                k += 1
            g = None  # no stray reference: AccumulateGrad steals gradients only the engine holds
    finally:
        _C._set_grad_enabled(prev)

    if results is not None and not accumulate:
        for r in results:
            if r is None and not allow_unused:
                raise RuntimeError(
                    "One of the differentiated Tensors appears to not have been used in the graph. "
                    "Set allow_unused=True if this is the desired behavior."
                )
    return results
