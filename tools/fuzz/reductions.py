"""Reductions and scans: sum/prod/mean/var/std (dim lists, keepdim, dtype=), amax/amin, max/min (all, with
a dim), argmax/argmin, all/any, cumsum/cumprod, sort, topk; empty dims and 0-dim inputs included."""

from __future__ import annotations

import random

from . import tensors as T
from . import values as V
from .call import Call
from .selecting import _dim


def _dims(rng: random.Random, nd: int) -> str:
    """A `dim` argument: an int, a tuple/list of distinct dims, sometimes a repeated or bad one."""
    if rng.random() < 0.6 or nd == 0:
        return str(_dim(rng, nd))
    k = rng.randint(1, nd)
    dims = rng.sample(range(nd), k)
    dims = [d - nd if rng.random() < 0.3 else d for d in dims]
    if rng.random() < 0.05:
        dims.append(dims[0])
    return V.fmt(tuple(dims)) if rng.random() < 0.7 else V.fmt(dims)


def extremes(rng: random.Random) -> tuple[float, str]:
    """How often an input element is extreme (inf, nan, the dtype's max, ...), and the signature suffix
    that says so: where values accumulate, their order decides overflow and inf vs nan, and upstream's
    order (vectorized, blocked) is not specified."""
    return (0.15, ",ext") if rng.random() < 0.25 else (0.0, "")


def reduce(rng: random.Random) -> Call:
    """sum/prod/mean/var/std/amax/amin/all/any/nansum over everything or some dims."""
    op = rng.choice(("sum", "sum", "prod", "mean", "amax", "amin", "all", "any", "var", "std", "nansum"))
    special, ext = extremes(rng)
    x = T.tensor(rng, special=special)
    args = []
    if op in ("amax", "amin") or rng.random() < 0.65:
        if not (op in ("amax", "amin") and rng.random() < 0.15):
            args.append(f"dim={_dims(rng, x.ndim)}" if rng.random() < 0.6 else _dims(rng, x.ndim))
            if rng.random() < 0.4:
                args.append(f"keepdim={rng.random() < 0.5}")
    if op in ("sum", "prod", "mean", "nansum") and rng.random() < 0.25:
        args.append(f"dtype=torch.{V.dtype(rng)}")
    if op in ("var", "std") and rng.random() < 0.3:
        args.append(f"correction={rng.choice((0, 1, 2))}")
    if rng.random() < 0.5:
        src = f"torch.{op}({', '.join([x.expr] + args)})"
    else:
        src = f"{x.expr}.{op}({', '.join(args)})"
    sig = f"{x.dtype},{'dims' if args else 'all'}{ext}"
    return Call(op, src, sig, accum=op not in ("amax", "amin", "all", "any"))


def max_min(rng: random.Random) -> Call:
    """max/min (all elements, or values+indices along a dim), argmax/argmin."""
    op = rng.choice(("max", "min", "argmax", "argmin"))
    x = T.tensor(rng)
    r = rng.random()
    if r < 0.35:
        src = f"torch.{op}({x.expr})"
    else:
        kd = f", keepdim={rng.random() < 0.5}" if rng.random() < 0.4 else ""
        src = (
            f"torch.{op}({x.expr}, {_dim(rng, x.ndim)}{kd})"
            if r < 0.7
            else f"{x.expr}.{op}(dim={_dim(rng, x.ndim)}{kd})"
        )
    return Call(op, src, f"{x.dtype},{'all' if r < 0.35 else 'dim'}")


def scan(rng: random.Random) -> Call:
    """cumsum/cumprod along a dim, with dtype=."""
    op = rng.choice(("cumsum", "cumsum", "cumprod"))
    special, ext = extremes(rng)
    x = T.tensor(rng, special=special)
    dt = f", dtype=torch.{V.dtype(rng)}" if rng.random() < 0.2 else ""
    return Call(op, f"torch.{op}({x.expr}, {_dim(rng, x.ndim)}{dt})", x.dtype + ext, accum=True)


def sort_topk(rng: random.Random) -> Call:
    """sort (descending, stable) and topk (k up to and past the dim's size); indices compared only where
    ties cannot reorder them (unique inputs, or stable=True)."""
    unique = rng.random() < 0.6
    x = T.tensor(rng, unique=unique, special=0.05)
    d = _dim(rng, x.ndim)
    size = x.shape[d] if x.ndim and -x.ndim <= d < x.ndim else 1
    if rng.random() < 0.55:
        stable = rng.random() < 0.4
        desc = f", descending={rng.random() < 0.5}"
        st = ", stable=True" if stable else ""
        src = f"torch.sort({x.expr}, dim={d}{desc}{st})" if rng.random() < 0.7 else f"{x.expr}.sort({d}{desc}{st})"
        ties = not stable and (not unique or x.dtype == "bool" or x.expanded)
        return Call("sort", src, f"{x.dtype}", only=(0,) if ties else None)
    k = rng.randint(0, size) if rng.random() < 0.92 else rng.choice((size + 1, -1))
    largest = f", largest={rng.random() < 0.5}" if rng.random() < 0.5 else ""
    ties = not unique or x.dtype == "bool" or x.expanded
    return Call("topk", f"torch.topk({x.expr}, {k}, dim={d}{largest})", x.dtype, only=(0,) if ties else None)


FAMILY = [(8, reduce), (4, max_min), (2, scan), (3, sort_topk)]
