"""The build driver behind tasks.py and noxfile.py: configure only when the configuration
changed, then one Ninja call for the requested targets.

Knobs (environment, PyTorch's names): USE_CUDA=auto|1|0, DEBUG=1, REL_WITH_DEB_INFO=1,
TORCH_CUDA_ARCH_LIST="8.0;9.0+PTX", MAX_JOBS=N, CMAKE_FRESH=1. Kept light: `invoke develop`
on an up-to-date tree must take well under 0.3 s, most of it Python start-up.
"""

from __future__ import annotations

import hashlib
import json
import os
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
PTH_NAME = "torch-develop.pth"  # what `invoke develop` writes into the environment's site-packages


class BuildFailure(Exception):
    """A build step failed; the message says which and how to fix it."""


def _truthy(value: str | None) -> bool:
    return (value or "").strip().upper() in ("1", "ON", "YES", "TRUE")


def say(msg: str) -> None:
    """Prints a progress line of the dev loop."""
    print(f"[torch] {msg}", flush=True)


def tool(name: str, python: str | None = None) -> str:
    """A build tool (cmake, ninja, ccache) from the scripts directory of the environment that
    `python` (default: this interpreter) lives in, else from PATH. So `.venv/bin/invoke` uses the
    venv's pip-installed tools without an activated venv, and never a pyenv shim (~70 ms a call)."""
    local = Path(python or sys.executable).parent / name
    return str(local) if os.access(local, os.X_OK) else (shutil.which(name) or name)


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
    if os.environ.get("MAX_JOBS"):
        return max(1, int(os.environ["MAX_JOBS"]))
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

    @classmethod
    def from_env(cls, build_dir: Path, package_dir: Path, **overrides) -> Config:
        """The configuration the environment's knobs ask for."""
        env = os.environ
        build_type = (
            "Debug"
            if _truthy(env.get("DEBUG"))
            else ("RelWithDebInfo" if _truthy(env.get("REL_WITH_DEB_INFO")) else "Release")
        )
        use_cuda = env.get("USE_CUDA", "auto").strip() or "auto"
        if use_cuda.lower() not in ("auto", "0", "1", "on", "off"):
            raise BuildFailure(f"USE_CUDA must be auto, 1 or 0, not '{use_cuda}'")
        cfg = cls(Path(build_dir), Path(package_dir), use_cuda, build_type, env.get("TORCH_CUDA_ARCH_LIST", ""))
        for k, v in overrides.items():
            setattr(cfg, k, v)
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
        ]
        archs = self.cuda_arch_list
        if not archs and self.use_cuda.lower() not in ("0", "off"):
            archs = default_cuda_archs() if detect_archs else "detected"
        if archs:
            args.append(f"-DTORCH_CUDA_ARCH_LIST={archs}")
        return args

    def fingerprint(self) -> str:
        """Hash of everything that decides the configure step (args and compiler environment)."""
        env = {k: os.environ.get(k, "") for k in ("CC", "CXX", "CUDACXX", "CCACHE_DIR", "CUDA_HOME")}
        blob = json.dumps({"args": self.cmake_args(detect_archs=False), "env": env}, sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def cuda_enabled(self) -> bool:
        """Whether this (configured) build has THC/THCUNN."""
        return (self.build_dir / "aten/src/THC").is_dir()


def run(cmd: list[str], **kw) -> None:
    """Runs a command with inherited output; BuildFailure on a non-zero exit."""
    try:
        rc = subprocess.call(cmd, **kw)
    except FileNotFoundError:
        raise BuildFailure(f"'{cmd[0]}' not found: run `invoke doctor` to see what is missing") from None
    if rc != 0:
        raise BuildFailure(f"`{' '.join(cmd[:4])} ...` failed (exit {rc})")


def configure(cfg: Config, force: bool = False) -> bool:
    """Runs CMake if the build dir is new or the configuration changed; True if it ran.

    With CMAKE_FRESH=1 the cache is discarded (object files are kept: ccache and Ninja
    then redo only what the new flags change). Edits to CMakeLists are Ninja's business:
    it re-runs CMake itself when they change.
    """
    stamp = cfg.build_dir / STAMP
    fingerprint = cfg.fingerprint()
    fresh = _truthy(os.environ.get("CMAKE_FRESH"))
    if not force and not fresh and (cfg.build_dir / "build.ninja").exists():
        try:
            if json.loads(stamp.read_text())["fingerprint"] == fingerprint:
                return False
        except (OSError, ValueError, KeyError):
            pass
    t0 = time.perf_counter()
    say(f"configuring {cfg.build_dir} (USE_CUDA={cfg.use_cuda}, {cfg.build_type})")
    if fresh and (cfg.build_dir / "CMakeCache.txt").exists():
        (cfg.build_dir / "CMakeCache.txt").unlink()
    args = cfg.cmake_args()
    run(args)
    cfg.build_dir.mkdir(parents=True, exist_ok=True)
    record = {"fingerprint": fingerprint, "config": asdict(cfg), "cmake": args}
    stamp.write_text(json.dumps(record, default=str, indent=1))
    say(f"configured in {time.perf_counter() - t0:.1f}s")
    return True


def ninja(cfg: Config, targets: list[str]) -> None:
    """Builds `targets` (all when empty) with Ninja, MAX_JOBS jobs."""
    cmd = [tool("ninja", cfg.python), "-C", str(cfg.build_dir), f"-j{max_jobs()}", *targets]
    run(cmd)


def build(cfg: Config, targets: list[str] | None = None) -> float:
    """Configures if needed and builds; returns the seconds it took."""
    t0 = time.perf_counter()
    configure(cfg)
    ninja(cfg, targets or [])
    return time.perf_counter() - t0


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


def sync_python_sources(dest: Path) -> int:
    """Mirrors torch/**/*.py into `dest` (a session's package dir); returns files copied."""
    src = ROOT / "torch"
    copied, wanted = 0, set()
    for f in src.rglob("*.py"):
        rel = f.relative_to(src)
        if rel.parts[0] == "csrc":
            continue
        wanted.add(rel)
        out = dest / rel
        if not out.exists() or out.stat().st_mtime_ns != f.stat().st_mtime_ns:
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(f, out)
            copied += 1
    for f in dest.rglob("*.py"):
        if f.relative_to(dest) not in wanted:
            f.unlink()
    return copied


def main(argv: list[str] | None = None) -> int:
    """python -m tools.builder --build-dir B --package-dir P [--sync-python] [targets...]

    Builds one configuration with the current interpreter (nox sessions run this inside
    their venv, so that venv's cmake, ninja, ccache and nanobind are the ones used).
    """
    import argparse

    ap = argparse.ArgumentParser(prog="python -m tools.builder", description=main.__doc__.splitlines()[0])
    ap.add_argument("--build-dir", type=Path, required=True)
    ap.add_argument("--package-dir", type=Path, required=True, help="receives _C and lib/")
    ap.add_argument("--sync-python", action="store_true", help="mirror torch/**/*.py into the package dir")
    ap.add_argument("targets", nargs="*")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    try:
        cfg = Config.from_env(args.build_dir.resolve(), args.package_dir.resolve())
        if args.sync_python:
            n = sync_python_sources(cfg.package_dir)
            say(f"synced {n} changed Python file(s) into {cfg.package_dir}")
        build(cfg, args.targets)
    except BuildFailure as e:
        say(f"build FAILED: {e}")
        return 1
    say(f"built {cfg.build_dir} in {time.perf_counter() - t0:.2f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
