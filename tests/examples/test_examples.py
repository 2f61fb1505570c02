"""Smoke tests of examples/: each script runs a few steps in a fresh interpreter, exits 0 and prints a loss.

The scripts are plain PyTorch code, so these tests pass on upstream PyTorch too. They need the
`examples` dependency group (scikit-learn, matplotlib, tqdm) and skip with that reason without it.
The `device` fixture runs each script once with `--device cpu` and once with `--device cuda`
(skipped where no GPU is present).
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SMOKE = ["--epochs", "1", "--limit", "256"]


def _needs(*modules: str) -> None:
    """Skip unless every module is importable (the `examples` dependency group)."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"examples need {', '.join(missing)}: install the examples group (pip install --group examples)")


def _run(script: str, args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """Run examples/<script> with this interpreter from `cwd` (never the repo root: the source tree's
    torch/ must not shadow the torch under test), failing the test with its output if it exits non-zero."""
    env = dict(os.environ, PYTHONUNBUFFERED="1", MPLBACKEND="Agg")
    proc = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, f"{script} exited {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    return proc


def _losses(stdout: str) -> list[float]:
    """The finite test losses printed by an example's per-epoch lines."""
    values = [float(v) for v in re.findall(r"test loss (\S+)", stdout)]
    assert values, f"no loss printed:\n{stdout}"
    return values


def test_digits_cnn(device, tmp_path):
    """The digits CNN trains one short epoch, prints its losses and accuracy, and saves a PNG plot."""
    _needs("sklearn", "matplotlib", "tqdm")
    plot = tmp_path / "loss.png"
    proc = _run("digits_cnn.py", [*SMOKE, "--device", device, "--plot", str(plot)], tmp_path)
    assert "256 train / 360 test images" in proc.stdout
    assert re.search(r"epoch +1 +train loss \d+\.\d+ +test loss", proc.stdout), proc.stdout
    assert all(0 < v < 10 for v in _losses(proc.stdout))
    assert re.search(r"final test accuracy \d+\.\d+ %", proc.stdout), proc.stdout
    assert "epoch 1/1" in proc.stderr  # tqdm's progress bar (it writes to stderr)
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_digits_cnn_learns(tmp_path):
    """A few epochs on the full training set are already far above chance (10 %) on the test set."""
    _needs("sklearn", "matplotlib", "tqdm")
    proc = _run("digits_cnn.py", ["--epochs", "3", "--plot", str(tmp_path / "loss.png")], tmp_path)
    accuracy = float(re.search(r"final test accuracy (\d+\.\d+) %", proc.stdout).group(1))
    assert accuracy > 80, proc.stdout


def test_digits_cnn_workers(tmp_path):
    """The same smoke run with the batches loaded by two DataLoader worker processes."""
    _needs("sklearn", "matplotlib", "tqdm")
    proc = _run("digits_cnn.py", [*SMOKE, "--num-workers", "2", "--plot", str(tmp_path / "loss.png")], tmp_path)
    assert all(0 < v < 10 for v in _losses(proc.stdout))


def test_transformer_sort(device, tmp_path):
    """The sorting transformer trains one short epoch and prints its loss and accuracies."""
    proc = _run(
        "transformer_sort.py", [*SMOKE, "--test-size", "200", "--device", device], tmp_path
    )  # fmt: skip
    assert "256 train / 200 test sequences" in proc.stdout
    assert re.search(r"epoch +1 +train loss \d+\.\d+ +test loss \S+ +token accuracy +\d+\.\d+ %", proc.stdout)
    assert all(0 < v < 10 for v in _losses(proc.stdout))
    assert re.search(r"final test sequence accuracy \d+\.\d+ %", proc.stdout), proc.stdout


def test_cuda_refused_without_gpu(tmp_path):
    """`--device cuda` on a machine without a GPU stops with a clear message rather than a trace."""
    import torch

    if torch.cuda.is_available():
        pytest.skip("a GPU is present")
    proc = subprocess.run(
        [sys.executable, str(EXAMPLES / "transformer_sort.py"), "--device", "cuda", "--epochs", "1"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1
    assert "torch.cuda.is_available() is False" in proc.stderr
