"""Indexing calls: `x[idx]`, `x[idx] = v` and `index_put_` with ints, slices (steps), None, `...`, Python
bools, integer/bool index tensors and lists; the indexed shape comes from NumPy's rules (same as torch's),
so values written are mostly the right shape."""

from __future__ import annotations

import math
import random

import numpy as np

from . import tensors as T
from . import values as V
from .call import Call


def _slice(rng: random.Random, size: int) -> tuple[str, slice]:
    def end() -> int | None:
        return None if rng.random() < 0.4 else rng.randint(-size - 2, size + 2)

    start, stop = end(), end()
    step = rng.choices((None, 1, 2, 3, 0, -1), (8, 2, 4, 2, 0.3, 0.3))[0]
    text = ("" if start is None else str(start)) + ":" + ("" if stop is None else str(stop))
    if step is not None:
        text += f":{step}"
    return text, slice(start, stop, step)


def _advanced(rng: random.Random, size: int, adv_shape: tuple[int, ...], unique: bool) -> tuple[str, object]:
    """An integer index (tensor of some int dtype, or a list) into a dim of `size` (`unique`: no index
    repeated, where the dim has room)."""
    form = rng.choices(("tensor", "list", "scalar_tensor"), (6, 3, 1))[0]
    if form == "scalar_tensor":
        v = T.index_values(rng, size, 1)[0]
        return f"torch.tensor({v})", np.int64(v)
    if form == "list" and len(adv_shape) <= 1:
        n = adv_shape[0] if adv_shape else 1
        vals = T.index_values(rng, size, n, unique=unique)
        return V.fmt(vals), vals
    dt = rng.choices(("int64", "int32", "int16", "int8", "uint8"), (10, 3, 1, 1, 0.5))[0]
    text = T.index_tensor(rng, size, adv_shape, dt, unique=unique)
    ns = {"torch": _NumpyTorch}
    arr = eval(text, ns)  # our own literal, evaluated with NumPy standing in for torch
    if dt == "uint8":  # torch treats uint8 index tensors as (deprecated) masks
        arr = arr.astype(bool)
    return text, arr


class _NumpyTorch:
    """Just enough of `torch` to evaluate index-tensor literals with NumPy (for shape inference)."""

    int64, int32, int16, int8, uint8, bool = np.int64, np.int32, np.int16, np.int8, np.uint8, np.bool_

    @staticmethod
    def tensor(v, dtype=np.int64):
        return np.array(v, dtype=dtype)

    @staticmethod
    def zeros(shape, dtype=np.int64):
        return np.zeros(shape, dtype=dtype)


def index(rng: random.Random, x: T.Tensor, unique: bool = False) -> tuple[str, list, str, bool]:
    """A random index for `x`: (source text inside the brackets, NumPy equivalents, kinds used, whether
    an element may be addressed twice). `unique`: advanced indices repeat no index where they can."""
    nd = x.ndim
    use_ellipsis = rng.random() < 0.15
    a = rng.randint(0, nd) if nd else 0
    b = rng.randint(0, nd - a) if use_ellipsis else 0
    if not use_ellipsis and a == 0 and rng.random() < 0.7:
        a = min(nd, 1)
    ranges = [(0, a)] + ([(nd - b, nd)] if use_ellipsis else [])
    adv_shape = rng.choice(((), (1,), (2,), (3,), (2, 2), (0,)))
    parts: list[tuple[str, object]] = []
    kinds: set[str] = set()
    dup = False
    for r, (lo, hi) in enumerate(ranges):
        if r == 1:
            parts.append(("...", Ellipsis))
        d = lo
        while d < hi:
            size = x.shape[d]
            c = rng.choices(("int", "slice", "adv", "mask", "bool"), (4, 5, 3, 1.5, 0.3))[0]
            if c == "int":
                v = T.index_values(rng, size, 1, bad=0.1)[0] if size else rng.choice((0, -1))
                parts.append((str(v), v))
            elif c == "slice":
                parts.append(_slice(rng, size))
            elif c == "adv":
                parts.append(_advanced(rng, size, adv_shape, unique))
                dup = dup or not unique or math.prod(adv_shape) > size
            elif c == "mask":
                k = 2 if d + 1 < hi and rng.random() < 0.3 else 1
                mshape = list(x.shape[d : d + k])
                if rng.random() < 0.08:
                    mshape[-1] += 1
                mdt = "uint8" if rng.random() < 0.1 else "bool"
                if k == 1 and rng.random() < 0.25:
                    vals = [rng.random() < 0.5 for _ in range(mshape[0])]
                    parts.append((V.fmt(vals), np.array(vals, dtype=bool)))
                else:
                    text = T.mask(rng, tuple(mshape), mdt)
                    parts.append((text, eval(text, {"torch": _NumpyTorch}).astype(bool)))
                d += k - 1
            else:
                v = rng.random() < 0.7
                parts.append((repr(v), v))
                d -= 1  # a Python bool adds a dim, it consumes none
            kinds.add(c)
            d += 1
    if rng.random() < 0.05:  # too many indices
        parts.append(("0", 0))
    for _ in range(rng.choices((0, 1, 2), (6, 3, 1))[0]):
        parts.insert(rng.randint(0, len(parts)), ("None", None))
        kinds.add("none")
    if use_ellipsis and rng.random() < 0.03:
        parts.append(("...", Ellipsis))
    if not parts:
        parts = [("...", Ellipsis)] if rng.random() < 0.5 else [("()", ())]
    text = ", ".join(p[0] for p in parts)
    return text, [p[1] for p in parts], "+".join(sorted(kinds)) or "empty", dup


def _np_shape(shp: tuple[int, ...], objs: list) -> tuple[int, ...] | None:
    if len(objs) == 1 and isinstance(objs[0], tuple):
        objs = []
    try:
        return np.empty(shp, dtype=np.int8)[tuple(objs)].shape
    except Exception:
        return None


def _value(rng: random.Random, x: T.Tensor, shp: tuple[int, ...] | None) -> tuple[str, str]:
    """A value to write into `x` at an indexed region of shape `shp` (None: unknown)."""
    r = rng.random()
    if shp is None or r < 0.45:
        v = V.py_number(rng, x.kind)
        return V.fmt(v), type(v).__name__
    dt = x.dtype if rng.random() < 0.7 else V.dtype(rng)
    if r < 0.55:
        return f"torch.tensor({V.fmt(V.element(rng, dt))}, dtype=torch.{dt})", f"0d-{dt}"
    vshape = T.broadcastable(rng, shp, bad=0.05) if rng.random() < 0.4 else shp
    return T.tensor(rng, vshape, dt, layout=0.3).expr, dt


def getitem(rng: random.Random) -> Call:
    """`x[idx]`."""
    x = T.tensor(rng)
    text, _, kinds, _ = index(rng, x)
    view = not {"adv", "mask", "bool"} & set(kinds.split("+"))
    return Call("getitem", f"{x.expr}[{text}]", f"{x.dtype},{kinds}", strides=view)


def setitem(rng: random.Random) -> Call:
    """`x[idx] = v; x`: scalars (non-finite into ints too), 0-dim and broadcast tensors of any dtype."""
    x = T.tensor(rng, expand=rng.random() < 0.1)
    text, objs, kinds, dup = index(rng, x, unique=True)
    val, vkind = _value(rng, x, _np_shape(x.shape, objs))
    # a repeated advanced index makes the value written there depend on the order of the writes
    return Call("setitem", f"x = {x.expr}; x[{text}] = {val}; x", f"{x.dtype}<-{vkind},{kinds}", values=not dup)


def index_put(rng: random.Random) -> Call:
    """`x.index_put_(indices, values, accumulate)` (and `torch.index_put`), integer or bool indices."""
    x = T.tensor(rng, T.shape(rng, rng.choice((1, 2, 2, 3))), expand=False)
    k = rng.randint(1, max(1, x.ndim))
    ishape = rng.choice(((2,), (3,), (1,), (2, 2), (0,), ()))
    accumulate = rng.random() < 0.4
    parts, objs = [], []
    dup = False
    for d in range(k):
        size = x.shape[d] if d < x.ndim else 1
        if rng.random() < 0.15 and k == 1:
            text = T.mask(rng, x.shape[:1])
            parts.append(text)
            objs.append(eval(text, {"torch": _NumpyTorch}).astype(bool))
        else:
            dt = "int64" if rng.random() < 0.9 else rng.choice(("int32", "uint8", "float32"))
            text = T.index_tensor(rng, size, ishape, dt if dt != "float32" else "int64", unique=not accumulate)
            dup = dup or math.prod(ishape) > size
            if dt == "float32":
                text = text.replace("torch.int64", "torch.float32")
            parts.append(text)
            objs.append(eval(text.replace("float32", "int64"), {"torch": _NumpyTorch}))
    shp = _np_shape(x.shape, objs)
    if shp is None or rng.random() < 0.3:
        vdt = x.dtype if rng.random() < 0.8 else V.dtype(rng)
        val = f"torch.tensor({V.fmt(V.element(rng, vdt))}, dtype=torch.{vdt})"
    else:
        vdt = x.dtype if rng.random() < 0.8 else V.dtype(rng)
        val = T.tensor(rng, T.broadcastable(rng, shp) if rng.random() < 0.3 else shp, vdt, layout=0.2).expr
    idx = "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
    acc = f", accumulate={accumulate}" if accumulate or rng.random() < 0.5 else ""
    if rng.random() < 0.3:
        src = f"torch.index_put({x.expr}, {idx}, {val}{acc})"
    else:
        src = f"x = {x.expr}; x.index_put_({idx}, {val}{acc}); x"
    return Call("index_put_", src, f"{x.dtype}<-{vdt},acc={accumulate}", values=accumulate or not dup, accum=accumulate)


FAMILY = [(8, getitem), (6, setitem), (3, index_put)]
