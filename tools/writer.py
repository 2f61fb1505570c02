"""Writes generated files only when their content changed (so Ninja's restat sees no change)."""

from __future__ import annotations

import os
from pathlib import Path


def write_if_changed(path: Path, text: str) -> bool:
    """Atomically write `text` to `path` unless it already holds it; True if written."""
    try:
        if path.read_text() == text:
            return False
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text)
    tmp.replace(path)
    return True
