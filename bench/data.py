"""DataLoader throughput with worker processes, ours vs upstream PyTorch in one run: batches per second
over a TensorDataset of 10k 3x32x32 float32 images (and int64 labels), batch 64, 2 workers. Each batch is
collated in a worker and handed back through shared memory. The upstream side runs this same file with
upstream's python (PYTHONSAFEPATH=1, cwd /tmp, so that it imports its own torch) and prints one number.

    python bench/data.py [--workers 2] [--batch-size 64] [--epochs 3] [--reference /tmp/ref/bin/python]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time


def measure(workers: int, batch_size: int, epochs: int) -> dict:
    """Best batches/s over `epochs` full epochs (worker start-up included, as a user pays it)."""
    import torch
    from torch.utils.data import DataLoader, TensorDataset

    torch.manual_seed(0)
    dataset = TensorDataset(torch.rand(10_000, 3, 32, 32), torch.randint(0, 10, (10_000,)))
    loader = DataLoader(dataset, batch_size=batch_size, shuffle=True, num_workers=workers)
    best = 0.0
    for _ in range(epochs):
        start = time.perf_counter()
        count = sum(1 for _ in loader)
        best = max(best, count / (time.perf_counter() - start))
    return {"torch": torch.__version__, "file": torch.__file__, "batches_per_s": best, "batches": count}


def main() -> None:
    """Runs ours here and upstream in a subprocess, then prints both and the ratio."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--reference", default="/tmp/ref/bin/python", help="upstream PyTorch's python")
    p.add_argument("--json", action="store_true", help="measure this interpreter's torch only, print JSON")
    args = p.parse_args()
    if args.json:
        print(json.dumps(measure(args.workers, args.batch_size, args.epochs)))
        return
    ours = measure(args.workers, args.batch_size, args.epochs)
    print(f"{args.workers} workers, batch {args.batch_size}, 10k x 3x32x32 float32, best of {args.epochs} epochs")
    print(f"ours     torch {ours['torch']:>12}: {ours['batches_per_s']:8.1f} batches/s")
    if not os.path.exists(args.reference):
        print(f"upstream: {args.reference} not found, skipped")
        return
    cmd = [args.reference, os.path.abspath(__file__), "--json"]
    cmd += ["--workers", str(args.workers), "--batch-size", str(args.batch_size), "--epochs", str(args.epochs)]
    env = {**os.environ, "PYTHONSAFEPATH": "1"}
    done = subprocess.run(cmd, cwd="/tmp", env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        print(f"upstream failed:\n{done.stderr}", file=sys.stderr)
        sys.exit(1)
    ref = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"upstream torch {ref['torch']:>12}: {ref['batches_per_s']:8.1f} batches/s")
    print(f"ratio ours/upstream: {ours['batches_per_s'] / ref['batches_per_s']:.2f}x")


if __name__ == "__main__":
    main()
