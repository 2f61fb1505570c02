"""Which OpenBLAS kernels TH's matrix products run on.

TH multiplies matrices with the OpenBLAS of the scipy-openblas32 wheel, a DYNAMIC_ARCH build that picks
its kernels for the CPU once, when the library is loaded. It does not know every CPU: on an AVX-512 AMD
EPYC (Zen 5) it falls back to its AVX2 'Haswell' kernels, about half the speed of its 'SkylakeX' (AVX-512)
ones there (`python bench/nn.py`: conv2d forward+backward 40 ms -> 24 ms). OpenBLAS reads the choice from
the environment variable OPENBLAS_CORETYPE, so `loading_kernels()` sets it while torch._C loads TH (and with
it OpenBLAS), where the CPU and the OS support AVX-512 and the user has not chosen a core themselves, and
takes it away again after: NumPy's own OpenBLAS, loaded later, and child processes see the environment as
the user left it. A user's OPENBLAS_CORETYPE (this project's CI machines set 'Haswell') is always obeyed.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
from pathlib import Path

# the AVX-512 subsets OpenBLAS's SkylakeX kernels use
AVX512_FLAGS = frozenset({"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"})
CORE_AVX512 = "SkylakeX"


def cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> frozenset[str]:
    """The feature flags of the first CPU in /proc/cpuinfo (empty where there is none: not Linux). Linux
    lists a flag only where the OS also saves its registers, so the AVX-512 flags mean usable AVX-512."""
    try:
        with cpuinfo.open() as f:
            for line in f:
                if line.startswith("flags"):
                    return frozenset(line.partition(":")[2].split())
    except OSError:
        pass
    return frozenset()


def prefer_avx512(environ, flags: frozenset[str] | None = None) -> bool:
    """Sets OPENBLAS_CORETYPE in `environ` to the AVX-512 kernels where the CPU has them and it is unset;
    returns whether it set it."""
    if "OPENBLAS_CORETYPE" in environ or not AVX512_FLAGS <= (cpu_flags() if flags is None else flags):
        return False
    environ["OPENBLAS_CORETYPE"] = CORE_AVX512
    return True


@contextlib.contextmanager
def loading_kernels(environ=os.environ):
    """The environment in which to load TH (and OpenBLAS): prefer_avx512 for its duration, then restored."""
    was_set = prefer_avx512(environ)
    try:
        yield
    finally:
        if was_set:
            environ.pop("OPENBLAS_CORETYPE", None)


def corename() -> str:
    """The name of the kernels the loaded OpenBLAS runs on (e.g. 'SkylakeX'), as OpenBLAS reports it."""
    import scipy_openblas32

    lib_dir = Path(scipy_openblas32.__file__).resolve().parent / "lib"
    lib = ctypes.CDLL(str(next(lib_dir.glob("libscipy_openblas*.so*"))))
    lib.scipy_openblas_get_corename.restype = ctypes.c_char_p
    return lib.scipy_openblas_get_corename().decode()
