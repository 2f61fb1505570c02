"""Shared pytest setup: report which torch is under test and refuse the wrong one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import torch

REFERENCE = bool(os.environ.get("TORCH_REFERENCE")) or not hasattr(torch.version, "build_config")


def pytest_report_header(config):
    lines = [f"torch {torch.__version__} imported from {torch.__file__}"]
    if REFERENCE:
        lines.append("torch build: upstream PyTorch (reference run)")
    else:
        lines.append(f"torch build: {torch.version.build_config()}")
    return lines


def pytest_configure(config):
    expect = os.environ.get("TORCH_EXPECT_ROOT")
    if expect and Path(torch.__file__).resolve().parent != Path(expect).resolve():
        raise pytest.UsageError(f"testing the wrong torch: imported {torch.__file__}, expected the build in {expect}")
