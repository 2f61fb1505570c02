"""A cheap shortening of a reproducer: greedy rounds of single AST edits (drop a layout modifier or a
keyword argument, keep part of a literal list), each round's candidates run as one batch in both
libraries, the shortest that still fails the same way (category and cause) kept."""

from __future__ import annotations

import ast
import time
from collections.abc import Callable
from dataclasses import replace

from . import compare
from .call import Call
from .report import Group, cause

# method calls that only change the layout of their receiver
LAYOUT = {"transpose", "permute", "expand", "contiguous", "t", "clone"}


def _edits(tree: ast.AST) -> list[tuple[ast.AST, tuple[str, int | None], ast.AST]]:
    """Single edits of `tree`: (parent, (field, index in a list field or None), replacement node)."""
    out = []
    for parent in ast.walk(tree):
        for name, value in ast.iter_fields(parent):
            children = value if isinstance(value, list) else [value]
            for i, node in enumerate(children):
                if not isinstance(node, ast.AST):
                    continue
                slot = (name, i if isinstance(value, list) else None)
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in LAYOUT:
                    out.append((parent, slot, node.func.value))
                if isinstance(node, ast.Subscript) and _all_slices(node.slice):
                    out.append((parent, slot, node.value))
                # a keyword argument dropped (dtype= stays: it is the input; allow_unused= of an @grad call too)
                if isinstance(node, ast.Call):
                    for k in range(len(node.keywords)):
                        if node.keywords[k].arg in ("dtype", "allow_unused"):
                            continue
                        kw = node.keywords[:k] + node.keywords[k + 1 :]
                        out.append((parent, slot, ast.Call(node.func, node.args, kw)))
                # a list of values shortened (not torch.empty's shape: that would read uninitialized memory)
                if isinstance(node, ast.List) and len(node.elts) > 1 and not _is_empty_call(parent):
                    n = len(node.elts)
                    for part in (node.elts[: n // 2], node.elts[n // 2 :], node.elts[:1], node.elts[-1:]):
                        out.append((parent, slot, ast.List(part, ast.Load())))
    return out


def _is_empty_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "empty"


def _all_slices(s: ast.AST) -> bool:
    if isinstance(s, ast.Slice):
        return True
    return isinstance(s, ast.Tuple) and bool(s.elts) and all(isinstance(e, ast.Slice) for e in s.elts)


def unparse(tree: ast.Module) -> str:
    """Source text of a module on one line (statements joined by '; ', as the generator writes them)."""
    return "; ".join(ast.unparse(stmt) for stmt in tree.body)


def candidates(src: str, limit: int = 48) -> list[str]:
    """Sources one edit away from `src`, shorter than it, shortest first."""
    out: set[str] = set()
    for k in range(len(_edits(ast.parse(src)))):
        tree = ast.parse(src)  # a fresh tree per edit: edits are applied in place
        parent, (name, i), repl = _edits(tree)[k]
        if i is None:
            setattr(parent, name, repl)
        else:
            getattr(parent, name)[i] = repl
        try:
            text = unparse(ast.fix_missing_locations(tree))
            compile(text, "<candidate>", "exec")
        except (SyntaxError, ValueError, TypeError):
            continue
        if len(text) < len(src):
            out.add(text)
    return sorted(out, key=len)[:limit]


def minimize(
    group: Group, run: Callable[[list[Call]], tuple[dict, dict]], deadline: float, rounds: int = 12
) -> tuple[str, tuple, tuple] | None:
    """The shortest variant of the group's reproducer found before `deadline` (time.monotonic()) that
    keeps its category and cause, with its outcomes (ours, upstream); None if none shorter was found."""
    f = group.repro
    best = f.call
    best_src = unparse(ast.parse(best.src))
    for r in range(rounds):
        if time.monotonic() > deadline:
            break
        cands = [replace(best, src=s, cid=f"{f.call.cid}~{r}.{k}") for k, s in enumerate(candidates(best_src))]
        if not cands:
            break
        ours, ref = run(cands)
        kept = None
        for c in cands:  # shortest first
            o, u = ours.get(c.cid), ref.get(c.cid)
            if o is None or u is None:
                continue
            cat, _ = compare.classify(c, o, u)
            if cat == group.category and cause(cat, c, o, u) == group.cause:
                kept = c, o, u
                break
        if kept is None:
            break
        best, best_src, outcomes = kept[0], kept[0].src, kept[1:]
    return (best_src, *outcomes) if best is not f.call else None
