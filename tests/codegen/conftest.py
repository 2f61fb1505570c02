"""The codegen tests import tools/ from the repo root (they test the generator, not a build)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
