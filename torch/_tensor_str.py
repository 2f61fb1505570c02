"""Printing tensors as PyTorch does: `tensor([1.5000, 2.0000])`, `tensor([1., 2.])`,
scientific notation for wide ranges, `...` summaries past 1000 elements."""

from __future__ import annotations

import math

import numpy as np

import torch
from torch._registry import register
from torch._tensor import host_values

# the print options (set_printoptions): PyTorch's defaults, and its profiles
_PROFILES = {
    "default": {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80},
    "short": {"precision": 2, "threshold": 1000, "edgeitems": 2, "linewidth": 80},
    "full": {"precision": 4, "threshold": math.inf, "edgeitems": 3, "linewidth": 80},
}
OPTIONS = {**_PROFILES["default"], "sci_mode": None}


@register
def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None):
    """How tensors print: digits after the point (precision), the element count past which they are summarized
    (threshold) with edgeitems at each end, the line width, a profile ('default', 'short', 'full') to start
    from, and sci_mode (True/False forces scientific notation on or off, None chooses)."""
    if profile is not None:
        OPTIONS.update(_PROFILES[profile])
    for key, value in (("precision", precision), ("threshold", threshold), ("edgeitems", edgeitems),
                       ("linewidth", linewidth)):  # fmt: skip
        if value is not None:
            OPTIONS[key] = value
    OPTIONS["sci_mode"] = sci_mode


def get_printoptions() -> dict:
    """The print options in force (torch._tensor_str.get_printoptions)."""
    return dict(OPTIONS)


class _Formatter:
    """Chooses one format for every element of an array (PyTorch's _Formatter)."""

    def __init__(self, values: np.ndarray):
        self.floating = values.dtype.kind == "f"
        self.int_mode, self.sci_mode, self.width = True, False, 1
        if not self.floating:
            self.width = max((len(str(v)) for v in values.tolist()), default=1)
            return
        finite = values[np.isfinite(values)]
        nonzero = finite[finite != 0]
        if nonzero.size == 0:  # zeros, nan and inf only: printed as they are, no padding (as PyTorch)
            return
        self.int_mode = bool(np.all(nonzero == np.ceil(nonzero)))
        hi, lo = float(np.abs(nonzero).max()), float(np.abs(nonzero).min())
        self.sci_mode = hi / lo > 1000.0 or hi > 1e8 or (not self.int_mode and lo < 1e-4)
        if OPTIONS["sci_mode"] is not None:
            self.sci_mode = OPTIONS["sci_mode"]
        # columns are as wide as the widest nonzero finite value (zeros, nan and inf may stick out,
        # as in PyTorch)
        self.width = max(len(self._fmt(v)) for v in nonzero.tolist())

    def _fmt(self, v) -> str:
        if not self.floating:
            return str(v)
        if not math.isfinite(v):
            return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
        if self.sci_mode:
            return f"{v:.{OPTIONS['precision']}e}"
        if self.int_mode:
            return f"{v:.0f}."
        return f"{v:.{OPTIONS['precision']}f}"

    def format(self, v) -> str:
        return self._fmt(v).rjust(self.width)


class _ComplexFormatter:
    """Complex elements: the real and the imaginary parts each get their own _Formatter (PyTorch's
    formatter pair), printed as 1.5000+2.0000j."""

    def __init__(self, values: np.ndarray):
        self.real, self.imag = _Formatter(values.real), _Formatter(values.imag)
        self.width = self.real.width + self.imag.width + 1  # the "j"

    def format(self, v) -> str:
        imag = (self.imag.format(v.imag) + "j").lstrip()
        return self.real.format(v.real) + (imag if imag[0] in "+-" else "+" + imag)


def _body(arr: np.ndarray, fmt: _Formatter, indent: int, summarize: bool) -> str:
    if arr.ndim == 0:
        return fmt.format(arr.item())
    n, edge = arr.shape[0], OPTIONS["edgeitems"]
    cut = summarize and n > 2 * edge
    idx = list(range(edge)) + [None] + list(range(n - edge, n)) if cut else list(range(n))
    if arr.ndim == 1:
        items = [" ..." if i is None else fmt.format(arr[i].item()) for i in idx]
        per_line = max(1, (OPTIONS["linewidth"] - indent) // (fmt.width + 2))
        lines = [", ".join(items[k : k + per_line]) for k in range(0, len(items), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    rows = ["..." if i is None else _body(arr[i], fmt, indent + 1, summarize) for i in idx]
    sep = "," + "\n" * (arr.ndim - 1) + " " * (indent + 1)
    return "[" + sep.join(rows) + "]"


@register(name="__repr__", function=False, method=True)
def tensor_repr(t: torch.Tensor) -> str:
    """`repr(t)` as PyTorch prints it (values, then the dtype/device PyTorch shows)."""
    arr = host_values(t)
    summarize, edge = arr.size > OPTIONS["threshold"], OPTIONS["edgeitems"]
    shown = arr
    if summarize:  # format only the edge items that are printed
        for d in range(arr.ndim):
            if arr.shape[d] > 2 * edge:
                keep = np.r_[0:edge, arr.shape[d] - edge : arr.shape[d]]
                shown = np.take(shown, keep, axis=d)
    formatter = _ComplexFormatter if arr.dtype.kind == "c" else _Formatter
    fmt = formatter(shown.reshape(-1)) if arr.size else None
    prefix = "tensor("
    body = "[]" if arr.size == 0 else _body(arr, fmt, len(prefix), summarize)
    suffix = []
    if t.device.type != "cpu":
        suffix.append(f"device='{t.device}'")
    if arr.size == 0 and arr.ndim != 1:
        suffix.append(f"size={tuple(arr.shape)}")
    default = (torch.get_default_dtype(), torch.get_default_dtype().to_complex(), torch.int64, torch.bool)
    if t.dtype not in default or (arr.size == 0 and t.dtype != torch.get_default_dtype()):
        suffix.append(f"dtype={t.dtype}")
    grad_fn = t.grad_fn
    if grad_fn is not None:
        suffix.append(f"grad_fn=<{type(grad_fn).__name__}>")
    elif t.requires_grad:
        suffix.append("requires_grad=True")
    return _add_suffixes(prefix + body, suffix, len(prefix))


def _add_suffixes(text: str, suffixes: list, indent: int) -> str:
    """`text`, its suffixes (dtype=..., grad_fn=...) and the closing parenthesis: a suffix that would take the
    last line past the line width starts a new line, indented (upstream's _add_suffixes)."""
    parts = [text]
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > OPTIONS["linewidth"]:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)
