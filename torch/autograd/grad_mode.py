"""Grad mode: no_grad, enable_grad, set_grad_enabled, inference_mode (thread-local, as in
PyTorch; each works as a context manager and as a decorator)."""

from __future__ import annotations

import functools

from torch import _C

__all__ = [
    "no_grad",
    "enable_grad",
    "set_grad_enabled",
    "inference_mode",
    "is_grad_enabled",
    "is_multithreading_enabled",
    "is_view_replay_enabled",
    "set_multithreading_enabled",
]

is_grad_enabled = _C.is_grad_enabled


class _GradModeBase:
    """Sets grad mode to `self._mode` inside `with` blocks and decorated functions."""

    _mode = False

    def __new__(cls, orig_func=None):
        if orig_func is None or cls not in (no_grad, enable_grad):
            return super().__new__(cls)
        return cls()(orig_func)  # used bare: @torch.no_grad

    def __enter__(self):
        self._prev = _C._set_grad_enabled(self._mode)
        return self

    def __exit__(self, *exc) -> None:
        _C._set_grad_enabled(self._prev)

    def __call__(self, fn):
        """Use as a decorator: `fn` runs in this mode."""

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            prev = _C._set_grad_enabled(self._mode)
            try:
                return fn(*args, **kwargs)
            finally:
                _C._set_grad_enabled(prev)

        return wrapper

    def clone(self):
        return type(self)()


class no_grad(_GradModeBase):
    """Disables gradient recording: results of ops have requires_grad=False."""

    _mode = False


class enable_grad(_GradModeBase):
    """Enables gradient recording (inside no_grad, for example)."""

    _mode = True


class set_grad_enabled(_GradModeBase):
    """Sets grad mode to `mode`; takes effect at once (as a function) or for a `with` block."""

    def __new__(cls, mode: bool):
        return object.__new__(cls)

    def __init__(self, mode: bool) -> None:
        self._mode = bool(mode)
        self._prev = _C._set_grad_enabled(self._mode)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        _C._set_grad_enabled(self._prev)

    def clone(self):
        return set_grad_enabled(self._mode)


class inference_mode(_GradModeBase):
    """Like no_grad (this library has no separate inference tensors); `inference_mode(False)` is a no-op."""

    def __new__(cls, mode: bool = True):
        return object.__new__(cls)

    def __init__(self, mode: bool = True) -> None:
        self._enabled = bool(mode)
        self._mode = not self._enabled

    def __enter__(self):
        self._prev = _C._set_grad_enabled(self._mode if self._enabled else _C.is_grad_enabled())
        return self

    def __call__(self, fn):
        if not callable(fn):  # @inference_mode used as @inference_mode(mode)
            return inference_mode(bool(fn))
        return super().__call__(fn)

    def clone(self):
        return inference_mode(self._enabled)


_multithreading = [True]
_view_replay = [False]


def is_multithreading_enabled() -> bool:
    """Whether backward may run device work on its own threads (upstream's switch; this torch's engine runs
    each backward on the calling thread either way)."""
    return _multithreading[0]


def is_view_replay_enabled() -> bool:
    """Whether autograd replays views instead of as_strided (upstream's switch; views here always keep their
    own view function)."""
    return _view_replay[0]


class set_multithreading_enabled(_GradModeBase):  # noqa: N801  (upstream's name)
    """Sets the multithreaded-backward switch, at once or for a `with` block."""

    def __new__(cls, mode: bool):
        return object.__new__(cls)

    def __init__(self, mode: bool) -> None:
        self.mode = bool(mode)
        self._prev_mt = _multithreading[0]
        _multithreading[0] = self.mode

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        _multithreading[0] = self._prev_mt

    def clone(self):
        return set_multithreading_enabled(self.mode)


class _force_original_view_tracking(_GradModeBase):  # noqa: N801  (upstream's name)
    """Sets the view-replay switch, at once or for a `with` block."""

    def __new__(cls, mode: bool):
        return object.__new__(cls)

    def __init__(self, mode: bool) -> None:
        self.mode = bool(mode)
        self._prev_vr = _view_replay[0]
        _view_replay[0] = self.mode

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        _view_replay[0] = self._prev_vr

    def clone(self):
        return _force_original_view_tracking(self.mode)
