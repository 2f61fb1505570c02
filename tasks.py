"""Invoke tasks: the contributor's inner loop (`invoke --list`).

    invoke develop                  configure if needed, build, make the source tree importable
    invoke rebuild-lib --name TH    rebuild one backend library and nothing else
    invoke gen-bindings             regenerate torch._C binding code from native_functions.yaml
    invoke relink                   rebuild and relink the torch._C extension only
    invoke test / bench / doctor / ccache-stats / configure / clean
    invoke python / ipython / gdb   an interpreter (or gdb) on the develop build

Knobs come from the environment with PyTorch's names: USE_CUDA=auto|1|0, DEBUG=1,
REL_WITH_DEB_INFO=1, TORCH_CUDA_ARCH_LIST, MAX_JOBS, CMAKE_FRESH=1, SANITIZE (`invoke --help develop`).
Every task prints each command it runs before running it (`$ .venv/bin/ninja -C build/develop -j2`: a line
to copy into a shell), then what it did and how long it took; failures exit non-zero with the fix.
"""

from __future__ import annotations

import os
import shlex
import sys
import time
from contextlib import contextmanager

sys.dont_write_bytecode = False  # cache tools/' bytecode even under PYTHONDONTWRITEBYTECODE (faster tasks)

from invoke import Exit, task  # noqa: E402  (after the bytecode switch above)

from tools import builder  # noqa: E402
from tools.builder import ROOT, BuildFailure, Config, say  # noqa: E402

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
    """Configure if needed, build, and make this source tree the `torch` of this environment.

    Knobs (environment variables, PyTorch's names; a change reconfigures build/develop):
      USE_CUDA=auto|1|0        THC/THCUNN: auto builds them when nvcc is found (CUDACXX, PATH, $CUDA_HOME/bin,
                               /usr/local/cuda/bin), 1 requires them, 0 builds for the CPU only
      DEBUG=1                  -O0 -g build (for `invoke gdb`); REL_WITH_DEB_INFO=1: -O2 -g
      SANITIZE=address,undefined | thread
                               instrumented CPU build (`invoke test` preloads the runtime)
      TORCH_CUDA_ARCH_LIST     GPU architectures, e.g. "8.0;9.0" (default: the GPUs present, else 7.5+PTX)
      MAX_JOBS                 parallel compile jobs (default: as many as cores and memory allow)
      CMAKE_FRESH=1            reconfigure from scratch
      CCACHE_DIR               the compile cache (default: .ccache/ in the checkout)
      TORCH_CCACHE_REMOTE      a team's shared compile cache (ccache's remote_storage), e.g. redis://host:6379
      CC, CXX, CUDACXX, CUDA_HOME
                               the compilers
      NINJA_STATUS             Ninja's progress line (default: "[%p %f/%t %es] ": percent, edges, seconds)
    """
    with _step("develop"):
        builder.develop(_config())


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
    """Print ccache statistics of the cache the builds use (hit rate; local and, with TORCH_CCACHE_REMOTE, remote
    hits); --zero resets them."""
    from tools import ccache

    if zero and ccache.installed():
        _run(ccache.command("--zero-stats"))
    say(ccache.summary())
    if ccache.installed():
        _run(ccache.command("--show-stats"))


@task(
    help={
        "args": "extra pytest arguments, e.g. --args '-k relu -x' (or after `--`: invoke test -- -k relu -x)",
        "cuda": "include the CUDA suite (skips without a GPU)",
    }
)
def test(c, args="", cuda=True):
    """Fast pytest run on the develop build, after `develop`: every suite (tools/suites.py's ALL).
    That is tensor, autograd, nn, codegen, CUDA (skips without a GPU; --no-cuda leaves it out) and fuzz."""
    from tools import suites

    develop(c)
    paths = [s for s in suites.ALL if cuda or s not in suites.CUDA]
    t0 = time.perf_counter()
    env = builder.sanitizer_env(DEVELOP_DIR)  # a SANITIZE build: its runtime preloaded
    cmd = [sys.executable, "-m", "pytest", "-q", "-n", "auto", *paths, *shlex.split(args), *_after_dashes()]
    rc = builder.run(cmd, env=env, check=False)
    say(f"test: {'passed' if rc == 0 else 'FAILED'} in {time.perf_counter() - t0:.2f}s")
    if rc != 0:
        raise Exit(code=rc)


@task
def docs(c):
    """Build the docs (Sphinx, docs/) against the develop build into build/docs/develop/html, warnings as errors, as
    `nox -s docs` does in CI; Sphinx rebuilds only the pages whose sources changed."""
    develop(c)
    t0 = time.perf_counter()
    out = ROOT / "build" / "docs" / "develop"
    _run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", "-d", str(out / "doctrees"),
          str(ROOT / "docs"), str(out / "html")])  # fmt: skip
    say(f"docs: {out / 'html' / 'index.html'} in {time.perf_counter() - t0:.2f}s")


def _after_dashes() -> list[str]:
    """What follows `--` on invoke's command line (`invoke test -- -k relu`): Invoke parses it off as its
    "remainder" and gives it to no task, so it is read here, split where Invoke splits it (the first `--`)."""
    return sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else []


def _run(cmd: list[str]) -> None:
    """builder.run (echoed), a failure passed on as this task's exit status."""
    rc = builder.run(cmd, check=False)
    if rc != 0:
        raise Exit(code=rc)


@task
def smoke(c):
    """Import the develop build and check a few ops against NumPy (README's first command)."""
    _run([sys.executable, "-m", "tools.smoke"])


@task(
    help={
        "only": "comma-separated dev-loop rows to run (default: all)",
        "ops": "op timings vs NumPy/upstream instead",
        "autograd": "backward timings vs upstream instead",
        "nn": "NN layer and training-step timings vs upstream instead",
    }
)
def bench(c, only="", ops=False, autograd=False, nn=False):
    """The dev-loop table (bench/devloop.py, each step next to its floor); --ops: op timings (bench/ops.py);
    --autograd: backward timings (bench/autograd.py); --nn: conv, softmax, layer_norm and training steps
    (bench/nn.py). Op, autograd and NN rows are ratios to upstream PyTorch."""
    if ops or autograd or nn:
        develop(c)
        _run([sys.executable, str(ROOT / "bench" / f"{'ops' if ops else 'autograd' if autograd else 'nn'}.py")])
    else:
        _run([sys.executable, str(ROOT / "bench" / "devloop.py"), *(["--only", only] if only else [])])


def _interpreter(program: list[str]) -> None:
    """Replaces this process with `program` (after `develop`): the develop build's environment (a sanitizer
    build's runtime preloaded), and the arguments after `--` appended."""
    env = {**os.environ, **builder.sanitizer_env(DEVELOP_DIR)}
    cmd = [*program, *_after_dashes()]
    print(f"$ {builder.shown(cmd)}", flush=True)
    sys.stdout.flush()
    os.execvpe(cmd[0], cmd, env)


@task
def python(c):
    """Build (develop), then start Python on the develop build: `invoke python -- script.py args` runs a
    script, `invoke python -- -c "import torch; ..."` a command."""
    develop(c)
    _interpreter([sys.executable])


@task
def ipython(c):
    """Build (develop), then start IPython on the develop build (IPython is not a dependency: `pip install
    ipython` into this environment first)."""
    import importlib.util

    if importlib.util.find_spec("IPython") is None:
        raise Exit(f"[torch] ipython: IPython is not installed here: {sys.executable} -m pip install ipython", code=2)
    develop(c)
    _interpreter([sys.executable, "-m", "IPython"])


@task
def gdb(c):
    """Build (develop), then run Python under gdb on the develop build, stopping on a crash with the
    backtrace at hand: `invoke gdb -- script.py args`. Build with symbols first (`DEBUG=1 invoke develop`,
    -O0, or REL_WITH_DEB_INFO=1); without them gdb shows function names only, and this says so."""
    import shutil

    gdb_path = shutil.which("gdb")
    if not gdb_path:
        raise Exit("[torch] gdb: gdb is not installed (apt-get install gdb)", code=2)
    develop(c)
    if _config().build_type not in ("Debug", "RelWithDebInfo"):
        say("gdb: build/develop has no debug symbols; rebuild with `DEBUG=1 invoke develop` for line numbers")
    _interpreter([gdb_path, "-q", "-ex", "set breakpoint pending on", "-ex", "run", "--args", sys.executable])
