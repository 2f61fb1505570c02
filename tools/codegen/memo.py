"""A persistent memo for the generator: a one-op YAML edit re-parses and re-renders one entry.

The generator is a pure function of its inputs, and most of its work is per YAML entry (parse
and validate it, render its bindings and stub lines). A `Memo` keeps those results between runs
in a file in the build directory, keyed by the text they were computed from (an entry's YAML),
so a run recomputes only what changed since the last one. The memo is salted with the sources
of `tools/codegen` and the Python version: editing the generator starts it afresh.

Keys and values are plain data (str, int, None, tuples, dicts), stored with `marshal`: loading
and saving it costs about a millisecond, where pickling the parsed model took ~20 ms a run. A
memo holds only the keys its last run used, so it never grows with the edit history, and it
is written (atomically) only when that run computed something. A missing, unreadable or
foreign file is an empty memo. Without a path (unit tests) nothing is kept.

`split_entries` cuts a YAML list file into its top-level entries without parsing it, so that the
memo can be keyed per entry.
"""

from __future__ import annotations

import marshal
import os
import sys
import zlib
from collections.abc import Callable, Hashable
from pathlib import Path

_SOURCES = os.path.dirname(os.path.abspath(__file__))


def _salt() -> str:
    """Changes whenever the generator's sources or the marshal format (Python version) do."""
    crc = 0
    for name in sorted(os.listdir(_SOURCES)):
        if name.endswith(".py"):
            with open(os.path.join(_SOURCES, name), "rb") as fh:
                crc = zlib.crc32(name.encode() + b"\0" + fh.read(), crc)
    return f"{crc:08x}-py{sys.version_info[0]}.{sys.version_info[1]}-marshal{marshal.version}"


class Memo:
    """Values of pure functions of text, kept between generator runs in one file (see the module doc)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._old: dict = {}
        self._used: dict = {}
        self._computed = 0
        if path is None:
            return
        self.salt = _salt()
        try:
            with open(path, "rb") as fh:
                salt, values = marshal.load(fh)
            if salt == self.salt and isinstance(values, dict):
                self._old = values
        except (OSError, EOFError, ValueError, TypeError):  # missing, truncated or foreign: start empty
            pass

    def get(self, key: Hashable, compute: Callable[[], object]) -> object:
        """The memoized value for `key`, computing (and keeping) it with `compute()` on a miss.
        Keys and values must be plain data that marshal can store."""
        try:
            return self._used[key]
        except KeyError:
            pass
        try:
            value = self._old[key]
        except KeyError:
            value = compute()
            self._computed += 1
        self._used[key] = value
        return value

    @property
    def computed(self) -> int:
        """How many values this run computed (misses)."""
        return self._computed

    def save(self) -> None:
        """Writes the keys used in this run, if anything was computed or dropped since the last."""
        if self.path is None or (not self._computed and len(self._used) == len(self._old)):
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        with open(tmp, "wb") as fh:
            marshal.dump((self.salt, self._used), fh)
        tmp.replace(self.path)


def split_entries(text: str) -> list[tuple[int, str]] | None:
    """The top-level entries of a YAML file that is a block list (`- key: ...` at column 0), as
    (first line, text) pairs; comments and blank lines after an entry belong to it.

    None when the file is not of that shape (a flow list, a document marker, a top-level key):
    the caller then parses the file whole."""
    starts, lines = [], text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.startswith("- ") or line.rstrip("\r\n") == "-":
            starts.append(i)
        elif line[:1] not in ("", " ", "\t", "#", "\n", "\r"):
            return None
    if not starts or any(ln.strip() and not ln.lstrip().startswith("#") for ln in lines[: starts[0]]):
        return None
    bounds = [*starts, len(lines)]
    return [(s + 1, "".join(lines[s:e])) for s, e in zip(bounds, bounds[1:])]
