"""torch.backends: what the CPU (and CUDA) backends were built with and run on, and their switches
(PyTorch's API). cpu and cuda describe this build; cudnn, mkldnn, mkl, openmp, nnpack and mps name libraries
this torch does not link, and answer as upstream's builds without them do (`is_available()` False, the
switches kept and read back); mha and opt_einsum hold the switches of their Python layers."""

from torch.backends import cpu, cuda, cudnn, mha, mkl, mkldnn, mps, nnpack, openmp, opt_einsum
from torch.backends._flags import disable_global_flags, flags_frozen

__all__ = [
    "cpu",
    "cuda",
    "cudnn",
    "mha",
    "mkl",
    "mkldnn",
    "mps",
    "nnpack",
    "openmp",
    "opt_einsum",
    "disable_global_flags",
    "flags_frozen",
]
