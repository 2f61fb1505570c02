"""CUDA op timings: ours vs upstream PyTorch on the same GPU, measured in one run, printed as ratios.

    python bench/cuda.py [--ours-path DIR] [--reference-python PATH] [--rounds N]

Each library runs in a subprocess of its own (both are `torch`; they never share an interpreter):
ours from --ours-path (default: this checkout's develop build), upstream with --reference-python
(an interpreter whose `torch` is a CUDA build of upstream PyTorch). Every timed statement ends
with `torch.cuda.synchronize()`, so a row is the time to the result; the overhead rows launch 100
ops and synchronize once (the launch cost the host pays). No target is set for the GPU: the table
shows where THC's kernels stand against upstream's (cuBLAS, CUB, ...). Exits 0 with a message
where no GPU is present.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ops import fmt, print_table  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

# name -> (setup, statement, ops per statement); the statement runs on CUDA tensors
CASES = {
    "add 10M f32": ("a = rand(10_000_000); b = rand(10_000_000)", "a + b", 1),
    "mul 10M f32": ("a = rand(10_000_000); b = rand(10_000_000)", "a * b", 1),
    "exp 10M f32": ("a = rand(10_000_000)", "a.exp()", 1),
    "add 10M f32, transposed": ("a = rand(2500, 4000).t(); b = rand(2500, 4000).t()", "a + b", 1),
    "add 10M f16": ("a = rand(10_000_000).half(); b = rand(10_000_000).half()", "a + b", 1),
    "copy f32 -> f16 10M": ("a = rand(10_000_000)", "a.half()", 1),
    "sum 10M f32": ("a = rand(10_000_000)", "a.sum()", 1),
    "max 10M f32": ("a = rand(10_000_000)", "a.max()", 1),
    "sum 4096x4096 f32, dim 0": ("a = rand(4096, 4096)", "a.sum(0)", 1),
    "sum 4096x4096 f32, dim 1": ("a = rand(4096, 4096)", "a.sum(1)", 1),
    "sum 10M f16": ("a = rand(10_000_000).half()", "a.sum()", 1),
    "cumsum 10M f32": ("a = rand(10_000_000)", "a.cumsum(0)", 1),
    "softmax 4096x4096 f32": ("a = rand(4096, 4096)", "torch.softmax(a, 1)", 1),
    "sort 1M f32": ("a = rand(1_000_000)", "a.sort()", 1),
    "topk 10 of 1M f32": ("a = rand(1_000_000)", "a.topk(10)", 1),
    "index_select 1M rows": (
        "a = rand(100_000, 16); i = torch.randint(0, 100_000, (1_000_000,), device='cuda')",
        "a.index_select(0, i)",
        1,
    ),
    "matmul 1024x1024 f32": ("a = rand(1024, 1024); b = rand(1024, 1024)", "a @ b", 1),
    "matmul 4096x4096 f32": ("a = rand(4096, 4096); b = rand(4096, 4096)", "a @ b", 1),
    "matmul 4096x4096 f16": ("a = rand(4096, 4096).half(); b = rand(4096, 4096).half()", "a @ b", 1),
    "overhead: a + b (8 elems)": ("a = rand(8); b = rand(8)", "for _ in range(100): a + b", 100),
    "overhead: a.sum() (8 elems)": ("a = rand(8)", "for _ in range(100): a.sum()", 100),
    "overhead: a[1:3] (8 elems)": ("a = rand(8)", "for _ in range(100): a[1:3]", 100),
    "round trip: a.sum().item()": ("a = rand(8)", "a.sum().item()", 1),
    "overhead: a * 2 (8 elems, a Python number)": ("a = rand(8)", "for _ in range(100): a * 2", 100),
    "H2D 64 MB pageable": ("h = rand(16_000_000).cpu()", "h.cuda()", 1),
    "H2D 64 MB pinned, non_blocking": ("h = rand(16_000_000).cpu().pin_memory()", "h.cuda(non_blocking=True)", 1),
    "D2H 64 MB into pinned, non_blocking": ("a = rand(16_000_000)", "a.to('cpu', non_blocking=True)", 1),
    "two streams: 2 x matmul 2048 f32": (
        "a = rand(2048, 2048); s1 = torch.cuda.Stream(); s2 = torch.cuda.Stream()",
        "with torch.cuda.stream(s1): a @ a\nwith torch.cuda.stream(s2): a @ a",
        1,
    ),
    "nonzero of 10M f32 > 0.5": ("a = rand(10_000_000)", "(a > 0.5).nonzero()", 1),
}

WORKER = r"""
import json, sys, timeit
import numpy as np
import torch
if not torch.cuda.is_available():
    print(json.dumps({"error": f"torch at {torch.__file__} sees no GPU"}))
    sys.exit(0)
rand = lambda *s: torch.from_numpy(np.random.default_rng(0).random(s, dtype=np.float32)).cuda()
out = {"device": torch.cuda.get_device_name(0), "torch": torch.__file__}
for name, (setup, stmt, per) in json.loads(sys.argv[1]).items():
    g = {"torch": torch, "rand": rand}
    exec(setup, g)
    torch.cuda.synchronize()
    t = timeit.Timer(stmt + "\ntorch.cuda.synchronize()", globals=g)
    t.timeit(2)  # warm-up: first launches, allocator, module loading
    n, _ = t.autorange()
    out[name] = min(t.repeat(repeat=5, number=n)) / n / per
    print(f"  {name}: {out[name] * 1e6:.1f} us", file=sys.stderr, flush=True)
    del g
    torch.cuda.empty_cache()
print(json.dumps(out))
"""


def time_once(python: str, pythonpath: str, cases: dict) -> dict:
    """Times `cases` with `python` (its `torch` found through `pythonpath`) in a fresh process."""
    env = dict(os.environ, PYTHONPATH=pythonpath, PYTHONSAFEPATH="1")
    p = subprocess.run([python, "-c", WORKER, json.dumps(cases)], stdout=subprocess.PIPE, text=True, env=env, cwd="/")
    if p.returncode != 0:
        raise SystemExit(f"bench/cuda.py: worker {python} (PYTHONPATH={pythonpath!r}) failed (its errors are above)")
    return json.loads(p.stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ours-path", default=str(ROOT), help="PYTHONPATH entry holding our torch (default: develop)")
    ap.add_argument("--reference-python", default=sys.executable, help="a Python whose torch is upstream's CUDA build")
    ap.add_argument("--rounds", type=int, default=2, help="alternating runs per library (best of)")
    args = ap.parse_args()
    best: dict = {"ours": {}, "upstream": {}}
    info: dict = {}
    for _ in range(args.rounds):
        for label, python, path in (("ours", sys.executable, args.ours_path), ("upstream", args.reference_python, "")):
            res = time_once(python, path, CASES)
            if "error" in res:
                print(f"bench/cuda.py: {label}: {res['error']}; nothing to time")
                return 0
            info[label] = (res.pop("device"), res.pop("torch"))
            for case, t in res.items():
                best[label][case] = min(t, best[label].get(case, t))
    for label, (device, where) in info.items():
        print(f"{label}: {where} on {device}")
    ours, ref = best["ours"], best["upstream"]
    rows = [[name, fmt(ours[name]), fmt(ref[name]), f"{ours[name] / ref[name]:.2f}x"] for name in CASES]
    print_table(["op (CUDA)", "ours", "upstream", "ours / upstream"], rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
