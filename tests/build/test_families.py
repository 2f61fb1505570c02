"""One stem per op family (DESIGN.md §2): TH/ops/<Family>.h declares the family's kernels, and only
that family's files include it, so adding or changing a stub recompiles that family and nothing else.
The same holds for THNN's families (THNN/ops/<Family>.h) and their CUDA twins in THCUNN."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
TWINS = {"TH": "THC", "THNN": "THCUNN"}  # a CPU library and the CUDA library of its families' twins
# (library, family) for every family header; ops/Pointwise.h is the unary and binary entry points' helper
FAMILIES = sorted(
    (lib, p.stem) for lib in TWINS for p in (ROOT / "aten/src" / lib / "ops").glob("*.h") if p.stem != "Pointwise"
)
# entry points of one family that start another family's kernel (arange/linspace fill with range_stub)
ALSO = {"Fill": {"aten/src/TH/ops/Factories.cpp"}}
OBJECT = re.compile(r"^(?P<dir>aten/src/\w+)/CMakeFiles/[^/]+\.dir/(?P<file>.+)\.o: #deps")


def family_sources(lib: str, family: str) -> set[str]:
    """The sources of a family's stem: ops/<F>.cpp, cpu/<F>Kernels.cpp, THC/<F>[<Part>]Kernels.cu."""
    src = ROOT / "aten/src"
    files = {src / f"{lib}/ops/{family}.cpp", src / f"{lib}/cpu/{family}Kernels.cpp"}
    files |= set((src / TWINS[lib]).glob(f"{family}*Kernels.cu"))
    return {str(p.relative_to(ROOT)) for p in files if p.exists()} | ALSO.get(family, set())


def dependents(repo, header: str) -> set[str]:
    """The sources whose objects depend on `header`, from the deps Ninja recorded in the last build
    (an object `aten/src/TH/CMakeFiles/TH.dir/ops/Unary.cpp.o` is built from `aten/src/TH/ops/Unary.cpp`)."""
    out = repo.run("ninja", "-C", "build/develop", "-t", "deps").stdout
    users, source = set(), None
    for line in out.splitlines():
        if not line.startswith(" "):  # "<object>: #deps N, deps mtime ..."
            m = OBJECT.match(line)
            source = f"{m['dir']}/{m['file']}" if m else None
        elif source and line.strip().endswith(header):
            users.add(source)
    return users


def test_every_family_has_the_mirrored_stems():
    """Each ops/<F>.h has its entry points and its CPU loop; the CUDA twin shares the stem."""
    assert FAMILIES, "no family headers found"
    src = ROOT / "aten/src"
    for lib, family in FAMILIES:
        assert (src / f"{lib}/ops/{family}.cpp").exists(), family
        assert (src / f"{lib}/cpu/{family}Kernels.cpp").exists(), family
        assert list((src / TWINS[lib]).glob(f"{family}*Kernels.cu")), family
    assert not (src / "TH/Kernels.h").exists(), "one stub header per family, not one for all"
    stubs = re.compile(r"^TH_DECLARE_STUB\(", re.M)
    for header in src.rglob("*.h"):
        if stubs.search(header.read_text()):
            assert header.parent.name == "ops", f"{header}: stubs are declared in ops/<Family>.h"


@pytest.mark.parametrize("lib,family", FAMILIES)
def test_family_header_is_included_by_its_family_only(repo, lib, family):
    users = dependents(repo, f"{lib}/ops/{family}.h")
    assert users, f"nothing includes {lib}/ops/{family}.h"
    assert users <= family_sources(lib, family), sorted(users - family_sources(lib, family))


def test_cuda_family_headers_are_included_by_their_twins_only(cuda_repo):
    for lib, family in FAMILIES:
        users = dependents(cuda_repo, f"{lib}/ops/{family}.h")
        assert users <= family_sources(lib, family), (family, sorted(users - family_sources(lib, family)))
        assert any(u.endswith(".cu") for u in users), f"no CUDA kernel registers {family}'s stubs"


def test_editing_a_family_header_recompiles_that_family_only(repo):
    header = repo.path / "aten/src/TH/ops/Unary.h"
    original = header.read_text()
    try:
        repo.append("aten/src/TH/ops/Unary.h", "\n// a stub edit\n")
        steps = repo.steps(repo.invoke("rebuild-lib", "--name", "TH").stdout)
        # a header edit also changes libTH's build id (its contents hash, DESIGN.md §3.5)
        compiled = sorted(s.rsplit("/", 1)[-1] for s in steps if s.startswith("Building") and "build_id" not in s)
        assert compiled == ["Unary.cpp.o", "UnaryKernels.cpp.o"], steps
        assert steps[-1].startswith("Linking") and steps[-1].endswith("libTH.so"), steps
        # the rest of the build compiles no source either: THNN and _C only take TH's new build id
        rest = repo.steps(repo.invoke("build").stdout)
        assert [s for s in rest if s.startswith("Building") and "build_id" not in s] == [], rest
    finally:
        header.write_text(original)
        repo.invoke("build")
