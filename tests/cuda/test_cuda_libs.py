"""The CUDA vendor libraries (cuBLAS, cuFFT, cuSOLVER) of a CUDA build, without a GPU: each library the build was
compiled against (cmake/TorchCUDALibs.cmake) is opened through libTHC's runpath on first use and not at
import, and torch.backends.cuda's switches behave as PyTorch's. What they compute is checked on a GPU by
test_cuda_ops.py (matmul, fft against the CPU) and test_cuda_linalg.py."""

from __future__ import annotations

import subprocess
import sys

import pytest

import torch

built = pytest.mark.skipif(
    not hasattr(torch, "version") or not hasattr(torch.version, "build_config") or not torch.backends.cuda.is_built(),
    reason="needs this project's CUDA build (CUDA vendor libraries)",
)


@built
@pytest.mark.parametrize("name", ["cublas", "cufft", "cusolver"])
def test_compiled_library_loads_through_the_runpath(name):
    built_with = name in torch.version.build_config()["cuda_libs"]
    assert torch._C._cuda_library_available(name) == built_with


@built
def test_import_does_not_load_the_vendor_libraries():
    code = (
        "import torch, sys\n"
        "maps = open('/proc/self/maps').read()\n"
        "sys.exit(1 if 'libcublas' in maps or 'libcufft' in maps or 'libcusolver' in maps else 0)\n"
    )
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


@built
def test_unknown_library_is_an_error():
    with pytest.raises(RuntimeError, match="unknown CUDA library"):
        torch._C._cuda_library_available("cudnn")


def test_allow_tf32_follows_float32_matmul_precision():
    before = torch.get_float32_matmul_precision()
    try:
        torch.set_float32_matmul_precision("highest")
        assert torch.backends.cuda.matmul.allow_tf32 is False
        torch.set_float32_matmul_precision("high")
        assert torch.backends.cuda.matmul.allow_tf32 is True
        torch.backends.cuda.matmul.allow_tf32 = False
        assert torch.backends.cuda.matmul.allow_tf32 is False
    finally:
        torch.set_float32_matmul_precision(before)


def test_matmul_switches_are_pytorchs():
    assert torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction is True
    assert torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction is True
    with pytest.raises(AttributeError, match="Unknown attribute"):
        torch.backends.cuda.matmul.no_such_switch  # noqa: B018
    with pytest.raises(AttributeError, match="Unknown attribute"):
        torch.backends.cuda.matmul.no_such_switch = True


def test_memory_api_without_a_gpu_reads_zero():
    """The allocator's figures exist on every build; with no GPU work done they are all zero (as upstream's
    CPU build answers)."""
    if torch.cuda.is_available():
        pytest.skip("checks the no-GPU figures")
    assert issubclass(torch.cuda.OutOfMemoryError, RuntimeError)
    assert torch.OutOfMemoryError is torch.cuda.OutOfMemoryError
    for fn in ("memory_allocated", "max_memory_allocated", "memory_reserved", "max_memory_reserved"):
        assert getattr(torch.cuda, fn)() == 0
    assert all(v == 0 for v in torch.cuda.memory_stats().values())
