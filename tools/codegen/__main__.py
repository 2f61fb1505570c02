"""python -m tools.codegen --yaml aten/native_functions.yaml --out DIR --pyi FILE --shards N

Writes DIR/shard_<k>.cpp, DIR/register_all.cpp and the stub FILE, each only if its content
changed, and prints what it wrote.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from tools.writer import write_if_changed

from . import bindings, stubs
from .model import CodegenError, load


def generate(yaml_path: Path, out: Path, pyi: Path, shards: int) -> list[Path]:
    """Generates every output; returns the paths actually rewritten."""
    funcs = load(yaml_path)
    files = {out / name: text for name, text in bindings.render_shards(funcs, shards).items()}
    files[pyi] = stubs.render(funcs)
    for stale in set(out.glob("shard_*.cpp")) - files.keys():  # left by a build with more shards
        stale.unlink()
    return [p for p, text in files.items() if write_if_changed(p, text)]


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(prog="python -m tools.codegen", description=__doc__.splitlines()[0])
    ap.add_argument("--yaml", type=Path, default=Path("aten/native_functions.yaml"))
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--pyi", type=Path, required=True)
    ap.add_argument("--shards", type=int, required=True, help="number of binding shards (cmake/TorchCodegen.cmake)")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    try:
        written = generate(args.yaml, args.out, args.pyi, args.shards)
    except CodegenError as e:
        print(f"codegen: error: {e}", file=sys.stderr)
        return 1
    names = ", ".join(p.name for p in written) or "nothing (all up to date)"
    print(f"codegen: wrote {names} in {time.perf_counter() - t0:.2f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
