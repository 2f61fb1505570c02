"""torch.backends.cpu (PyTorch's API)."""

from torch import _C

__all__ = ["get_cpu_capability"]


def get_cpu_capability() -> str:
    """The vector ISA the CPU kernels use here: "DEFAULT", "AVX2" or "AVX512" (set the environment
    variable TH_CPU_CAPABILITY=default or avx2 before importing torch to cap it)."""
    return _C._cpu_capability()
