"""The profiler (PyTorch's torch.autograd.profiler; torch.profiler is the newer API over it).

While a `profile` is active, every op called from Python (torch.<op>, Tensor methods and operators: the names
in torch's namespace and on Tensor, replaced for the duration through torch._registry.instrument) and every
`record_function` range becomes a FunctionEvent with its wall time on the CPU, its thread, the events it
enclosed and, with record_shapes, its inputs' shapes. Ops that run inside C++ (a kernel's own helpers) are part
of their caller's time, not events of their own; GPU kernels are not traced (no CUPTI here), so device times
are 0. Outside a profile, record_function costs one check.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import time

from torch.autograd.profiler_util import EventList, FunctionEvent, FunctionEventAvg, format_time

__all__ = ["profile", "record_function", "EventList", "FunctionEvent", "FunctionEventAvg", "format_time"]

_active: list[_Recorder] = []  # the running profile's recorder (one at a time, as upstream)


class _Recorder:
    """Collects the events of one profile: a stack of open events per thread."""

    def __init__(self, record_shapes: bool) -> None:
        self.record_shapes = record_shapes
        self.events: list[FunctionEvent] = []
        self.start_ns = time.perf_counter_ns()
        self.local = threading.local()
        self.lock = threading.Lock()
        self.next_id = 0

    def _now_us(self) -> float:
        return (time.perf_counter_ns() - self.start_ns) / 1000.0

    def open(self, name: str, args=(), kwargs=None, user: bool = False) -> FunctionEvent:
        stack = getattr(self.local, "stack", None)
        if stack is None:
            stack = self.local.stack = []
        shapes = _shapes(args, kwargs) if self.record_shapes else []
        with self.lock:
            event_id = self.next_id
            self.next_id += 1
        event = FunctionEvent(event_id, name, threading.get_ident(), self._now_us(), 0.0, shapes, user)
        if stack:
            event.cpu_parent = stack[-1]
            stack[-1].cpu_children.append(event)
        stack.append(event)
        return event

    def close(self, event: FunctionEvent) -> None:
        event.time_range.end = self._now_us()
        stack = self.local.stack
        while stack and stack[-1] is not event:  # an event left open by an exception inside it
            stack.pop().time_range.end = event.time_range.end
        if stack:
            stack.pop()
        with self.lock:
            self.events.append(event)


def _shapes(args, kwargs) -> list:
    from torch._C import Tensor

    values = list(args) + (list(kwargs.values()) if kwargs else [])
    return [list(a.shape) if isinstance(a, Tensor) else [] for a in values]


def _timed(name: str, fn):
    label = f"aten::{name}" if not name.startswith("__") else f"aten::{name.strip('_')}"

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        recorder = _active[0] if _active else None
        if recorder is None:
            return fn(*args, **kwargs)
        event = recorder.open(label, args, kwargs)
        try:
            return fn(*args, **kwargs)
        finally:
            recorder.close(event)

    return wrapper


class record_function(contextlib.ContextDecorator):  # noqa: N801  (upstream's name)
    """A named range in the profile (`with record_function("forward"):` or as a decorator): the ops inside
    it are its children in the table and the trace. Does nothing when no profile is running."""

    def __init__(self, name: str, args: str | None = None) -> None:
        self.name = name
        self.args = args
        self._events: list = []

    def __enter__(self):
        recorder = _active[0] if _active else None
        self._events.append((recorder, recorder.open(self.name, user=True) if recorder else None))
        return self

    def __exit__(self, *exc) -> bool:
        recorder, event = self._events.pop()
        if recorder is not None and _active and _active[0] is recorder:
            recorder.close(event)
        return False


class profile:  # noqa: N801  (upstream's name)
    """`with torch.autograd.profiler.profile() as prof:` times the ops of the block (see the module's
    docstring); then `prof.key_averages().table(sort_by="self_cpu_time_total")`, `prof.function_events`,
    `prof.export_chrome_trace(path)`."""

    def __init__(
        self,
        enabled: bool = True,
        *,
        use_cuda: bool = False,
        use_device=None,
        record_shapes: bool = False,
        with_flops: bool = False,
        profile_memory: bool = False,
        with_stack: bool = False,
        with_modules: bool = False,
        use_kineto: bool = False,
        use_cpu: bool = True,
        experimental_config=None,
        acc_events: bool = False,
        custom_trace_id_callback=None,
    ) -> None:
        self.enabled = enabled
        self.record_shapes = record_shapes
        self.use_device = use_device or ("cuda" if use_cuda else None)
        self.entered = False
        self._recorder: _Recorder | None = None
        self._restore = None
        self.function_events: EventList | None = None

    def __enter__(self):
        if not self.enabled:
            return self
        if self.entered:
            raise RuntimeError("Profiler context manager is not reentrant")
        if _active:
            raise RuntimeError("Profiler is already enabled on this thread")
        import torch
        from torch import _registry

        self.entered = True
        self._recorder = _Recorder(self.record_shapes)
        self._restore = _registry.instrument(vars(torch), torch.Tensor, _timed)
        _active.append(self._recorder)
        return self

    def __exit__(self, *exc) -> bool:
        if not self.enabled or self._recorder is None:
            return False
        _active.clear()
        self._restore()
        self._restore = None
        events = sorted(self._recorder.events, key=lambda e: (e.time_range.start, -e.time_range.end))
        self.function_events = EventList(events)
        self.entered = False
        return False

    def _check_finish(self) -> None:
        if self.entered:
            raise RuntimeError("Profiler didn't finish running")
        if self.function_events is None:  # never run: no events, as upstream's
            self.function_events = EventList()

    def table(self, sort_by=None, row_limit: int = 100, **kwargs) -> str:
        """function_events.table(...)."""
        self._check_finish()
        return self.function_events.table(sort_by=sort_by, row_limit=row_limit, **kwargs)

    def key_averages(self, group_by_input_shape: bool = False, group_by_stack_n: int = 0, **kwargs) -> EventList:
        """The events averaged by name (and input shapes with group_by_input_shape)."""
        self._check_finish()
        return self.function_events.key_averages(group_by_input_shape, group_by_stack_n)

    def total_average(self) -> FunctionEventAvg:
        """All events added up."""
        self._check_finish()
        return self.function_events.total_average()

    def export_chrome_trace(self, path: str) -> None:
        """Writes the events as a Chrome trace to path."""
        self._check_finish()
        self.function_events.export_chrome_trace(path)

    @property
    def self_cpu_time_total(self) -> float:
        """The profiled region's CPU time (us)."""
        self._check_finish()
        return self.function_events.self_cpu_time_total

    def __str__(self) -> str:
        self._check_finish()
        return self.function_events.table()


@contextlib.contextmanager
def emit_nvtx(enabled: bool = True, record_shapes: bool = False):
    """NVTX ranges for nvprof/Nsight around each op: not emitted here (no NVTX); the block runs as it is."""
    yield


def _disable_profiler_if_active() -> None:
    """Stops a profile left running (a test's cleanup)."""
    _active.clear()
