"""Selecting and scattering by index or mask: index_select, gather, scatter, scatter_add, index_add, take,
put_, masked_fill, masked_select; indices in range, negative and out of range, of several int dtypes."""

from __future__ import annotations

import math
import random

from . import tensors as T
from . import values as V
from .call import Call


def _dim(rng: random.Random, ndim: int, bad: float = 0.05) -> int:
    """A dim of a tensor with `ndim` dims (negative ones too), sometimes out of range."""
    n = max(ndim, 1)
    if rng.random() < bad:
        return rng.choice((n, -n - 1, 7))
    return rng.randint(-n, n - 1)


def _index_dtype(rng: random.Random) -> str:
    return rng.choices(("int64", "int32", "int16", "uint8", "float32"), (20, 3, 1, 1, 0.5))[0]


def _idx(rng: random.Random, size: int, shp: tuple[int, ...], unique: bool = False) -> tuple[str, str]:
    dt = _index_dtype(rng)
    text = T.index_tensor(rng, size, shp, "int64" if dt == "float32" else dt, unique=unique)
    return (text.replace("torch.int64", "torch.float32") if dt == "float32" else text), dt


def _size(shape: tuple[int, ...], d: int) -> int:
    return shape[d] if shape and -len(shape) <= d < len(shape) else 1


def _column_unique(rng: random.Random, size: int, shp: tuple[int, ...], d: int) -> str:
    """An int64 index tensor of `shp` whose entries along dim `d` are distinct for every position in the
    other dims (scatter without a reduction writes each target once), sometimes one out of range."""
    import numpy as np

    arr = np.zeros(shp, dtype=np.int64)
    moved = np.moveaxis(arr, d, -1)
    for pos in np.ndindex(moved.shape[:-1]):
        moved[pos] = T.index_values(rng, size, moved.shape[-1], bad=0.0, unique=True)
    flat = arr.reshape(-1).tolist()
    if flat and rng.random() < 0.05:
        flat[rng.randrange(len(flat))] = rng.choice((size, -size - 1))
    if not flat:
        return f"torch.zeros({V.fmt(shp)}, dtype=torch.int64)"
    return f"torch.tensor({T.nested(flat, shp)}, dtype=torch.int64)"


def index_select(rng: random.Random) -> Call:
    """`torch.index_select(x, dim, index)` / `x.index_select(dim, index)`; 1-D, 0-dim or 2-D index."""
    x = T.tensor(rng)
    d = _dim(rng, x.ndim)
    ishape = rng.choices(((3,), (1,), (0,), (), (2, 2)), (6, 2, 1, 1, 0.5))[0]
    idx, idt = _idx(rng, _size(x.shape, d), ishape)
    src = f"torch.index_select({x.expr}, {d}, {idx})" if rng.random() < 0.5 else f"{x.expr}.index_select({d}, {idx})"
    return Call("index_select", src, f"{x.dtype},{idt}")


def gather(rng: random.Random) -> Call:
    """`torch.gather(x, dim, index)`: index of x's ndim, no larger than x outside dim."""
    x = T.tensor(rng, T.shape(rng, rng.choice((1, 2, 2, 3))))
    d = _dim(rng, x.ndim)
    ishape = [rng.randint(0, s) if rng.random() < 0.8 else s + 1 for s in x.shape]
    if x.ndim:
        ishape[d % x.ndim] = rng.randint(0, 4)
    idx, idt = _idx(rng, _size(x.shape, d), tuple(ishape))
    return Call("gather", f"torch.gather({x.expr}, {d}, {idx})", f"{x.dtype},{idt}")


def scatter(rng: random.Random) -> Call:
    """scatter/scatter_ (src tensor or value, `reduce=`), scatter_add, in place and out of place."""
    op = rng.choice(("scatter", "scatter", "scatter_add"))
    x = T.tensor(rng, T.shape(rng, rng.choice((1, 2, 2, 3))), expand=False)
    d = _dim(rng, x.ndim)
    ishape = [rng.randint(0, s) for s in x.shape]
    if x.ndim:
        ishape[d % x.ndim] = rng.randint(0, 3)
    reduce = None if op == "scatter_add" or rng.random() < 0.8 else rng.choice(("add", "multiply"))
    # the winner among duplicate indices is unspecified unless they accumulate
    unique = op == "scatter" and reduce is None
    size = _size(x.shape, d)
    if unique and x.ndim:
        idx, idt = _column_unique(rng, size, tuple(ishape), d % x.ndim), "int64"
        dup = ishape[d % x.ndim] > size
    else:
        idx, idt = _idx(rng, size, tuple(ishape))
        dup = unique
    sdt = x.dtype if rng.random() < 0.85 else V.dtype(rng)
    if op == "scatter" and rng.random() < 0.3:
        v = V.py_number(rng, x.kind)
        src_arg, sig = V.fmt(v), f"{x.dtype},{idt},{type(v).__name__}"
    else:
        sshape = tuple(s + rng.choice((0, 0, 1)) for s in ishape)
        src_arg, sig = T.tensor(rng, sshape, sdt).expr, f"{x.dtype},{idt},{sdt}"
    red = f", reduce={reduce!r}" if reduce else ""
    if rng.random() < 0.5:
        src = f"torch.{op}({x.expr}, {d}, {idx}, {src_arg}{red})"
    else:
        src = f"x = {x.expr}; x.{op}_({d}, {idx}, {src_arg}{red}); x"
    return Call(op, src, sig, values=not dup, accum=op == "scatter_add" or reduce is not None)


def index_add(rng: random.Random) -> Call:
    """`x.index_add_(dim, index, source, alpha=)` and `torch.index_add`."""
    x = T.tensor(rng, T.shape(rng, rng.choice((1, 2, 2, 3))), expand=False)
    d = _dim(rng, x.ndim)
    n = rng.choice((0, 1, 2, 3))
    idx, idt = _idx(rng, _size(x.shape, d), (n,) if rng.random() < 0.95 else ())
    sshape = list(x.shape) or [1]
    sshape[d % len(sshape) if sshape else 0] = n if rng.random() < 0.9 else n + 1
    sdt = x.dtype if rng.random() < 0.85 else V.dtype(rng)
    source = T.tensor(rng, tuple(sshape) if x.ndim else (), sdt).expr
    alpha = f", alpha={V.fmt(V.py_number(rng, x.kind))}" if rng.random() < 0.3 else ""
    if rng.random() < 0.5:
        src = f"torch.index_add({x.expr}, {d}, {idx}, {source}{alpha})"
    else:
        src = f"x = {x.expr}; x.index_add_({d}, {idx}, {source}{alpha}); x"
    return Call("index_add", src, f"{x.dtype},{idt},{sdt}", accum=True)


def take_put(rng: random.Random) -> Call:
    """`torch.take(x, index)` and `x.put_(index, source, accumulate)` (flat indices, negatives count back)."""
    x = T.tensor(rng, expand=False)
    ishape = rng.choices(((3,), (2, 2), (), (0,), (1,)), (5, 2, 1, 1, 1))[0]
    if rng.random() < 0.5:
        idx, idt = _idx(rng, x.numel, ishape)
        return Call("take", f"torch.take({x.expr}, {idx})", f"{x.dtype},{idt}")
    accumulate = rng.random() < 0.4
    idx, idt = _idx(rng, x.numel, ishape, unique=not accumulate)
    sdt = x.dtype if rng.random() < 0.85 else V.dtype(rng)
    sshape = ishape if rng.random() < 0.9 else (5,)
    source = T.tensor(rng, sshape, sdt).expr
    acc = f", accumulate={accumulate}" if accumulate or rng.random() < 0.3 else ""
    dup = not accumulate and math.prod(ishape) > x.numel
    src = f"x = {x.expr}; x.put_({idx}, {source}{acc}); x"
    return Call("put_", src, f"{x.dtype},{idt},{sdt}", values=not dup, accum=accumulate)


def masked(rng: random.Random) -> Call:
    """masked_fill(_) with a number (inf/nan into ints too) or 0-dim tensor, and masked_select; the mask
    broadcasts (or not), bool or uint8."""
    x = T.tensor(rng, expand=rng.random() < 0.2)
    mshape = T.broadcastable(rng, x.shape) if rng.random() < 0.4 else x.shape
    mdt = "bool" if rng.random() < 0.92 else "uint8"
    m = T.mask(rng, mshape, mdt)
    if rng.random() < 0.35:
        if rng.random() < 0.8:
            return Call("masked_select", f"torch.masked_select({x.expr}, {m})", f"{x.dtype},{mdt}")
        return Call("masked_select", f"{x.expr}.masked_select({m})", f"{x.dtype},{mdt}")
    if rng.random() < 0.75:
        v = V.py_number(rng, x.kind)
        val, vk = V.fmt(v), type(v).__name__
    else:
        vdt = V.dtype(rng)
        val, vk = f"torch.tensor({V.fmt(V.element(rng, vdt))}, dtype=torch.{vdt})", f"0d-{vdt}"
        if rng.random() < 0.1:
            val, vk = T.tensor(rng, (2,), vdt).expr, f"1d-{vdt}"
    if rng.random() < 0.5:
        src = f"{x.expr}.masked_fill({m}, {val})"
    else:
        src = f"x = {x.expr}; x.masked_fill_({m}, {val}); x"
    return Call("masked_fill", src, f"{x.dtype},{mdt},{vk}")


FAMILY = [(3, index_select), (3, gather), (3, scatter), (2, index_add), (3, take_put), (4, masked)]
