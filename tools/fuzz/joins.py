"""Joining and splitting: cat (mixed dtypes, legacy 1-D empty tensors, mismatched shapes), stack, split
(a size or a list of sizes), chunk, unbind."""

from __future__ import annotations

import random

from . import tensors as T
from . import values as V
from .call import Call
from .selecting import _dim


def cat_stack(rng: random.Random) -> Call:
    """`torch.cat`/`torch.stack` of 0-4 tensors along a dim, dtypes promoted."""
    op = rng.choice(("cat", "cat", "stack"))
    shp = T.shape(rng, rng.choice((1, 1, 2, 2, 3)) if op == "cat" else None)
    nd = len(shp)
    d = _dim(rng, nd + (op == "stack"))
    dt = V.dtype(rng)
    parts, dts = [], []
    for _ in range(rng.choices((0, 1, 2, 3, 4), (0.3, 2, 5, 3, 1))[0]):
        s = list(shp)
        if op == "cat" and nd and rng.random() < 0.7:
            s[d % nd] = rng.choice((0, 1, 2, 3))
        if rng.random() < 0.05 and s:
            s[rng.randrange(len(s))] += 1
        pdt = dt if rng.random() < 0.7 else V.dtype(rng)
        if op == "cat" and rng.random() < 0.06:
            parts.append(f"torch.tensor([], dtype=torch.{pdt})")  # legacy: a 1-D empty tensor is skipped
        else:
            parts.append(T.tensor(rng, tuple(s), pdt, layout=0.3).expr)
        dts.append(pdt)
    seq = (
        "[" + ", ".join(parts) + "]"
        if rng.random() < 0.7
        else "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
    )
    dim = f", dim={d}" if rng.random() < 0.5 else f", {d}"
    if d == 0 and rng.random() < 0.3:
        dim = ""
    return Call(op, f"torch.{op}({seq}{dim})", ",".join(sorted(set(dts))) or "none")


def split_chunk(rng: random.Random) -> Call:
    """`split` (an int or a list of sizes), `chunk`, `unbind`: a tuple of views."""
    x = T.tensor(rng)
    nd = x.ndim
    d = _dim(rng, nd)
    size = x.shape[d] if nd and -nd <= d < nd else 1
    op = rng.choice(("split", "split", "chunk", "unbind"))
    if op == "unbind":
        return Call(op, f"{x.expr}.unbind({d})", x.dtype, strides=True)
    if op == "chunk":
        k = rng.choice((1, 2, 3, 4, 5, 0, -1)) if rng.random() < 0.9 else 0
        return Call(op, f"torch.chunk({x.expr}, {k}, {d})", x.dtype, strides=True)
    if rng.random() < 0.5:
        k = rng.choice((1, 2, 3, 5)) if rng.random() < 0.9 else rng.choice((0, -1))
        arg = str(k)
    else:
        sizes, left = [], size
        while left > 0:
            s = rng.randint(0, left)
            sizes.append(s)
            left -= s
        if rng.random() < 0.1:
            sizes.append(1)
        arg = V.fmt(sizes)
    src = f"torch.split({x.expr}, {arg}, {d})" if rng.random() < 0.5 else f"{x.expr}.split({arg}, dim={d})"
    return Call(op, src, x.dtype, strides=True)


FAMILY = [(6, cat_stack), (4, split_chunk)]
