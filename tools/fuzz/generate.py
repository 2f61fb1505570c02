"""Seeded generation of calls: call `index` of `seed` is a pure function of the two (its own
`random.Random`), so any call can be regenerated, and reported, on its own."""

from __future__ import annotations

import random
from collections.abc import Iterator

from . import arithmetic, distributions, factories, indexing, joins, linalg, nn, reductions, selecting, views
from .call import Call

# family module -> relative weight of the family as a whole
FAMILIES = {
    "indexing": (indexing, 14),
    "selecting": (selecting, 12),
    "views": (views, 15),
    "joins": (joins, 7),
    "reductions": (reductions, 12),
    "linalg": (linalg, 6),
    "arithmetic": (arithmetic, 26),
    "factories": (factories, 8),
}


# families run only when named (`--families nn`): adding one to FAMILIES would change every seed's stream,
# and with it the findings that tools/fuzz/known.txt lists
OPT_IN = {
    "nn": (nn, 10),
    "distributions": (distributions, 10),
}


def _table(families: list[str] | None) -> tuple[list, list[float]]:
    gens, weights = [], []
    for name, (module, weight) in {**FAMILIES, **OPT_IN}.items():
        if (families and name not in families) or (not families and name in OPT_IN):
            continue
        total = sum(w for w, _ in module.FAMILY)
        for w, fn in module.FAMILY:
            gens.append(fn)
            weights.append(weight * w / total)
    if not gens:
        raise ValueError(f"no such family among {families}; known: {', '.join({**FAMILIES, **OPT_IN})}")
    return gens, weights


_TABLES: dict[tuple, tuple[list, list[float]]] = {}


def generate(seed: int, index: int, families: list[str] | None = None) -> Call:
    """Call number `index` of the stream `seed` (restricted to some `families`, if given)."""
    key = tuple(families or ())
    if key not in _TABLES:
        _TABLES[key] = _table(families)
    gens, weights = _TABLES[key]
    rng = random.Random(seed * 1_000_003 + index)
    call = rng.choices(gens, weights)[0](rng)
    call.cid = f"{seed}:{index}"
    return call


def calls(seed: int, start: int, count: int, families: list[str] | None = None) -> Iterator[Call]:
    """Calls `start` .. `start + count - 1` of the stream `seed`."""
    for i in range(start, start + count):
        yield generate(seed, i, families)
