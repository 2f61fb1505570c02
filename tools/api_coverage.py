"""How much of upstream PyTorch's public API this torch has (issue 19's measure), by module:

    python -m tools.api_coverage [--reference-python PATH] [--missing MODULE] [--keywords]

Each library is asked in its own interpreter (both are `torch`) for the public names of torch, torch.Tensor,
torch.nn.functional, torch.linalg, torch.fft and torch.special (a module this torch lacks counts as empty).
Out of scope, as the issue says: sparse, quantized, nested, named-tensor, backend-specific (mkldnn, mps, xpu,
vulkan, ...), JIT/compiler internals, functorch's first-class dims and deprecated names (OUT_OF_SCOPE below).
Prints, per module, the in-scope names upstream has, how many of them exist here, and the coverage; --missing
lists one module's gaps.

--modules compares the importable public submodules of torch (three levels down) instead: upstream's, less
OUT_OF_SCOPE_MODULES (the same exclusions, plus build/JIT/tooling internals), and which of them import here;
with --missing, the list of those that do not.

--keywords compares keyword arguments instead: per module, the callables both libraries have (with a readable
signature), how many of them here accept every keyword upstream accepts, and the coverage; with --missing, each
gap as `name: keyword, ...`. Upstream's builtins have no inspect.signature, so its keywords come from the .pyi
stubs it ships (torch/_C/_VariableFunctions.pyi, torch/_C/_nn.pyi, TensorBase in torch/_C/__init__.pyi) and from
its aten schemas (linalg_/fft_/special_ names); ours from nanobind's __nb_signature__; Python functions from
inspect.signature on both sides. Named-tensor (Dimname) overloads, positional-only
parameters, `self` and `names` are skipped; a callable taking **kwargs here accepts everything; keywords that
upstream's stubs list but its runtime refuses are in FALSE_POSITIVES.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULES = ("torch", "torch.Tensor", "torch.nn.functional", "torch.linalg", "torch.fft", "torch.special")

PROBE = r"""
import importlib, json, sys, types
import torch
out = {}
for name in json.loads(sys.argv[1]):
    if name == "torch.Tensor":
        obj = torch.Tensor
    else:
        try:
            obj = importlib.import_module(name)
        except ImportError:
            out[name] = []
            continue
    names = []
    for n in dir(obj):
        if n.startswith("_"):
            continue
        try:
            v = getattr(obj, n)
        except Exception:
            continue
        if name != "torch.Tensor" and isinstance(v, types.ModuleType):
            continue
        names.append(n)
    out[name] = sorted(names)
print(json.dumps(out))
"""

KEYWORD_PROBE = r'''
import ast, importlib, inspect, json, os, re, sys, warnings
warnings.filterwarnings("ignore")
import torch

STUBS = {}  # (stub kind, name) -> overloads, upstream only (argv[2] == "stubs")


def overload(names, varkw=False):
    """One overload: the names it takes as keywords (less self and names) and whether it takes **kwargs."""
    return {"names": [n for n in names if n not in ("self", "names")], "varkw": varkw}


def from_funcdef(fd):
    """A .pyi def's overload (positional-only parameters are not keywords); None for a Dimname overload."""
    a = fd.args
    if any("Dimname" in ast.unparse(x.annotation or ast.Constant(None)) for x in a.args + a.kwonlyargs):
        return None
    return overload([x.arg for x in a.args + a.kwonlyargs], a.kwarg is not None)


def load_stubs():
    """Fills STUBS from upstream's .pyi files and aten schemas (its builtins have no inspect.signature)."""
    root = os.path.dirname(torch.__file__)
    for path, kind, cls in [("_C/_VariableFunctions.pyi", "torch", None), ("_C/_nn.pyi", "_nn", None),
                            ("_C/__init__.pyi", "Tensor", "TensorBase")]:
        body = ast.parse(open(os.path.join(root, path)).read()).body
        if cls:
            body = next(n.body for n in body if isinstance(n, ast.ClassDef) and n.name == cls)
        for fd in body:
            if isinstance(fd, ast.FunctionDef) and (o := from_funcdef(fd)):
                STUBS.setdefault((kind, fd.name), []).append(o)
    for s in torch._C._jit_get_all_schemas():
        if not s.name.startswith("aten::") or "Dimname" in str(s):
            continue
        # kwarg-only arguments the op writes to (out, or L/info, eigvals/eigvecs, ...) are Python's out=
        written = [a.name for a in s.arguments if a.kwarg_only and a.alias_info and a.alias_info.is_write]
        names = [a.name for a in s.arguments if a.name not in written] + ["out"] * bool(written)
        STUBS.setdefault(("aten", s.name[6:]), []).append({"names": names, "varkw": False})


def split_params(text):
    """A parameter list's parameters, split at the commas outside brackets."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        depth += (ch in "([{") - (ch in ")]}")
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return parts + [cur.strip()] * bool(cur.strip())


def from_text(text):
    """The overload of a signature text `[def ]name(a: T = ..., /, b, *, c: T) -> R` (nanobind's)."""
    m = re.match(r"(?:def\s+)?[\w.]+\((.*)\)\s*(?:->.*)?$", text.strip(), re.S)
    if not m:
        return None
    parts = split_params(m.group(1))
    parts = parts[parts.index("/") + 1:] if "/" in parts else parts
    names = [p.split(":")[0].split("=")[0].strip() for p in parts if not p.startswith("*")]
    return overload(names, any(p.startswith("**") for p in parts))


def from_signature(obj):
    """A Python callable's overload, from inspect.signature; None for a builtin without one."""
    try:
        params = inspect.signature(obj).parameters.values()
    except (TypeError, ValueError):
        return None
    names = [p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    return overload(names, any(p.kind == p.VAR_KEYWORD for p in params))


def from_stubs(module, name, obj):
    """Upstream's overloads of module.name from STUBS: Tensor methods from TensorBase, else from the .pyi of
    the callable's binding module (torch._C._nn or torch), then the aten schema name or linalg_/fft_/special_name."""
    if module == "torch.Tensor":
        kinds = [("Tensor", name), ("aten", name)]
    else:
        prefix = (getattr(obj, "__module__", None) or "").rpartition("._")[2]
        kinds = [("_nn" if prefix == "nn" else "torch", name), ("aten", name), ("aten", f"{prefix}_{name}")]
    for kind in kinds:
        if kind in STUBS:  # an aten schema's self is torch.*'s input
            rename = {"self": "input"} if kind[0] == "aten" and module != "torch.Tensor" else {}
            return [overload([rename.get(n, n) for n in o["names"]], o["varkw"]) for o in STUBS[kind]]
    return None


def overloads_of(module, name, obj):
    """module.name's overloads: nanobind's signatures, inspect.signature, or (upstream) the stubs."""
    if (nb := getattr(obj, "__nb_signature__", None)) is not None:
        return [o for o in (from_text(t[0]) for t in nb) if o]
    sig = from_signature(obj)
    if STUBS and (sig is None or sig == overload([], True)):  # upstream's builtins and (*args, **kwargs) wrappers
        return from_stubs(module, getattr(obj, "__name__", name), obj) or sig and [sig]
    return [sig] if sig else None


if sys.argv[2] == "stubs":
    load_stubs()
out = {}
for module in json.loads(sys.argv[1]):
    try:
        obj = torch.Tensor if module == "torch.Tensor" else importlib.import_module(module)
    except ImportError:
        out[module] = {}
        continue
    sigs = {}
    for name in dir(obj):
        try:
            v = getattr(obj, name)
        except Exception:
            continue
        if name.startswith("_") or not callable(v) or isinstance(v, type):
            continue
        sigs[name] = overloads_of(module, name, v)
    out[module] = sigs
print(json.dumps(out))
'''

# sparse, quantized, nested, named tensors, other backends, JIT/compiler and packaging internals, deprecated
OUT_OF_SCOPE = re.compile(
    r"sparse|quantiz|qint|quint|q_|_q$|fake_quant|nested|named|refine_names|rename|align_to|align_as|"
    r"mkldnn|miopen|cudnn|mps|xpu|vulkan|hip|ipu|mtia|fbgemm|xnnpack|fpga|hpu|lazy|meta$|is_meta|"
    r"jit|compile|export|fx|onnx|dynamo|inductor|vmap|func|library|ops|overrides|package|classes|"
    r"Storage$|storage_type|typename|Generator|Stream|Event|Future|Callable|Type$|Any|Union|Optional|"
    r"TYPE_CHECKING|USE_|ATTR|__|chain_matmul|lstsq|symeig|eig$|solve$|matrix_rank$|norm_except_dim|"
    r"set_flush_denormal|autocast|amp|cpu_|is_inference|inference_mode|dispatch|dsmm|hsmm|hspmm|smm|spmm|"
    r"^sym_|^Sym|unsafe|_unsafe|segment_reduce|embedding_renorm|fused_|"
    r"affine_grid_generator|batch_norm_|cudnn|quantile_|^conv_tbc|^feature_|"
    r"^fbgemm|^native_|^is_vulkan|^is_mkldnn|^to_padded|^ccol|^crow|^col_indices|^row_indices|^indices$|"
    r"^values$|^coalesce|^is_coalesced|^dense_dim|^sparse_dim|^to_dense|^nnz|^resize_as_sparse|^sspaddmm|"
    r"^smm|^saddmm|^spadd|^grad_fn$|^is_leaf$|^output_nr$|^data$|^dim_order|"
    # TorchScript's and the C++ bindings' classes (the Tensor types stay), functionalization's *_copy ops,
    # exotic dtypes, TorchScript/compiler helpers
    r"^(?!Size$|Tensor$|\w+Tensor$)[A-Z]|_copy$|^float8|^float4|^u?int[1-7]$|^bits?$|^bits|complex32|chalf|"
    r"parse_|import_ir|merge_type|unify_type|^fork$|^wait$|while_loop|^cond$|thread_safe|classproperty|"
    r"prepare_multiprocessing|get_file_path|hash_tensor|nonzero_static|from_file|jagged|per_channel|per_tensor|"
    r"qscheme|choose_qparams|int_repr|^has_|init_num_threads|"
    # functorch.dim's first-class dimensions (Tensor.index binds positional dims to Dim objects)
    r"^index$|"
    # the docstring fragments that upstream's modules keep as attributes (strings, not API)
    r"common_args$|common_notes$|multi_dim_common$|_notes$"
)


# keywords upstream's stubs list but its runtime refuses (a TypeError there too), so no gap: {name: (keywords, why)}
FALSE_POSITIVES: dict[str, tuple[set[str], str]] = {
    **{
        f"torch.Tensor.{n}": ({"out"}, "TensorBase's .pyi gives the method the function's out=")
        for n in ("add", "sub", "mul", "floor_divide")
    },
    "torch.unique_consecutive": ({"out"}, "a Python wrapper without out=; the .pyi lists it"),
    "torch.range": ({"pin_memory"}, "the .pyi lists it, the deprecated binding has none"),
    "torch.linalg.matrix_exp": ({"out"}, "the aten schema has an out overload, the Python binding none"),
    **{
        f"torch.nn.functional.{n}": ({"out"}, "a boolean_dispatch wrapper without out=; the aten schema has it")
        for n in ("adaptive_max_pool2d", "adaptive_max_pool3d")
    },
    **{
        f"torch.nn.functional.{n}": ({"out", "random_samples"}, "a wrapper taking _random_samples, not the schema's")
        for n in ("fractional_max_pool2d", "fractional_max_pool3d")
    },
    "torch.Tensor.new_tensor": ({"pin_memory"}, "the .pyi lists it, the binding has none"),
    "torch.Tensor.requires_grad_": ({"mode"}, "the .pyi's name for requires_grad"),
    "torch.Tensor.uniform_": ({"from_"}, "the .pyi's spelling of `from`, the name the binding takes"),
    "torch.set_num_threads": ({"num"}, "the binding takes no keyword arguments"),
}

Overloads = list[dict]  # one {"names": [keyword, ...], "varkw": bool} per overload; None: no readable signature


MODULES_PROBE = r"""
import importlib, json, pkgutil, sys, warnings
warnings.filterwarnings("ignore")
import torch
names = []
def walk(pkg, depth):
    for m in pkgutil.iter_modules(pkg.__path__):
        if m.name.startswith("_"):
            continue
        name = pkg.__name__ + "." + m.name
        names.append(name)
        if m.ispkg and depth < 2:
            try:
                walk(importlib.import_module(name), depth + 1)
            except Exception:
                pass
if sys.argv[1] == "list":
    walk(torch, 0)
    print(json.dumps(names))
else:
    ok = []
    for name in json.loads(sys.argv[1]):
        try:
            importlib.import_module(name)
            ok.append(name)
        except Exception:
            pass
    print(json.dumps(ok))
"""

OUT_OF_SCOPE_MODULES = re.compile(
    r"sparse|quantiz|\.ao(\.|$)|nested|onnx|fx|export|jit\.|_inductor|dynamo|mps|xpu|mtia|distributed\.|package|"
    r"testing\._|contrib|cuda\.|backends\.(xeon|quantized|cusparselt|kleidiai|miopen|python_native|xnnpack|cudnn\.)|"
    r"utils\.(tensorboard|bottleneck|hipify|viz|jit|backcompat|model_dump|mobile|bundled|serialization|show_pickle|"
    r"collect_env|throughput|backend_registration|cpp_backtrace|debug_log|mkldnn|flop_counter)|utils\.data\.(datapipes|"
    r"graph|backward_compatibility)|accelerator|masked|monitor|profiler\.|csrc|include|lib$|share|bin$|headeronly|"
    r"compiler\.|func\.|futures|nn\.(qat|quantiz|intrinsic|backends|cpp)|nn\.attention\.|library|overrides|"
    r"signal\.windows\.|linalg\.|special\.|fft\.|distributions\.|optim\.|amp\.|cpu\.|multiprocessing\.|"
    r"utils\.benchmark\.|nativert|numa|nn\.parallel\.comm|nn\.modules\.(channelshuffle|linear_cross_entropy_options)"
)
"""Submodules that are compiler, JIT, build or tooling internals, device backends this build does not have, or
the out-of-scope families above; the rest of upstream's public submodules are expected to import here."""


def print_modules(reference_python: str, missing: bool) -> None:
    """The submodule coverage table (and, with missing, the upstream submodules that do not import here)."""
    ref = [
        m for m in run_probe(reference_python, Path("/"), MODULES_PROBE, "list") if not OUT_OF_SCOPE_MODULES.search(m)
    ]
    here = set(run_probe(sys.executable, ROOT, MODULES_PROBE, json.dumps(ref)))
    print("| submodules | upstream (in scope) | here | coverage |")
    print("|---|---:|---:|---:|")
    print(f"| torch.* | {len(ref)} | {len(here)} | {100 * len(here) / max(len(ref), 1):.0f}% |")
    if missing:
        gaps = [m for m in ref if m not in here]
        print(f"\nnot importable here ({len(gaps)}): {', '.join(gaps)}")


def run_probe(python: str, cwd: Path, script: str, *args: str) -> dict:
    """The JSON that `script` prints when `python` (a torch's interpreter) runs it with `args`."""
    env = dict(os.environ, PYTHONSAFEPATH="1")
    p = subprocess.run([python, "-c", script, *args], capture_output=True, text=True, cwd=cwd, env=env)
    if p.returncode != 0:
        raise SystemExit(f"api_coverage: {python} could not list its torch's API:\n{p.stderr[-2000:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def keyword_gaps(
    module: str, ref: dict[str, Overloads | None], ours: dict[str, Overloads | None]
) -> tuple[int, dict[str, list[str]]]:
    """(how many in-scope callables both sides can read, {name: keywords upstream accepts and ours refuses})."""
    compared, gaps = 0, {}
    for name, ref_sigs in sorted(ref.items()):
        our_sigs = ours.get(name)
        if OUT_OF_SCOPE.search(name) or not ref_sigs or not our_sigs:
            continue
        compared += 1
        if any(o["varkw"] for o in our_sigs):  # **kwargs: accepts everything
            continue
        accepted = {n for o in our_sigs for n in o["names"]} | FALSE_POSITIVES.get(f"{module}.{name}", (set(),))[0]
        # private parameters (F.softmax's _stacklevel) are no API
        missing = sorted(n for o in ref_sigs for n in o["names"] if n not in accepted and not n.startswith("_"))
        if missing:
            gaps[name] = list(dict.fromkeys(missing))
    return compared, gaps


def print_names(reference_python: str, missing: str | None) -> None:
    """The public-name coverage table (and one module's missing names)."""
    ours = run_probe(sys.executable, ROOT, PROBE, json.dumps(MODULES))
    ref = run_probe(reference_python, Path("/"), PROBE, json.dumps(MODULES))
    print("| module | upstream (in scope) | here | coverage |")
    print("|---|---:|---:|---:|")
    total_ref = total_here = 0
    for module in MODULES:
        want = [n for n in ref[module] if not OUT_OF_SCOPE.search(n)]
        have = set(ours[module])
        here = sum(n in have for n in want)
        total_ref, total_here = total_ref + len(want), total_here + here
        print(f"| {module} | {len(want)} | {here} | {100 * here / max(len(want), 1):.0f}% |")
    print(f"| all | {total_ref} | {total_here} | {100 * total_here / max(total_ref, 1):.0f}% |")
    if missing:
        have = set(ours[missing])
        gaps = [n for n in ref[missing] if not OUT_OF_SCOPE.search(n) and n not in have]
        print(f"\nmissing from {missing} ({len(gaps)}): {', '.join(gaps)}")


def print_keywords(reference_python: str, missing: str | None) -> None:
    """The keyword coverage table (and one module's callables with missing keywords)."""
    ours = run_probe(sys.executable, ROOT, KEYWORD_PROBE, json.dumps(MODULES), "")
    ref = run_probe(reference_python, Path("/"), KEYWORD_PROBE, json.dumps(MODULES), "stubs")
    print("| module | callables in both | all upstream keywords here | coverage |")
    print("|---|---:|---:|---:|")
    total_both = total_full = 0
    for module in MODULES:
        both, gaps = keyword_gaps(module, ref[module], ours[module])
        total_both, total_full = total_both + both, total_full + both - len(gaps)
        print(f"| {module} | {both} | {both - len(gaps)} | {100 * (both - len(gaps)) / max(both, 1):.0f}% |")
    print(f"| all | {total_both} | {total_full} | {100 * total_full / max(total_both, 1):.0f}% |")
    if missing:
        gaps = keyword_gaps(missing, ref[missing], ours[missing])[1]
        print(f"\nmissing keywords in {missing} ({len(gaps)}):")
        for name, keywords in gaps.items():
            print(f"{name}: {', '.join(keywords)}")


def main() -> int:
    """Prints the coverage table (and, with --missing, one module's gaps): public names, or with --keywords
    keyword arguments."""
    ap = argparse.ArgumentParser(prog="python -m tools.api_coverage", description=main.__doc__)
    ap.add_argument("--reference-python", default=str(ROOT / ".nox" / "tests-reference" / "bin" / "python"))
    ap.add_argument("--missing", choices=MODULES, help="list this module's in-scope gaps")
    ap.add_argument("--keywords", action="store_true", help="compare the keyword arguments callables accept")
    ap.add_argument("--modules", action="store_true", help="compare the importable public submodules")
    args = ap.parse_args()
    if not Path(args.reference_python).exists():
        raise SystemExit(
            f"api_coverage: no upstream PyTorch at {args.reference_python} (run `nox -s tests-reference` once, "
            "or pass --reference-python)"
        )
    if args.modules:
        print_modules(args.reference_python, bool(args.missing))
        return 0
    (print_keywords if args.keywords else print_names)(args.reference_python, args.missing)
    return 0


if __name__ == "__main__":
    sys.exit(main())
