"""torch.backends: what the CPU (and CUDA) backends were built with and run on."""

from torch.backends import cpu, cuda

__all__ = ["cpu", "cuda"]
