"""torch.autograd: tape-based automatic differentiation (PyTorch's API).

Ops record backward nodes (torch/autograd/graph.py, formulas generated from
aten/derivatives.yaml) when grad mode is on and an input requires grad; `backward` and `grad`
run the engine (engine.py) over that graph.
"""

from __future__ import annotations

from torch.autograd import anomaly_mode, forward_ad, graph
from torch.autograd import functional as functional
from torch.autograd import profiler as profiler
from torch.autograd.anomaly_mode import detect_anomaly, set_detect_anomaly
from torch.autograd.engine import run_backward
from torch.autograd.function import Function, FunctionCtx
from torch.autograd.grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_multithreading_enabled,
    is_view_replay_enabled,
    no_grad,
    set_grad_enabled,
    set_multithreading_enabled,
)
from torch.autograd.gradcheck import GradcheckError, gradcheck, gradgradcheck
from torch.autograd.variable import Variable

__all__ = [
    "backward",
    "grad",
    "Function",
    "FunctionCtx",
    "no_grad",
    "enable_grad",
    "set_grad_enabled",
    "inference_mode",
    "is_grad_enabled",
    "is_multithreading_enabled",
    "is_view_replay_enabled",
    "set_multithreading_enabled",
    "gradcheck",
    "gradgradcheck",
    "GradcheckError",
    "graph",
    "forward_ad",
    "anomaly_mode",
    "detect_anomaly",
    "set_detect_anomaly",
    "Variable",
]


def _tensors(x) -> list:
    """A tensor, a GradientEdge, or a sequence of them, as a list."""
    from torch._C import Tensor  # noqa: PLC0415

    return [x] if isinstance(x, (Tensor, graph.GradientEdge)) else list(x)


def _grad_list(g, n: int):
    from torch._C import Tensor  # noqa: PLC0415

    if g is None:
        return None
    if isinstance(g, Tensor):
        return [g]
    g = list(g)
    if len(g) != n:
        raise RuntimeError(f"grad can be implicitly created only for scalar outputs (got {len(g)} grads for {n})")
    return g


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None) -> None:
    """Computes the gradients of `tensors` w.r.t. the graph leaves and sums them into their .grad."""
    outs = _tensors(tensors)
    if retain_graph is None:
        retain_graph = create_graph
    ins = None if inputs is None else _tensors(inputs)
    if ins is not None and len(ins) == 0:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    run_backward(outs, _grad_list(grad_tensors, len(outs)), retain_graph, create_graph, ins, accumulate=True)


def grad(
    outputs,
    inputs,
    grad_outputs=None,
    retain_graph=None,
    create_graph=False,
    only_inputs=True,
    allow_unused=None,
    is_grads_batched=False,
    materialize_grads=False,
):
    """The gradients of `outputs` w.r.t. `inputs` (a tuple), without touching any .grad. With
    is_grads_batched, the first dim of each grad_output is a batch of vectors: the result holds the
    vector-Jacobian product of each (one backward pass per vector here, where upstream vmaps them)."""
    outs = _tensors(outputs)
    ins = _tensors(inputs)
    if retain_graph is None:
        retain_graph = create_graph
    if allow_unused is None:
        allow_unused = materialize_grads
    if is_grads_batched:
        return _batched_grad(
            outs, ins, _grad_list(grad_outputs, len(outs)), retain_graph, create_graph, allow_unused, materialize_grads
        )
    res = run_backward(
        outs,
        _grad_list(grad_outputs, len(outs)),
        retain_graph,
        create_graph,
        ins,
        accumulate=False,
        allow_unused=allow_unused,
    )
    if materialize_grads:
        import torch  # noqa: PLC0415

        if any(r is None and isinstance(i, graph.GradientEdge) for r, i in zip(res, ins)):
            raise RuntimeError("materialize_grads cannot be used when the given input is a GradientEdge")
        res = [torch.zeros_like(i) if r is None else r for r, i in zip(res, ins)]
    return tuple(res)


def _batched_grad(outs, ins, grad_outputs, retain_graph, create_graph, allow_unused, materialize_grads) -> tuple:
    """grad with is_grads_batched: one grad call per slice of the grad_outputs' first dim, stacked."""
    import torch  # noqa: PLC0415

    if any(g is None for g in grad_outputs):
        raise RuntimeError("grad_outputs must be given (a batch of vectors per output) when is_grads_batched=True")
    sizes = {g.shape[0] if g.dim() else None for g in grad_outputs}
    if len(sizes) != 1 or None in sizes:
        raise RuntimeError("is_grads_batched=True: every grad_output needs the same leading (batch) dim")
    batch = sizes.pop()
    rows = []
    for b in range(batch):
        rows.append(
            grad(
                outs,
                ins,
                [g[b] for g in grad_outputs],
                retain_graph=True,
                create_graph=create_graph,
                allow_unused=allow_unused,
                materialize_grads=materialize_grads,
            )  # fmt: skip
        )
    result = []
    for i, x in enumerate(ins):
        column = [r[i] for r in rows]
        if all(c is None for c in column):
            result.append(None)
        else:
            result.append(torch.stack([torch.zeros_like(x) if c is None else c for c in column]))
    return tuple(result)
