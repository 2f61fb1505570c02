"""Calls from upstream's own test inputs: `REFERENCE_PYTHON opinfo_calls.py OUT.jsonl [DTYPES|GRAD] [MAX_ELEMENTS]`.

Standalone (it runs under upstream PyTorch's Python, which needs `expecttest` for its testing package):
for every entry of upstream's OpInfo database (`torch.testing._internal.common_methods_invocations.op_db`,
the inputs upstream tests each op with) that runs on the CPU, and each of DTYPES (comma-separated names,
default float32,float64,int64,bool,complex64,float16) the entry supports, it turns every sample input into
a call written as Python source: the tensors as literals (exact values, their strides and storage offset
kept), the arguments and keywords as written. One JSON line per call: {op, sig, src, values}, where values
is false when two runs of the call under different seeds differ (random ops: shapes and dtypes compared
only). `python -m tools.fuzz --opinfo` writes this file and runs its calls against both libraries.

A dtype written `as-X` (e.g. `as-int64`) takes, for every entry that does NOT claim X, its float32 samples with
their float32 tensors cast to X: how both libraries treat the dtypes upstream's OpInfo leaves out (a result,
or the same error), which the claimed dtypes alone never reach.

With a GRAD mode instead of DTYPES: the samples of every entry that supports autograd, their tensors that
require grad written as leaves, each call followed by `torch.autograd.grad` of a fixed weighting of its
differentiable outputs (grad_source), the gradients compared. `grad`: float64 samples (the op @grad);
`grad-complex128`: complex128 samples of the entries that claim complex128 gradients (@grad, PyTorch's conjugate
Wirtinger convention compared); `gradgrad`: float64 samples of the entries that claim second derivatives,
the first gradients taken with create_graph and differentiated again through a second weighting (@gradgrad);
`gradgrad-complex128`: the same for the complex128 samples.

Samples whose tensors hold more than MAX_ELEMENTS (default 4096) elements, or whose arguments are not
plain data (a callable, a generator, a NumPy array), are left out and counted.
"""

from __future__ import annotations

import ast
import json
import math
import sys
import warnings
from collections import Counter

DEFAULT_DTYPES = "float32,float64,int64,bool,complex64,float16"
# ops whose result is uninitialized memory: two runs may agree by chance, so their values are never compared
UNINITIALIZED = {"empty", "empty_like", "empty_strided", "empty_permuted", "new_empty", "new_empty_strided"}


class Unwritable(Exception):
    """An argument with no source form (a callable, a generator, ...)."""


def _float(x: float) -> str:
    if math.isnan(x):
        return "float('nan')"
    if math.isinf(x):
        return "float('inf')" if x > 0 else "-float('inf')"
    return repr(x)


def _number(x, torch) -> str:
    if isinstance(x, bool):
        return repr(x)
    if isinstance(x, int):
        return repr(x)
    if isinstance(x, float):
        return _float(x)
    if isinstance(x, complex):
        return f"complex({_float(x.real)}, {_float(x.imag)})"
    raise Unwritable(type(x).__name__)


class Writer:
    """Source text for sample arguments; counts the tensor elements written. With grad, a tensor that requires
    grad is written as a named leaf, `(l0 := torch.tensor([...]).requires_grad_())`, its view applied after, and
    its name kept in leaves."""

    def __init__(self, torch, max_elements: int, grad: bool = False, cast=None):
        self.torch = torch
        self.cast = cast  # float32 tensors are written as this dtype (the as-X samples)
        self.max_elements = max_elements
        self.elements = 0
        self.grad = grad
        self.leaves: list[str] = []
        self.names = {
            **{v: f"torch.{k}" for k, v in vars(torch).items() if isinstance(v, torch.dtype)},
            **{v: f"torch.{k}" for k, v in vars(torch).items() if isinstance(v, (torch.memory_format, torch.layout))},
        }

    def tensor(self, t) -> str:
        torch = self.torch
        leaf = self.grad and t.requires_grad
        t = t.detach()
        if self.cast is not None and t.dtype == torch.float32:
            t = t.to(self.cast)
        if t.device.type != "cpu" or t.layout != torch.strided or t.is_conj() or t.is_neg():
            raise Unwritable("tensor kind")
        dtype = self.names[t.dtype]
        shape = list(t.shape)
        if t.numel() == 0:
            return self._leaf(f"torch.empty({shape}, dtype={dtype})", leaf)
        if t.is_contiguous():
            flat, view = t.reshape(-1), f".reshape({shape})"
        else:  # the storage span the view reads, written as it is, and the view over it
            span = 1 + sum((n - 1) * s for n, s in zip(t.shape, t.stride()))
            flat = t.as_strided((span,), (1,), t.storage_offset())
            view = f".as_strided({shape}, {list(t.stride())})"
        self.elements += flat.numel()
        if self.elements > self.max_elements:
            raise Unwritable("too large")
        if t.dtype == torch.bfloat16:
            flat = flat.float()
        if t.dim() == 0:
            return self._leaf(f"torch.tensor({_number(flat.item(), torch)}, dtype={dtype})", leaf)
        values = ", ".join(_number(v, torch) for v in flat.tolist())
        return self._leaf(f"torch.tensor([{values}], dtype={dtype})", leaf) + view

    def _leaf(self, src: str, leaf: bool) -> str:
        """src itself, or (with grad, for a tensor that requires it) src as a new named leaf."""
        if not leaf:
            return src
        name = f"l{len(self.leaves)}"
        self.leaves.append(name)
        return f"({name} := {src}.requires_grad_())"

    def arg(self, x) -> str:
        torch = self.torch
        if isinstance(x, torch.Tensor):
            return self.tensor(x)
        if x is None or isinstance(x, str):
            return repr(x)
        if isinstance(x, (bool, int, float, complex)):
            return _number(x, torch)
        if isinstance(x, torch.Size):
            return f"torch.Size({list(x)})"
        if isinstance(x, (list, tuple)):
            inner = ", ".join(self.arg(v) for v in x)
            return f"[{inner}]" if isinstance(x, list) else f"({inner}{',' if len(x) == 1 else ''})"
        if isinstance(x, slice):
            return f"slice({self.arg(x.start)}, {self.arg(x.stop)}, {self.arg(x.step)})"
        if x is Ellipsis:
            return "..."
        if isinstance(x, torch.device):
            return f"torch.device({str(x)!r})"
        if x in self.names:
            return self.names[x]
        raise Unwritable(type(x).__name__)


def callables(torch) -> dict[int, str]:
    """id of every public callable -> its source name (torch.X, torch.nn.functional.X, torch.Tensor.X, ...)."""
    import torch.nn.functional as F

    names: dict[int, str] = {}
    modules = [("torch.Tensor", torch.Tensor), ("torch.nn.functional", F)]
    modules += [(f"torch.{m}", getattr(torch, m)) for m in ("linalg", "fft", "special")]
    modules.append(("torch", torch))  # last: a name under torch wins over an alias elsewhere
    for prefix, mod in modules:
        for k in dir(mod):
            if k.startswith("_") and not (k.startswith("__") and prefix == "torch.Tensor"):
                continue
            try:
                v = getattr(mod, k)
            except Exception:
                continue
            if callable(v):
                names[id(v)] = f"{prefix}.{k}"
    return names


def source(op, sample, writer: Writer, names: dict[int, str]) -> str:
    """One sample as a call of op's function (or, without one, its method)."""
    fn = names.get(id(op.op))
    if fn is None and op.method_variant is not None:
        fn = names.get(id(op.method_variant))
    if fn is None:
        raise Unwritable("no public callable")
    args = [writer.arg(sample.input), *(writer.arg(a) for a in sample.args)]
    args += [f"{k}={writer.arg(v)}" for k, v in sample.kwargs.items()]
    return f"{fn}({', '.join(args)})"


# entries whose outputs are unique only in part: the ones the loss of grad_source weighs (singular and
# eigenvectors are unique up to sign or phase, so a loss on them has no one gradient)
GRAD_OUTPUTS = {"svd": (1,), "linalg.svd": (1,), "linalg.eigh": (0,), "linalg.eig": (0,)}


# the real views of the differentiable tensors in the list `outs`, and a fixed weighting of them (a real number)
_REALS = (
    "[torch.view_as_real(o.resolve_conj()) if o.is_complex() else o for o in {outs} "
    "if isinstance(o, torch.Tensor) and o.requires_grad]"
)
_WEIGHED = "sum((r * torch.linspace({lo}, {hi}, r.numel(), dtype=r.dtype).reshape(r.shape)).sum() for r in {rs})"
# the modes of gradient calls: mode -> (the dtype sampled, the OpInfo flag an entry must claim, the order)
GRAD_MODES = {"grad": ("float64", "supports_autograd", 1), "grad-complex128": ("complex128", "supports_autograd", 1)}
GRAD_MODES["gradgrad"] = ("float64", "supports_gradgrad", 2)
GRAD_MODES["gradgrad-complex128"] = ("complex128", "supports_gradgrad", 2)


def grad_source(call: str, leaves: list[str], outputs: tuple[int, ...] | None = None, order: int = 1) -> str:
    """Statements whose value is the gradient of a fixed weighting of call's differentiable outputs (those
    at `outputs`, default all: sum(r * linspace(-1, 2)) over each, complex ones through view_as_real) with
    respect to its leaves. With order 2, those gradients are taken with create_graph and the value is the
    gradient of a second weighting of them (linspace(0.5, -1.5)), again with respect to the leaves."""
    outs = "(out if isinstance(out, (tuple, list)) else [out])"
    if outputs is not None:
        outs = f"[{outs}[i] for i in {outputs}]"
    names = ", ".join(leaves)
    first = f"out = {call}; rs = {_REALS.format(outs=outs)}; loss = {_WEIGHED.format(lo=-1.0, hi=2.0, rs='rs')}; "
    if order == 1:
        return first + f"torch.autograd.grad(loss, [{names}], allow_unused=True)"
    return first + (
        f"gs = torch.autograd.grad(loss, [{names}], allow_unused=True, create_graph=True); "
        f"gr = {_REALS.format(outs='gs')}; loss2 = {_WEIGHED.format(lo=0.5, hi=-1.5, rs='gr')}; "
        f"torch.autograd.grad(loss2, [{names}], allow_unused=True) if gr else None"
    )


def _same(a, b, torch) -> bool:
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        if a.shape != b.shape or torch.equal(a, b):
            return a.shape == b.shape
        return bool(torch.equal(a.isnan(), b.isnan()) and torch.equal(a.nan_to_num(), b.nan_to_num()))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y, torch) for x, y in zip(a, b))
    return True


def run(src: str, torch):
    """The value of src's last statement, as the fuzz's worker runs a call."""
    *stmts, last = ast.parse(src).body
    ns = {"torch": torch}
    exec(compile(ast.Module(stmts, []), "<call>", "exec"), ns)
    return eval(compile(ast.Expression(last.value), "<call>", "eval"), ns)


def deterministic(src: str, torch) -> bool:
    """Whether two runs of src under different seeds give the same values (an error counts as the same)."""
    out = []
    for seed in (0, 1):
        torch.manual_seed(seed)
        try:
            out.append(run(src, torch))
        except Exception:
            return True
    try:
        return _same(out[0], out[1], torch)
    except Exception:
        return False


def main(argv: list[str]) -> int:
    """Writes the calls; prints what was written and left out."""
    from torch.testing._internal.common_methods_invocations import op_db

    import torch

    out = argv[1]
    mode = argv[2] if len(argv) > 2 else DEFAULT_DTYPES
    grad = mode in GRAD_MODES  # samples that require grad, and their gradients
    dtype_names = [GRAD_MODES[mode][0]] if grad else mode.split(",")
    flag, order = GRAD_MODES[mode][1:] if grad else (None, 0)
    # (the dtype sampled, the dtype its float32 tensors are cast to or None)
    dtypes = [
        (torch.float32, getattr(torch, d.removeprefix("as-"))) if d.startswith("as-") else (getattr(torch, d), None)
        for d in dtype_names
    ]
    max_elements = int(argv[3]) if len(argv) > 3 else 4096
    names = callables(torch)
    written, skipped = 0, Counter()
    warnings.simplefilter("ignore")
    torch.set_num_threads(1)
    with open(out, "w") as f:
        for op in op_db:
            supported = op.supported_dtypes("cpu")
            label = op.name + (f".{op.variant_test_name}" if op.variant_test_name else "")
            if grad and not getattr(op, flag):
                continue
            if grad:  # the dtypes whose gradients upstream's own tests check
                supported = op.supported_backward_dtypes("cpu")
            for dtype, cast in dtypes:
                if dtype not in supported or (cast is not None and cast in supported):
                    continue
                torch.manual_seed(0)
                try:
                    samples = list(op.sample_inputs("cpu", dtype, requires_grad=grad))
                except Exception as e:
                    skipped[f"sample_inputs raised {type(e).__name__}"] += 1
                    continue
                for sample in samples:
                    writer = Writer(torch, max_elements, grad, cast)
                    try:
                        src = source(op, sample, writer, names)
                    except Unwritable as e:
                        skipped[str(e)] += 1
                        continue
                    if grad:
                        if not writer.leaves:
                            skipped["no leaf"] += 1
                            continue
                        src = grad_source(src, writer.leaves, GRAD_OUTPUTS.get(op.name), order)
                    values = op.name not in UNINITIALIZED and deterministic(src, torch)
                    sig = str(cast or dtype).removeprefix("torch.") + ("(cast)" if cast is not None else "")
                    call = {"op": label + ("", "@grad", "@gradgrad")[order], "sig": sig, "src": src, "values": values}
                    f.write(json.dumps(call) + "\n")
                    written += 1
    left = ", ".join(f"{k} {v}" for k, v in skipped.most_common())
    print(f"opinfo: {written} calls from {len(op_db)} OpInfo entries to {out}; left out: {left or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
