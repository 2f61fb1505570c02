"""Classifies a call by its two outcomes (ours, upstream) into a category with a severity."""

from __future__ import annotations

import numpy as np

from .call import Call

# category -> (severity, meaning). 0: agreement; 1: a crash or hang of ours (the no-crash contract);
# 2: a divergence; 3: a lesser difference; 4: upstream's problem, not ours.
CATEGORIES = {
    "match": (0, "both return the same value"),
    "both-raise": (0, "both raise (the same class, or one a subclass of the other)"),
    "crash": (1, "ours dies of a signal"),
    "hang": (1, "ours runs past the timeout"),
    "raise-ref": (2, "upstream raises, ours returns a value"),
    "raise-ours": (2, "ours raises, upstream returns a value"),
    "dtype": (2, "different result dtype"),
    "shape": (2, "different result shape (or number of results)"),
    "value": (2, "different values"),
    "type": (2, "different kind of result (tensor, number, tuple)"),
    "stride": (2, "different strides of a view"),
    "exc-class": (3, "both raise, unrelated exception classes"),
    "layout": (3, "different strides of a non-view result"),
    "container": (3, "tuple vs list, or namedtuple fields"),
    "error": (3, "the worker could not run the call"),
    "ref-crash": (4, "upstream dies of a signal (ours does not)"),
    "ref-hang": (4, "upstream runs past the timeout (ours does not)"),
    "bad-call": (4, "the generator wrote invalid Python"),
}

# float tolerance (relative; also absolute near 0) per dtype: elementwise results / accumulations
RTOL = {"torch.float16": 2e-3, "torch.bfloat16": 1.6e-2, "torch.float32": 2e-6, "torch.float64": 1e-12,
        "torch.complex64": 2e-6, "torch.complex128": 1e-12}  # fmt: skip
RTOL_ACCUM = {"torch.float16": 1e-2, "torch.bfloat16": 5e-2, "torch.float32": 1e-4, "torch.float64": 1e-9,
              "torch.complex64": 1e-4, "torch.complex128": 1e-9}  # fmt: skip


def severity(category: str) -> int:
    """The category's severity (see CATEGORIES)."""
    return CATEGORIES[category][0]


def summarize(outcome: tuple, width: int = 160) -> str:
    """A one-line description of an outcome."""
    kind = outcome[0]
    if kind == "ok":
        return _value_text(outcome[1], width)
    if kind == "exc":
        return f"{outcome[1]}: {outcome[2]}"[:width]
    if kind == "crash":
        return f"CRASH {outcome[1]} ({outcome[3]})" + (f": {outcome[2].splitlines()[-1][:120]}" if outcome[2] else "")
    if kind == "hang":
        return f"HANG (over {outcome[1]:g}s)"
    return f"{kind}: {outcome[1:]}"[:width]


def _value_text(v: tuple, width: int) -> str:
    if v[0] == "T":
        _, dtype, shape, strides, arr, sampled = v
        head = f"{dtype.replace('torch.', '')}{list(shape)}"
        if arr is None:
            return head + " (values not compared)"
        body = np.array2string(np.asarray(arr).reshape(-1)[:16], separator=",", threshold=16, max_line_width=10**6)
        return (f"{head} {body}" + (" (sampled)" if sampled else ""))[:width]
    if v[0] == "py":
        return f"{v[1]} {v[2]!r}"[:width]
    if v[0] == "seq":
        return (f"{v[1]}({', '.join(_value_text(x, 60) for x in v[3][:4])}{', ...' if len(v[3]) > 4 else ''})")[:width]
    return f"{v[1]} {v[2]}"[:width]


def _related(a: tuple, b: tuple) -> bool:
    """Exception outcomes of the same class, or one class a base of the other."""
    return a[1] == b[1] or a[1] in b[3] or b[1] in a[3]


def classify(call: Call, ours: tuple, ref: tuple) -> tuple[str, str]:
    """(category, detail) of a call from its outcomes."""
    ko, kr = ours[0], ref[0]
    if ko in ("crash", "hang"):
        return ko, summarize(ours)
    if "error" in (ko, kr):
        return "error", f"ours {summarize(ours)} | upstream {summarize(ref)}"
    if kr in ("crash", "hang"):
        return f"ref-{kr}", summarize(ref)
    if ko == "exc" and ours[1] == "SyntaxError" and ours[3] == ("generator",):
        return "bad-call", ours[2]
    if ko == "exc" and kr == "exc":
        return ("both-raise", "") if _related(ours, ref) else ("exc-class", f"ours {ours[1]}, upstream {ref[1]}")
    if ko == "exc":
        return "raise-ours", f"ours {summarize(ours)}"
    if kr == "exc":
        return "raise-ref", f"upstream {summarize(ref)}"
    found = diff(call, ours[1], ref[1])
    return found if found else ("match", "")


def _tolerance(call: Call, dtype: str) -> float:
    return (RTOL_ACCUM if call.accum else RTOL).get(dtype, 0.0)


def diff(call: Call, a: tuple, b: tuple, path: str = "", top: bool = True) -> tuple[str, str] | None:
    """The first difference between two encoded values (ours `a`, upstream `b`), as (category, detail)."""
    at = f" at {path}" if path else ""
    if a[0] != b[0] or (a[0] == "py" and a[1] != b[1] and {a[1], b[1]} != {"int", "bool"}):
        return "type", f"ours {_value_text(a, 80)}, upstream {_value_text(b, 80)}{at}"
    if a[0] == "seq":
        items = range(len(b[3])) if not (top and call.only) else [i for i in call.only if i < len(b[3])]
        if len(a[3]) != len(b[3]):
            return "shape", f"ours {len(a[3])} results, upstream {len(b[3])}{at}"
        for i in items:
            found = diff(call, a[3][i], b[3][i], f"{path}[{i}]", False)
            if found:
                return found
        if a[1] != b[1] or a[2] != b[2]:
            return "container", f"ours {a[1]}{a[2] or ''}, upstream {b[1]}{b[2] or ''}{at}"
        return None
    if a[0] == "py":
        va, vb = a[2], b[2]
        if isinstance(vb, float) and isinstance(va, float):
            same = (np.isnan(va) and np.isnan(vb)) or np.isclose(va, vb, rtol=1e-12, atol=1e-12)
        else:
            same = va == vb
        return None if same else ("value", f"ours {va!r}, upstream {vb!r}{at}")
    if a[0] == "obj":
        return None if a[1] == b[1] else ("type", f"ours {a[1]}, upstream {b[1]}{at}")
    _, dt_a, shape_a, strides_a, arr_a, _ = a
    _, dt_b, shape_b, strides_b, arr_b, _ = b
    if dt_a != dt_b:
        return "dtype", f"ours {dt_a}, upstream {dt_b}{at}"
    if tuple(shape_a) != tuple(shape_b):
        return "shape", f"ours {list(shape_a)}, upstream {list(shape_b)}{at}"
    if arr_a is not None and arr_b is not None:
        found = _values(call, dt_b, np.asarray(arr_a), np.asarray(arr_b))
        if found:
            return "value", found + at
    if strides_a is not None and strides_b is not None and _strides_differ(shape_b, strides_a, strides_b):
        return ("stride" if call.strides else "layout"), f"ours {list(strides_a)}, upstream {list(strides_b)}{at}"
    return None


def _strides_differ(shape: tuple, sa: tuple, sb: tuple) -> bool:
    if 0 in shape or len(sa) != len(sb):
        return len(sa) != len(sb)
    return any(x != y for s, x, y in zip(shape, sa, sb) if s > 1)


def _values(call: Call, dtype: str, a: np.ndarray, b: np.ndarray) -> str | None:
    if a.shape != b.shape:
        return f"sampled {a.shape} vs {b.shape}"
    if dtype in RTOL:
        wide = np.complex128 if "complex" in dtype else np.float64
        a64, b64 = a.astype(wide), b.astype(wide)
        tol = _tolerance(call, dtype)
        atol = tol
        if call.accum:
            finite = np.abs(b64[np.isfinite(b64)])
            atol = tol * max(1.0, float(finite.max()) if finite.size else 1.0)
        ok = np.isclose(a64, b64, rtol=tol, atol=atol, equal_nan=True)
    else:
        ok = a == b
    if np.all(ok):
        return None
    bad = np.flatnonzero(~np.asarray(ok).reshape(-1))
    fa, fb = a.reshape(-1), b.reshape(-1)
    i = int(bad[0])
    return f"{bad.size} of {a.size} differ, first at flat {i}: ours {fa[i].item()!r}, upstream {fb[i].item()!r}"
