"""The build contracts of DESIGN.md §3, checked on a real build of a copy of the tree."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.slow


def test_second_build_does_no_work(repo):
    assert repo.explain() == ""
    out = repo.invoke("build").stdout
    assert "configuring" not in out and repo.steps(out) == []


def test_cmakelists_edit_reruns_cmake_once(repo):
    repo.append("CMakeLists.txt", "\n# touched by test\n")
    out = repo.invoke("build").stdout
    assert "Re-running CMake" in out
    assert repo.explain() == ""


def test_rebuild_lib_recompiles_one_file_and_not_C(repo):
    repo.append("aten/src/TH/ops/Fill.cpp", "\n// edited by test_rebuild_lib\n")
    steps = repo.steps(repo.invoke("rebuild-lib", "--name", "TH").stdout)
    assert len(steps) == 2, steps
    assert steps[0].startswith("Building CXX object") and steps[0].endswith("ops/Fill.cpp.o")
    assert steps[1].startswith("Linking CXX shared library") and steps[1].endswith("libTH.so")
    assert repo.explain() == ""  # _C (and THNN) need no relink
    assert repo.python("import torch; assert torch.ones(3).sum().item() == 3").returncode == 0


def test_gen_bindings_on_unchanged_yaml_touches_nothing(repo):
    gen = repo.path / "build/develop/generated/bindings"
    before = {p.name: p.stat().st_mtime_ns for p in gen.iterdir()}
    repo.append("aten/native_functions.yaml", "\n# a comment changes no binding\n")
    out = repo.invoke("gen-bindings").stdout
    assert "wrote nothing" in out
    assert {p.name: p.stat().st_mtime_ns for p in gen.iterdir()} == before
    assert repo.explain() == ""


def test_adding_one_op_recompiles_one_shard(repo):
    yaml = repo.path / "aten/native_functions.yaml"
    original = yaml.read_text()
    try:
        repo.append(
            "aten/native_functions.yaml",
            "\n- func: plus(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n"
            "  dispatch:\n    CPU, CUDA: th::add\n",
        )
        steps = repo.steps(repo.invoke("gen-bindings", "relink").stdout)
        compiles = [s for s in steps if s.startswith("Building")]
        assert len(compiles) == 1 and "shard_" in compiles[0], steps
        assert any(s.startswith("Linking") and "_C" in s for s in steps)
        assert (
            repo.python("import torch; assert torch.plus(torch.ones(2), torch.ones(2)).tolist() == [2, 2]").returncode
            == 0
        )
    finally:
        yaml.write_text(original)
        repo.invoke("build")


def test_pch_rebuilt_from_the_same_headers_keeps_C_cached(repo):
    """GCC's .gch differs from build to build; ccache keys _C's objects on <pch>.sum (the contents of
    the PCH's inputs, tools/pch_sum.py), so a PCH rebuilt from unchanged headers (a branch switched
    back, a header edit reverted) recompiles nothing else."""
    from tools import ccache

    build = repo.path / "build/develop"
    gch = build / "torch/csrc/CMakeFiles/_C_pch.dir/cmake_pch.hxx.gch"
    checksum = gch.with_name(gch.name + ".sum")
    before = checksum.read_text()
    # Twice: in a tree's first build the PCH target's own (empty) source compiles before the .sum
    # exists, so with a cold cache its first rebuild may miss once; from then on nothing may.
    for _ in range(2):
        gch.unlink()
        repo.run("ninja", "-C", str(build), str(gch.relative_to(build)), env={"CCACHE_DISABLE": "1"})  # new bytes
        hits, misses = ccache.hits_misses()
        steps = repo.steps(repo.invoke("develop").stdout)
        assert sum("_C.dir" in s for s in steps) >= 40, steps  # Ninja rebuilt every object on the PCH...
        new_hits, new_misses = ccache.hits_misses()
    assert (new_misses - misses, new_hits - hits >= 40) == (0, True)  # ...and ccache had each of them
    assert checksum.read_text() == before
    assert repo.explain() == ""


def test_derivative_formula_edit_rebuilds_no_cpp(repo):
    deriv = repo.path / "aten/derivatives.yaml"
    original = deriv.read_text()
    try:
        deriv.write_text(
            original.replace(
                "- name: neg(Tensor self) -> Tensor\n  self: -grad\n",
                "- name: neg(Tensor self) -> Tensor\n  self: grad * -2.0\n",
            )
        )
        steps = repo.steps(repo.invoke("develop").stdout)
        assert steps and all(s.startswith("Generating") for s in steps), steps  # codegen only: no compile, no link
        check = (
            "import torch; x = torch.ones(2, requires_grad=True); x.neg().sum().backward(); "
            "assert x.grad.tolist() == [-2.0, -2.0]"
        )
        assert repo.python(check).returncode == 0
    finally:
        deriv.write_text(original)
        repo.invoke("build")


def test_a_new_header_changes_the_build_id(repo):
    """A header added to TH (no header Ninja knew of changed) gives TH a new build id at once: else the next
    library whose id is written (here after a THNN header edit) hashes it while libTH does not, and the
    import refuses a build that Ninja calls up to date."""
    new, thnn = repo.path / "aten/src/TH/NewConcept.h", repo.path / "aten/src/THNN/ops/Softmax.h"
    original = thnn.read_text()
    try:
        new.write_text("#pragma once\n// a concept of its own\n")
        steps = repo.steps(repo.invoke("build").stdout)
        assert any("Build id of TH" in s for s in steps), steps
        thnn.write_text(original + "\n// a stub edit\n")
        repo.invoke("build")
        p = repo.python("import torch; torch.ones(2) + torch.ones(2)")
        assert p.returncode == 0, p.stderr
    finally:
        new.unlink(missing_ok=True)
        thnn.write_text(original)
        repo.invoke("build")
    assert repo.python("import torch").returncode == 0


def test_stale_library_is_refused_with_the_fix(repo):
    repo.append("aten/src/TH/Tensor.h", "\n// header edit: changes TH's build id\n")
    repo.invoke("rebuild-lib", "--name", "TH")
    p = repo.python("import torch")
    assert p.returncode == 1, p
    assert "Stale build" in p.stderr and "invoke develop" in p.stderr
    # the same tree as an installed wheel (its dist-info beside the package): the fix is to reinstall
    wheel_info, upstream_info = repo.path / "torch_th-0.1.0.dist-info", repo.path / "torch-2.13.0.dist-info"
    try:
        wheel_info.mkdir()
        p = repo.python("import torch")
        assert p.returncode == 1 and "Stale build" in p.stderr, p
        assert "pip install --force-reinstall torch-th" in p.stderr and "invoke develop" not in p.stderr, p.stderr
        upstream_info.mkdir()  # upstream PyTorch installed over it: refused before anything loads
        p = repo.python("import torch")
        assert p.returncode == 1 and "upstream PyTorch 2.13.0 is installed in this environment too" in p.stderr, p
    finally:
        shutil.rmtree(wheel_info, ignore_errors=True)
        shutil.rmtree(upstream_info, ignore_errors=True)
    repo.invoke("build")
    assert repo.python("import torch; torch.ones(2) + torch.ones(2)").returncode == 0


def _session_members(sid: int) -> list[int]:
    """The pids whose session id is `sid` (ninja puts each compiler in its own process group)."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat").read()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[3]) == sid and fields[0] != "Z":
                pids.append(int(entry))
    return pids


def _kill_session(sid: int) -> None:
    """SIGKILL a whole session, as closing its terminal or an OOM kill of the job would.

    Killing only ninja's process group would leave its compilers running; they would then write
    their objects behind the next build's back, which no build system can be asked to notice.
    """
    deadline = time.monotonic() + 30
    while (pids := _session_members(sid)) and time.monotonic() < deadline:
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.05)


def test_killed_build_recovers(repo):
    for f in ("ops/Binary.cpp", "ops/Copy.cpp", "ops/Views.cpp", "TensorIterator.cpp"):
        repo.append(f"aten/src/TH/{f}", "\n// edited before a killed build\n")
    proc = subprocess.Popen(
        [sys.executable, "-m", "invoke", "build"],
        cwd=repo.path,
        env=repo.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    for line in proc.stdout:
        if "Building CXX" in line:
            time.sleep(0.5)
            break
    _kill_session(proc.pid)
    proc.wait()
    half = repo.python("import torch; print(torch.ones(2).sum().item())")
    # a half-built tree either still works or says plainly that it needs a rebuild: never a crash
    assert half.returncode in (0, 1), half
    if half.returncode == 1:
        assert "invoke develop" in half.stderr
    repo.invoke("build")
    assert repo.explain() == ""
    assert repo.python("import torch; assert torch.ones(2).sum().item() == 2").returncode == 0


def test_bad_task_input_is_explained(repo):
    p = repo.invoke("rebuild-lib", "--name", "FOO", check=False)
    assert p.returncode != 0 and "valid: TH, THNN, THC, THCUNN" in p.stdout + p.stderr
    p = repo.invoke("rebuild-lib", "--name", "THC", check=False)
    assert p.returncode != 0 and "USE_CUDA=1" in p.stdout + p.stderr


def test_develop_refuses_an_upstream_torch(repo, tmp_path):
    dist = tmp_path / "torch-2.13.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: torch\nVersion: 2.13.0\n")
    p = repo.invoke("develop", check=False, env={"PYTHONPATH": str(tmp_path)})
    assert p.returncode != 0
    assert "refusing" in p.stdout + p.stderr and "PyTorch 2.13.0" in p.stdout + p.stderr


def test_cuda_rebuild_lib_THC_recompiles_one_cu_file(cuda_repo):
    cuda_repo.append("aten/src/THC/ReduceKernels.cu", "\n// edited by test\n")
    steps = cuda_repo.steps(cuda_repo.invoke("rebuild-lib", "--name", "THC").stdout)
    assert len(steps) == 2, steps
    assert steps[0].startswith("Building CUDA object") and steps[0].endswith("ReduceKernels.cu.o")
    assert steps[1].endswith("libTHC.so")
    assert cuda_repo.explain() == ""
    p = cuda_repo.python("import torch; print(torch.cuda.is_compiled(), torch.cuda.is_available())")
    assert p.returncode == 0 and p.stdout.split()[0] == "True"


def test_third_party_files_are_compiled_from_stable_paths(repo):
    """nanobind's headers and sources and OpenBLAS's headers are used from their copies in build/deps/
    (cmake/TorchDeps.cmake), not from the venv's site-packages: every build dir, nox session and pip's isolated
    build (a new temporary folder each time) then names the same files, and ccache hits across them."""
    commands = (repo.path / "build" / "develop" / "compile_commands.json").read_text()
    assert "site-packages" not in commands
    assert "build/deps/nanobind-" in commands and "build/deps/scipy_openblas32-" in commands
