"""NN timings: ours vs upstream PyTorch, measured side by side in one run, as ratios (`invoke bench --nn`).

    python bench/nn.py [--reference-python PATH] [--rounds N]

Rows and targets (issue 17, CPU): conv2d forward+backward (3x3, 64 channels, 56x56, batch 8) <= 1.2x; a
small CNN training step (28x28, batch 64, SGD) <= 1.0x; a two-block transformer training step (width 128,
32 tokens, batch 16, AdamW) <= 1.0x; softmax and layer_norm of 4096x4096 <= 1.0x. Every case is plain
PyTorch code, run by each library in its own subprocess (both are `torch`); the DataLoader row is
bench/data.py's. Each library's best of its timeit repeats, the libraries interleaved `--rounds` times.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ops import ROOT, fmt, print_table, time_libraries  # noqa: E402

CNN_SETUP = """
import torch.nn as nn, torch.nn.functional as F
torch.manual_seed(0)
net = nn.Sequential(
    nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(), nn.Linear(32 * 7 * 7, 128), nn.ReLU(), nn.Linear(128, 10),
)
opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
x = lib_rand(64, 1, 28, 28)
y = torch.arange(64) % 10
def step():
    opt.zero_grad()
    F.cross_entropy(net(x), y).backward()
    opt.step()
"""

TRANSFORMER_SETUP = """
import torch.nn as nn, torch.nn.functional as F
torch.manual_seed(0)
class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
    def forward(self, x):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.ff(self.ln2(x))
model = nn.Sequential(nn.Embedding(64, 128), Block(128, 4), Block(128, 4), nn.LayerNorm(128), nn.Linear(128, 64))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
tokens = torch.arange(16 * 32).reshape(16, 32) % 64
def step():
    opt.zero_grad()
    F.cross_entropy(model(tokens).reshape(-1, 64), tokens.reshape(-1)).backward()
    opt.step()
"""

CONV_SETUP = """
import torch.nn.functional as F
x = lib_rand(8, 64, 56, 56).requires_grad_()
w = lib_rand(64, 64, 3, 3).requires_grad_()
b = lib_rand(64).requires_grad_()
g = lib_rand(8, 64, 56, 56)
"""

CASES = {
    "conv2d 3x3 64ch 56x56 b8, fwd+bwd": (CONV_SETUP, "F.conv2d(x, w, b, padding=1).backward(g)"),
    "small CNN train step (28x28, b64, SGD)": (CNN_SETUP, "step()"),
    "2-block transformer train step (w128, 32 tok, b16, AdamW)": (TRANSFORMER_SETUP, "step()"),
    "softmax 4096x4096": ("x = lib_rand(4096, 4096)", "torch.softmax(x, 1)"),
    "log_softmax 4096x4096": ("x = lib_rand(4096, 4096)", "torch.log_softmax(x, 1)"),
    "layer_norm 4096x4096": (
        "import torch.nn.functional as F; x = lib_rand(4096, 4096); w = lib_rand(4096); b = lib_rand(4096)",
        "F.layer_norm(x, (4096,), w, b)",
    ),
    "cross_entropy 4096x1000 fwd+bwd": (
        "import torch.nn.functional as F; x = lib_rand(4096, 1000).requires_grad_(); y = torch.arange(4096) % 1000",
        "F.cross_entropy(x, y).backward()",
    ),
}

CASES = {name: ("torch = lib\n" + setup, stmt) for name, (setup, stmt) in CASES.items()}  # ops.py's worker

TARGETS = {
    "conv2d 3x3 64ch 56x56 b8, fwd+bwd": 1.2,
    "small CNN train step (28x28, b64, SGD)": 1.0,
    "2-block transformer train step (w128, 32 tok, b16, AdamW)": 1.0,
    "softmax 4096x4096": 1.0,
    "layer_norm 4096x4096": 1.0,
}


def main() -> int:
    """Prints the table: each case's time for ours and upstream, the ratio and its target."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reference-python", default=str(ROOT / ".nox" / "tests-reference" / "bin" / "python"))
    ap.add_argument("--rounds", type=int, default=2, help="interleaved runs per library (best of)")
    args = ap.parse_args()
    ours, _, ref = time_libraries(args.reference_python, args.rounds, CASES, with_numpy=False)
    rows = []
    for name in CASES:
        up = [fmt(ref[name]), f"{ours[name] / ref[name]:.2f}x"] if ref else ["n/a", "n/a"]
        target = f"<= {TARGETS[name]}x" if name in TARGETS else ""
        rows.append([name, fmt(ours[name]), *up, target])
    print_table(["case", "ours", "upstream", "ours / upstream", "target"], rows)
    print(
        f"\nours: TH's OpenBLAS on its '{_openblas_core()}' kernels (torch/_openblas.py; OPENBLAS_CORETYPE="
        f"{os.environ.get('OPENBLAS_CORETYPE', 'unset')}); upstream: oneDNN for conv, MKL for matmul"
    )
    return 0


def _openblas_core() -> str:
    """The kernels our OpenBLAS runs on, asked of a fresh interpreter as the benchmark's workers import torch."""
    probe = "import torch; from torch import _openblas; print(_openblas.corename())"
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True)
    return out.stdout.strip() or "unknown"


if __name__ == "__main__":
    sys.exit(main())
