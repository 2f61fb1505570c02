"""The test suites, named once: `invoke test` (tasks.py) and the nox sessions (noxfile.py) take their
pytest paths from here, so a suite directory added here reaches every command that should run it.

A suite is a directory of tests under tests/ (relative to the repository root, as pytest is run from it);
tests/conftest.py and tests/opinfo.py are shared by the suites, not suites. This module imports nothing:
reading it has no side effects and costs nothing at a task's start-up.
"""

from __future__ import annotations

CORE = ("tests/tensor", "tests/autograd")
"""The tensor core and autograd: the fastest full signal. What `nox -s tests-sanitize` runs under
ASan+UBSan (an instrumented build, several times slower)."""

REFERENCE = (*CORE, "tests/nn", "tests/optim", "tests/data", "tests/testing", "tests/utils", "tests/examples")
"""The PyTorch-compatible suites: the same files also pass against upstream PyTorch 2.13, which is how we
know they encode PyTorch's semantics (`nox -s tests-reference`, in a venv of its own)."""

CUDA = ("tests/cuda",)
"""Every op family on the GPU against the same op on the CPU; each test skips, with one reason, where no
GPU is present (`invoke test --no-cuda` leaves it out)."""

EXTENSIONS = ("tests/extensions",)
"""torch.utils.cpp_extension: a user's C++/CUDA ops built against the build's (or the wheel's) headers and
libraries. This torch's extension API (nanobind, TH's C++ API), so not a PyTorch-compatible suite."""

ALL = (*REFERENCE, "tests/codegen", *CUDA, "tests/fuzz", *EXTENSIONS)
"""Every suite that tests a build: the PyTorch-compatible ones, the code generator's unit tests, the CUDA
suite, the differential fuzzer's own tests (against a stand-in torch) and the C++ extensions. What
`invoke test` runs on the develop build and `nox -s tests-cpu` / `tests-cuda` on theirs."""

THREADS = ("tests/tensor/test_hardening.py", "-k", "thread")
"""The threading tests alone (ops, indexing, backward and random draws on four Python threads), as pytest
arguments: what `nox -s tests-tsan` runs under ThreadSanitizer."""

BUILD = ("tests/build",)
"""The dev-loop contracts (`nox -s tests-build`): most build throwaway copies of the tree, so they take
minutes and are not part of ALL."""
