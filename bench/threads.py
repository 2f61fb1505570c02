"""Python threads running ops side by side: the bindings release the GIL around long kernels
(torch/csrc/Gil.h), so two threads each running their own ops take about the time of one (on
two cores), where a GIL held through the kernel would double it. Prints serial vs threaded wall
time and the ratio; intra-op threads are set to 1 so that the Python threads are the parallelism.

    python bench/threads.py [--numel N] [--repeat R]
"""

from __future__ import annotations

import argparse
import threading
import time

import torch


def run(op, threads: int, repeat: int) -> float:
    """Best wall time of `threads` Python threads each calling op() once, over `repeat` rounds."""
    best = float("inf")
    for _ in range(repeat):
        workers = [threading.Thread(target=op) for _ in range(threads)]
        t0 = time.perf_counter()
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    """Times each op serially (two calls on one thread) and on two threads at once."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--numel", type=int, default=2_000_000)
    p.add_argument("--repeat", type=int, default=7)
    args = p.parse_args()
    torch.set_num_threads(1)
    x = torch.rand(args.numel, dtype=torch.float64)
    outs = [torch.empty_like(x) for _ in range(2)]
    ops = {
        "sin(out=)": lambda out: torch.sin(x, out=out),
        "x * 3 + 1": lambda out: x * 3 + 1,
        "sum": lambda out: x.sum(),
        "sort": lambda out: x[: args.numel // 8].sort(),
    }
    print(f"torch {torch.__version__}; {args.numel:,} float64 elements, 1 intra-op thread, best of {args.repeat}")
    print(f"{'op':12} {'2 calls, 1 thread':>18} {'2 threads':>10} {'speedup':>8}")
    for name, op in ops.items():
        calls = iter(range(10**9))

        def call(op=op, calls=calls):
            op(outs[next(calls) % 2])  # each thread writes its own out=

        serial = run(lambda call=call: (call(), call()), 1, args.repeat)
        threaded = run(call, 2, args.repeat)
        print(f"{name:12} {serial * 1e3:15.1f} ms {threaded * 1e3:7.1f} ms {serial / threaded:7.2f}x")


if __name__ == "__main__":
    main()
