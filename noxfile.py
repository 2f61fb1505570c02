"""Nox sessions: isolated environments for CI and pre-push (`nox --list`).

    nox                      every default session: tests-cpu, tests-cuda, tests-build, lint, docs, tests-reference
    nox -s tests-cpu         CPU build (USE_CUDA=0) in build/nox-tests-cpu, every suite (GPU tests skip)
    nox -s tests-cuda        CUDA build (nvcc, every .cu file) in build/nox-tests-cuda, every suite
    nox -s tests-build       the dev-loop contracts (tests/build): no-op, rebuild scope, codegen, guards
    nox -s lint              ruff + clang-format (`nox -s lint -- --fix` fixes instead)
    nox -s docs              Sphinx: API reference and contributor guide, warnings as errors (build/docs/nox/html)
    nox -s tests-reference   the PyTorch-compatible suites against upstream PyTorch 2.13 (its own venv)
    nox -s fuzz              differential fuzz against upstream (not a default session; tests-cpu runs a short one)
    nox -s tests-sanitize    ASan+UBSan build (not a default session), tensor/autograd suites under it
    nox -s tests-tsan        ThreadSanitizer build (not a default session), the threading tests under it
    nox -s wheel             build the wheel (pip wheel .), install it in a fresh venv, test the installed copy

Each test session builds its own configuration into build/nox-<session>/ (sharing the
ccache), puts that build first on the path, and tests it: never the develop build, never
the source tree. `nox -R` reuses the venv and the build dir, so a re-run is incremental.
The suites each session runs are named in tools/suites.py (shared with `invoke test`).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import nox

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))  # nox puts nothing on sys.path for its noxfile: tools/ comes from here

from tools import suites  # noqa: E402  (the suite lists, shared with tasks.py)

PYPROJECT = nox.project.load_toml(ROOT / "pyproject.toml")

nox.options.default_venv_backend = "uv|virtualenv"
nox.options.sessions = ["tests-cpu", "tests-cuda", "tests-build", "lint", "docs", "tests-reference"]
nox.options.reuse_existing_virtualenvs = False


def _install(session: nox.Session, *groups: str) -> None:
    """Installs the dependency groups (skipped under `nox -R`). Bytecode is not compiled up front
    (that tripled the env time); the session writes it for the modules it imports, even on machines
    with PYTHONDONTWRITEBYTECODE, so `nox -R` re-runs start fast."""
    session.env["PYTHONDONTWRITEBYTECODE"] = ""
    session.install(*nox.project.dependency_groups(PYPROJECT, *groups))


def _build(session: nox.Session, use_cuda: str, sanitize: str = "") -> dict[str, str]:
    """Builds the session's configuration into build/nox-<session>/ and returns the environment that
    imports that build (and checks it is the one imported)."""
    build_dir = ROOT / "build" / f"nox-{session.name}"
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
        env={"USE_CUDA": use_cuda, "SANITIZE": sanitize},
    )
    return {"PYTHONPATH": str(site), "PYTHONSAFEPATH": "1", "TORCH_EXPECT_ROOT": str(site / "torch")}


def _build_and_test(
    session: nox.Session, use_cuda: str, sanitize: str = "", paths: tuple[str, ...] = suites.ALL
) -> dict[str, str]:
    """Builds (see `_build`) and runs the suites (tools/suites.py) on the build; returns the environment
    they ran in. A CUDA build gets the `cuda` group too (cuBLAS, cuFFT: their code paths compile and link)."""
    t0 = time.perf_counter()
    _install(session, "build", "test", *(("cuda",) if use_cuda == "1" else ()))
    t_env = time.perf_counter() - t0
    name = session.name
    build_dir = ROOT / "build" / f"nox-{name}"
    env = _build(session, use_cuda, sanitize)
    t_build = time.perf_counter() - t0 - t_env
    args = ["-n", os.environ.get("PYTEST_XDIST_WORKERS", "auto"), *paths]
    if sanitize:  # the sanitizer's runtime preloaded, and its options (tools/builder.py: sanitizer_env)
        cmd = ("python", "-m", "tools.builder", "--sanitizer-env", "--build-dir", str(build_dir))
        env.update(json.loads(session.run(*cmd, silent=True) or "{}"))  # None under --install-only
        session.log(" ".join(f"{k}={v}" for k, v in env.items()))
        args.append("--capture=sys")  # a report (stderr) of a process the sanitizer stops is shown, not lost
    session.run("pytest", *args, *session.posargs, env=env)
    session.log(f"{name}: env {t_env:.1f}s, build {t_build:.1f}s, total {time.perf_counter() - t0:.1f}s")
    return env


def _reference_python(session: nox.Session, venv: Path) -> str:
    """A venv with upstream PyTorch 2.13 (CPU), NumPy and expecttest (which upstream's OpInfo database, the
    fuzz's --opinfo calls, imports), for the differential fuzz: created once beside the session's build (pip,
    not uv, so the locally provided torch wheel is found), reused after."""
    import subprocess

    python = venv / "bin" / "python"
    probe = "import expecttest, numpy, torch; assert torch.__version__.startswith('2.13.0')"
    # run from the venv dir: from the repo root, the source tree's torch/ would be imported
    if python.exists() and subprocess.run([python, "-c", probe], cwd=venv, capture_output=True).returncode == 0:
        return str(python)
    session.run("python", "-m", "venv", "--clear", str(venv))
    session.run(str(python), "-m", "pip", "install", "-q", "--no-compile", "torch==2.13.0", "numpy", "expecttest",
                external=True)  # fmt: skip
    return str(python)


def _fuzz(session: nox.Session, env: dict[str, str], *args: str) -> None:
    """`python -m tools.fuzz` with the session's build as ours and upstream from `_reference_python`;
    the report goes to build/nox-<session>/fuzz/."""
    build_dir = ROOT / "build" / f"nox-{session.name}"
    reference = _reference_python(session, build_dir / "reference")
    env = dict(env, PYTHONSAFEPATH="")  # the runner imports tools/ from the root (its workers never do)
    session.run(
        "python", "-m", "tools.fuzz", "--reference", reference, "--out", str(build_dir / "fuzz"), *args, env=env
    )


@nox.session(name="tests-cpu")
def tests_cpu(session: nox.Session) -> None:
    """CPU-only build (USE_CUDA=0) and every suite (suites.ALL; GPU tests skip); then a short differential fuzz
    (10,000 seeded calls against upstream, ~15 s): fails on a crash or hang of ours, or a divergence not
    in tools/fuzz/known.txt."""
    env = _build_and_test(session, "0")
    _fuzz(session, env, "--calls", "10000", "--seed", "0", "--jobs", "2", "--minimize-budget", "10", "--quiet")


@nox.session(name="tests-cuda")
def tests_cuda(session: nox.Session) -> None:
    """CUDA build (nvcc compiles every .cu) and all suites; GPU tests skip without a GPU. Without nvcc the
    session skips with its reason, except under CI (CI=true), which must compile every .cu file."""
    from tools.builder import find_nvcc

    if not find_nvcc():
        why = "tests-cuda needs nvcc (CUDACXX, PATH, $CUDA_HOME/bin or /usr/local/cuda/bin); see `invoke doctor`"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            session.error(f"{why}. CI requires it: every .cu file must compile and link")
        session.skip(why)
    _build_and_test(session, "1")


@nox.session(name="tests-sanitize")
def tests_sanitize(session: nox.Session) -> None:
    """The tensor and autograd suites on an ASan+UBSan build (USE_CUDA=0) in build/nox-tests-sanitize.
    Not a default session: the instrumented build takes ~3 min cold on 2 cores."""
    _build_and_test(session, "0", "address,undefined", suites.CORE)


@nox.session(name="tests-tsan")
def tests_tsan(session: nox.Session) -> None:
    """The threading tests (tests/tensor/test_hardening.py -k thread: ops, indexing, backward and random
    draws on four Python threads, the GIL released around their kernels) on a ThreadSanitizer build, which
    has no OpenMP (TSan cannot see libgomp's fork and join). A data race fails the run. Not a default
    session (~1.5 min cold)."""
    _build_and_test(session, "0", "thread", suites.THREADS)


@nox.session
def fuzz(session: nox.Session) -> None:
    """The differential fuzz (tools/fuzz) at length, not a default session: a CPU build in build/nox-fuzz,
    upstream PyTorch 2.13 in a venv beside it, 100,000 seeded calls; the arguments after `--` override
    (`nox -s fuzz -- --calls 20000 --seed 7`; `nox -s fuzz -- --opinfo` runs the ~60,000 sample inputs of
    upstream's OpInfo database instead, ~3 min after ~9 min writing them once). Report:
    build/nox-fuzz/fuzz/summary.txt, *.jsonl."""
    _install(session, "build")
    env = _build(session, "0")
    _fuzz(session, env, "--calls", "100000", "--seed", "0", "--jobs", "2", *session.posargs)


@nox.session(name="tests-build")
def tests_build(session: nox.Session) -> None:
    """The dev-loop contracts: builds throwaway copies of the repo (warm ccache) and checks each."""
    _install(session, "build", "test", "tasks", "cache-server")
    session.run("pytest", *suites.BUILD, *session.posargs, env={"PYTHONSAFEPATH": "1"})


@nox.session
def lint(session: nox.Session) -> None:
    """ruff (check + format) on Python, clang-format on C++/CUDA, at the versions the lint group pins.
    `nox -s lint -- --fix` fixes what they can instead of failing (ruff --fix, ruff format, clang-format -i);
    other arguments go to `ruff check`."""
    _install(session, "lint")
    fix = "--fix" in session.posargs
    extra = [a for a in session.posargs if a != "--fix"]
    sources = sorted(
        str(p.relative_to(ROOT)) for ext in ("*.h", "*.cpp", "*.cu", "*.cuh") for p in (ROOT / "aten").rglob(ext)
    ) + sorted(str(p.relative_to(ROOT)) for ext in ("*.h", "*.cpp") for p in (ROOT / "torch" / "csrc").rglob(ext))
    if fix:
        session.run("ruff", "check", "--fix", *extra, ".")
        session.run("ruff", "format", ".")
        session.run("clang-format", "-i", *sources)
        return
    session.run("ruff", "check", *extra, ".")
    session.run("ruff", "format", "--check", ".")
    session.run("clang-format", "--dry-run", "-Werror", *sources)


@nox.session
def docs(session: nox.Session) -> None:
    """The docs (Sphinx with the furo theme, docs/): the API reference from the docstrings of this session's own
    CPU build, and the contributor guide (README's text, included), warnings as errors, into build/docs/nox/html."""
    t0 = time.perf_counter()
    _install(session, "build", "docs")
    env = _build(session, "0")
    out = ROOT / "build" / "docs" / "nox"
    session.run("sphinx-build", "-W", "--keep-going", "-q", "-b", "html", "-d", str(out / "doctrees"),
                str(ROOT / "docs"), str(out / "html"), env=env)  # fmt: skip
    session.log(f"docs: {out / 'html' / 'index.html'} in {time.perf_counter() - t0:.0f}s")


@nox.session(venv_backend="virtualenv")
def wheel(session: nox.Session) -> None:
    """The wheel as a user gets it: `pip wheel .` (an isolated build through scikit-build-core, every compile
    through ccache: CCACHE_DIR, else .ccache/ of the checkout) into build/dist/; then installed, with nothing
    else of this checkout, into this session's fresh venv, where the smoke check, the core suites and the C++
    extensions (against the wheel's headers) run against the installed copy (from outside the checkout, so
    `import torch` cannot find the source tree); then `auditwheel show` names the manylinux tag the wheel
    qualifies for. Not a default session (a cold build is minutes; with a warm ccache ~1 min).
    `nox -s wheel -- -k relu` passes pytest arguments."""
    import shutil
    import tempfile

    dist = ROOT / "build" / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    t0 = time.perf_counter()
    session.run("python", "-m", "pip", "wheel", ".", "--no-deps", "-w", str(dist))
    built = next(dist.glob("torch_th-*.whl"))
    t_build = time.perf_counter() - t0
    session.install(f"{built}[cpp-extension]", *nox.project.dependency_groups(PYPROJECT, "test"), "auditwheel")
    outside = Path(tempfile.mkdtemp(prefix="torch-wheel-"))
    session.chdir(outside)
    env = {"PYTHONSAFEPATH": "1"}
    check = (
        "import torch, numpy as np; from pathlib import Path; "
        "assert 'site-packages' in torch.__file__, torch.__file__; "
        "a = np.random.default_rng(0).normal(size=(3, 4)); t = torch.tensor(a, requires_grad=True); "
        "np.testing.assert_allclose((t @ t.T).detach().numpy(), a @ a.T); (t * t).sum().backward(); "
        "np.testing.assert_allclose(t.grad.numpy(), 2 * a); print('wheel smoke: ok,', torch.__file__)"
    )
    session.run("python", "-c", check, env=env)
    suites_here = [str(ROOT / s) for s in (*suites.CORE, *suites.EXTENSIONS)]  # extensions: the wheel's headers
    session.run("pytest", "-q", "-n", "auto", "-p", "no:cacheprovider", "--rootdir", str(ROOT), *suites_here,
                *session.posargs, env=env)  # fmt: skip
    session.run("auditwheel", "show", str(built))
    size = built.stat().st_size / 2**20
    session.log(f"wheel: {built.name}, {size:.1f} MiB, built in {t_build:.0f}s, total {time.perf_counter() - t0:.0f}s")


@nox.session(name="tests-reference", venv_backend="virtualenv")
def tests_reference(session: nox.Session) -> None:
    """The PyTorch-compatible suites against upstream PyTorch 2.13 (CPU) in its own venv: checks our tests encode
    PyTorch's semantics. pip (not uv) so the locally provided torch wheel is found."""
    session.install("torch==2.13.0", "numpy", *nox.project.dependency_groups(PYPROJECT, "test"))
    env = {"PYTHONSAFEPATH": "1", "TORCH_REFERENCE": "1"}
    session.run("pytest", "-n", "auto", *suites.REFERENCE, *session.posargs, env=env)
