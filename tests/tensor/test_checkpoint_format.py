"""torch.save writes PyTorch's zip checkpoint format and torch.load reads it, so files go both ways between this
library and upstream PyTorch: the archive's records and alignment (either library), and a state dict saved by
one interpreter and loaded by the other (ours <-> upstream 2.13, where the other one's interpreter is found:
the tests-reference venv, or the develop build's .venv when this run is upstream's)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

import torch

ROOT = Path(__file__).resolve().parents[2]
VALUES = {"w": np.arange(12.0).reshape(3, 4), "i": np.array([3, -1, 7]), "h": np.linspace(-1, 1, 5)}

WRITE = """
import collections, sys, numpy as np, torch
v = {"w": np.arange(12.0).reshape(3, 4), "i": np.array([3, -1, 7]), "h": np.linspace(-1, 1, 5)}
sd = collections.OrderedDict(w=torch.from_numpy(v["w"]).float(), i=torch.from_numpy(v["i"]),
                             h=torch.from_numpy(v["h"]).half(), p=torch.nn.Parameter(torch.ones(2)),
                             c=torch.tensor([1 + 2j, -3.5j], dtype=torch.complex64),
                             u=torch.from_numpy(np.array([0, 65535, 7], dtype=np.uint16)),
                             f=torch.tensor([0.5, -448.0, 3.5]).to(torch.float8_e4m3fn))
torch.save(sd, sys.argv[1])
"""
READ = """
import json, sys, torch
sd = torch.load(sys.argv[1], weights_only=True)
z = {k: t.detach().to(torch.complex128).flatten() for k, t in sd.items()}
rows = {k: [str(t.dtype), list(t.shape), z[k].real.tolist(), z[k].imag.tolist(), t.requires_grad]
        for k, t in sd.items()}
print(json.dumps(rows))
"""


def _other_python() -> str | None:
    """The interpreter of the other library (upstream's when this is ours, ours when this is upstream)."""
    if "TORCH_REFERENCE" in os.environ:
        candidate = ROOT / ".venv" / "bin" / "python"
    else:
        candidate = Path(os.environ.get("TORCH_REFERENCE_PYTHON", ROOT / ".nox" / "tests-reference" / "bin" / "python"))
    return str(candidate) if candidate.exists() else None


def _expected():
    return {
        "w": ["torch.float32", [3, 4], VALUES["w"].flatten().tolist(), [0.0] * 12, False],
        "i": ["torch.int64", [3], VALUES["i"].astype(float).tolist(), [0.0] * 3, False],
        "h": ["torch.float16", [5], np.float16(VALUES["h"]).astype(float).tolist(), [0.0] * 5, False],
        "p": ["torch.float32", [2], [1.0, 1.0], [0.0, 0.0], True],
        "c": ["torch.complex64", [2], [1.0, 0.0], [2.0, -3.5], False],
        "u": ["torch.uint16", [3], [0.0, 65535.0, 7.0], [0.0] * 3, False],
        "f": ["torch.float8_e4m3fn", [3], [0.5, -448.0, 3.5], [0.0] * 3, False],
    }


def _run(python: str, script: str, path: Path) -> str:
    """Runs script in `python`: this interpreter keeps the environment that finds this library (a nox session's
    PYTHONPATH); the other one gets it without that, so that it imports its own torch."""
    env = dict(os.environ)
    if python != sys.executable:
        env = {k: v for k, v in env.items() if k not in ("TORCH_REFERENCE", "PYTHONPATH")}
    env["PYTHONSAFEPATH"] = "1"
    out = subprocess.run([python, "-c", script, str(path)], cwd="/", env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def test_the_archive_is_pytorchs(tmp_path):
    path = tmp_path / "model.pt"
    _run(sys.executable, WRITE, path)
    raw = path.read_bytes()
    with zipfile.ZipFile(path) as zf:
        names = zf.namelist()
        assert "model/data.pkl" in names and zf.read("model/version") == b"3\n"
        assert zf.read("model/byteorder") == b"little"
        for info in zf.infolist():
            assert info.compress_type == zipfile.ZIP_STORED
            if "/data/" in info.filename:  # each storage's bytes start 64-byte aligned
                local_extra = int.from_bytes(raw[info.header_offset + 28 : info.header_offset + 30], "little")
                start = info.header_offset + 30 + len(info.filename) + local_extra
                assert start % 64 == 0, info.filename
    assert json.loads(_run(sys.executable, READ, path)) == _expected()


@pytest.mark.parametrize("direction", ["this writes, the other reads", "the other writes, this reads"])
def test_checkpoints_go_both_ways(tmp_path, direction):
    other = _other_python()
    if other is None:
        pytest.skip("the other library's interpreter is not here (run `nox -s tests-reference` once, or build .venv)")
    path = tmp_path / "model.pt"
    writer, reader = (sys.executable, other) if direction.startswith("this") else (other, sys.executable)
    _run(writer, WRITE, path)
    assert json.loads(_run(reader, READ, path)) == _expected()


def test_a_truncated_checkpoint_is_a_clear_error(tmp_path):
    path = tmp_path / "model.pt"
    _run(sys.executable, WRITE, path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(RuntimeError):
        torch.load(path)


def test_a_foreign_zip_or_a_damaged_header_is_a_clear_error(tmp_path):
    foreign = tmp_path / "foreign.zip"
    with zipfile.ZipFile(foreign, "w") as z:
        z.writestr("hello.txt", "not a checkpoint")
    damaged = tmp_path / "damaged.pt"
    damaged.write_bytes(b"PK\x03\x04" + b"\0garbage" * 8)
    for path in (foreign, damaged):
        with pytest.raises(RuntimeError):
            torch.load(path)
