"""torch.cuda.Stream and torch.cuda.Event, as PyTorch has them.

Every kernel, copy and library call of THC/THCUNN goes to the current stream of the current device
(the default stream until `torch.cuda.set_stream` or `with torch.cuda.stream(s):` says otherwise). A
stream or event crosses into torch._C as its CUDA handle, an integer; 0 is the default stream.
"""

from __future__ import annotations

from torch import _C


def _index(device) -> int:
    from torch.cuda import _checked_index

    return _checked_index(device)


class Stream:
    """A CUDA stream: a queue of work that runs in order, concurrently with other streams.

    `Stream(device=None, priority=0)` takes a stream from the device's pool (as upstream does: 32 per
    priority, handed out round robin); a negative `priority` gives a high-priority stream.
    """

    def __init__(self, device=None, priority: int = 0, *, _handle: int | None = None, _device_index=None):
        if _handle is not None:
            self.device_index = _device_index
            self.cuda_stream = int(_handle)
        else:
            self.device_index = _index(device)
            self.cuda_stream = _C._cuda_new_stream(self.device_index, int(priority))

    device_type = 1  # DeviceType.CUDA, as upstream's streams report it

    @property
    def stream_id(self) -> int:
        """An integer that identifies the stream on its device (its handle here; 0: the default stream)."""
        return self.cuda_stream

    @property
    def device(self):
        """The device the stream belongs to."""
        import torch

        return torch.device("cuda", self.device_index)

    @property
    def priority(self) -> int:
        """The stream's priority: lower numbers run first (0 is the lowest)."""
        return _C._cuda_stream_priority(self.device_index, self.cuda_stream)

    @staticmethod
    def priority_range() -> tuple[int, int]:
        """(least, greatest) stream priority of the current GPU: (0, -5) on an H100; lower runs first."""
        return tuple(_C._cuda_stream_priority_range(_index(None)))

    @property
    def _as_parameter_(self):
        import ctypes

        return ctypes.c_void_p(self.cuda_stream)

    def wait_event(self, event: Event) -> None:
        """Makes all future work on this stream wait for `event` (no host wait)."""
        event.wait(self)

    def wait_stream(self, stream: Stream) -> None:
        """Makes all future work on this stream wait for the work queued on `stream` so far."""
        self.wait_event(stream.record_event())

    def record_event(self, event: Event | None = None) -> Event:
        """Records `event` (a new one when None) on this stream and returns it."""
        event = Event() if event is None else event
        event.record(self)
        return event

    def query(self) -> bool:
        """Whether all work queued on this stream has finished."""
        return _C._cuda_stream_query(self.device_index, self.cuda_stream)

    def synchronize(self) -> None:
        """Waits until all work queued on this stream has finished."""
        _C._cuda_stream_synchronize(self.device_index, self.cuda_stream)

    def __eq__(self, other) -> bool:
        if not isinstance(other, Stream):
            return NotImplemented
        return self.cuda_stream == other.cuda_stream and self.device_index == other.device_index

    def __hash__(self) -> int:
        return hash((self.cuda_stream, self.device_index))

    def __repr__(self) -> str:
        return f"<torch.cuda.Stream device={self.device} cuda_stream={self.cuda_stream:#x}>"


class ExternalStream(Stream):
    """A stream created elsewhere (another library), wrapped by its `cudaStream_t` handle; torch
    neither creates nor destroys it."""

    def __init__(self, stream_ptr: int, device=None):
        super().__init__(_handle=int(stream_ptr), _device_index=_index(device))


class Event:
    """A CUDA event: a marker in a stream, to wait on or to time work with.

    The CUDA event is created on its first `record`, on the recording stream's device.
    """

    def __init__(self, enable_timing: bool = False, blocking: bool = False, interprocess: bool = False):
        from torch.cuda import is_compiled

        if not is_compiled():
            raise AssertionError("Torch not compiled with CUDA enabled")
        self.enable_timing = bool(enable_timing)
        self.blocking = bool(blocking)
        self.interprocess = bool(interprocess)
        self._handle = 0
        self._device_index = -1
        self._recorded = False

    @property
    def cuda_event(self) -> int:
        """The cudaEvent_t handle (0 until the event is first recorded)."""
        return self._handle

    @property
    def device(self):
        """The device the event was recorded on (None before its first record)."""
        import torch

        return torch.device("cuda", self._device_index) if self._handle else None

    def record(self, stream: Stream | None = None) -> None:
        """Records the event on `stream` (the current stream when None)."""
        from torch.cuda import current_stream

        stream = current_stream() if stream is None else stream
        if not self._handle:
            self._device_index = stream.device_index
            self._handle = _C._cuda_event_create(
                self._device_index, self.enable_timing, self.blocking, self.interprocess
            )
        elif stream.device_index != self._device_index:
            raise RuntimeError(
                f"Event device cuda:{self._device_index} does not match recording stream's device "
                f"cuda:{stream.device_index}."
            )
        _C._cuda_event_record(self._device_index, self._handle, stream.cuda_stream)
        self._recorded = True

    def wait(self, stream: Stream | None = None) -> None:
        """Makes all future work on `stream` (the current stream when None) wait for this event."""
        from torch.cuda import current_stream

        if not self._handle:
            return  # never recorded: nothing to wait for
        stream = current_stream() if stream is None else stream
        _C._cuda_stream_wait_event(stream.device_index, stream.cuda_stream, self._handle)

    def query(self) -> bool:
        """Whether the work before the event's last record has finished (True if never recorded)."""
        return True if not self._handle else _C._cuda_event_query(self._device_index, self._handle)

    def synchronize(self) -> None:
        """Waits until the work before the event's last record has finished."""
        if self._handle:
            _C._cuda_event_synchronize(self._device_index, self._handle)

    def elapsed_time(self, end_event: Event) -> float:
        """Milliseconds between this event's record and `end_event`'s (both after they complete)."""
        if not (self.enable_timing and end_event.enable_timing):
            raise RuntimeError("Both events must be created with argument 'enable_timing=True'.")
        if not (self._recorded and end_event._recorded):
            raise RuntimeError("Both events must be recorded before calculating elapsed time.")
        return _C._cuda_event_elapsed_time(self._device_index, self._handle, end_event._handle)

    def __del__(self):
        if getattr(self, "_handle", 0):
            _C._cuda_event_destroy(self._device_index, self._handle)
            self._handle = 0

    def __repr__(self) -> str:
        return f"<torch.cuda.Event {self._handle:#x}>" if self._handle else "<torch.cuda.Event uninitialized>"
