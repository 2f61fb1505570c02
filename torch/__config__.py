"""torch.__config__ (PyTorch's API): `show()` says what this torch was built with, `parallel_info()` how its
CPU kernels parallelize; both are the text that bug reports paste."""

from __future__ import annotations

import os

__all__ = ["show", "parallel_info"]


def show() -> str:
    """The build's configuration, one item a line (compiler, build type, BLAS and its kernels, the CPU
    capability, CUDA and its vendor libraries)."""
    import torch
    from torch import _openblas

    config = torch.version.build_config()
    lines = ["PyTorch built with:", f"  - {config.get('cxx', 'unknown compiler')}"]
    lines.append(f"  - Build type: {config.get('build_type', 'unknown')}")
    lines.append(f"  - BLAS/LAPACK: OpenBLAS (kernels: {_openblas.corename()})")
    lines.append(f"  - CPU capability usage: {torch.backends.cpu.get_cpu_capability()}")
    if config.get("use_cuda"):
        libs = ", ".join(config.get("cuda_libs") or []) or "none"
        lines.append(f"  - CUDA build on (archs {config.get('cuda_archs', '?')}; vendor libraries: {libs})")
    else:
        lines.append("  - CUDA build off")
    lines.append(f"  - TORCH_VERSION={torch.__version__}, BUILD_TYPE={config.get('build_type', 'unknown')}")
    return "\n".join(lines) + "\n"


def parallel_info() -> str:
    """How the CPU kernels parallelize: TH's own thread pool (intra-op) and the inter-op thread count."""
    import torch

    return (
        "ATen/Parallel:\n"
        f"\tat::get_num_threads() : {torch.get_num_threads()}\n"
        f"\tat::get_num_interop_threads() : {torch.get_num_interop_threads()}\n"
        "TH thread pool (no OpenMP)\n"
        "std::thread::hardware_concurrency() : "
        f"{os.cpu_count()}\n"
        "Environment variables:\n"
        f"\tOMP_NUM_THREADS : {os.environ.get('OMP_NUM_THREADS', '[not set]')}\n"
        "ATen parallel backend: native thread pool\n"
    )
