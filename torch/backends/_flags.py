"""The machinery of torch.backends' switches, as upstream's: a `PropModule` stands in for a backend's module
so that `torch.backends.cudnn.benchmark = True` calls a setter (`ContextProp`), `flags()` context managers
set several switches and restore them, and `disable_global_flags()` (what PyTorch's own test suite calls)
makes a bare assignment an error, so that a test cannot forget to undo one."""

from __future__ import annotations

import contextlib
import types

_allow_nonbracketed_mutation = [True]


def disable_global_flags() -> None:
    """From now on, a backend switch may only be changed inside its `flags()` context manager."""
    _allow_nonbracketed_mutation[0] = False


def flags_frozen() -> bool:
    """Whether `disable_global_flags()` was called."""
    return not _allow_nonbracketed_mutation[0]


@contextlib.contextmanager
def allow_nonbracketed_mutation():
    """Lets `flags()` change the switches while they are frozen."""
    old = _allow_nonbracketed_mutation[0]
    _allow_nonbracketed_mutation[0] = True
    try:
        yield
    finally:
        _allow_nonbracketed_mutation[0] = old


class ContextProp:
    """A module attribute read through `getter` and assigned through `setter` (refused while frozen)."""

    def __init__(self, getter, setter):
        self.getter = getter
        self.setter = setter

    def __get__(self, obj, objtype):
        return self.getter()

    def __set__(self, obj, val):
        if flags_frozen():
            raise RuntimeError(
                f"not allowed to set {obj.__name__} flags after disable_global_flags; "
                "please use flags() context manager instead"
            )
        self.setter(val)


class PropModule(types.ModuleType):
    """Replaces a backend's module in sys.modules: its ContextProps on the subclass, the rest from `m`."""

    def __init__(self, m, name):
        super().__init__(name)
        self.m = m
        self.__file__ = getattr(m, "__file__", None)
        self.__doc__ = m.__doc__

    def __getattr__(self, attr):
        return self.m.__getattribute__(attr)

    def __dir__(self):
        return sorted(set(dir(self.m)) | set(dir(type(self))))


class Switch:
    """One boolean-or-value switch kept in Python (the backends here have no C++ state for it)."""

    def __init__(self, value, convert=bool):
        self.value = value
        self.convert = convert

    def get(self):
        return self.value

    def set(self, value):
        self.value = self.convert(value) if value is not None and self.convert else value

    def prop(self) -> ContextProp:
        return ContextProp(self.get, self.set)
