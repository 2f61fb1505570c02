"""Shared pytest setup: report which torch is under test and refuse the wrong one; the `device` of
device-generic tests.

torch is imported lazily: tests/build has no torch of its own (it builds copies of the tree).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _register_tools() -> None:
    """Makes the repo's `tools` package importable WITHOUT putting the repo root on sys.path:
    the root holds the source `torch/`, which must never shadow the build under test."""
    if "tools" in sys.modules:
        return
    spec = importlib.util.spec_from_file_location(
        "tools", ROOT / "tools" / "__init__.py", submodule_search_locations=[str(ROOT / "tools")]
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["tools"] = module
    spec.loader.exec_module(module)


_register_tools()


def _torch():
    try:
        import torch
    except ImportError as e:
        return e
    return torch


def pytest_report_header(config):
    torch = _torch()
    if isinstance(torch, ImportError):
        return [f"torch: not importable here ({torch})"]
    if hasattr(torch.version, "build_config"):
        build = str(torch.version.build_config())
    else:
        build = "upstream PyTorch (reference run)"
    return [f"torch {torch.__version__} imported from {torch.__file__}", f"torch build: {build}"]


def pytest_configure(config):
    expect = os.environ.get("TORCH_EXPECT_ROOT")
    if not expect:
        return
    torch = _torch()
    if isinstance(torch, ImportError):
        raise pytest.UsageError(f"the build under test is not importable: {torch}")
    if Path(torch.__file__).resolve().parent != Path(expect).resolve():
        raise pytest.UsageError(f"testing the wrong torch: imported {torch.__file__}, expected the build in {expect}")


DEVICES = ("cpu", "cuda")
NO_CUDA = "CUDA not available: no GPU on this machine (torch.cuda.is_available() is False)"


@pytest.fixture(params=DEVICES)
def device(request) -> str:
    """The device of a device-generic test (one that takes `device`), which runs once per device as
    with PyTorch's instantiate_device_type_tests: 'cpu', and 'cuda', which skips (with one reason,
    NO_CUDA) where no GPU is present."""
    if request.param == "cuda" and not _torch().cuda.is_available():
        pytest.skip(NO_CUDA)
    return request.param


def pytest_runtest_setup(item):
    """Tests marked `cuda` skip with the same one reason where no GPU is present."""
    if item.get_closest_marker("cuda") and not _torch().cuda.is_available():
        pytest.skip(NO_CUDA)
