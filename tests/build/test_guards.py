"""The build's guards, on a real build of a copy of the tree: bad knobs and failed configures leave
nothing behind, one build at a time per build dir, and a torch._C that does not load is never installed."""

from __future__ import annotations

import re
import subprocess
import sys
import uuid

import pytest

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(
    "knob, value", [("TORCH_CUDA_ARCH_LIST", "garbage"), ("MAX_JOBS", "abc"), ("MAX_JOBS", "0"), ("DEBUG", "2"),
                     ("TORCH_CCACHE_REMOTE", "ftp://cache.example")]
)
def test_bad_knob_is_refused_before_cmake_and_never_cached(repo, knob, value):
    cache = repo.path / "build/develop/CMakeCache.txt"
    before = cache.read_text()
    p = repo.invoke("develop", check=False, env={knob: value})
    out = p.stdout + p.stderr
    assert p.returncode != 0 and f"{knob}" in out and value in out, out
    assert "Traceback" not in out and "configuring" not in out
    assert cache.read_text() == before
    assert "no work to do" in repo.invoke("build").stdout  # the next plain build is not poisoned


def test_failed_configure_leaves_nothing_behind(repo):
    """A configure that fails (here: USE_CUDA=1 with a CUDA compiler that is not there) must not leave its
    values in CMake's cache, where Ninja's next re-run of CMake would pick them up (it used to: every later
    plain build then configured CUDA again, and failed, or built CUDA in a CPU build dir)."""
    cache = repo.path / "build/develop/CMakeCache.txt"
    if "CMAKE_CUDA_COMPILER:" in cache.read_text():
        pytest.skip("this build dir has a cached CUDA compiler: CUDACXX would be ignored")
    p = repo.invoke("build", check=False, env={"USE_CUDA": "1", "CUDACXX": "/nonexistent/nvcc"})
    assert p.returncode != 0
    assert "USE_CUDA:STRING=0" in cache.read_text()
    assert "next build configures again" in p.stdout + p.stderr
    out = repo.invoke("build").stdout
    assert "configuring" in out and repo.steps(out) == [], out
    assert repo.explain() == ""


def test_rebuild_lib_of_a_cuda_library_on_a_cpu_build_says_so(repo):
    """build/develop/aten/src/THC is what a CUDA configuration switched to USE_CUDA=0 leaves behind:
    it used to count as "CUDA is on", and Ninja then only said `unknown target 'THC'`."""
    leftover = repo.path / "build/develop/aten/src/THC"
    assert not leftover.exists()  # a CPU-only copy, never configured for CUDA
    leftover.mkdir()
    try:
        for name in ("THC", "THCUNN"):
            p = repo.invoke("rebuild-lib", "--name", name, check=False)
            out = p.stdout + p.stderr
            assert p.returncode != 0, out
            assert "CPU-only" in out and "USE_CUDA=1" in out and "unknown target" not in out, out
            assert "configuring" not in out
    finally:
        leftover.rmdir()


def test_concurrent_builds_take_turns(repo):
    """Two builds of one build dir at once: the second waits for the first, saying for whom, and then
    finds the work done."""
    mark = uuid.uuid4().hex  # new content: ccache misses, so the first build has seconds of work
    for f in ("TensorIterator.cpp", "ops/Sort.cpp", "ops/Views.cpp"):
        repo.append(f"aten/src/TH/{f}", f"\n// {mark}\n")
    first = subprocess.Popen(
        [sys.executable, "-m", "invoke", "build"],
        cwd=repo.path,
        env={**repo.env, "MAX_JOBS": "1"},  # one compile at a time: after the first, two more and a link
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    for line in first.stdout:
        if re.match(r"\[(\s*\d+% )?1/", line):  # Ninja prints a step when it ends: it is busy with the next one
            break
    second = repo.invoke("build")
    first_out = first.stdout.read()
    assert first.wait() == 0, first_out
    out = second.stdout
    assert "waiting for the other build" in out and f"pid {first.pid}: " in out, out
    assert repo.steps(out) == [] and "no work to do" in out, out
    assert repo.explain() == ""


def test_C_that_does_not_load_never_replaces_the_good_one(repo):
    """An op whose dispatch names a function no library defines: the build fails naming the symbol and the
    YAML line, and the last good torch._C stays installed (it used to be overwritten by a module that did
    not import, and `invoke develop` then had nothing to do)."""
    yaml = repo.path / "aten/native_functions.yaml"
    original = yaml.read_text()
    installed = next((repo.path / "torch").glob("_C.*.so"))
    before = installed.stat().st_mtime_ns
    try:
        yaml.write_text(
            original + "\n- func: bogus_op(Tensor self) -> Tensor\n  dispatch:\n    CPU, CUDA: th::no_such_kernel\n"
        )
        line = original.count("\n") + 4
        for _ in range(2):  # and again: a failed install is not forgotten by the next build
            p = repo.invoke("build", check=False)
            out = p.stdout + p.stderr
            assert p.returncode != 0, out
            assert "undefined symbol: th::no_such_kernel(th::Tensor const&)" in out, out
            assert f"aten/native_functions.yaml:{line} dispatches to th::no_such_kernel" in out, out
        assert installed.stat().st_mtime_ns == before
        check = "import torch; assert torch.ones(2).sum().item() == 2 and not hasattr(torch, 'bogus_op')"
        assert repo.python(check).returncode == 0
    finally:
        yaml.write_text(original)
        repo.invoke("build")
    assert repo.explain() == ""
