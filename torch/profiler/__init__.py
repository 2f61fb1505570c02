"""torch.profiler (PyTorch's API): `profile` with activities, a `schedule` of wait/warmup/active steps,
`on_trace_ready` (e.g. `tensorboard_trace_handler(dir)`, which writes a Chrome trace per cycle), `step()`,
`record_function`, and the results of torch.autograd.profiler (key_averages, table, export_chrome_trace).
CPU activity only: GPU kernels are not traced here (no CUPTI), so asking for ProfilerActivity.CUDA warns once
and records the CPU side."""

from __future__ import annotations

import enum
import os
import socket
import time
import warnings

from torch.autograd import profiler as _autograd_profiler
from torch.autograd.profiler import record_function

__all__ = [
    "ProfilerAction",
    "ProfilerActivity",
    "profile",
    "record_function",
    "schedule",
    "supported_activities",
    "tensorboard_trace_handler",
]


class ProfilerActivity(enum.Enum):
    """What to trace: CPU ops, or a device's kernels (not traced here)."""

    CPU = 0
    CUDA = 2
    XPU = 3
    MTIA = 4
    PrivateUse1 = 5


class ProfilerAction(enum.Enum):
    """What a schedule says to do at a step."""

    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def supported_activities() -> set:
    """The activities this build can trace: the CPU's."""
    return {ProfilerActivity.CPU}


def schedule(*, wait: int, warmup: int, active: int, repeat: int = 0, skip_first: int = 0, skip_first_wait: int = 0):
    """The step -> ProfilerAction function of upstream's schedule: skip_first steps, then cycles of wait,
    warmup and active steps (the last active step RECORD_AND_SAVE), `repeat` cycles (0: forever)."""
    if wait < 0 or warmup < 0 or active <= 0 or repeat < 0 or skip_first < 0:
        raise AssertionError("Invalid profiler schedule arguments")
    if warmup == 0:
        warnings.warn("Profiler won't be using warmup, this can skew profiler results", stacklevel=2)

    def schedule_fn(step: int) -> ProfilerAction:
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        if skip_first_wait:
            step += wait
        num_steps = wait + warmup + active
        if repeat > 0 and step / num_steps >= repeat:
            return ProfilerAction.NONE
        mod_step = step % num_steps
        if mod_step < wait:
            return ProfilerAction.NONE
        if mod_step < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if mod_step < num_steps - 1 else ProfilerAction.RECORD_AND_SAVE

    return schedule_fn


def _default_schedule(_: int) -> ProfilerAction:
    return ProfilerAction.RECORD


def tensorboard_trace_handler(dir_name: str, worker_name: str | None = None, use_gzip: bool = False):
    """An on_trace_ready that writes each cycle's Chrome trace to dir_name/<worker>.<ms>.pt.trace.json
    (TensorBoard's profiler plugin reads them)."""

    def handler(prof) -> None:
        os.makedirs(dir_name, exist_ok=True)
        name = worker_name or f"{socket.gethostname()}_{os.getpid()}"
        path = os.path.join(dir_name, f"{name}.{time.time_ns() // 1_000_000}.pt.trace.json")
        if use_gzip:
            import gzip
            import shutil

            prof.export_chrome_trace(path)
            with open(path, "rb") as src, gzip.open(path + ".gz", "wb") as dst:
                shutil.copyfileobj(src, dst)
            os.remove(path)
        else:
            prof.export_chrome_trace(path)

    return handler


class profile:  # noqa: N801  (upstream's name)
    """`with torch.profiler.profile(activities=[ProfilerActivity.CPU], schedule=..., on_trace_ready=...) as p:`
    with `p.step()` after each step; without a schedule the whole block is recorded. Then p.key_averages(),
    p.events(), p.export_chrome_trace(path)."""

    def __init__(
        self,
        *,
        activities=None,
        schedule=None,
        on_trace_ready=None,
        record_shapes: bool = False,
        profile_memory: bool = False,
        with_stack: bool = False,
        with_flops: bool = False,
        with_modules: bool = False,
        experimental_config=None,
        execution_trace_observer=None,
        acc_events: bool = False,
        use_cuda=None,
        custom_trace_id_callback=None,
    ) -> None:
        activities = set(activities) if activities is not None else supported_activities()
        if activities - supported_activities():
            warnings.warn(
                "torch.profiler: only CPU activity is traced in this build (no CUPTI); "
                f"{sorted(a.name for a in activities - supported_activities())} will not be recorded",
                stacklevel=2,
            )
        self.activities = activities
        self.schedule = schedule or _default_schedule
        self.on_trace_ready = on_trace_ready
        self.record_shapes = record_shapes
        self.step_num = 0
        self.current_action = self.schedule(0)
        self._profiler: _autograd_profiler.profile | None = None
        self._last: _autograd_profiler.profile | None = None

    def _start_recording(self) -> None:
        if self._profiler is None:
            self._profiler = _autograd_profiler.profile(record_shapes=self.record_shapes)
            self._profiler.__enter__()

    def _stop_recording(self, save: bool) -> None:
        if self._profiler is not None:
            self._profiler.__exit__(None, None, None)
            self._last, self._profiler = self._profiler, None
            if save and self.on_trace_ready is not None:
                self.on_trace_ready(self)

    def _apply(self, action: ProfilerAction) -> None:
        if action in (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE):
            self._start_recording()

    def start(self) -> None:
        """Starts profiling (what entering the context does)."""
        self._apply(self.current_action)

    def stop(self) -> None:
        """Stops profiling; a cycle still recording is saved (on_trace_ready)."""
        self._stop_recording(save=True)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc) -> bool:
        self.stop()
        return False

    def step(self) -> None:
        """Marks the end of a step: the schedule's next action starts, and a finished cycle is saved."""
        prev = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        if prev == ProfilerAction.RECORD_AND_SAVE:
            self._stop_recording(save=True)
        elif self.current_action in (ProfilerAction.NONE, ProfilerAction.WARMUP) and prev == ProfilerAction.RECORD:
            self._stop_recording(save=True)
        self._apply(self.current_action)

    def _result(self) -> _autograd_profiler.profile:
        if self._last is None:
            raise RuntimeError("Profiler didn't finish running")
        return self._last

    def events(self):
        """The last recorded cycle's FunctionEvents."""
        return self._result().function_events

    def key_averages(self, group_by_input_shape: bool = False, group_by_stack_n: int = 0, **kwargs):
        """The last cycle's events averaged by name (and input shapes)."""
        return self._result().key_averages(group_by_input_shape, group_by_stack_n)

    def export_chrome_trace(self, path: str) -> None:
        """Writes the last cycle as a Chrome trace."""
        self._result().export_chrome_trace(path)
