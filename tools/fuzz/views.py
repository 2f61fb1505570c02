"""View calls: view (shapes and dtypes), reshape, transpose, permute, expand, narrow, select, squeeze,
unsqueeze, flatten, unflatten, movedim, as_strided (inside the storage and past it), diagonal, t/T/mT;
and writes through a view (the base is the result, so aliasing is checked)."""

from __future__ import annotations

import math
import random

from . import tensors as T
from . import values as V
from .call import Call
from .selecting import _dim

_ITEMSIZE = {"bool": 1, "uint8": 1, "int8": 1, "int16": 2, "int32": 4, "int64": 8, "float16": 2, "bfloat16": 2}
_ITEMSIZE.update({"float32": 4, "float64": 8})


def factor_shape(rng: random.Random, numel: int, ndim: int | None = None) -> list[int]:
    """A shape with `numel` elements (random factorization into up to 4 dims)."""
    ndim = rng.choice((1, 2, 2, 3, 4)) if ndim is None else ndim
    if numel == 0:
        out = [rng.randint(1, 3) for _ in range(max(ndim, 1))]
        out[rng.randrange(len(out))] = 0
        return out
    out = [1] * max(ndim, 0)
    if not out:
        return [] if numel == 1 else [numel]
    n = numel
    p = 2
    while n > 1:
        while n % p == 0:
            out[rng.randrange(len(out))] *= p
            n //= p
        p += 1
    return out


def _shape_arg(rng: random.Random, numel: int) -> str:
    shp = factor_shape(rng, numel, rng.choice((0, 1, 2, 2, 3, 4)) if numel == 1 else None)
    r = rng.random()
    if shp and r < 0.3 and numel:
        shp[rng.randrange(len(shp))] = -1
    elif r < 0.36:
        shp = shp + [2] if rng.random() < 0.5 else [-1, -1]
    elif shp and r < 0.38:
        shp[0] = -2
    if rng.random() < 0.5:
        return V.fmt(tuple(shp))
    return ", ".join(map(str, shp)) if shp else "()"


def view_op(rng: random.Random, x: T.Tensor) -> tuple[str, str]:
    """A view of `x` as a method-call suffix, and the op name."""
    nd = x.ndim
    ops = ["view", "view", "reshape", "transpose", "permute", "expand", "narrow", "select", "squeeze", "unsqueeze"]
    ops += ["flatten", "as_strided", "as_strided", "diagonal", "view_dtype", "t", "unflatten", "movedim"]
    op = rng.choice(ops)
    d = _dim(rng, nd)
    if op in ("view", "reshape"):
        return f".{op}({_shape_arg(rng, x.numel)})", op
    if op == "view_dtype":
        return f".view(torch.{V.dtype(rng)})", "view(dtype)"
    if op == "transpose":
        return f".transpose({d}, {_dim(rng, nd)})", op
    if op == "permute":
        perm = list(range(nd))
        rng.shuffle(perm)
        perm = [p - nd if rng.random() < 0.2 else p for p in perm]
        if rng.random() < 0.06:
            perm = perm[:-1] if perm else [0]
        elif perm and rng.random() < 0.04:
            perm[0] = perm[-1]
        return f".permute({', '.join(map(str, perm))})" if perm else ".permute()", op
    if op == "expand":
        sizes = [s if (s != 1 or rng.random() < 0.5) else rng.randint(0, 4) for s in x.shape]
        sizes = [-1 if rng.random() < 0.2 else s for s in sizes]
        if rng.random() < 0.3:
            sizes = [rng.randint(1, 3)] + sizes
        if sizes and rng.random() < 0.05:
            sizes[rng.randrange(len(sizes))] = rng.choice((-2, 5))
        return f".expand({', '.join(map(str, sizes))})" if sizes else ".expand(())", op
    if op == "narrow":
        size = x.shape[d] if nd and -nd <= d < nd else 1
        start = rng.randint(-size, size) if rng.random() < 0.9 else size + 1
        length = rng.randint(0, max(size - (start % size if size else 0), 0)) if rng.random() < 0.9 else size + 1
        return f".narrow({d}, {start}, {length})", op
    if op == "select":
        size = x.shape[d] if nd and -nd <= d < nd else 1
        return f".select({d}, {T.index_values(rng, size, 1, bad=0.1)[0] if size else 0})", op
    if op == "squeeze":
        r = rng.random()
        if r < 0.3:
            return ".squeeze()", op
        if r < 0.5 and nd >= 2:
            return f".squeeze(({d}, {_dim(rng, nd)}))", op
        return f".squeeze({d})", op
    if op == "unsqueeze":
        return f".unsqueeze({rng.randint(-nd - 1, nd) if rng.random() < 0.95 else nd + 2})", op
    if op == "flatten":
        return (f".flatten({_dim(rng, nd)}, {_dim(rng, nd)})" if rng.random() < 0.7 else ".flatten()"), op
    if op == "unflatten":
        size = x.shape[d] if nd and -nd <= d < nd else 1
        return f".unflatten({d}, {V.fmt(tuple(factor_shape(rng, size, 2)))})", op
    if op == "movedim":
        return f".movedim({d}, {_dim(rng, nd)})", op
    if op == "diagonal":
        off = rng.randint(-3, 3)
        return f".diagonal({off}, {_dim(rng, nd)}, {_dim(rng, nd)})" if rng.random() < 0.7 else ".diagonal()", op
    if op == "t":
        return rng.choice((".t()", ".T", ".mT")), op
    return _as_strided(rng, x), op


def _as_strided(rng: random.Random, x: T.Tensor) -> str:
    """`.as_strided(size, stride, storage_offset)`: within the storage mostly, past its end (or a
    negative offset, a negative stride) sometimes."""
    nd = rng.choice((0, 1, 2, 2, 3))
    for _ in range(6):
        size = [rng.choice((0, 1, 2, 3, 4)) if rng.random() < 0.1 else rng.randint(1, 4) for _ in range(nd)]
        stride = [rng.choice((0, 1, 1, 2, 3, 4, 6)) for _ in range(nd)]
        extent = sum((s - 1) * st for s, st in zip(size, stride)) if all(size) else 0
        room = x.storage - 1 - extent
        if room >= 0:
            break
    else:
        size, stride, extent, room = [1] * nd, [1] * nd, 0, x.storage - 1
    r = rng.random()
    if r < 0.75:
        offset = rng.randint(0, max(room, 0))
    elif r < 0.88:
        offset = room + rng.randint(1, 3)
    elif r < 0.93:
        offset = -rng.randint(1, 3)
    elif r < 0.96 and nd:
        stride[rng.randrange(nd)] = -1
        offset = rng.randint(0, max(room, 0))
    else:
        offset = rng.choice((2**40, 2**62))
    if x.storage == 0 or room < 0:
        offset = rng.choice((0, 1))
    return f".as_strided({V.fmt(tuple(size))}, {V.fmt(tuple(stride))}, {offset})"


def view(rng: random.Random) -> Call:
    """`x.<view>`: the result's values, shape and strides are compared."""
    x = T.tensor(rng)
    suffix, op = view_op(rng, x)
    if op == "view(dtype)":
        return Call(op, x.expr + suffix, f"{x.dtype}->{suffix[12:-1]},{'c' if x.contiguous else 'nc'}", strides=True)
    sig = f"{x.dtype},{'c' if x.contiguous else 'nc'}"
    return Call(op, x.expr + suffix, sig, strides=True)


def view_write(rng: random.Random) -> Call:
    """`x = <tensor>; v = x.<view>; <write into v>; x`: writes land in the base's storage."""
    x = T.tensor(rng, expand=False, layout=0.3)
    suffix, op = view_op(rng, x)
    w = rng.choice(("fill_", "fill_", "zero_", "add_", "mul_", "setitem", "copy_"))
    if w == "fill_":
        write = f"v.fill_({V.fmt(V.element(rng, x.dtype, 0.05))})"
    elif w == "zero_":
        write = "v.zero_()"
    elif w in ("add_", "mul_"):
        write = f"v.{w}({'True' if x.dtype == 'bool' else 2})"
    elif w == "setitem":
        write = f"v[...] = {V.fmt(V.element(rng, x.dtype, 0.05))}"
    else:
        write = f"v.copy_(torch.tensor({V.fmt(V.element(rng, x.dtype, 0.05))}, dtype=torch.{x.dtype}))"
    src = f"x = {x.expr}; v = x{suffix}; {write}; x"
    return Call(f"{op}+write", src, f"{x.dtype},{w}")


def storage_size(rng: random.Random) -> Call:
    """In-place metadata changes: `resize_` (growing: the new elements are uninitialized), `as_strided_`,
    `t_`/`squeeze_`/`unsqueeze_`, then the tensor."""
    x = T.tensor(rng, expand=False, layout=0.2)
    r = rng.random()
    if r < 0.4:
        shp = factor_shape(rng, x.numel) if rng.random() < 0.5 else T.shape(rng)
        if rng.random() < 0.08:
            shp = [rng.choice((-1, 2**62, 2**33))]
        grows = math.prod(shp) > x.numel or not x.contiguous
        return Call("resize_", f"x = {x.expr}; x.resize_({V.fmt(tuple(shp))}); x", x.dtype, values=not grows)
    if r < 0.7:
        return Call("as_strided_", f"x = {x.expr}; x{_as_strided(rng, x).replace('as_strided', 'as_strided_')}; x")
    nd = x.ndim
    op = rng.choice(("t_", "squeeze_", "unsqueeze_", "transpose_"))
    arg = {"t_": "", "squeeze_": str(_dim(rng, nd)) if rng.random() < 0.7 else "", "unsqueeze_": str(_dim(rng, nd + 1))}
    arg["transpose_"] = f"{_dim(rng, nd)}, {_dim(rng, nd)}"
    return Call(op, f"x = {x.expr}; x.{op}({arg[op]}); x", x.dtype, strides=True)


FAMILY = [(14, view), (5, view_write), (2, storage_size)]
