"""The conventions a contributor reaches for: `invoke --help develop` lists the knobs, Ninja's status line shows
the percentage and the elapsed time, `invoke python` runs an interpreter on the develop build, and the lint
versions are pinned where pre-commit and nox both read them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def test_develop_help_lists_the_knobs():
    p = subprocess.run(
        [sys.executable, "-m", "invoke", "--help", "develop"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    for knob in ("USE_CUDA", "DEBUG=1", "REL_WITH_DEB_INFO", "SANITIZE", "TORCH_CUDA_ARCH_LIST", "MAX_JOBS",
                 "CMAKE_FRESH", "CCACHE_DIR", "NINJA_STATUS"):  # fmt: skip
        assert knob in p.stdout, knob


def test_ninja_status_shows_percent_and_elapsed_time(repo):
    repo.append("aten/src/TH/ops/Fill.cpp", "\n// a comment: one file to recompile\n")
    out = repo.invoke("develop").stdout
    assert re.search(r"^\[\s*\d+% \d+/\d+ \d+\.\d+s\] ", out, re.M), out


def test_invoke_python_runs_on_the_develop_build(repo):
    p = repo.invoke("python", "--", "-c", "import torch; print(torch.__file__, torch.ones(3).sum().item())")
    assert f"{repo.path / 'torch' / '__init__.py'} 3.0" in p.stdout, p.stdout + p.stderr


def test_lint_tools_are_pinned_alike_for_nox_and_pre_commit():
    pyproject = (ROOT / "pyproject.toml").read_text()
    hooks = (ROOT / ".pre-commit-config.yaml").read_text()
    ruff = re.search(r'"ruff==([\d.]+)"', pyproject).group(1)
    clang = re.search(r'"clang-format==([\d.]+)"', pyproject).group(1)
    assert re.search(rf"ruff-pre-commit\n\s+rev: v{re.escape(ruff)}\n", hooks)
    assert re.search(rf"mirrors-clang-format\n\s+rev: v{re.escape(clang)}\n", hooks)
    assert (ROOT / ".editorconfig").is_file()
