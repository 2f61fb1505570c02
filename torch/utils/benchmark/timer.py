"""Timer, Measurement and TaskSpec of torch.utils.benchmark (see the package's docstring)."""

from __future__ import annotations

import dataclasses
import enum
import math
import statistics
import textwrap
import time
import timeit

__all__ = ["Language", "Measurement", "TaskSpec", "Timer", "select_unit", "trim_sigfig"]


class Language(enum.Enum):
    """The language of a statement: Python only here."""

    PYTHON = 0
    CPP = 1


def select_unit(t: float) -> tuple[str, float]:
    """The unit ('ns', 'us', 'ms', 's') to print a time of t seconds in, and its scale in seconds."""
    time_unit = {-3: "ns", -2: "us", -1: "ms"}.get(int(math.log10(t) // 3) if t > 0 else -3, "s")
    return time_unit, {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[time_unit]


def trim_sigfig(x: float, n: int) -> float:
    """x rounded to n significant figures."""
    if x == 0:
        return 0.0
    magnitude = int(math.ceil(math.log10(abs(x))))
    scale = 10 ** (magnitude - n)
    return float(round(x / scale) * scale)


@dataclasses.dataclass(frozen=True)
class TaskSpec:
    """What was timed: the statement, its setup, and the labels that Compare groups by."""

    stmt: str
    setup: str
    global_setup: str = ""
    label: str | None = None
    sub_label: str | None = None
    description: str | None = None
    env: str | None = None
    num_threads: int = 1

    @property
    def title(self) -> str:
        """The label and sub label, or the statement."""
        if self.label is not None:
            return self.label + (f": {self.sub_label}" if self.sub_label else "")
        if "\n" not in self.stmt:
            return self.summarize()
        return f"stmt:\n{textwrap.indent(self.stmt, '  ')}"

    def summarize(self) -> str:
        """A one-line description of the task."""
        sections = [self.title if self.label is not None else self.stmt, self.description or ""]
        return "\n".join(s for s in sections if s)


@dataclasses.dataclass
class Measurement:
    """The times of one Timer: raw_times (seconds per block of number_per_run runs); times (per run), mean,
    median, iqr (interquartile range), significant_figures."""

    number_per_run: int
    raw_times: list
    task_spec: TaskSpec
    metadata: dict | None = None

    def __getattr__(self, name):
        if name in ("stmt", "setup", "label", "sub_label", "description", "env", "num_threads", "title"):
            return getattr(self.task_spec, name)
        raise AttributeError(name)

    @property
    def times(self) -> list[float]:
        """Seconds per run, one value per block."""
        return [t / self.number_per_run for t in self.raw_times]

    @property
    def median(self) -> float:
        """The median time per run (s)."""
        return statistics.median(self.times)

    @property
    def mean(self) -> float:
        """The mean time per run (s)."""
        return statistics.mean(self.times)

    @property
    def iqr(self) -> float:
        """The interquartile range of the times per run (s); 0 for fewer than two blocks."""
        times = sorted(self.times)
        if len(times) < 2:
            return 0.0
        q = statistics.quantiles(times, n=4, method="inclusive")
        return q[2] - q[0]

    @property
    def significant_figures(self) -> int:
        """How many figures of the median the spread of the times supports (at most 4)."""
        n = len(self.times)
        if n < 2 or self.median == 0:
            return 2 if n < 2 else 4
        spread = self.iqr / self.median
        return max(1, min(4, int(-math.log10(spread)) + 1)) if spread > 0 else 4

    @property
    def has_warnings(self) -> bool:
        """Whether the spread is large (iqr over 10% of the median over several blocks)."""
        return len(self.times) >= 4 and self.median > 0 and self.iqr / self.median > 0.1

    def meets_confidence(self, threshold: float = 0.1) -> bool:
        """Whether iqr / median is below threshold."""
        return self.median > 0 and self.iqr / self.median < threshold

    def __repr__(self) -> str:
        unit, scale = select_unit(self.median)
        lines = [f"<torch.utils.benchmark.utils.common.Measurement object at {id(self):#x}>", self.task_spec.title]
        if self.task_spec.description:
            lines.append(self.task_spec.description)
        n = len(self.times)
        if n > 1:
            lines.append(f"  Median: {self.median / scale:.{max(self.significant_figures - 1, 0)}f} {unit}")
            lines.append(f"  IQR:    {self.iqr / scale:.2f} {unit}")
        else:
            lines.append(f"  {self.median / scale:.2f} {unit}")
        runs = f"{self.number_per_run} runs per measurement" if n > 1 else f"{self.number_per_run} runs"
        threads = f"{self.task_spec.num_threads} thread" + ("s" if self.task_spec.num_threads > 1 else "")
        lines.append(f"  {n} measurement{'s' if n > 1 else ''}, {runs}, {threads}")
        return "\n".join(lines)

    @staticmethod
    def merge(measurements) -> list[Measurement]:
        """Measurements of the same task combined into one each."""
        grouped: dict = {}
        for m in measurements:
            grouped.setdefault(m.task_spec, []).append(m)
        out = []
        for spec, group in grouped.items():
            number = min(m.number_per_run for m in group)
            raw = [t * number / m.number_per_run for m in group for t in m.raw_times]
            out.append(Measurement(number, raw, spec, group[0].metadata))
        return out


class Timer:
    """Times `stmt` after `setup` in a namespace made of `globals` (torch is always there), with
    torch.set_num_threads(num_threads) for the run."""

    _timer = staticmethod(timeit.default_timer)

    def __init__(
        self,
        stmt: str = "pass",
        setup: str = "pass",
        global_setup: str = "",
        timer=None,
        globals: dict | None = None,
        label: str | None = None,
        sub_label: str | None = None,
        description: str | None = None,
        env: str | None = None,
        num_threads: int = 1,
        language=Language.PYTHON,
    ) -> None:
        if not isinstance(stmt, str):
            raise ValueError("Currently only a `str` stmt is supported.")
        if language not in (Language.PYTHON, "py", "python"):
            raise ValueError("torch.utils.benchmark.Timer times Python statements only in this torch")
        import torch

        self._globals = {"torch": torch, **(globals or {})}
        self._task_spec = TaskSpec(
            stmt=textwrap.dedent(stmt).strip() or "pass",
            setup=textwrap.dedent(setup).strip() or "pass",
            global_setup=global_setup,
            label=label,
            sub_label=sub_label,
            description=description,
            env=env,
            num_threads=num_threads,
        )
        self._timeit = timeit.Timer(
            stmt=self._task_spec.stmt,
            setup=self._task_spec.setup,
            timer=timer or self._synchronized_timer,
            globals=self._globals,
        )

    @staticmethod
    def _synchronized_timer() -> float:
        import torch

        if torch.cuda.is_available():
            torch.cuda.synchronize()
        return time.perf_counter()

    def _run(self, number: int) -> float:
        import torch

        before = torch.get_num_threads()
        torch.set_num_threads(self._task_spec.num_threads)
        try:
            return self._timeit.timeit(number)
        finally:
            torch.set_num_threads(before)

    def timeit(self, number: int = 1000000) -> Measurement:
        """One block of `number` runs (after a warm-up of min(number, 100))."""
        self._run(max(int(number // 100), 2))
        return Measurement(number, [self._run(number)], self._task_spec)

    def repeat(self, repeat: int = -1, number: int = -1):
        """Not offered (upstream's neither): use timeit or blocked_autorange."""
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def autorange(self, callback=None):
        """Not offered (upstream's neither): use blocked_autorange."""
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def _block_size(self, min_block_time: float = 0.025) -> int:
        number = 1
        while True:
            if self._run(number) >= min_block_time:
                return number
            number *= 10

    def blocked_autorange(self, callback=None, min_run_time: float = 0.2) -> Measurement:
        """Blocks of a size that takes >= 25 ms each, until min_run_time has passed (at least 3 blocks)."""
        number = self._block_size()
        times: list[float] = []
        total = 0.0
        while total < min_run_time or len(times) < 3:
            t = self._run(number)
            total += t
            if callback:
                callback(number, t)
            times.append(t)
        return Measurement(number, times, self._task_spec)

    def adaptive_autorange(
        self, threshold: float = 0.1, *, min_run_time: float = 0.01, max_run_time: float = 10.0, callback=None
    ) -> Measurement:
        """Blocks until the iqr/median of the times is below threshold (and min_run_time has passed) or
        max_run_time is spent."""
        number = self._block_size(min_block_time=0.05)
        times: list[float] = []
        total = 0.0
        while total < max_run_time:
            t = self._run(number)
            total += t
            if callback:
                callback(number, t)
            times.append(t)
            m = Measurement(number, times, self._task_spec)
            if len(times) > 3 and total >= min_run_time and m.meets_confidence(threshold):
                break
        return Measurement(number, times, self._task_spec)
