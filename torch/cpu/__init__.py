"""torch.cpu: the CPU's side of the device-generic API that torch.cuda has (is_available, device_count,
synchronize, streams, events), as upstream: the CPU runs every op as it is called, so its stream and event
are no-ops that let one piece of code drive either device (torch.get_device_module(device) picks the module).
get_capabilities() reports the instruction sets /proc/cpuinfo lists."""

from __future__ import annotations

import functools
import types
from contextlib import AbstractContextManager
from pathlib import Path

__all__ = [
    "Event",
    "Stream",
    "StreamContext",
    "current_device",
    "current_stream",
    "device_count",
    "get_capabilities",
    "is_available",
    "is_initialized",
    "set_device",
    "stream",
    "synchronize",
]


def is_available() -> bool:
    """The CPU is always there: True."""
    return True


def is_initialized() -> bool:
    """Nothing to set up on the CPU: True."""
    return True


def synchronize(device=None) -> None:
    """Waits for every op on the CPU: they have all finished when they return, so it returns at once."""


def current_device() -> str:
    """The CPU's name as a device: "cpu"."""
    return "cpu"


def device_count() -> int:
    """One CPU device (its threads are torch.get_num_threads())."""
    return 1


def set_device(device) -> None:
    """Selects a CPU device: there is one, so nothing changes."""


class Stream:
    """A stream on the CPU, for device-generic code: ops run in order as they are called, so waiting and
    recording do nothing."""

    def __init__(self, priority: int = -1) -> None:
        self.priority = priority

    def wait_stream(self, stream) -> None:
        """Nothing to wait for."""

    def record_event(self) -> None:
        """No event to record."""

    def wait_event(self, event) -> None:
        """Nothing to wait for."""


class Event:
    """An event on the CPU, for device-generic code: always complete."""

    def query(self) -> bool:
        """True: the CPU's work up to now is done."""
        return True

    def record(self, stream=None) -> None:
        """Nothing to record."""

    def synchronize(self) -> None:
        """Nothing to wait for."""

    def wait(self, stream=None) -> None:
        """Nothing to wait for."""


_default_stream = Stream()
_current = _default_stream


def current_stream(device=None) -> Stream:
    """The stream that stream() made current (the default one outside it)."""
    return _current


class StreamContext(AbstractContextManager):
    """Makes `stream` current inside the with block (None: leaves things as they are)."""

    def __init__(self, stream: Stream | None) -> None:
        self.stream = stream
        self.prev_stream = _default_stream

    def __enter__(self):
        global _current
        if self.stream is not None:
            self.prev_stream, _current = _current, self.stream

    def __exit__(self, *exc) -> None:
        global _current
        if self.stream is not None:
            _current = self.prev_stream


def stream(stream: Stream | None) -> AbstractContextManager:
    """A context manager that makes `stream` current (StreamContext)."""
    return StreamContext(stream)


@functools.cache
def get_capabilities() -> types.MappingProxyType:
    """The CPU's architecture and instruction-set flags, read once from /proc/cpuinfo: {"architecture": ...,
    "avx2": True, ...} (an immutable mapping, as upstream's)."""
    import platform  # noqa: PLC0415

    caps: dict = {"architecture": platform.machine()}
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return types.MappingProxyType(caps)
    flags: set[str] = set()
    for line in text.splitlines():
        if line.startswith(("flags", "Features")):
            flags.update(line.split(":", 1)[1].split())
            break
    for flag in sorted(flags):
        caps["sse3" if flag == "pni" else flag] = True  # /proc/cpuinfo's name of SSE3
    return types.MappingProxyType(caps)


from torch.cpu import amp  # noqa: E402, F401  (the deprecated torch.cpu.amp, as upstream)
