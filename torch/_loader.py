"""Loads torch._C and refuses a stale or half-finished build with a clear ImportError.

Every library and _C carry build ids (hashes of the headers they were compiled against,
see tools/build_id.py). A mismatch means part of the build is out of date; loading it could
crash, so we stop and name the command that fixes it.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from torch import _openblas

FIX = "Run `invoke develop` to rebuild what is out of date (or `nox -s <session>` for a session build)."


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
                    f"lib/lib{lib}.so that was loaded (build id {ident} != {actual[lib]}). {FIX}"
                )


def load_extension():
    """Imports and returns torch._C, translating loader failures into BuildError."""
    where = Path(__file__).resolve().parent
    try:
        with _openblas.loading_kernels():  # OpenBLAS picks its kernels once, as TH loads it
            _C = importlib.import_module("torch._C")
    except ImportError as e:
        msg = str(e)
        if not any(where.glob("_C*.so")) and "torch._C" in msg:
            raise BuildError(f"torch._C is not built in {where}. {FIX}") from None
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
                f"torch._C could not be loaded ({msg}): the build in {where} is incomplete or stale. {FIX}"
            ) from None
        raise
    check_build_ids(_C._build_info(), where)
    return _C
