"""Invoke tasks: the contributor's inner loop (`invoke --list`).

    invoke develop                  configure if needed, build, make the source tree importable
    invoke rebuild-lib --name TH    rebuild one backend library and nothing else
    invoke gen-bindings             regenerate torch._C binding code from native_functions.yaml
    invoke relink                   rebuild and relink the torch._C extension only
    invoke test / bench / doctor / ccache-stats / configure / clean

Knobs come from the environment with PyTorch's names: USE_CUDA=auto|1|0, DEBUG=1,
REL_WITH_DEB_INFO=1, TORCH_CUDA_ARCH_LIST, MAX_JOBS, CMAKE_FRESH=1.
Every task prints what it did and how long it took; failures exit non-zero with the fix.
"""

from __future__ import annotations

import os
import sys
import time
from contextlib import contextmanager

sys.dont_write_bytecode = False  # cache tools/' bytecode even under PYTHONDONTWRITEBYTECODE (faster tasks)

from invoke import Exit, task  # noqa: E402  (after the bytecode switch above)

from tools import builder  # noqa: E402
from tools.builder import PTH_NAME, ROOT, BuildFailure, Config, say  # noqa: E402

DEVELOP_DIR = ROOT / "build" / "develop"


def _config() -> Config:
    try:
        return Config.from_env(DEVELOP_DIR, ROOT / "torch")
    except BuildFailure as e:
        raise Exit(f"[torch] {e}", code=2) from None


@contextmanager
def _step(what: str):
    """Times a task, holding build/develop's lock (a second build task waits for the first); turns build
    failures into a clean non-zero exit."""
    t0 = time.perf_counter()
    try:
        with builder.build_lock(DEVELOP_DIR):
            yield
    except BuildFailure as e:
        raise Exit(f"[torch] {what}: FAILED after {time.perf_counter() - t0:.2f}s: {e}", code=1) from None
    say(f"{what}: done in {time.perf_counter() - t0:.2f}s")


def _upstream_torch() -> str | None:
    """A description of an upstream PyTorch installed in this environment, if any.

    Looks for a `torch-*.dist-info` (or `.egg-info`) on sys.path by name, as importlib.metadata
    would, but without importing it: that import alone is ~60 ms of a 0.3 s no-op develop."""
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            stem, _, kind = name.rpartition(".")
            if kind in ("dist-info", "egg-info") and stem.lower().startswith("torch-"):
                version = stem.split("-")[1]
                return f"PyTorch {version} (pip distribution 'torch' in {entry})"
    from importlib import util

    spec = util.find_spec("torch")
    origin = spec.origin if spec else None
    if origin and not origin.startswith(str(ROOT / "torch")):
        return f"a torch package at {origin}"
    return None


def _ensure_pth() -> bool:
    """Puts the repo on sys.path of this environment (like `pip install -e`); True if written."""
    import sysconfig

    site = sysconfig.get_paths()["purelib"]
    pth = os.path.join(site, PTH_NAME)
    want = f"{ROOT}\n"
    try:
        with open(pth) as f:
            if f.read() == want:
                return False
    except FileNotFoundError:
        pass
    try:
        with open(pth, "w") as f:
            f.write(want)
    except OSError as e:
        raise Exit(f"[torch] develop: cannot write {pth} ({e}); use a virtualenv you own", code=1) from None
    return True


@task
def configure(c, fresh=False):
    """(Re)configure build/develop with CMake now (develop does this only when needed)."""
    cfg = _config()
    if fresh:
        os.environ["CMAKE_FRESH"] = "1"
    with _step("configure"):
        builder.configure(cfg, force=True)


@task
def build(c):
    """Configure if needed and build every target of build/develop."""
    with _step("build"):
        builder.build(_config())


@task
def develop(c):
    """Configure if needed, build, and make this source tree the `torch` of this environment."""
    other = _upstream_torch()
    if other:
        raise Exit(
            f"[torch] develop: refusing to install into {sys.prefix}: it already has {other}.\n"
            "  Our package is also called `torch`; the two must never share an environment.\n"
            "  Use a fresh one:  python3 -m venv .venv && . .venv/bin/activate && "
            "python -m pip install --group dev && invoke develop",
            code=1,
        )
    with _step("develop"):
        cfg = _config()
        builder.build(cfg)
        link = ROOT / "compile_commands.json"  # for clangd and other IDE tooling
        if not link.is_symlink():
            link.symlink_to(DEVELOP_DIR / "compile_commands.json")
        if _ensure_pth():
            say(f"develop: {ROOT} is now importable as `torch` in {sys.prefix}")
        if cfg.sanitize:  # `invoke test` sets this environment itself
            env = " ".join(f"{k}='{v}'" for k, v in builder.sanitizer_env(DEVELOP_DIR).items())
            say(f"develop: a SANITIZE={cfg.sanitize} build: run Python with {env}")


@task(help={"name": "one of TH, THNN, THC, THCUNN"})
def rebuild_lib(c, name):
    """Rebuild one backend library (and only what it needs); _C is not relinked."""
    if name not in builder.LIBRARIES:
        raise Exit(f"[torch] rebuild-lib: unknown library '{name}'; valid: {', '.join(builder.LIBRARIES)}", code=2)
    cfg = _config()
    cuda = name in builder.CUDA_LIBRARIES
    with _step(f"rebuild-lib {name}"):
        if cuda and cfg.use_cuda == "0":  # refused before configuring: a CUDA build dir stays one
            knob = f"SANITIZE={cfg.sanitize}" if cfg.sanitize else "USE_CUDA=0"
            raise BuildFailure(_cpu_only(name, f"{knob} asks for a CPU-only build"))
        builder.configure(cfg)
        if cuda and not cfg.cuda_enabled():
            raise BuildFailure(_cpu_only(name, f"USE_CUDA={cfg.use_cuda} found no nvcc, so {DEVELOP_DIR} is CPU-only"))
        builder.ninja(cfg, [name])


def _cpu_only(name: str, why: str) -> str:
    return (
        f"{name} is a CUDA library, and {why}: it has no {name} target. Enable CUDA with `USE_CUDA=1 invoke "
        "develop` (or USE_CUDA=auto, the default, with nvcc on PATH, in $CUDA_HOME/bin or /usr/local/cuda/bin; "
        "`invoke doctor` shows what is found), then `invoke rebuild-lib --name " + name + "`"
    )


def _targets(what: str, *targets: str) -> None:
    """Configure if needed, then build just `targets`."""
    cfg = _config()
    with _step(what):
        builder.configure(cfg)
        builder.ninja(cfg, list(targets))


@task
def gen_bindings(c):
    """Regenerate the torch._C binding shards, _C.pyi and the autograd nodes (only changed files)."""
    _targets("gen-bindings", "gen_bindings", "gen_autograd")


@task
def relink(c):
    """Recompile changed binding shards and relink the torch._C extension."""
    _targets("relink", "_C_install")  # links _C, then installs it into torch/ once it loads


@task
def clean(c):
    """Remove build/develop and the develop outputs in torch/ (the ccache is kept)."""
    import shutil

    with _step("clean"):
        removed = []
        for p in [DEVELOP_DIR, ROOT / "torch" / "lib", ROOT / "torch" / "_C.pyi", *(ROOT / "torch").glob("_C*.so")]:
            if p.is_dir():
                shutil.rmtree(p)
            elif p.exists():
                p.unlink()
            else:
                continue
            removed.append(str(p.relative_to(ROOT)))
        say(f"clean: removed {', '.join(removed) or 'nothing'}")


@task
def doctor(c):
    """Show the toolchain that was found, and how to install what is missing."""
    from tools import doctor as doc

    if not doc.report():
        raise Exit(code=1)


@task
def ccache_stats(c, zero=False):
    """Print ccache statistics (hit rate) of the cache the builds use; --zero resets them."""
    from tools import ccache

    if zero:
        ccache.zero_stats()
    print(ccache.stats_text())


@task(help={"args": "extra pytest arguments", "cuda": "include the CUDA suite (skips without a GPU)"})
def test(c, args="", cuda=True):
    """Fast pytest run on the develop build (tensor, nn, codegen and, if built, CUDA suites)."""
    develop(c)
    suites = ["tests/tensor", "tests/autograd", "tests/nn", "tests/codegen"] + (["tests/cuda"] if cuda else [])
    t0 = time.perf_counter()
    env = builder.sanitizer_env(DEVELOP_DIR)  # a SANITIZE build: its runtime preloaded
    res = c.run(f"{sys.executable} -m pytest -q -n auto {' '.join(suites)} {args}", warn=True, pty=False, env=env)
    say(f"test: {'passed' if res.ok else 'FAILED'} in {time.perf_counter() - t0:.2f}s")
    if not res.ok:
        raise Exit(code=res.exited)


@task
def smoke(c):
    """Import the develop build and check a few ops against NumPy (README's first command)."""
    c.run(f"{sys.executable} -m tools.smoke", pty=False)


@task(
    help={"only": "comma-separated dev-loop rows to run (default: all)", "ops": "op timings vs NumPy/upstream instead"}
)
def bench(c, only="", ops=False, autograd=False):
    """The dev-loop table (bench/devloop.py, each step next to its floor); --ops: op timings (bench/ops.py);
    --autograd: backward timings (bench/autograd.py). Op and autograd rows are ratios to upstream PyTorch."""
    if ops or autograd:
        develop(c)
        c.run(f"{sys.executable} bench/{'ops' if ops else 'autograd'}.py", pty=False)
    else:
        c.run(f"{sys.executable} bench/devloop.py {('--only ' + only) if only else ''}", pty=False)
