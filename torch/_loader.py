"""Loads torch._C and refuses a stale or half-finished build with a clear ImportError.

Every library and _C carry build ids (hashes of the headers they were compiled against,
see tools/build_id.py). A mismatch means part of the build is out of date; loading it could
crash, so we stop and name the command that fixes it.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path

from torch import _openblas

FIX = "Run `invoke develop` to rebuild what is out of date (or `nox -s <session>` for a session build)."
REINSTALL = "This installed torch-th is incomplete or damaged: reinstall it (`pip install --force-reinstall torch-th`)."


def _dist_infos(where: Path) -> list[str]:
    """The *.dist-info directories beside the package at `where` (site-packages for an installed wheel)."""
    try:
        return [e.name for e in os.scandir(where.parent) if e.name.endswith(".dist-info")]
    except OSError:
        return []


def installed_wheel(where: Path) -> bool:
    """Whether the package at `where` was installed from a wheel (its torch_th-*.dist-info beside it) rather
    than built in place (develop mode, a nox session's build)."""
    return any(n.startswith("torch_th-") for n in _dist_infos(where))


def fix_for(where: Path) -> str:
    """What a user does about a broken build at `where`: reinstall a wheel, rebuild anything else."""
    return REINSTALL if installed_wheel(where) else FIX


def refuse_upstream_beside(where: Path) -> None:
    """An installed wheel refuses to load where upstream PyTorch is installed too (its torch-<version>.dist-info
    beside ours): both are the package `torch` and overwrite each other's files, as `invoke develop` refuses."""
    infos = _dist_infos(where)
    if not any(n.startswith("torch_th-") for n in infos):
        return
    upstream = [n for n in infos if n.startswith("torch-") and n[6:7].isdigit()]
    if upstream:
        version = upstream[0][len("torch-") : -len(".dist-info")]
        raise ImportError(
            f"upstream PyTorch {version} is installed in this environment too ({where.parent}): it and torch-th are "
            "both the package `torch` and overwrite each other's files. Use one environment for each (`pip "
            "uninstall torch torch-th`, then reinstall the one you want)."
        )


class BuildError(ImportError):
    """The compiled part of torch is missing, incomplete or stale."""


def parse_info(info: str) -> dict[str, str]:
    """'TH=ab12;THNN=cd34' -> {'TH': 'ab12', 'THNN': 'cd34'}."""
    return dict(part.split("=", 1) for part in info.split(";") if part)


def check_build_ids(build_info: dict[str, str], where: Path) -> None:
    """Raises BuildError if any component was compiled against other headers than those loaded."""
    recorded = {comp: parse_info(info) for comp, info in build_info.items()}
    actual = {lib: ids[lib] for lib, ids in recorded.items() if lib in ids}
    for comp, ids in sorted(recorded.items()):
        for lib, ident in sorted(ids.items()):
            if lib != comp and lib in actual and actual[lib] != ident:
                name = "torch._C" if comp == "_C" else f"lib/lib{comp}.so"
                raise BuildError(
                    f"Stale build in {where}: {name} was compiled against other {lib} headers than the "
                    f"lib/lib{lib}.so that was loaded (build id {ident} != {actual[lib]}). {fix_for(where)}"
                )


def load_extension():
    """Imports and returns torch._C, translating loader failures into BuildError."""
    where = Path(__file__).resolve().parent
    refuse_upstream_beside(where)
    try:
        with _openblas.loading_kernels():  # OpenBLAS picks its kernels once, as TH loads it
            _C = importlib.import_module("torch._C")
    except ImportError as e:
        msg = str(e)
        if not any(where.glob("_C*.so")) and "torch._C" in msg:
            raise BuildError(f"torch._C is not built in {where}. {fix_for(where)}") from None
        if any(
            s in msg
            for s in (
                "undefined symbol",
                "cannot open shared object",
                "file too short",
                "invalid ELF header",
                "no version information",
            )
        ):
            raise BuildError(
                f"torch._C could not be loaded ({msg}): the build in {where} is incomplete or stale. {fix_for(where)}"
            ) from None
        raise
    check_build_ids(_C._build_info(), where)
    return _C
