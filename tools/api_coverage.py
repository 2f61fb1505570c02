"""How much of upstream PyTorch's public API this torch has (issue 19's measure), by module:

    python -m tools.api_coverage [--reference-python PATH] [--missing MODULE]

Each library is asked in its own interpreter (both are `torch`) for the public names of torch, torch.Tensor,
torch.nn.functional, torch.linalg, torch.fft and torch.special (a module this torch lacks counts as empty).
Out of scope, as the issue says: sparse, quantized, nested, named-tensor, backend-specific (mkldnn, mps, xpu,
vulkan, ...), JIT/compiler internals, functorch's first-class dims and deprecated names (OUT_OF_SCOPE below).
Prints, per module, the in-scope names upstream has, how many of them exist here, and the coverage; --missing
lists one module's gaps.
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
    r"^smm|^saddmm|^spadd|^grad_fn$|^is_leaf$|^output_nr$|^data$|^dim_order|^untyped|^storage|"
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


def names_of(python: str, cwd: Path) -> dict[str, list[str]]:
    """{module: its public names} as `python` (a torch's interpreter) sees them."""
    env = dict(os.environ, PYTHONSAFEPATH="1")
    p = subprocess.run([python, "-c", PROBE, json.dumps(MODULES)], capture_output=True, text=True, cwd=cwd, env=env)
    if p.returncode != 0:
        raise SystemExit(f"api_coverage: {python} could not list its torch's API:\n{p.stderr[-2000:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def main() -> int:
    """Prints the coverage table (and, with --missing, one module's missing names)."""
    ap = argparse.ArgumentParser(prog="python -m tools.api_coverage", description=main.__doc__)
    ap.add_argument("--reference-python", default=str(ROOT / ".nox" / "tests-reference" / "bin" / "python"))
    ap.add_argument("--missing", choices=MODULES, help="list this module's in-scope names that are missing here")
    args = ap.parse_args()
    if not Path(args.reference_python).exists():
        raise SystemExit(
            f"api_coverage: no upstream PyTorch at {args.reference_python} (run `nox -s tests-reference` once, "
            "or pass --reference-python)"
        )
    ours = names_of(sys.executable, ROOT)
    ref = names_of(args.reference_python, Path("/"))
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
    if args.missing:
        have = set(ours[args.missing])
        gaps = [n for n in ref[args.missing] if not OUT_OF_SCOPE.search(n) and n not in have]
        print(f"\nmissing from {args.missing} ({len(gaps)}): {', '.join(gaps)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
