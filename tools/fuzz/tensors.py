"""Input tensors as source text: deterministic data written into the call (a literal `torch.tensor`, an
`arange`/`linspace`, a `full`), then optionally made non-contiguous (transpose, permute, stepped or
offset slices) or broadcast (`expand` of size-1 dims), with the shape and dtype known to the generator."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from . import values as V


@dataclass(frozen=True)
class Tensor:
    """A tensor expression: `expr` evaluates to a tensor of `shape` and `dtype` (a name such as 'int8').
    `storage` is the element count of the storage under it (what `as_strided` may address)."""

    expr: str
    shape: tuple[int, ...]
    dtype: str
    storage: int
    contiguous: bool = True
    expanded: bool = False

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def numel(self) -> int:
        return math.prod(self.shape)

    @property
    def kind(self) -> str:
        return V.kind(self.dtype)


def shape(rng: random.Random, ndim: int | None = None, empty: float = 0.05, hi: int = 4) -> tuple[int, ...]:
    """A small shape (at most 4 dims, sizes 1..`hi`, a 0 size with probability `empty`)."""
    if ndim is None:
        ndim = rng.choices((0, 1, 2, 3, 4), (2, 5, 6, 3, 1))[0]
    sizes = [rng.choices((1, 2, 3, hi), (3, 4, 4, 2))[0] for _ in range(ndim)]
    if sizes and rng.random() < empty:
        sizes[rng.randrange(ndim)] = 0
    return tuple(sizes)


def nested(flat: list, shp: tuple[int, ...]) -> str:
    """Source text of a nested list literal of `shp` holding `flat` (row-major)."""
    if not shp:
        return V.fmt(flat[0])
    if len(shp) == 1:
        return V.fmt(flat)
    step = math.prod(shp[1:])
    return "[" + ", ".join(nested(flat[i * step : (i + 1) * step], shp[1:]) for i in range(shp[0])) + "]"


def _dt(dt: str) -> str:
    return f"torch.{dt}"


def literal(rng: random.Random, shp: tuple[int, ...], dt: str, special: float = 0.12, unique: bool = False) -> str:
    """`torch.tensor(<nested list>, dtype=...)` with seeded elements (`unique`: no two equal, where the
    dtype has room for it)."""
    n = math.prod(shp)
    if n == 0:
        return f"torch.zeros({V.fmt(shp)}, dtype={_dt(dt)})"
    if unique and dt != "bool":
        lo, hi = V.INT_RANGE.get(dt, (-(2**11), 2**11))
        pool = range(max(lo, -60), min(hi, 200))
        flat = rng.sample(pool, n) if len(pool) >= n else [rng.choice(pool) for _ in range(n)]
        if dt in V.FLOATS:
            flat = [x / 4 for x in flat]
    else:
        flat = [V.element(rng, dt, special) for _ in range(n)]
    return f"torch.tensor({nested(flat, shp)}, dtype={_dt(dt)})"


def base(rng: random.Random, shp: tuple[int, ...], dt: str, special: float = 0.12, unique: bool = False) -> str:
    """A contiguous tensor of `shp` and `dt` as source text, from one of several constructors."""
    n = math.prod(shp)
    r = rng.random()
    if unique or n == 0 or r < 0.55 or (n <= 24 and r < 0.7):
        return literal(rng, shp, dt, special, unique)
    reshape = f".reshape({V.fmt(shp)})" if len(shp) != 1 else ""
    if r < 0.92:
        if dt in V.FLOATS:
            lo = rng.choice((-3, -1, 0, -100))
            hi = lo + rng.choice((n, n * 0.5, 2 * n + 1, 1000))
            return f"torch.linspace({lo}, {hi}, {n}, dtype=torch.float64){reshape}.to({_dt(dt)})"
        start = rng.choice((0, 0, -n // 2, -3, 100, -130))
        return f"torch.arange({start}, {start + n}){reshape}.to({_dt(dt)})"
    return f"torch.full({V.fmt(shp)}, {V.fmt(V.element(rng, dt, min(2 * special, 0.3)))}, dtype={_dt(dt)})"


def _modifiers(rng: random.Random, shp: tuple[int, ...]) -> tuple[tuple[int, ...], list[str], bool]:
    """Picks layout modifiers that turn a base of some shape into `shp`. Returns the base shape, the
    suffixes to apply in order, and whether one of them is an `expand`."""
    chain: list[str] = []
    expanded = False
    cur = tuple(shp)
    for _ in range(rng.choice((1, 1, 1, 2))):
        nd = len(cur)
        options = ["step", "offset"] + (["transpose", "permute"] if nd >= 2 else []) + ["expand"]
        op = rng.choice(options) if nd else "expand"
        if op == "transpose":
            i, j = rng.sample(range(nd), 2)
            prev = list(cur)
            prev[i], prev[j] = prev[j], prev[i]
            chain.insert(0, f".transpose({i}, {j})")
            cur = tuple(prev)
        elif op == "permute":
            perm = list(range(nd))
            rng.shuffle(perm)
            prev = [0] * nd
            for out_dim, in_dim in enumerate(perm):
                prev[in_dim] = cur[out_dim]
            chain.insert(0, f".permute({', '.join(map(str, perm))})")
            cur = tuple(prev)
        elif op in ("step", "offset"):
            d = rng.randrange(nd)
            prev = list(cur)
            if op == "step":
                step = rng.choice((2, 2, 3))
                prev[d] = 0 if cur[d] == 0 else (cur[d] - 1) * step + 1 + rng.randrange(step)
                sl = f"::{step}"
            else:
                k = rng.choice((1, 2))
                prev[d] = cur[d] + k
                sl = f"{k}:"
            chain.insert(0, "[" + ", ".join([":"] * d + [sl]) + "]")
            cur = tuple(prev)
        else:  # expand: some dims (and maybe a leading one) were size 1 / absent in the base
            prev = [1 if (s > 1 and rng.random() < 0.6) else s for s in cur]
            if nd and prev[0] == cur[0] and cur[0] > 1 and rng.random() < 0.3:
                prev = prev[1:]
            if tuple(prev) == cur:
                continue
            chain.insert(0, f".expand({', '.join(map(str, cur))})" if cur else ".expand(())")
            expanded = True
            cur = tuple(prev)
    return cur, chain, expanded


def tensor(
    rng: random.Random,
    shp: tuple[int, ...] | None = None,
    dt: str | None = None,
    *,
    layout: float = 0.45,
    special: float = 0.12,
    unique: bool = False,
    expand: bool = True,
) -> Tensor:
    """An input tensor: a seeded contiguous base, non-contiguous/broadcast with probability `layout`
    (never expanded when `expand` is False, e.g. for tensors written in place)."""
    shp = shape(rng) if shp is None else tuple(shp)
    dt = V.dtype(rng) if dt is None else dt
    if rng.random() < layout:
        for _ in range(4):
            base_shape, chain, expanded = _modifiers(rng, shp)
            if chain and (expand or not expanded) and math.prod(base_shape) <= 512:
                text = base(rng, base_shape, dt, special, unique and not expanded) + "".join(chain)
                return Tensor(text, shp, dt, math.prod(base_shape), False, expanded)
    return Tensor(base(rng, shp, dt, special, unique), shp, dt, math.prod(shp))


def broadcastable(rng: random.Random, shp: tuple[int, ...], bad: float = 0.05) -> tuple[int, ...]:
    """A shape that broadcasts with `shp` (size-1 dims, fewer leading dims, or 0-dim); with probability
    `bad` one that does not."""
    out = [1 if rng.random() < 0.3 else s for s in shp]
    while out and rng.random() < 0.25:
        out = out[1:]
    if rng.random() < 0.1:
        out = [1] + out
    if out and rng.random() < bad:
        i = rng.randrange(len(out))
        out[i] = out[i] + 1 if out[i] > 1 else 2
    return tuple(out)


def index_values(rng: random.Random, size: int, n: int, bad: float = 0.06, unique: bool = False) -> list[int]:
    """`n` indices into a dim of `size`: in range (negatives included), sometimes one out of range."""
    if unique and 0 < n <= size:
        vals = rng.sample(range(size), n)
        vals = [v - size if rng.random() < 0.2 else v for v in vals]
    else:
        vals = [rng.randint(-size, size - 1) if size else 0 for _ in range(n)]
    if vals and (rng.random() < bad or size == 0):
        vals[rng.randrange(n)] = rng.choice((size, -size - 1, size + 3, 2**40, -(2**62)))
    return vals


def index_tensor(
    rng: random.Random, size: int, shp: tuple[int, ...], dt: str = "int64", bad: float = 0.06, unique: bool = False
) -> str:
    """`torch.tensor([...], dtype=...)` of indices into a dim of `size`, shaped `shp`."""
    vals = index_values(rng, size, math.prod(shp), bad, unique)
    if dt == "uint8":
        vals = [v % 256 for v in vals]
    elif dt in V.INT_RANGE:
        lo, hi = V.INT_RANGE[dt]
        vals = [min(max(v, lo), hi) for v in vals]
    if not shp:
        return f"torch.tensor({vals[0]}, dtype=torch.{dt})"
    if math.prod(shp) == 0:
        return f"torch.zeros({V.fmt(shp)}, dtype=torch.{dt})"
    return f"torch.tensor({nested(vals, shp)}, dtype=torch.{dt})"


def mask(rng: random.Random, shp: tuple[int, ...], dt: str = "bool") -> str:
    """A seeded mask literal of `shp` (bool, or uint8 0/1)."""
    n = math.prod(shp)
    if n == 0:
        return f"torch.zeros({V.fmt(shp)}, dtype=torch.{dt})"
    p = rng.random()
    flat = [rng.random() < p for _ in range(n)]
    if dt != "bool":
        flat = [int(b) for b in flat]
    return f"torch.tensor({nested(flat, shp)}, dtype=torch.{dt})"
