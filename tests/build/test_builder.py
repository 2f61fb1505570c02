"""tools/builder.py's configuration logic, without building anything."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools import builder


def _cfg(monkeypatch, **env) -> builder.Config:
    for k in ("USE_CUDA", "TORCH_CUDA_ARCH_LIST", "DEBUG", "REL_WITH_DEB_INFO"):
        monkeypatch.delenv(k, raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    return builder.Config.from_env(Path("/tmp/b"), Path("/tmp/p"))


def test_no_op_fingerprint_does_not_probe_gpus(monkeypatch):
    """nvidia-smi costs ~0.1 s: a no-op `invoke develop` must not run it, only cmake does."""
    cfg = _cfg(monkeypatch)
    monkeypatch.setattr(builder, "default_cuda_archs", lambda: pytest.fail("GPU probe on a no-op"))
    first = cfg.fingerprint()
    assert cfg.fingerprint() == first
    monkeypatch.setattr(builder, "default_cuda_archs", lambda: "9.0")
    assert "-DTORCH_CUDA_ARCH_LIST=9.0" in cfg.cmake_args()


def test_fingerprint_follows_the_knobs(monkeypatch):
    base = _cfg(monkeypatch).fingerprint()
    assert _cfg(monkeypatch, TORCH_CUDA_ARCH_LIST="8.0").fingerprint() != base
    assert _cfg(monkeypatch, USE_CUDA="0").fingerprint() != base
    assert _cfg(monkeypatch, DEBUG="1").fingerprint() != base
    assert "-DTORCH_CUDA_ARCH_LIST" not in " ".join(_cfg(monkeypatch, USE_CUDA="0").cmake_args())


def test_bad_knob_is_a_clear_failure(monkeypatch):
    with pytest.raises(builder.BuildFailure, match="USE_CUDA must be auto, 1 or 0"):
        _cfg(monkeypatch, USE_CUDA="maybe")


def test_build_tools_come_from_the_interpreters_environment(tmp_path, monkeypatch):
    """`.venv/bin/invoke` without an activated venv must still use the venv's ninja and cmake."""
    bin_dir = tmp_path / "venv" / "bin"
    bin_dir.mkdir(parents=True)
    python = bin_dir / "python"
    for name in ("ninja", "cmake"):
        (bin_dir / name).write_text("#!/bin/sh\n")
        (bin_dir / name).chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert builder.tool("ninja", str(python)) == str(bin_dir / "ninja")
    cfg = _cfg(monkeypatch)
    cfg.python = str(python)
    args = cfg.cmake_args(detect_archs=False)
    assert args[0] == str(bin_dir / "cmake") and f"-DCMAKE_MAKE_PROGRAM={bin_dir / 'ninja'}" in args
    (bin_dir / "ninja").chmod(0o644)  # not executable: not a tool; nothing on PATH either
    assert builder.tool("ninja", str(python)) == "ninja"
