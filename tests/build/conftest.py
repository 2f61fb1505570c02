"""Fixtures for the dev-loop tests: throwaway copies of the working tree, built with the shared ccache."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tools.builder import copy_worktree, develop_pth_kept

ROOT = Path(__file__).resolve().parents[2]
# a build step as Ninja prints it: `[1/2] Building ...`, or with the status line the build tasks set
# (NINJA_STATUS, tools/builder.ninja): `[ 50% 1/2 0.412s] Building ...`
STEP = re.compile(r"^\[(?:\s*\d+%\s+)?\d+/\d+(?:\s+[\d.]+s)?\] (.*)$", re.M)


class Repo:
    """A copy of the repo with helpers to run tasks, edit files and import its torch."""

    def __init__(self, path: Path, use_cuda: str):
        self.path = path
        self.env = dict(os.environ, USE_CUDA=use_cuda, CCACHE_DIR=os.environ.get("CCACHE_DIR") or str(ROOT / ".ccache"))
        self.env.pop("PYTHONPATH", None)

    def run(self, *cmd: str, check: bool = True, env: dict | None = None) -> subprocess.CompletedProcess:
        p = subprocess.run(cmd, cwd=self.path, env={**self.env, **(env or {})}, capture_output=True, text=True)
        if check and p.returncode != 0:
            raise AssertionError(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stdout}\n{p.stderr}")
        return p

    def invoke(self, *args: str, check: bool = True, env: dict | None = None) -> subprocess.CompletedProcess:
        return self.run(sys.executable, "-m", "invoke", *args, check=check, env=env)

    def python(self, code: str) -> subprocess.CompletedProcess:
        return self.run(sys.executable, "-c", code, check=False, env={"PYTHONPATH": str(self.path)})

    def append(self, rel: str, text: str) -> None:
        with open(self.path / rel, "a") as f:
            f.write(text)

    def explain(self) -> str:
        """What a full build would do now (empty when up to date)."""
        p = self.run("ninja", "-C", "build/develop", "-n", "-d", "explain")
        return "" if "no work to do" in p.stdout else p.stdout + p.stderr

    @staticmethod
    def steps(output: str) -> list[str]:
        """The build steps Ninja ran, e.g. 'Building CXX object .../Fill.cpp.o'."""
        return STEP.findall(output)


def built_copy(tmp_path_factory, use_cuda: str) -> Repo:
    path = tmp_path_factory.mktemp(f"repo-cuda{use_cuda}")
    copy_worktree(path)
    repo = Repo(path, use_cuda)
    repo.invoke("build")
    return repo


@pytest.fixture(scope="session", autouse=True)
def _keep_developers_pth():
    """`invoke develop` in a copy points this venv's torch-develop.pth at the copy: put it back."""
    with develop_pth_kept():
        yield


@pytest.fixture
def clone(tmp_path) -> Repo:
    """A CPU-only (USE_CUDA=0) copy of the tree as a fresh clone has it: nothing built."""
    repo = Repo(tmp_path / "clone", "0")
    copy_worktree(repo.path)
    return repo


@pytest.fixture(scope="session")
def repo(tmp_path_factory) -> Repo:
    """A CPU-only (USE_CUDA=0) copy, fully built."""
    return built_copy(tmp_path_factory, "0")


@pytest.fixture(scope="session")
def cuda_repo(tmp_path_factory) -> Repo:
    """A CUDA copy (nvcc compiles every .cu), fully built; skipped without nvcc."""
    if not shutil.which("nvcc") and not os.environ.get("CUDACXX"):
        pytest.skip("nvcc not found: the CUDA build contracts need the CUDA toolkit")
    return built_copy(tmp_path_factory, "1")
