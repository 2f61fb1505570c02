"""Autograd timings: ours vs upstream PyTorch, measured side by side in one run, as ratios.

    python bench/autograd.py [--reference-python PATH] [--rounds N]

Targets (issue 4): `y = (x * x).sum(); y.backward()` on 8 elements <= 1.0x upstream; forward +
backward of a 3-layer MLP-shaped expression (matmul, add, relu/tanh, sum) at batch 64, width
256 <= 1.2x. Each library runs in its own subprocess (both are `torch`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ops import ROOT, fmt, print_table, time_libraries  # noqa: E402

MLP_SETUP = """
x = lib_rand(64, 256)
ws = [lib_rand(256, 256).sub(0.5).mul(0.1).requires_grad_() for _ in range(3)]
bs = [lib_rand(256).sub(0.5).mul(0.1).requires_grad_() for _ in range(3)]
def mlp():
    h = (x @ ws[0] + bs[0]).relu()
    h = (h @ ws[1] + bs[1]).tanh()
    y = (h @ ws[2] + bs[2]).sum()
    y.backward()
    for p in ws + bs:
        p.grad = None
"""

CASES = {
    "(x * x).sum().backward(), 8 elems": (
        "x = lib_rand(8).requires_grad_()",
        "y = (x * x).sum(); y.backward()",
    ),
    "forward only: (x * x).sum(), 8 elems": ("x = lib_rand(8).requires_grad_()", "(x * x).sum()"),
    "MLP 3x(matmul+add+act)+sum fwd+bwd, 64x256": (MLP_SETUP, "mlp()"),
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reference-python", default=str(ROOT / ".nox" / "tests-reference" / "bin" / "python"))
    ap.add_argument("--rounds", type=int, default=3, help="interleaved runs per library (best of)")
    args = ap.parse_args()
    ours, _, ref = time_libraries(args.reference_python, args.rounds, CASES, with_numpy=False)
    rows = []
    for name in CASES:
        up = [fmt(ref[name]), f"{ours[name] / ref[name]:.2f}x"] if ref else ["n/a", "n/a"]
        rows.append([name, fmt(ours[name]), *up])
    print_table(["case", "ours", "upstream", "ours / upstream"], rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
