"""tools/builder.py's configuration logic, without building anything."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tools import builder

KNOBS = ("USE_CUDA", "TORCH_CUDA_ARCH_LIST", "DEBUG", "REL_WITH_DEB_INFO", "MAX_JOBS", "CMAKE_FRESH", "SANITIZE", "TORCH_CCACHE_REMOTE")


def _cfg(monkeypatch, **env) -> builder.Config:
    for k in KNOBS:
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


def test_a_remote_cache_is_part_of_the_configuration_and_its_password_is_never_shown(monkeypatch):
    base = _cfg(monkeypatch).fingerprint()
    url = "redis://:s3cret@cache.example:6379|connect-timeout=500"
    assert _cfg(monkeypatch, TORCH_CCACHE_REMOTE=url).fingerprint() != base
    assert _cfg(monkeypatch, TORCH_CCACHE_REMOTE="http://cache.example/c file:/srv/cc|read-only")
    line = builder.shown(["cmake", "-S", "."], {"TORCH_CCACHE_REMOTE": url})
    assert "s3cret" not in line and "redis://:***@cache.example:6379" in line
    with pytest.raises(builder.BuildFailure) as e:
        _cfg(monkeypatch, TORCH_CCACHE_REMOTE="redis://:s3cret@cache.example:6379 ftp://u:pw@x")
    assert "'ftp://u:***@x'" in str(e.value) and "s3cret" not in str(e.value) and "pw@" not in str(e.value)


def test_bad_knob_is_a_clear_failure(monkeypatch):
    with pytest.raises(builder.BuildFailure, match="USE_CUDA must be auto, 1 or 0"):
        _cfg(monkeypatch, USE_CUDA="maybe")


@pytest.mark.parametrize(
    "knob, value, allowed",
    [
        ("MAX_JOBS", "abc", "positive integer"),
        ("MAX_JOBS", "0", "positive integer"),
        ("MAX_JOBS", "-3", "positive integer"),
        ("MAX_JOBS", "1.5", "positive integer"),
        ("USE_CUDA", "2", "auto, 1 or 0"),
        ("DEBUG", "please", "1 or 0"),
        ("REL_WITH_DEB_INFO", "2", "1 or 0"),
        ("CMAKE_FRESH", "sure", "1 or 0"),
        ("TORCH_CUDA_ARCH_LIST", "garbage", "7.5, 8.0, 9.0a or 9.0+PTX"),
        ("TORCH_CUDA_ARCH_LIST", "8.0;sm_90", "'sm_90'"),
        ("TORCH_CUDA_ARCH_LIST", "9.0+ptx", "'9.0+ptx'"),
        ("TORCH_CUDA_ARCH_LIST", " ; ", "separated by"),
        ("SANITIZE", "memory", "address, undefined, thread"),
        ("SANITIZE", "address,thread", "cannot be combined"),
        ("TORCH_CCACHE_REMOTE", "ftp://cache.example", "redis://HOST[:PORT]"),
        ("TORCH_CCACHE_REMOTE", "cache.example:6379", "redis://HOST[:PORT]"),
        ("TORCH_CCACHE_REMOTE", "http//typo", "'http//typo'"),
    ],
)
def test_every_knob_is_checked_before_anything_runs(monkeypatch, knob, value, allowed):
    """A bad value is refused with the knob's name and what it accepts, never a traceback, never
    silently bent (MAX_JOBS=0 used to become 1) or passed on to CMake's cache."""
    with pytest.raises(builder.BuildFailure) as e:
        _cfg(monkeypatch, **{knob: value})
    assert knob in str(e.value) and allowed in str(e.value) and repr(value).strip("'") in str(e.value)


def test_knobs_take_pytorchs_spellings(monkeypatch):
    assert _cfg(monkeypatch, USE_CUDA="ON").use_cuda == "1"
    assert _cfg(monkeypatch, USE_CUDA="no").use_cuda == "0"
    assert _cfg(monkeypatch, USE_CUDA="Auto").use_cuda == _cfg(monkeypatch).use_cuda == "auto"
    assert _cfg(monkeypatch, DEBUG="true", REL_WITH_DEB_INFO="1").build_type == "Debug"
    assert _cfg(monkeypatch, REL_WITH_DEB_INFO="y").build_type == "RelWithDebInfo"
    assert _cfg(monkeypatch, DEBUG="OFF").build_type == "Release"
    cfg = _cfg(monkeypatch, TORCH_CUDA_ARCH_LIST=" 7.5 8.0,9.0a;10.0+PTX ")
    assert "-DTORCH_CUDA_ARCH_LIST=7.5;8.0;9.0a;10.0+PTX" in cfg.cmake_args(detect_archs=False)
    monkeypatch.setenv("MAX_JOBS", "3")
    assert builder.max_jobs() == 3


def test_sanitizers_build_for_the_cpu(monkeypatch):
    cfg = _cfg(monkeypatch, SANITIZE="undefined, address")
    assert (cfg.sanitize, cfg.use_cuda) == ("address,undefined", "0")
    assert "-DSANITIZE=address,undefined" in cfg.cmake_args(detect_archs=False)
    assert "-DSANITIZE=" in _cfg(monkeypatch).cmake_args(detect_archs=False)  # off clears a sanitized cache
    with pytest.raises(builder.BuildFailure, match="USE_CUDA=0"):
        _cfg(monkeypatch, SANITIZE="address", USE_CUDA="1")


def test_tools_builder_refuses_a_bad_knob_before_creating_anything(monkeypatch, tmp_path, capsys):
    """The nox sessions' entry point: a clear message and exit 1, not a traceback, and no build dir."""
    _cfg(monkeypatch)
    monkeypatch.setenv("TORCH_CUDA_ARCH_LIST", "garbage")
    assert builder.main(["--build-dir", str(tmp_path / "b"), "--package-dir", str(tmp_path / "p")]) == 1
    assert "TORCH_CUDA_ARCH_LIST" in capsys.readouterr().out
    assert not (tmp_path / "b").exists()


def test_cuda_enabled_is_what_cmake_resolved(tmp_path):
    """Not the presence of build/<config>/aten/src/THC, which a CUDA configuration switched off leaves."""
    cfg = builder.Config(tmp_path, tmp_path / "torch")
    (tmp_path / "aten/src/THC").mkdir(parents=True)
    assert not cfg.cuda_enabled()
    (tmp_path / "CMakeCache.txt").write_text("USE_CUDA:STRING=auto\nTORCH_CUDA_ENABLED:INTERNAL=OFF\n")
    assert not cfg.cuda_enabled()
    (tmp_path / "CMakeCache.txt").write_text("USE_CUDA:STRING=auto\nTORCH_CUDA_ENABLED:INTERNAL=ON\n")
    assert cfg.cuda_enabled()


def test_build_lock_is_reentrant_and_names_its_holder(tmp_path):
    with builder.build_lock(tmp_path / "b"):
        with builder.build_lock(tmp_path / "b"):  # configure() inside build() inside a task
            pass
        holder = (tmp_path / "b" / builder.LOCK).read_text()
        assert holder.startswith(f"pid {os.getpid()}: ")


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


def test_sanitizer_env_preloads_the_runtime_of_a_sanitized_build(tmp_path):
    """What `nox -s tests-sanitize` runs pytest with: nothing for a plain build."""
    cache = tmp_path / "CMakeCache.txt"
    cache.write_text("SANITIZE:STRING=\nTORCH_SANITIZER_PRELOAD:INTERNAL=\n")
    assert builder.sanitizer_env(tmp_path) == {}
    cache.write_text(
        "SANITIZE:STRING=address,undefined\nTORCH_SANITIZER_PRELOAD:INTERNAL=/l/libasan.so:/l/libstdc++.so\n"
    )
    env = builder.sanitizer_env(tmp_path)
    assert env["LD_PRELOAD"] == "/l/libasan.so:/l/libstdc++.so"
    assert "detect_leaks=0" in env["ASAN_OPTIONS"] and "halt_on_error=1" in env["UBSAN_OPTIONS"]
    assert "TSAN_OPTIONS" not in env


def test_run_echoes_a_line_to_paste_into_a_shell(capfd, monkeypatch, tmp_path):
    """Every command the dev loop runs is printed first (`$ ...`, as spin does), with the variables it adds
    to the environment: pasted into a shell, that line does the same thing."""
    monkeypatch.chdir(tmp_path)
    code = "import os, sys; print(os.environ['GREETING'], sys.argv[1:])"
    cmd = [sys.executable, "-c", code, "a b", "it's"]
    assert builder.run(cmd, env={"GREETING": "hi there"}) == 0
    echo, output = capfd.readouterr().out.splitlines()
    assert echo.startswith("$ GREETING='hi there' ") and output == "hi there ['a b', \"it's\"]"
    pasted = subprocess.run(["sh", "-c", echo[2:]], capture_output=True, text=True)
    assert pasted.stdout.strip() == output


def test_run_returns_or_raises_the_exit_status(capfd):
    fail = [sys.executable, "-c", "raise SystemExit(3)"]
    assert builder.run(fail, check=False) == 3
    with pytest.raises(builder.BuildFailure, match="exit 3"):
        builder.run(fail)
    with pytest.raises(builder.BuildFailure, match="invoke doctor"):
        builder.run(["no-such-program-anywhere"])


def test_shown_commands_use_paths_relative_to_the_current_directory(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    cmd = [str(tmp_path / ".venv/bin/ninja"), "-C", str(tmp_path / "build/develop"), "/elsewhere", f"-DX={tmp_path}"]
    assert builder.shown(cmd) == f".venv/bin/ninja -C build/develop /elsewhere -DX={tmp_path}"
    assert builder.shown([str(tmp_path / "tool"), str(tmp_path)]) == "./tool ."  # not a program on PATH


def _upstream_on_path(monkeypatch, tmp_path) -> None:
    dist = tmp_path / "site" / "torch-2.13.0.dist-info"
    dist.mkdir(parents=True)
    monkeypatch.syspath_prepend(str(dist.parent))


def test_develop_in_place_refuses_an_upstream_torch_before_any_work(monkeypatch, tmp_path):
    """Our package is also called `torch`: `invoke develop` never puts it beside PyTorch's."""
    _upstream_on_path(monkeypatch, tmp_path)
    monkeypatch.setattr(builder, "build", lambda *a: pytest.fail("built despite an upstream torch"))
    cfg = builder.Config(tmp_path / "b", builder.ROOT / "torch")
    with pytest.raises(builder.BuildFailure, match="refusing to install .* PyTorch 2.13.0"):
        builder.develop(cfg)
    assert not (tmp_path / "b").exists()


def test_develop_into_a_package_dir_of_its_own_syncs_the_python_sources(monkeypatch, tmp_path):
    """What the nox sessions run (`python -m tools.builder --sync-python`): their venv is theirs, so no
    upstream check, no .pth; torch/**/*.py mirrored into the package dir, then the build."""
    _upstream_on_path(monkeypatch, tmp_path)
    built = []
    monkeypatch.setattr(builder, "build", lambda cfg, targets=None: built.append(targets))
    monkeypatch.setattr(builder, "ensure_pth", lambda: pytest.fail("wrote a .pth for a session's build"))
    builder.develop(builder.Config(tmp_path / "b", tmp_path / "p" / "torch"), sync_python=True, targets=["TH"])
    assert built == [["TH"]] and (tmp_path / "p" / "torch" / "__init__.py").exists()


def test_sync_python_sources_mirrors_the_package_data(tmp_path):
    # a session's package dir gets torch/_data too (the Sobol direction numbers); a stale file there goes
    (tmp_path / "_data").mkdir()
    (tmp_path / "_data" / "stale.npz").write_bytes(b"")
    assert builder.sync_python_sources(tmp_path) > 0
    assert (tmp_path / "_data" / "sobol_direction_numbers.npz").exists()
    assert (tmp_path / "quasirandom.py").exists() and not (tmp_path / "_data" / "stale.npz").exists()
    assert builder.sync_python_sources(tmp_path) == 0  # nothing changed: nothing copied
