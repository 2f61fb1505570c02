"""Nox sessions: isolated environments for CI and pre-push (`nox --list`).

    nox                      every default session: tests-cpu, tests-cuda, tests-build, lint, tests-reference
    nox -s tests-cpu         CPU build (USE_CUDA=0) in build/nox-tests-cpu, tensor/nn/codegen suites
    nox -s tests-cuda        CUDA build (nvcc, every .cu file) in build/nox-tests-cuda, + the GPU suite
    nox -s tests-build       the dev-loop contracts (tests/build): no-op, rebuild scope, codegen, guards
    nox -s lint              ruff + clang-format
    nox -s tests-reference   the tensor suite against upstream PyTorch 2.13 (its own venv)

Each test session builds its own configuration into build/nox-<session>/ (sharing the
ccache), puts that build first on the path, and tests it: never the develop build, never
the source tree. `nox -R` reuses the venv and the build dir, so a re-run is incremental.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import nox

ROOT = Path(__file__).resolve().parent
PYPROJECT = nox.project.load_toml(ROOT / "pyproject.toml")
SUITES = ["tests/tensor", "tests/autograd", "tests/nn", "tests/codegen", "tests/cuda"]

nox.options.default_venv_backend = "uv|virtualenv"
nox.options.sessions = ["tests-cpu", "tests-cuda", "tests-build", "lint", "tests-reference"]
nox.options.reuse_existing_virtualenvs = False


def _install(session: nox.Session, *groups: str) -> None:
    """Installs the dependency groups (skipped under `nox -R`). Bytecode is not compiled up front
    (that tripled the env time); the session writes it for the modules it imports, even on machines
    with PYTHONDONTWRITEBYTECODE, so `nox -R` re-runs start fast."""
    session.env["PYTHONDONTWRITEBYTECODE"] = ""
    session.install(*nox.project.dependency_groups(PYPROJECT, *groups))


def _build_and_test(session: nox.Session, use_cuda: str) -> None:
    t0 = time.perf_counter()
    _install(session, "build", "test")
    t_env = time.perf_counter() - t0
    name = session.name
    build_dir = ROOT / "build" / f"nox-{name}"
    site = build_dir / "python"
    session.run(
        "python",
        "-m",
        "tools.builder",
        "--build-dir",
        str(build_dir),
        "--package-dir",
        str(site / "torch"),
        "--sync-python",
        env={"USE_CUDA": use_cuda},
    )
    t_build = time.perf_counter() - t0 - t_env
    env = {"PYTHONPATH": str(site), "PYTHONSAFEPATH": "1", "TORCH_EXPECT_ROOT": str(site / "torch")}
    session.run("pytest", "-n", os.environ.get("PYTEST_XDIST_WORKERS", "auto"), *SUITES, *session.posargs, env=env)
    session.log(f"{name}: env {t_env:.1f}s, build {t_build:.1f}s, total {time.perf_counter() - t0:.1f}s")


@nox.session(name="tests-cpu")
def tests_cpu(session: nox.Session) -> None:
    """CPU-only build (USE_CUDA=0) and the tensor, nn and codegen suites."""
    _build_and_test(session, "0")


@nox.session(name="tests-cuda")
def tests_cuda(session: nox.Session) -> None:
    """CUDA build (nvcc compiles every .cu) and all suites; GPU tests skip without a GPU."""
    import shutil

    if not shutil.which("nvcc") and not os.environ.get("CUDACXX"):
        session.error("tests-cuda needs nvcc (CUDA toolkit on PATH, or CUDACXX); see `invoke doctor`")
    _build_and_test(session, "1")


@nox.session(name="tests-build")
def tests_build(session: nox.Session) -> None:
    """The dev-loop contracts: builds throwaway copies of the repo (warm ccache) and checks each."""
    _install(session, "build", "test", "tasks")
    session.run("pytest", "tests/build", *session.posargs, env={"PYTHONSAFEPATH": "1"})


@nox.session
def lint(session: nox.Session) -> None:
    """ruff (check + format) on Python, clang-format on C++/CUDA."""
    _install(session, "lint")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    sources = sorted(
        str(p.relative_to(ROOT)) for ext in ("*.h", "*.cpp", "*.cu", "*.cuh") for p in (ROOT / "aten").rglob(ext)
    ) + sorted(str(p.relative_to(ROOT)) for ext in ("*.h", "*.cpp") for p in (ROOT / "torch" / "csrc").rglob(ext))
    session.run("clang-format", "--dry-run", "-Werror", *sources)


@nox.session(name="tests-reference", venv_backend="virtualenv")
def tests_reference(session: nox.Session) -> None:
    """The tensor suite against upstream PyTorch 2.13 (CPU) in its own venv: checks our tests encode
    PyTorch's semantics. pip (not uv) so the locally provided torch wheel is found."""
    session.install("torch==2.13.0", "numpy", *nox.project.dependency_groups(PYPROJECT, "test"))
    session.run(
        "pytest",
        "-n",
        "auto",
        "tests/tensor",
        "tests/autograd",
        "tests/nn",
        *session.posargs,
        env={"PYTHONSAFEPATH": "1", "TORCH_REFERENCE": "1"},
    )
