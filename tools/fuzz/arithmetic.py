"""Pointwise arithmetic: + - * / // % ** (operators, functions, methods, in place, out=), div rounding modes,
fmod/remainder, comparisons, bitwise ops and shifts, maximum/minimum/atan2, clamp/clip, and a few unary
ops; tensors of every dtype against tensors (broadcast, non-contiguous) and Python numbers such as 0, -1,
2**63, inf and nan."""

from __future__ import annotations

import random

from . import tensors as T
from . import values as V
from .call import Call

# name -> operator (None: function/method only)
BINARY = {
    "add": "+",
    "sub": "-",
    "mul": "*",
    "div": "/",
    "floor_divide": "//",
    "remainder": "%",
    "pow": "**",
    "fmod": None,
    "eq": "==",
    "ne": "!=",
    "lt": "<",
    "le": "<=",
    "gt": ">",
    "ge": ">=",
    "bitwise_and": "&",
    "bitwise_or": "|",
    "bitwise_xor": "^",
    "bitwise_left_shift": "<<",
    "bitwise_right_shift": ">>",
    "maximum": None,
    "minimum": None,
    "atan2": None,
}
_COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")
_WEIGHTS = {"add": 3, "sub": 2, "mul": 3, "div": 4, "floor_divide": 5, "remainder": 5, "pow": 4, "fmod": 4}
UNARY = ("neg", "abs", "sign", "bitwise_not", "floor", "ceil", "round", "trunc", "sqrt", "exp", "log", "sin")
UNARY += ("reciprocal", "sigmoid", "logical_not", "frac", "square")


def _operand(rng: random.Random, shp: tuple[int, ...], like: str) -> tuple[str, str, bool]:
    """The other operand: a Python number, a 0-dim tensor, or a broadcastable tensor. Returns (text,
    kind for the signature, is_number)."""
    r = rng.random()
    if r < 0.45:
        v = V.py_number(rng, V.kind(like))
        return V.fmt(v), type(v).__name__, True
    dt = like if rng.random() < 0.5 else V.dtype(rng)
    if r < 0.55:
        return f"torch.tensor({V.fmt(V.element(rng, dt, 0.25))}, dtype=torch.{dt})", f"0d-{dt}", False
    return T.tensor(rng, T.broadcastable(rng, shp), dt, special=0.2).expr, dt, False


def binary(rng: random.Random) -> Call:
    """A binary pointwise op in one of its forms (operator, reflected operator, torch.*, method, in
    place, out=)."""
    names = list(BINARY)
    op = rng.choices(names, [_WEIGHTS.get(n, 1.5) for n in names])[0]
    a = T.tensor(rng, special=0.2)
    b, bk, is_num = _operand(rng, a.shape, a.dtype)
    sym = BINARY[op]
    form = rng.choices(("operator", "reflected", "function", "method", "inplace", "out"), (5, 2, 4, 2, 3, 1))[0]
    if form == "reflected" and not (is_num and sym):
        form = "operator"
    if form == "operator" and not sym:
        form = "function"
    extra = ""
    if op == "div" and rng.random() < 0.6:
        extra = f", rounding_mode={rng.choice(('trunc', 'floor', None))!r}"
    elif op in ("add", "sub") and rng.random() < 0.2:
        extra = f", alpha={V.fmt(V.py_number(rng, a.kind))}"
    if extra and form in ("operator", "reflected"):
        form = "function"
    sig = f"{a.dtype},{bk}"
    if form == "operator":
        src = f"{a.expr} {sym} {b}"
    elif form == "reflected":
        src = f"{_left(b)} {sym} {a.expr}"
        sig = f"{bk},{a.dtype}"
    elif form == "function":
        src = f"torch.{op}({a.expr}, {b}{extra})"
    elif form == "method":
        src = f"{a.expr}.{op}({b}{extra})"
    elif form == "inplace":
        a = T.tensor(rng, a.shape, a.dtype, special=0.2, expand=False)
        if sym and sym not in _COMPARISONS and not extra and rng.random() < 0.5:
            src = f"x = {a.expr}; x {sym}= {b}; x"
        else:
            src = f"x = {a.expr}; x.{op}_({b}{extra}); x"
    else:
        odt = a.dtype if rng.random() < 0.5 else V.dtype(rng)
        out = (
            f"torch.empty(0, dtype=torch.{odt})"
            if rng.random() < 0.7
            else f"torch.zeros({V.fmt(a.shape)}, dtype=torch.{odt})"
        )
        src = f"torch.{op}({a.expr}, {b}{extra}, out={out})"
        sig += f"->{odt}"
    return Call(op, src, sig + (f",{form}" if form in ("inplace", "out") else ""))


def _left(text: str) -> str:
    return f"({text})" if text.startswith("-") else text


def clamp(rng: random.Random) -> Call:
    """clamp/clip (and clamp_) with number, 0-dim or broadcast tensor bounds, either one None."""
    a = T.tensor(rng, special=0.15)

    def bound() -> tuple[str, str]:
        r = rng.random()
        if r < 0.15:
            return "None", "None"
        if r < 0.7:
            v = V.py_number(rng, a.kind)
            return V.fmt(v), type(v).__name__
        dt = a.dtype if rng.random() < 0.6 else V.dtype(rng)
        return T.tensor(rng, T.broadcastable(rng, a.shape), dt).expr, dt

    (lo, lk), (hi, hk) = bound(), bound()
    if lk == "None" and hk == "None" and rng.random() < 0.8:
        lo, lk = "0", "int"
    args = []
    if lk != "None" or rng.random() < 0.3:
        args.append(f"min={lo}")
    if hk != "None" or rng.random() < 0.3:
        args.append(f"max={hi}")
    op = rng.choice(("clamp", "clamp", "clip", "clamp_"))
    if op == "clamp_":
        a = T.tensor(rng, a.shape, a.dtype, special=0.15, expand=False)
        src = f"x = {a.expr}; x.clamp_({', '.join(args)}); x"
    elif rng.random() < 0.6:
        src = f"torch.{op}({', '.join([a.expr] + args)})"
    else:
        src = f"{a.expr}.{op}({', '.join(args)})"
    return Call("clamp", src, f"{a.dtype},{lk},{hk}")


def unary(rng: random.Random) -> Call:
    """A unary op as torch.op(x), x.op(), an operator (-x, ~x, abs(x)) or in place."""
    op = rng.choice(UNARY)
    a = T.tensor(rng, special=0.25)
    r = rng.random()
    if op == "round" and rng.random() < 0.3:
        src = f"torch.round({a.expr}, decimals={rng.choice((-1, 0, 1, 2, 3))})"
    elif op in ("neg", "bitwise_not", "abs") and r < 0.3:
        src = {"neg": f"-{a.expr}", "bitwise_not": f"~{a.expr}", "abs": f"abs({a.expr})"}[op]
    elif r < 0.6:
        src = f"torch.{op}({a.expr})"
    elif r < 0.8:
        src = f"{a.expr}.{op}()"
    else:
        a = T.tensor(rng, a.shape, a.dtype, special=0.25, expand=False)
        src = f"x = {a.expr}; x.{op}_(); x"
    return Call(op, src, a.dtype)


FAMILY = [(30, binary), (5, clamp), (6, unary)]
