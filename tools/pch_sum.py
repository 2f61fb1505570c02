"""Write the ccache checksum of a precompiled header:
`python -m tools.pch_sum --ninja NINJA --build-dir B --pch PATH` writes PATH.sum.

GCC's .gch files are not deterministic (two builds of the same header differ), and ccache keys
every object compiled against a PCH on the PCH's bytes, so rebuilding the PCH from unchanged
headers (after switching branches and back, or reverting a header edit) would turn every object
that uses it into a cache miss. With `pch_external_checksum = true` (.ccache/ccache.conf) ccache
hashes `<pch>.sum` instead; this writes it as a hash of the contents of every file the PCH was
built from, as Ninja recorded them from the compiler's depfile (`ninja -t deps`), so it changes
exactly when the PCH's inputs do. Contents, not paths: clones at other paths share it. The
compile flags need no place here: they are part of each object's own ccache key.
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
from pathlib import Path

from tools.writer import write_if_changed


def recorded_inputs(ninja: str, build_dir: Path, pch: Path) -> list[Path]:
    """The files Ninja's deps log holds for `pch` (an error if it holds no valid record)."""
    target = pch.relative_to(build_dir) if pch.is_relative_to(build_dir) else pch
    out = subprocess.run(
        [ninja, "-C", str(build_dir), "-t", "deps", str(target)], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    if not out or "(VALID)" not in out[0]:
        raise SystemExit(f"pch_sum: Ninja holds no valid deps for {target}: {out[:1]}")
    return [build_dir / line.strip() for line in out[1:] if line.startswith("    ")]


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(prog="python -m tools.pch_sum", description=__doc__.splitlines()[0])
    ap.add_argument("--ninja", required=True)
    ap.add_argument("--build-dir", type=Path, required=True)
    ap.add_argument("--pch", type=Path, required=True, help="the .gch; its checksum goes to PCH.sum")
    args = ap.parse_args(argv)
    h = hashlib.sha256()
    for path in recorded_inputs(args.ninja, args.build_dir, args.pch):
        h.update(path.read_bytes() + b"\0")
    write_if_changed(args.pch.with_name(args.pch.name + ".sum"), h.hexdigest() + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
