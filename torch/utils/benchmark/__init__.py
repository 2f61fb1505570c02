"""torch.utils.benchmark (PyTorch's API): `Timer` times a statement the way upstream's does (timeit with the
thread count pinned for the run, `blocked_autorange` and `adaptive_autorange` choosing the block size, CUDA
synchronized around each block), `Measurement` holds the times with their statistics, `Compare` prints
measurements side by side. Callgrind instruction counts (`collect_callgrind`) and the fuzzers are not here."""

from torch.utils.benchmark.compare import Compare
from torch.utils.benchmark.timer import Language, Measurement, TaskSpec, Timer, select_unit, trim_sigfig

__all__ = ["Compare", "Language", "Measurement", "TaskSpec", "Timer", "select_unit", "trim_sigfig"]
