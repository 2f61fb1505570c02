"""The profiler's results (PyTorch's torch.autograd.profiler_util): FunctionEvent (one timed op call or
record_function range, with its children), FunctionEventAvg (the events of one key added up) and EventList
(a list of events that prints as upstream's table, averages by key and exports a Chrome trace)."""

from __future__ import annotations

import json
from collections import defaultdict

__all__ = ["EventList", "FunctionEvent", "FunctionEventAvg", "Interval", "format_time"]


def format_time(time_us: float) -> str:
    """A time in microseconds as upstream prints it (us, ms or s)."""
    if time_us >= 1e6:
        return f"{time_us / 1e6:.3f}s"
    if time_us >= 1e3:
        return f"{time_us / 1e3:.3f}ms"
    return f"{time_us:.3f}us"


class Interval:
    """A time range in microseconds from the profile's start."""

    def __init__(self, start: float, end: float) -> None:
        self.start = start
        self.end = end

    def elapsed_us(self) -> float:
        """end - start."""
        return self.end - self.start


class FunctionEvent:
    """One op call or record_function range: name, thread, start/end (us from the profile's start), the
    input shapes when record_shapes was on, its parent and children (the events it enclosed)."""

    def __init__(self, id, name, thread, start_us, end_us, input_shapes=None, is_user_annotation=False):
        self.id = id
        self.name = name
        self.key = name
        self.thread = thread
        self.time_range = Interval(start_us, end_us)
        self.input_shapes = input_shapes if input_shapes is not None else []
        self.is_user_annotation = is_user_annotation
        self.cpu_children: list[FunctionEvent] = []
        self.cpu_parent: FunctionEvent | None = None
        self.count = 1
        self.device_type = "cpu"
        self.device_time_total = 0.0
        self.self_device_time_total = 0.0
        self.cpu_memory_usage = 0
        self.self_cpu_memory_usage = 0
        self.flops = 0
        self.stack: list[str] = []
        self.is_async = False
        self.is_remote = False
        self.is_legacy = False
        self.node_id = -1
        self.overload_name = ""
        self.scope = 0

    @property
    def cpu_time_total(self) -> float:
        """The event's wall time on the CPU (us), its children included."""
        return self.time_range.elapsed_us()

    @property
    def self_cpu_time_total(self) -> float:
        """The event's CPU time less its children's (us)."""
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    @property
    def cpu_time(self) -> float:
        """The average CPU time per call (us): the total, for one event."""
        return self.cpu_time_total / self.count

    device_time = cuda_time = property(lambda self: 0.0, doc="Device time (us): not measured (no GPU tracing).")

    def __repr__(self) -> str:
        return (
            f"<FunctionEvent id={self.id} name={self.name} cpu_time={format_time(self.cpu_time_total)} "
            f"start_us={self.time_range.start:.3f} end_us={self.time_range.end:.3f} "
            f"cpu_children={[c.id for c in self.cpu_children]} input_shapes={self.input_shapes}>"
        )


class FunctionEventAvg:
    """The events of one key added up: count, cpu_time_total, self_cpu_time_total, cpu_time (the mean)."""

    def __init__(self) -> None:
        self.key = None
        self.count = 0
        self.cpu_time_total = 0.0
        self.self_cpu_time_total = 0.0
        self.input_shapes = None
        self.is_user_annotation = False
        self.device_time_total = 0.0
        self.self_device_time_total = 0.0
        self.cpu_memory_usage = 0
        self.self_cpu_memory_usage = 0
        self.flops = 0
        self.device_type = "cpu"
        self.cpu_children = None
        self.cpu_parent = None
        self.stack: list[str] = []
        self.is_async = self.is_remote = self.is_legacy = False
        self.node_id = 0
        self.overload_name = ""
        self.scope = 0

    def add(self, other) -> FunctionEventAvg:
        """Adds an event (or an average) of the same key."""
        if self.key is None:
            self.key = other.key
            self.input_shapes = other.input_shapes
            self.is_user_annotation = other.is_user_annotation
        self.count += other.count
        self.cpu_time_total += other.cpu_time_total
        self.self_cpu_time_total += other.self_cpu_time_total
        return self

    def __iadd__(self, other):
        return self.add(other)

    @property
    def cpu_time(self) -> float:
        """The mean CPU time per call (us)."""
        return self.cpu_time_total / max(self.count, 1)

    device_time = cuda_time = property(lambda self: 0.0, doc="Device time (us): not measured (no GPU tracing).")

    def __repr__(self) -> str:
        return (
            f"<FunctionEventAvg key={self.key} self_cpu_time={format_time(self.self_cpu_time_total)} "
            f"cpu_time={format_time(self.cpu_time)} input_shapes={self.input_shapes}>"
        )


_SORT_KEYS = {
    "cpu_time": "cpu_time",
    "cuda_time": "cpu_time",
    "cpu_time_total": "cpu_time_total",
    "self_cpu_time_total": "self_cpu_time_total",
    "count": "count",
    "device_time_total": "device_time_total",
    "cuda_time_total": "device_time_total",
    "self_device_time_total": "self_device_time_total",
    "self_cuda_time_total": "self_device_time_total",
}


class EventList(list):
    """A list of FunctionEvents (or averages): `table()`, `key_averages()`, `total_average()`,
    `export_chrome_trace(path)`."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.pop("use_device", None)
        kwargs.pop("profile_memory", None)
        kwargs.pop("with_flops", None)
        super().__init__(*args)

    @property
    def self_cpu_time_total(self) -> float:
        """The CPU time of all events less their children (us): the profiled region's time."""
        return sum(e.self_cpu_time_total for e in self)

    def key_averages(
        self, group_by_input_shapes: bool = False, group_by_stack_n: int = 0, group_by_overload_name=False
    ):
        """One FunctionEventAvg per key (name, and input shapes with group_by_input_shapes), in first-seen
        order."""
        stats: dict = defaultdict(FunctionEventAvg)
        for e in self:
            key = (e.key, str(e.input_shapes)) if group_by_input_shapes else e.key
            stats[key].add(e)
        return EventList(stats.values())

    def total_average(self) -> FunctionEventAvg:
        """All events added up, under the key "Total"."""
        total = FunctionEventAvg()
        for e in self:
            total.add(e)
        total.key = "Total"
        return total

    def table(
        self,
        sort_by: str | None = None,
        row_limit: int = 100,
        max_src_column_width: int = 75,
        max_name_column_width: int = 55,
        max_shapes_column_width: int = 80,
        header: str | None = None,
        top_level_events_only: bool = False,
        time_unit: str | None = None,
    ) -> str:
        """The events as upstream's table: name, self CPU %, self CPU, CPU total %, CPU total, CPU time avg,
        # of calls (and input shapes where recorded), sorted by `sort_by` (descending), at most row_limit rows."""
        events = list(self)
        if top_level_events_only:
            events = [e for e in events if e.cpu_parent is None]
        if sort_by is not None:
            if sort_by not in _SORT_KEYS:
                raise ValueError(f"sort_by must be one of {sorted(_SORT_KEYS)}, got {sort_by!r}")
            attr = _SORT_KEYS[sort_by]
            events.sort(key=lambda e: getattr(e, attr), reverse=True)
        if row_limit is not None and row_limit > 0:
            events = events[:row_limit]
        total = self.self_cpu_time_total or 1.0
        shapes = any(e.input_shapes for e in self)
        name_width = max([len(str(e.key)) for e in events] + [4])
        name_width = min(name_width, max_name_column_width) + 4
        columns = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg", "# of Calls"]
        widths = [name_width] + [12] * 6
        if shapes:
            columns.append("Input Shapes")
            widths.append(min(max_shapes_column_width, max([len(str(e.input_shapes)) for e in events] + [12])) + 2)

        def row(values) -> str:
            return "  ".join(str(v).rjust(w) for v, w in zip(values, widths)) + "  "

        line = "  ".join("-" * w for w in widths) + "  "
        out = [header] if header else []
        out += [line, row(columns), line]
        for e in events:
            name = str(e.key)
            if len(name) > max_name_column_width:
                name = name[: max_name_column_width - 3] + "..."
            values = [
                name,
                f"{100.0 * e.self_cpu_time_total / total:.2f}%",
                format_time(e.self_cpu_time_total),
                f"{100.0 * e.cpu_time_total / total:.2f}%",
                format_time(e.cpu_time_total),
                format_time(e.cpu_time),
                e.count,
            ]
            if shapes:
                values.append(str(e.input_shapes)[:max_shapes_column_width])
            out.append(row(values))
        out.append(line)
        out.append(f"Self CPU time total: {format_time(self.self_cpu_time_total)}")
        return "\n".join(out) + "\n"

    def export_chrome_trace(self, path: str) -> None:
        """Writes the events as a Chrome trace (chrome://tracing, Perfetto): one complete ('X') event each."""
        trace = {
            "traceEvents": [
                {
                    "name": e.name,
                    "ph": "X",
                    "ts": e.time_range.start,
                    "dur": e.cpu_time_total,
                    "pid": 0,
                    "tid": e.thread,
                    "cat": "user_annotation" if e.is_user_annotation else "cpu_op",
                    "args": {"Input Dims": e.input_shapes} if e.input_shapes else {},
                }
                for e in self
                if isinstance(e, FunctionEvent)
            ],
            "displayTimeUnit": "ms",
        }
        with open(path, "w") as f:
            json.dump(trace, f)

    def __str__(self) -> str:
        return self.table()
