"""python -m tools.smoke: import the built torch and check a few ops against NumPy."""

from __future__ import annotations

import sys
import time

import numpy as np


def main() -> int:
    """Prints which torch was imported and its build, then checks add/sum/relu values."""
    t0 = time.perf_counter()
    import torch

    cfg = torch.version.build_config()
    print(f"[torch] smoke: torch {torch.__version__} from {torch.__file__}")
    print(
        f"[torch] smoke: build {cfg['build_type']}, CUDA {'on' if cfg['use_cuda'] else 'off'}"
        + (f" with {', '.join(cfg['cuda_libs']) or 'no vendor libraries'}" if cfg["use_cuda"] else "")
        + f" (GPU available: {torch.cuda.is_available()}), built in {cfg['build_dir']}"
    )
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    b = np.linspace(-1, 1, 4, dtype=np.float32)
    ta, tb = torch.from_numpy(a), torch.from_numpy(b)
    checks = {
        "broadcast add": ((ta + tb).numpy(), a + b),
        "transposed add": ((ta.transpose(0, 1) + ta.transpose(0, 1)).numpy(), a.T + a.T),
        "sum(dim=0)": (ta.sum(0).numpy(), a.sum(0)),
        "relu": (torch.relu(ta - 5.0).numpy(), np.maximum(a - 5, 0)),
    }
    bad = [name for name, (got, want) in checks.items() if not np.allclose(got, want)]
    for name in checks:
        print(f"  {'FAIL' if name in bad else 'ok  '} {name}")
    print(f"[torch] smoke: {'FAILED' if bad else 'OK'} in {time.perf_counter() - t0:.2f}s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
