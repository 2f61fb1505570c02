"""The leaves a transform makes of its inputs, and whether a result escapes them (torch.func's transforms and
torch.autograd.forward_ad's dual levels share it)."""

from __future__ import annotations

from torch import _C
from torch._C import Tensor


def reaches(t, leaf_hit, node_hit=None) -> bool:
    """Whether t's graph reaches a leaf (t itself, or one behind an AccumulateGrad) for which leaf_hit holds, or a
    node for which node_hit does; False for a t that requires no grad."""
    if not isinstance(t, Tensor) or not t.requires_grad:
        return False
    if t.grad_fn is None:
        return leaf_hit(t)
    stack, seen = [t.grad_fn], {id(t.grad_fn)}
    while stack:
        node = stack.pop()
        if node_hit is not None and node_hit(node):
            return True
        var = getattr(node, "variable", None)  # an AccumulateGrad: the edge to a leaf
        if var is not None:
            if leaf_hit(var):
                return True
            continue
        for nxt, _ in getattr(node, "next_functions", ()):
            if nxt is not None and id(nxt) not in seen:
                seen.add(id(nxt))
                stack.append(nxt)
    return False


class OwnLeaves:
    """The differentiable inputs of one transform call that were not part of any graph, as fresh leaves."""

    def __init__(self) -> None:
        self.outer_grad = _C.is_grad_enabled()
        self.own: list[Tensor] = []  # keeps the leaves alive, so their ids stay unique
        self.own_ids: set[int] = set()

    def differentiable(self, x):
        """The input as this call differentiates it: a fresh leaf, or a view of x when x is in a graph."""
        if not isinstance(x, Tensor):
            raise ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")
        if x.requires_grad:
            return x.view_as(x)
        leaf = x.detach().requires_grad_()
        self.own.append(leaf)
        self.own_ids.add(id(leaf))
        return leaf

    def escapes(self, t) -> bool:
        """Whether t's graph reaches a leaf that is not this call's own (so an outer graph needs t's)."""
        return reaches(t, lambda leaf: id(leaf) not in self.own_ids)

    def finish(self, t, keep: bool | None = None):
        """t detached, unless (when keep, by default the grad mode outside the call) it reaches other leaves."""
        keep = self.outer_grad if keep is None else keep
        if isinstance(t, Tensor) and t.requires_grad and not (keep and self.escapes(t)):
            return t.detach()
        return t
