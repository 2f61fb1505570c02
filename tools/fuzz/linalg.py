"""Matrix products: mm, bmm, matmul/@ (1-D rules, batch broadcasting), mv, dot; every dtype, mismatched
dtypes and shapes sometimes, empty and non-contiguous operands."""

from __future__ import annotations

import random

from . import tensors as T
from . import values as V
from .call import Call
from .reductions import extremes


def _size(rng: random.Random) -> int:
    return rng.choices((0, 1, 2, 3, 4, 5), (0.5, 2, 3, 3, 2, 1))[0]


def _off(rng: random.Random, n: int, bad: float = 0.05) -> int:
    return n + 1 if rng.random() < bad else n


def product(rng: random.Random) -> Call:
    """One of mm/bmm/matmul/@/mv/dot with (mostly) agreeing shapes."""
    op = rng.choice(("mm", "bmm", "matmul", "matmul", "mv", "dot"))
    n, k, m, b = _size(rng), _size(rng), _size(rng), _size(rng)
    if op == "mm":
        sa, sb = (n, k), (_off(rng, k), m)
    elif op == "bmm":
        sa, sb = (b, n, k), (_off(rng, b, 0.03), _off(rng, k), m)
    elif op == "mv":
        sa, sb = (n, k), (_off(rng, k),)
    elif op == "dot":
        sa, sb = (k,), (_off(rng, k),)
    else:
        ra, rb = rng.choice((1, 2, 2, 3, 4)), rng.choice((1, 2, 2, 3))
        sa = (k,) if ra == 1 else tuple(T.shape(rng, ra - 2, empty=0.02)) + (n, k)
        sb = (
            (_off(rng, k),)
            if rb == 1
            else T.broadcastable(rng, sa[:-2], bad=0.03)[: max(rb - 2, 0)] + (_off(rng, k), m)
        )
    da = V.dtype(rng)
    db = da if rng.random() < 0.85 else V.dtype(rng)
    special, ext = extremes(rng)
    a, bt = T.tensor(rng, sa, da, special=special), T.tensor(rng, sb, db, special=special)
    if op == "matmul" and rng.random() < 0.4:
        src = f"{a.expr} @ {bt.expr}"
    elif rng.random() < 0.7:
        src = f"torch.{op}({a.expr}, {bt.expr})"
    else:
        src = f"{a.expr}.{op}({bt.expr})"
    return Call(op, src, f"{da},{db},{len(sa)}x{len(sb)}{ext}", accum=True)


FAMILY = [(6, product)]
