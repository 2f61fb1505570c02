"""Op timings: ours vs NumPy vs upstream PyTorch, measured in one run and printed as ratios.

    python bench/ops.py [--reference-python PATH] [--rounds N] [--only fft,linalg]

Each library is timed in a subprocess of its own (our torch and upstream's are both `torch`
and must never share an interpreter): ours from this checkout's build, upstream from the venv
of `nox -s tests-reference` (or --reference-python). Targets (issue 3): large elementwise
<= 1.0x upstream, sum/max <= 1.5x, matmul <= 1.25x, per-op overhead <= 1.0x (the float16 rows
have no target: they show what the 16-bit kernels cost); linalg.solve/cholesky/svd of 512x512 and fft of
2^20 complex <= 1.5x (issue 19).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_SPD = "a = lib_rand(512, 512); s = a @ a.T + 512 * lib.eye(512, dtype=a.dtype)"  # symmetric positive-definite

# name -> (setup, statement); `lib` is torch or numpy, the same code runs on each
CASES = {
    "add 10M f32": ("a = lib_rand(10_000_000); b = lib_rand(10_000_000)", "a + b"),
    "mul 10M f32": ("a = lib_rand(10_000_000); b = lib_rand(10_000_000)", "a * b"),
    "exp 10M f32": ("a = lib_rand(10_000_000)", "lib.exp(a)"),
    "add 10M f32, transposed": ("a = lib_rand(2500, 4000).T; b = lib_rand(2500, 4000).T", "a + b"),
    "sum 10M f32": ("a = lib_rand(10_000_000)", "a.sum()"),
    "max 10M f32": ("a = lib_rand(10_000_000)", "a.max()"),
    "add 10M f16": ("a = lib_half(lib_rand(10_000_000)); b = lib_half(lib_rand(10_000_000))", "a + b"),
    "sum 10M f16": ("a = lib_half(lib_rand(10_000_000))", "a.sum()"),
    "matmul 1024x1024 f32": ("a = lib_rand(1024, 1024); b = lib_rand(1024, 1024)", "a @ b"),
    "linalg.solve 512x512 f32": (_SPD + "; b = lib_rand(512, 64)", "lib.linalg.solve(s, b)"),
    "linalg.cholesky 512x512 f32": (_SPD, "lib.linalg.cholesky(s)"),
    "linalg.svd 512x512 f32": ("a = lib_rand(512, 512)", "lib.linalg.svd(a)"),
    "fft 2^20 c64": ("a = lib_cplx(1 << 20)", "lib.fft.fft(a)"),
    "rfft 2^20 f32": ("a = lib_rand(1 << 20)", "lib.fft.rfft(a)"),
    "fft2 1024x1024 c64": ("a = lib_cplx(1024, 1024)", "lib.fft.fft2(a)"),
    "mul 1M c64": ("a = lib_cplx(1 << 20); b = lib_cplx(1 << 20)", "a * b"),
    "overhead: a + b (8 elems)": ("a = lib_rand(8); b = lib_rand(8)", "a + b"),
    "overhead: a.sum() (8 elems)": ("a = lib_rand(8)", "a.sum()"),
    "overhead: a[1:3] (8 elems)": ("a = lib_rand(8)", "a[1:3]"),
}

WORKER = r"""
import json, sys, timeit
import numpy as np
which = sys.argv[1]
if which == "numpy":
    lib = np
    lib_rand = lambda *s: np.random.default_rng(0).random(s, dtype=np.float32)
    lib_half = lambda a: a.astype(np.float16)
    lib_cplx = lambda *s: (lib_rand(*s) + 1j * lib_rand(*s)).astype(np.complex64)
else:
    import torch as lib
    torch = lib
    lib_rand = lambda *s: torch.from_numpy(np.random.default_rng(0).random(s, dtype=np.float32))
    lib_half = lambda a: a.half()
    def lib_cplx(*s):
        r = np.random.default_rng(0)
        return torch.from_numpy((r.random(s) + 1j * r.random(s)).astype(np.complex64))
cases = json.loads(sys.argv[2])
out = {}
for name, (setup, stmt) in cases.items():
    g = {"lib": lib, "lib_rand": lib_rand, "lib_half": lib_half, "lib_cplx": lib_cplx, "np": np}
    exec(setup, g)
    t = timeit.Timer(stmt, globals=g)
    n, _ = t.autorange()
    out[name] = min(t.repeat(repeat=5, number=n)) / n
print(json.dumps(out))
"""


def run(python: str, which: str, env: dict, cases: dict | None = None) -> dict:
    """Times `cases` (default: CASES) with `python` in a fresh process; {name: seconds}."""
    return _run_once(python, which, env, cases)


def run_interleaved(workers: dict, rounds: int, cases: dict | None = None) -> dict:
    """{label: {case: seconds}}: every worker (label -> (python, which, env)) runs `rounds` times,
    alternating with the others, and keeps each case's best time, so that a noisy spell on this
    machine hits all libraries alike instead of one."""
    best: dict = {label: {} for label in workers}
    for _ in range(rounds):
        for label, (python, which, env) in workers.items():
            for case, t in _run_once(python, which, env, cases).items():
                best[label][case] = min(t, best[label].get(case, t))
    return best


def time_libraries(reference_python: str, rounds: int, cases: dict, with_numpy: bool) -> tuple:
    """(ours, numpy or None, upstream or None): {case: seconds} per library, measured interleaved."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONSAFEPATH="1", OMP_NUM_THREADS=str(os.cpu_count()))
    workers = {"ours": (sys.executable, "ours", env)}
    if with_numpy:
        workers["numpy"] = (sys.executable, "numpy", env)
    if Path(reference_python).exists():
        workers["upstream"] = (reference_python, "upstream", {**env, "PYTHONPATH": ""})
    else:
        print(f"(no upstream PyTorch at {reference_python}: run `nox -s tests-reference` once)")
    times = run_interleaved(workers, rounds, cases)
    return times["ours"], times.get("numpy"), times.get("upstream")


def print_table(headers: list[str], rows: list[list[str]]) -> None:
    """A Markdown table: the first column left-aligned, the numbers right-aligned."""
    print("\n| " + " | ".join(headers) + " |")
    print("|---|" + "---:|" * (len(headers) - 1))
    for row in rows:
        print("| " + " | ".join(row) + " |")


def fmt(seconds: float) -> str:
    """A duration as the tables print it."""
    return f"{seconds * 1e6:,.1f} us" if seconds < 1e-3 else f"{seconds * 1e3:,.2f} ms"


def _run_once(python: str, which: str, env: dict, cases: dict | None) -> dict:
    p = subprocess.run(
        [python, "-c", WORKER, which, json.dumps(cases or CASES)], capture_output=True, text=True, env=env, cwd="/"
    )
    if p.returncode != 0:
        raise SystemExit(f"bench/ops.py: {which} worker failed:\n{p.stderr[-2000:]}")
    return json.loads(p.stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reference-python", default=str(ROOT / ".nox" / "tests-reference" / "bin" / "python"))
    ap.add_argument("--rounds", type=int, default=3, help="interleaved runs per library (best of)")
    ap.add_argument("--only", default="", help="time only the rows whose names contain one of these (comma-separated)")
    args = ap.parse_args()
    wanted = [w for w in args.only.split(",") if w]
    cases = {k: v for k, v in CASES.items() if not wanted or any(w in k for w in wanted)}
    ours, numpy, ref = time_libraries(args.reference_python, args.rounds, cases, with_numpy=True)
    rows = []
    for name in cases:
        up = [fmt(ref[name]), f"{ours[name] / ref[name]:.2f}x"] if ref else ["n/a", "n/a"]
        rows.append([name, fmt(ours[name]), fmt(numpy[name]), *up, f"{ours[name] / numpy[name]:.2f}x"])
    print_table(["op", "ours", "NumPy", "upstream", "ours / upstream", "ours / NumPy"], rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
