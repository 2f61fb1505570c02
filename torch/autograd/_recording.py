"""How torch._C records ops into the autograd graph: the three hooks it calls, installed at import.

When grad mode is on and an input requires grad, torch._C calls the recorder `_recorder_for(op)`
gives it (out-of-place ops), or the function `_inplace_for(op)` gives it and then `_finish_inplace`
(in-place ops). The node classes that know each op's formulas (RECORDERS, INPLACE) are generated from
aten/derivatives.yaml into torch/autograd/_generated.py; indexing and in-place ops on views are
recorded by torch/autograd/_views.py. This module wires them together, so that the graph itself
(graph.py) imports neither.
"""

from __future__ import annotations

import atexit
import functools

from torch import _C
from torch._C import Tensor
from torch.autograd._generated import INPLACE
from torch.autograd._generated import RECORDERS as _GENERATED
from torch.autograd._views import rebase_view, record_getitem
from torch.autograd.graph import NotImplementedNode, edge, set_history

RECORDERS = {**_GENERATED, "__getitem__": record_getitem}  # op name -> recorder (None: not differentiable)


def _is_differentiable(t) -> bool:
    return isinstance(t, Tensor) and t.dtype._differentiable


_NO_ENTRY = object()


def _outputs(result) -> list:
    return list(result) if isinstance(result, tuple) else [result]


def _not_implemented(name: str, args: tuple) -> NotImplementedNode:
    node = NotImplementedNode()
    node.op = name.partition(".")[0]
    node.next_functions = tuple(edge(a) for a in args if isinstance(a, Tensor))
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
    if not self.dtype._differentiable:
        return
    base = self._base
    if base is None:
        set_history(self, node, 0)
        return
    rebase_view(base, self, node)  # a view modified in place: the base's history goes through CopySlices(node)


def install() -> None:
    """Hands the record hooks to torch._C (called once at import)."""
    _C._set_autograd_hooks(_recorder_for, _inplace_for, _finish_inplace)
    atexit.register(_C._set_autograd_hooks, None, None, None)  # let torch._C's teardown find no references
