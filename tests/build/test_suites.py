"""tools/suites.py names every suite once, for `invoke test` and the nox sessions alike (no build needed)."""

from __future__ import annotations

from pathlib import Path

from tools import suites

ROOT = Path(__file__).resolve().parents[2]


def test_every_suite_directory_is_named():
    """A new directory of tests under tests/ that no list names would run under no command."""
    found = {f"tests/{d.name}" for d in (ROOT / "tests").iterdir() if d.is_dir() and any(d.glob("test_*.py"))}
    assert found == set(suites.ALL) | set(suites.BUILD)


def test_the_lists_nest_and_exist():
    assert len(set(suites.ALL)) == len(suites.ALL)
    assert set(suites.CORE) <= set(suites.REFERENCE) <= set(suites.ALL) and set(suites.CUDA) <= set(suites.ALL)
    assert not set(suites.BUILD) & set(suites.ALL)  # the dev-loop contracts build trees: minutes, not seconds
    for path in (*suites.ALL, *suites.BUILD, suites.THREADS[0]):
        assert (ROOT / path).exists(), path
