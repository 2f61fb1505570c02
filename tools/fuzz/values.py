"""Dtypes, interesting Python numbers, and their rendering as source text."""

from __future__ import annotations

import math
import random

DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64")
INTS = ("uint8", "int8", "int16", "int32", "int64")
FLOATS = ("float16", "bfloat16", "float32", "float64")
# weights: the common dtypes more often, every dtype regularly
_DTYPE_WEIGHTS = (6, 8, 6, 5, 8, 14, 9, 8, 16, 10)

INT_RANGE = {
    "bool": (0, 1),
    "uint8": (0, 255),
    "int8": (-128, 127),
    "int16": (-(2**15), 2**15 - 1),
    "int32": (-(2**31), 2**31 - 1),
    "int64": (-(2**63), 2**63 - 1),
}
FLOAT_MAX = {"float16": 65504.0, "bfloat16": 3.3895313892515355e38, "float32": 3.4028234663852886e38}
FLOAT_MAX["float64"] = 1.7976931348623157e308
FLOAT_TINY = {"float16": 6e-08, "bfloat16": 1e-39, "float32": 1e-45, "float64": 5e-324}

# Python numbers that make kernels sweat: zero, -1, wrap-around, extremes, non-finite values
PY_INTS = (0, 0, 1, -1, -1, 2, 3, -3, 7, 100, 127, 128, 255, 256, -128, -129, 2**31 - 1, -(2**31), 2**31)
PY_INTS += (2**32, 2**63 - 1, -(2**63), 2**64, 10**20, 63, 64, 65)
PY_FLOATS = (0.0, -0.0, 0.5, -2.5, 1.5, 3.0, -1.0, 0.1, 1e-300, 1e30, -1e30, 1e300, math.inf, -math.inf)
PY_FLOATS += (math.nan, 65504.0, 65520.0, 3.4e38, 2.0**63, 1e-8)


def dtype(rng: random.Random, among: tuple[str, ...] = DTYPES) -> str:
    """A dtype name, weighted towards the common ones when drawing from all of them."""
    if among is DTYPES:
        return rng.choices(DTYPES, _DTYPE_WEIGHTS)[0]
    return rng.choice(among)


def kind(dt: str) -> str:
    """'bool', 'int' or 'float'."""
    return "bool" if dt == "bool" else ("float" if dt in FLOATS else "int")


def fmt(v: object) -> str:
    """Source text for a Python number (nan/inf as `float('nan')`), tuple or list of them."""
    if isinstance(v, bool) or v is None:
        return repr(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "float('nan')"
        if math.isinf(v):
            return "float('inf')" if v > 0 else "-float('inf')"
        return repr(v)
    if isinstance(v, tuple):
        return "(" + ", ".join(fmt(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    if isinstance(v, list):
        return "[" + ", ".join(fmt(x) for x in v) + "]"
    return repr(v)


def py_number(rng: random.Random, like: str | None = None) -> object:
    """An interesting Python number: bool, int or float (`like` biases towards that kind)."""
    k = like if like and rng.random() < 0.6 else rng.choice(("int", "int", "float", "float", "bool"))
    if k == "bool":
        return rng.random() < 0.5
    if k == "int":
        return rng.choice(PY_INTS) if rng.random() < 0.5 else rng.randint(-9, 9)
    return rng.choice(PY_FLOATS) if rng.random() < 0.5 else rng.randint(-16, 16) / 4


def element(rng: random.Random, dt: str, special: float = 0.12) -> object:
    """One element that `torch.tensor([...], dtype=dt)` accepts: mostly small, sometimes extreme or
    non-finite (probability `special`)."""
    if dt == "bool":
        return rng.random() < 0.5
    if dt in INT_RANGE:
        lo, hi = INT_RANGE[dt]
        if rng.random() < special:
            return rng.choice((lo, hi, lo + 1, hi - 1, 0, hi // 2 + 1))
        return rng.randint(max(lo, -9), min(hi, 12))
    if rng.random() < special:
        big = FLOAT_MAX[dt]
        return rng.choice((math.nan, math.inf, -math.inf, -0.0, big, -big, FLOAT_TINY[dt], 1e4, -1e4, 0.1))
    return rng.randint(-16, 16) / 4
