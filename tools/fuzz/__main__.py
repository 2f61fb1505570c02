"""python -m tools.fuzz --calls N --seed S --reference PYTHON [--ours PYTHON] [--jobs J] [--out DIR]

Runs N seeded calls against our torch (the Python running this, or --ours) and upstream PyTorch (the
--reference Python: an executable or a venv), prints the counts per category and every crash, hang and
divergence grouped by (category, op, cause) with its shortest reproducer, and writes findings.jsonl,
groups.jsonl and summary.txt to --out. Exit status 1 when ours crashed or hung, or (--fail-on divergence,
the default) diverged in a way not listed in known.txt.

    python -m tools.fuzz --show 1:1234              # print call 1234 of seed 1
    python -m tools.fuzz --reference /tmp/ref --opinfo --ops 'linalg.*'   # upstream's OpInfo samples
    python -m tools.fuzz --reference /tmp/ref --src 'torch.tensor([5], dtype=torch.int8) // 0'
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from . import compare, known, minimize, opinfo_calls, report
from .call import Call
from .generate import FAMILIES, OPT_IN, calls, generate
from .runner import Worker, WorkerError, library, python_of, run_batches

ROOT = Path(__file__).resolve().parents[2]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line (see the module docstring)."""
    p = argparse.ArgumentParser(prog="python -m tools.fuzz", description=__doc__.split("\n\n")[1])
    p.add_argument("--calls", type=int, help="number of calls (default 10000; --opinfo: all)")
    p.add_argument("--seed", type=int, default=0, help="stream seed (default 0)")
    p.add_argument("--start", type=int, default=0, help="index of the first call (default 0)")
    p.add_argument("--reference", help="upstream PyTorch's Python (executable or venv)")
    p.add_argument("--ours", default=sys.executable, help="our torch's Python (default: this one)")
    p.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) // 2), help="worker pairs")
    p.add_argument("--batch", type=int, default=400, help="calls per batch (one forked child each)")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds before a call counts as a hang")
    p.add_argument("--mem-gb", type=float, default=4.0, help="address space a child may add (GiB)")
    p.add_argument("--threads", type=int, default=1, help="torch.set_num_threads in the workers")
    p.add_argument(
        "--families",
        help=f"comma-separated subset of: {', '.join(FAMILIES)} (and, only when named: {', '.join(OPT_IN)})",
    )
    p.add_argument("--out", help="output directory (default build/fuzz/seed-S)")
    p.add_argument("--known", default=str(known.DEFAULT), help="known-divergences file")
    p.add_argument("--minimize-budget", type=float, default=60.0, help="seconds for shortening reproducers")
    p.add_argument("--fail-on", choices=("divergence", "crash", "never"), default="divergence")
    p.add_argument("--max-groups", type=int, default=60, help="groups printed below the crashes")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.add_argument("--show", metavar="SEED:INDEX", help="print one call's source and exit")
    p.add_argument("--src", help="run this source in both libraries and print the outcomes")
    p.add_argument(
        "--opinfo",
        action="store_true",
        help="run the sample inputs of upstream's OpInfo database (opinfo_calls.py) instead of a seed",
    )
    p.add_argument(
        "--ops", help="--opinfo: only the entries whose name matches one of these (comma-separated) fnmatch patterns"
    )
    p.add_argument("--opinfo-dtypes", default=opinfo_calls.DEFAULT_DTYPES, help="--opinfo: the dtypes sampled")
    p.add_argument("--refresh", action="store_true", help="--opinfo: write the calls again (they are cached)")
    return p.parse_args(argv)


def _show(spec: str, families: list[str] | None) -> int:
    seed, _, index = spec.partition(":")
    c = generate(int(seed), int(index), families)
    print(f"# {c.cid} op={c.op} sig={c.sig} values={c.values} only={c.only} accum={c.accum} strides={c.strides}")
    print(c.src)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Runs the fuzz; returns the exit status."""
    args = parse_args(argv)
    families = args.families.split(",") if args.families else None
    if args.show:
        return _show(args.show, families)
    if not args.reference:
        sys.exit("--reference PYTHON (upstream PyTorch's interpreter or venv) is required")
    if args.calls is None:
        args.calls = 1 << 62 if args.opinfo else 10_000

    def log(msg: str) -> None:
        print(f"[fuzz] {msg}", file=sys.stderr, flush=True)

    ours_lib = library("ours", python_of(args.ours), True, args.threads)
    ref_lib = library("upstream", python_of(args.reference), False, args.threads)
    jobs = 1 if args.src else max(1, args.jobs)
    pairs: list[tuple[Worker, Worker]] = []
    try:
        for _ in range(jobs):
            pair = tuple(Worker(lib, args.timeout, args.mem_gb, args.threads, log) for lib in (ours_lib, ref_lib))
            pairs.append(pair)
            for w in pair:
                w.start()
        o, u = pairs[0][0].info, pairs[0][1].info
        log(f"ours: torch {o['version']} from {o['file']} (Python {o['python']})")
        log(f"upstream: torch {u['version']} from {u['file']} (Python {u['python']})")
        if args.src:
            return _run_src(args.src, pairs[0])
        return _fuzz(args, families, pairs, log)
    except WorkerError as e:
        log(str(e))
        return 2
    finally:
        for pair in pairs:
            for w in pair:
                w.close()


def _run_pair(pair: tuple[Worker, Worker], batch: list[Call]) -> tuple[dict, dict]:
    pair[0].submit(batch)
    pair[1].submit(batch)
    return pair[0].collect(batch), pair[1].collect(batch)


def _run_src(src: str, pair: tuple[Worker, Worker]) -> int:
    c = Call("src", src, cid="src")
    a, b = _run_pair(pair, [c])
    cat, detail = compare.classify(c, a["src"], b["src"])
    print(f"ours:     {compare.summarize(a['src'], 2000)}")
    print(f"upstream: {compare.summarize(b['src'], 2000)}")
    print(f"category: {cat} {detail}")
    return 1 if compare.severity(cat) in (1, 2) else 0


# OpInfo entries whose results are unique only in part: the items compared (indices of ties are unspecified;
# singular and eigenvectors are unique up to sign or phase, and upstream's LAPACK, MKL, picks others)
OPINFO_ONLY = {"topk": (0,), "kthvalue": (0,), "mode": (0,), "svd": (1,), "linalg.svd": (1,), "linalg.eigh": (0,),
               "linalg.eig": (0,)}  # fmt: skip


def _opinfo(args: argparse.Namespace, log) -> list[Call]:
    """The calls written from upstream's OpInfo samples (cached per dtype list), --ops and --start/--calls
    applied."""
    tag = args.opinfo_dtypes.replace(",", "-")
    path = ROOT / "build" / "fuzz" / f"opinfo-calls-{tag}.jsonl"
    if args.refresh or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
        env.update(PYTHONSAFEPATH="1", OMP_NUM_THREADS="1")
        cmd = [python_of(args.reference), opinfo_calls.__file__, str(path) + ".tmp", args.opinfo_dtypes]
        done = subprocess.run(cmd, env=env, cwd=path.parent, capture_output=True, text=True)
        if done.returncode:
            sys.exit(f"[fuzz] writing the OpInfo calls failed:\n{done.stderr[-3000:]}")
        os.replace(str(path) + ".tmp", path)
        log(f"{done.stdout.strip()} ({time.perf_counter() - t0:.0f}s)")
    patterns = args.ops.split(",") if args.ops else None
    out = []
    with open(path) as f:
        for i, line in enumerate(f):
            d = json.loads(line)
            if patterns and not any(fnmatch.fnmatchcase(d["op"], p) for p in patterns):
                continue
            only = OPINFO_ONLY.get(d["op"])
            out.append(Call(d["op"], d["src"], d["sig"], values=d["values"], only=only, accum=True, cid=f"opinfo:{i}"))
    return out[args.start : args.start + args.calls]


def _fuzz(args: argparse.Namespace, families: list[str] | None, pairs: list, log) -> int:
    tally = report.Tally(known.load(args.known))
    if args.opinfo:
        todo = _opinfo(args, log)
        args.calls = len(todo)
        batches = (todo[s : s + args.batch] for s in range(0, len(todo), args.batch))
    else:
        end = args.start + args.calls
        batches = (
            list(calls(args.seed, s, min(args.batch, end - s), families)) for s in range(args.start, end, args.batch)
        )
    t0 = time.perf_counter()
    last = [t0]

    def on_batch(batch: list[Call], ours: dict, ref: dict) -> None:
        missing = ("error", "no outcome")
        for c in batch:
            f = tally.add(c, ours.get(c.cid, missing), ref.get(c.cid, missing))
            if f is not None and f.severity == 1 and not args.quiet:
                log(f"{f.category.upper()} {f.cause} in {c.op} ({c.cid}): {c.src[:300]}")
        now = time.perf_counter()
        if not args.quiet and (now - last[0] > 15 or tally.calls == args.calls):
            last[0] = now
            worst = ", ".join(f"{k} {v}" for k, v in sorted(tally.counts.items()) if compare.severity(k))
            log(f"{tally.calls}/{args.calls} calls, {tally.calls / (now - t0):.0f}/s; {worst}")

    run_batches(batches, [p[0] for p in pairs], [p[1] for p in pairs], on_batch)
    elapsed = time.perf_counter() - t0
    groups = tally.groups()

    t1 = time.monotonic()
    deadline = t1 + args.minimize_budget
    todo = [g for g in groups if g.severity == 1 or (g.severity == 2 and g.known is None)]
    for g in todo:
        if time.monotonic() > deadline:
            break
        g.minimized = minimize.minimize(g, lambda b: _run_pair(pairs[0], b), deadline)
    t_min = time.monotonic() - t1

    out = Path(args.out) if args.out else ROOT / "build" / "fuzz" / ("opinfo" if args.opinfo else f"seed-{args.seed}")
    out.mkdir(parents=True, exist_ok=True)
    report.write_jsonl(out / "findings.jsonl", (f.to_json() for f in tally.findings))
    report.write_jsonl(out / "groups.jsonl", (g.to_json() for g in groups))
    o, u = pairs[0][0].info, pairs[0][1].info
    restarts = sum(w.restarts for p in pairs for w in p)
    head = (
        f"fuzz: {tally.calls} calls ({'OpInfo samples' if args.opinfo else f'seed {args.seed}'}, from {args.start}) "
        f"in {elapsed:.1f}s = "
        f"{tally.calls / max(elapsed, 1e-9):.0f} calls/s on {len(pairs)} job(s); minimizing {t_min:.1f}s"
        + (f"; {restarts} worker restarts" if restarts else "")
        + f"\nours: torch {o['version']} ({o['file']}); upstream: torch {u['version']} ({u['file']})"
    )
    failing = tally.failing(args.fail_on)
    verdict = (
        f"FAIL: {len(failing)} calls fail the run (crashes/hangs of ours"
        + (", divergences not in known.txt" if args.fail_on == "divergence" else "")
        + ")"
        if failing
        else "OK: no crash or hang of ours" + (", no unknown divergence" if args.fail_on == "divergence" else "")
    )
    unused = tally.unused_known()
    stale = [f"  known.txt:{k.line}: {k.category} {k.op} {k.sig} {k.cause}" for k in unused]
    note = [f"{len(stale)} known entries matched nothing (fixed, or not generated by this run)"] if stale else []
    text = "\n".join([head, "", report.table(tally), report.describe(groups, args.max_groups), ""] + note)
    (out / "summary.txt").write_text("\n".join([text, *stale, verdict]) + "\n")
    print(text + (" (listed in summary.txt)" if stale else ""))
    print(verdict)
    print(f"[fuzz] wrote {out}/summary.txt, findings.jsonl ({len(tally.findings)}), groups.jsonl ({len(groups)})")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
