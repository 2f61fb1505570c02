"""The CUDA vendor libraries THC uses, found in NVIDIA's wheels (the toolkit on these machines ships
without them): cuBLAS/cuBLASLt (`nvidia-cublas`) for the matrix products, cuFFT (`nvidia-cufft`) for
torch.fft, cuSOLVER (`nvidia-cusolver`, whose headers include cuBLAS's) for torch.linalg. One answer for
the build (cmake/TorchCUDALibs.cmake runs `python -m tools.cuda_libs`) and for `invoke doctor`.

A wheel for CUDA <major> lays its files out as site-packages/nvidia/cu<major>/{include,lib}; the headers
of one library are the ones its RECORD lists (that include folder is shared by every nvidia wheel,
the CUDA runtime's too, so it is never put on the include path whole).
"""

from __future__ import annotations

import argparse
import importlib.util
import re
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

# name -> (wheel, the shared libraries' stems, the header that must be there)
LIBS = {
    "cublas": ("nvidia-cublas", ("libcublas", "libcublasLt"), "cublas_v2.h"),
    "cufft": ("nvidia-cufft", ("libcufft",), "cufft.h"),
    "cusolver": ("nvidia-cusolver", ("libcusolver",), "cusolverDn.h"),
}


@dataclass
class Found:
    """One library found in its wheel: where its headers and shared libraries are."""

    name: str
    wheel: str
    version: str
    root: Path  # site-packages/nvidia/cu<major>
    headers: list[str]  # relative to root/include
    libraries: list[Path]  # full paths, e.g. .../lib/libcublas.so.13


def _nvidia_roots(major: int) -> list[Path]:
    spec = importlib.util.find_spec("nvidia")
    locations = list(spec.submodule_search_locations or []) if spec else []
    return [Path(p) / f"cu{major}" for p in locations if (Path(p) / f"cu{major}").is_dir()]


def _library(lib_dir: Path, stem: str) -> Path | None:
    """lib_dir/<stem>.so.<N> (the soname a wheel ships; wheels carry no unversioned symlink)."""
    hits = sorted(p for p in lib_dir.glob(f"{stem}.so*") if re.fullmatch(re.escape(stem) + r"\.so(\.\d+)*", p.name))
    return min(hits, key=lambda p: len(p.name)) if hits else None


def find(name: str, major: int) -> Found | None:
    """The library `name` (a key of LIBS) for CUDA `major`, or None when its wheel is not installed."""
    wheel, stems, header = LIBS[name]
    try:
        dist = metadata.distribution(wheel)
    except metadata.PackageNotFoundError:
        return None
    prefix = f"nvidia/cu{major}/include/"
    headers = sorted(str(f)[len(prefix) :] for f in dist.files or () if str(f).startswith(prefix))
    for root in _nvidia_roots(major):
        libs = [_library(root / "lib", stem) for stem in stems]
        if header in headers and (root / "include" / header).is_file() and all(libs):
            return Found(name, wheel, dist.version, root, headers, libs)
    return None


def main() -> None:
    """Prints `name|wheel|version|root|header,...` for each library found (CMake reads it)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cuda-major", type=int, required=True, help="the toolkit's major version (13)")
    ns = ap.parse_args()
    for name in LIBS:
        f = find(name, ns.cuda_major)
        if f:
            print(
                "|".join(
                    [f.name, f.wheel, f.version, str(f.root), ",".join(f.headers), ",".join(map(str, f.libraries))]
                )
            )


if __name__ == "__main__":
    main()
