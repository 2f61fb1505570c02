"""python -m tools.codegen --yaml aten/native_functions.yaml --out DIR --pyi FILE --shards N
                         [--derivatives aten/derivatives.yaml --formulas FILE --autograd-out FILE] [--memo FILE]

Writes DIR/shard_<k>.cpp, DIR/register_all.cpp and the stub FILE (bindings.py, stubs.py) and,
given derivatives.yaml, the autograd nodes (autograd.py), each only if its content changed, and
prints what it wrote. With --memo (the build passes one in its directory), entries that did not
change since the last run are neither parsed nor rendered again (memo.py). One process does it
all: on a 2-core machine an interpreter's start and imports cost more than the work itself.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from tools.writer import write_if_changed

from . import bindings, stubs
from .memo import Memo
from .model import CodegenError, Schema, check_unique, inplace_name, load, load_list, parse_entries


def ops(yaml_path: Path, memo: Memo | None = None) -> list[tuple[int, str, tuple]]:
    """(line, YAML text, (full name, shard entry, stub entry)) of every op, validated, in YAML order (the
    in-place and out= forms an entry declares follow it, with its line and text)."""
    where = str(yaml_path)

    def convert(entry: dict) -> tuple:
        return tuple(
            (f.schema.full_name, bindings.shard_entry(f), stubs.stub_entry(f)) for f in parse_entries(entry, where)
        )

    result = [(line, text, op) for line, text, forms in load_list(yaml_path, convert, memo, "op") for op in forms]
    check_unique(yaml_path, ((line, op[0]) for line, _, op in result))
    return result


def generate(
    yaml_path: Path, out: Path, pyi: Path, shards: int, memo: Memo | None = None, parsed: list | None = None
) -> list[Path]:
    """Generates the binding shards and the stub (from `ops()` if given); returns the paths rewritten."""
    entries = [op for _, _, op in (ops(yaml_path, memo) if parsed is None else parsed)]
    files = {out / name: text for name, text in bindings.render_shards([e[1] for e in entries], shards).items()}
    files[pyi] = stubs.render([e[2] for e in entries])
    for stale in set(out.glob("shard_*.cpp")) - files.keys():  # left by a build with more shards
        stale.unlink()
    return [p for p, text in files.items() if write_if_changed(p, text)]


def _derivative_name(entry: dict) -> str | None:
    try:
        return Schema.parse(entry["name"]).full_name
    except (KeyError, ValueError):
        return None  # autograd.load_entries reports it


def generate_autograd(
    derivatives: Path, native: Path, formulas: Path, out: Path, memo: Memo | None = None, parsed: list | None = None
) -> bool:
    """Writes the autograd nodes (autograd.py) if their content changed; returns whether it did.

    With a memo, they are rendered again only when derivatives.yaml, _formulas.py or the YAML of
    an op they name (or of its in-place variant) changed: adding or editing any other op of
    native_functions.yaml renders nothing, and imports neither autograd.py nor its `ast` work."""

    def render() -> str:
        from . import autograd  # noqa: PLC0415

        funcs = load(native)
        return autograd.render(autograd.load_entries(derivatives, funcs, autograd.helpers(formulas)))

    parsed = ops(native, memo) if parsed is None and memo is not None else parsed
    if memo is None or memo.path is None or not all(text for _, text, _ in parsed):
        return write_if_changed(out, render())  # no memo, or the YAML was parsed whole (no entry texts)
    source = {op[0]: text for _, text, op in parsed}
    named = tuple(
        (n, source.get(n), source.get(inplace_name(n)))
        for _, _, n in load_list(derivatives, _derivative_name, memo, "derivative-name")
    )
    key = ("autograd", derivatives.read_text(), formulas.read_text(), named)
    return write_if_changed(out, memo.get(key, render))


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(prog="python -m tools.codegen", description=__doc__.splitlines()[0])
    ap.add_argument("--yaml", type=Path, default=Path("aten/native_functions.yaml"))
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--pyi", type=Path, required=True)
    ap.add_argument("--shards", type=int, required=True, help="number of binding shards (cmake/TorchCodegen.cmake)")
    ap.add_argument("--derivatives", type=Path, help="aten/derivatives.yaml: also write the autograd nodes")
    ap.add_argument("--formulas", type=Path, default=Path("torch/autograd/_formulas.py"))
    ap.add_argument("--autograd-out", type=Path, help="where the autograd nodes go (with --derivatives)")
    ap.add_argument("--memo", type=Path, help="file keeping parsed and rendered entries between runs")
    args = ap.parse_args(argv)
    if bool(args.derivatives) != bool(args.autograd_out):
        ap.error("--derivatives and --autograd-out go together")
    t0 = time.perf_counter()
    memo = Memo(args.memo) if args.memo else None
    try:
        parsed = ops(args.yaml, memo)
        written = generate(args.yaml, args.out, args.pyi, args.shards, memo, parsed)
        if args.derivatives and generate_autograd(
            args.derivatives, args.yaml, args.formulas, args.autograd_out, memo, parsed
        ):
            written.append(args.autograd_out)
        if memo is not None:
            memo.save()
    except CodegenError as e:
        print(f"codegen: error: {e}", file=sys.stderr)
        return 1
    names = ", ".join(p.name for p in written) or "nothing (all up to date)"
    fresh = f" ({memo.computed} of its entries parsed or rendered anew)" if memo else ""
    print(f"codegen: wrote {names} in {time.perf_counter() - t0:.2f}s{fresh}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
