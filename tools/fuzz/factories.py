"""Factories: empty/zeros/ones/full (+ `_like`), arange, linspace, tensor; odd sizes (0, negative, huge,
2**63), odd fill values and bounds (inf, nan, out of the dtype's range), every dtype."""

from __future__ import annotations

import random

from . import tensors as T
from . import values as V
from .call import Call

# element counts past any memory (the worker's address space is capped: these must fail cleanly)
HUGE = (2**33, 2**34, 2**40, 2**62, 2**63 - 1, 2**63, 2**64, 10**20)


def _size_arg(rng: random.Random) -> tuple[str, str]:
    """A size argument (varargs, tuple or list) and its kind for the signature."""
    r = rng.random()
    if r < 0.75:
        shp, kind = list(T.shape(rng, empty=0.15)), "ok"
    elif r < 0.87:
        shp, kind = list(T.shape(rng, rng.randint(1, 3))), "neg"
        shp[rng.randrange(len(shp))] = rng.choice((-1, -2, -(2**40)))
    else:
        shp, kind = [rng.choice(HUGE)] + ([rng.randint(1, 3)] if rng.random() < 0.3 else []), "huge"
        if rng.random() < 0.3:
            shp = [2**20, 2**20, 2**20]
    form = rng.random()
    if form < 0.4 and shp:
        return ", ".join(map(str, shp)), kind
    return (V.fmt(tuple(shp)) if form < 0.8 else V.fmt(shp)), kind


def _dtype_kw(rng: random.Random, p: float = 0.7) -> tuple[str, str]:
    if rng.random() < p:
        dt = V.dtype(rng)
        return f", dtype=torch.{dt}", dt
    return "", "default"


def filled(rng: random.Random) -> Call:
    """empty/zeros/ones/full (values of empty are not compared)."""
    op = rng.choice(("empty", "zeros", "ones", "full", "full"))
    size, kind = _size_arg(rng)
    dkw, dt = _dtype_kw(rng)
    if op == "full":
        v = V.py_number(rng, V.kind(dt) if dt != "default" else None)
        size = size if size.startswith(("(", "[")) else f"({size},)"
        return Call(op, f"torch.full({size}, {V.fmt(v)}{dkw})", f"{dt},{type(v).__name__},{kind}")
    return Call(op, f"torch.{op}({size}{dkw})", f"{dt},{kind}", values=op != "empty")


def like(rng: random.Random) -> Call:
    """zeros_like/ones_like/full_like/empty_like of a (maybe non-contiguous) tensor, dtype= overrides."""
    op = rng.choice(("zeros_like", "ones_like", "full_like", "empty_like"))
    x = T.tensor(rng)
    dkw, dt = _dtype_kw(rng, 0.4)
    if op == "full_like":
        v = V.py_number(rng, x.kind)
        return Call(op, f"torch.full_like({x.expr}, {V.fmt(v)}{dkw})", f"{x.dtype}->{dt},{type(v).__name__}")
    return Call(op, f"torch.{op}({x.expr}{dkw})", f"{x.dtype}->{dt}", values=op != "empty_like", strides=True)


def arange(rng: random.Random) -> Call:
    """arange(end) / (start, end) / (start, end, step): int and float bounds, zero/wrong-signed steps,
    inexact float steps, huge counts, non-finite bounds."""

    def num() -> object:
        r = rng.random()
        if r < 0.6:
            return rng.randint(-10, 20)
        if r < 0.85:
            return rng.randint(-40, 40) / 4
        return rng.choice((0.1, 1e-9, 2**53, 2**63 - 1, -(2**63), 1e30, float("inf"), float("nan"), 10**12))

    n_args = rng.choice((1, 2, 3, 3))
    args = [num() for _ in range(n_args)]
    if n_args == 3 and rng.random() < 0.7:
        args[2] = rng.choice((1, 2, 3, -1, -2, 0.5, 0.1, 0.3, -0.25, 0, 1e-6))
    dkw, dt = _dtype_kw(rng, 0.5)
    kinds = ",".join(type(a).__name__ for a in args)
    return Call("arange", f"torch.arange({', '.join(V.fmt(a) for a in args)}{dkw})", f"{dt},{kinds}")


def linspace(rng: random.Random) -> Call:
    """linspace(start, end, steps): steps 0, 1, negative, huge; integer dtypes; non-finite ends."""
    ends = [
        rng.choice((rng.randint(-10, 10), rng.randint(-40, 40) / 4, 1e30, float("inf"), float("nan"), 2**40))
        for _ in range(2)
    ]
    steps = rng.choices((0, 1, 2, 5, 7, 100, -1, 2**62), (1, 2, 3, 4, 3, 2, 1, 0.5))[0]
    dkw, dt = _dtype_kw(rng, 0.6)
    return Call("linspace", f"torch.linspace({V.fmt(ends[0])}, {V.fmt(ends[1])}, {steps}{dkw})", f"{dt},steps={steps}")


def literal(rng: random.Random) -> Call:
    """`torch.tensor(data, dtype=)`: nested lists and scalars, values past the dtype's range, mixed
    bool/int/float data (dtype inferred)."""
    shp = T.shape(rng, rng.choice((0, 1, 1, 2)))
    n = 1
    for s in shp:
        n *= s
    flat = [V.py_number(rng) for _ in range(n)]
    data = T.nested(flat, shp) if shp else V.fmt(flat[0] if flat else 0)
    if shp and n == 0:
        data = "[]"
    dkw, dt = _dtype_kw(rng, 0.6)
    kinds = "+".join(sorted({type(v).__name__ for v in flat})) or "empty"
    return Call("tensor", f"torch.tensor({data}{dkw})", f"{dt},{kinds}")


FAMILY = [(5, filled), (3, like), (4, arange), (3, linspace), (3, literal)]
