"""torch.jit (PyTorch's API) as upstream behaves with TorchScript disabled (`PYTORCH_JIT=0`): this torch has
no TorchScript compiler, so `script` and `trace` return the function or module they are given, which then runs
as Python, and the decorators library code uses (`ignore`, `unused`, `export`, `interface`, `annotate`,
`Final`, `is_scripting`, `is_tracing`) do what they do outside a scripted region. Loading or saving a
TorchScript archive needs the compiler: `save` and `load` raise, saying so (torch.save/torch.load are the
way to checkpoint here)."""

from __future__ import annotations

import contextlib
from typing import Final  # noqa: F401  (torch.jit.Final: the type of a module's constant attribute)

__all__ = [
    "Attribute",
    "CompilationUnit",
    "Error",
    "Final",
    "ScriptFunction",
    "ScriptModule",
    "RecursiveScriptModule",
    "TracerWarning",
    "annotate",
    "enable_onednn_fusion",
    "export",
    "fork",
    "freeze",
    "ignore",
    "interface",
    "is_scripting",
    "is_tracing",
    "load",
    "onednn_fusion_enabled",
    "optimize_for_inference",
    "optimized_execution",
    "save",
    "script",
    "script_if_tracing",
    "script_method",
    "set_fusion_strategy",
    "strict_fusion",
    "trace",
    "trace_module",
    "unused",
    "wait",
]

_NO_TORCHSCRIPT = "this torch has no TorchScript (as upstream run with PYTORCH_JIT=0)"


class Error(RuntimeError):
    """TorchScript's error type (raised by save/load here)."""


class TracerWarning(Warning):
    """The warning the tracer gives for code it cannot trace faithfully (never given here: nothing is traced)."""


class ScriptModule:
    """TorchScript's module type. No instance is ever made here (script returns the nn.Module), so
    `isinstance(m, torch.jit.ScriptModule)` is False, as with PYTORCH_JIT=0."""


class RecursiveScriptModule(ScriptModule):
    """A scripted module (never made here)."""


class ScriptFunction:
    """A scripted function (never made here)."""


class CompilationUnit:
    """TorchScript's compilation unit: compiling source needs TorchScript."""

    def __init__(self, lang: str | None = None, _frames_up: int = 0) -> None:
        if lang is not None:
            raise RuntimeError(f"torch.jit.CompilationUnit cannot compile source: {_NO_TORCHSCRIPT}")


def script(obj, optimize=None, _frames_up: int = 0, _rcb=None, example_inputs=None):
    """Returns obj unchanged (a function, an nn.Module or a class): it runs as Python, as upstream's script does
    with PYTORCH_JIT=0."""
    return obj


def script_method(fn):
    """Marks a ScriptModule method for compilation; returns fn."""
    return fn


def trace(func, example_inputs=None, *args, **kwargs):
    """Returns func unchanged (it runs as Python), as upstream's trace does with PYTORCH_JIT=0."""
    return func


def trace_module(mod, inputs, *args, **kwargs):
    """Returns mod unchanged, as upstream's trace_module does with PYTORCH_JIT=0."""
    return mod


def script_if_tracing(fn):
    """Compiles fn on its first call under tracing (never here); returns fn."""
    return fn


def ignore(drop=False, **kwargs):
    """Leaves a function to Python inside scripted code; a decorator (bare or called) returning the function."""
    if callable(drop):
        return drop
    return lambda fn: fn


def unused(fn):
    """Marks a function that scripted code replaces with a raise; returns fn (it runs, as Python)."""
    return fn


def export(fn):
    """Marks a method as an entry point of a scripted module; returns fn."""
    return fn


def interface(obj):
    """Declares a TorchScript interface type; returns obj."""
    return obj


def _overload(func):
    return func


def _overload_method(func):
    return func


def annotate(the_type, the_value):
    """Gives the_value a type for the TorchScript compiler; returns the_value."""
    return the_value


def Attribute(value, type):  # noqa: N802  (upstream's name)
    """Declares a module attribute's type for TorchScript; returns value (upstream with PYTORCH_JIT=0)."""
    return value


def is_scripting() -> bool:
    """Whether the code runs as TorchScript: never here."""
    return False


def is_tracing() -> bool:
    """Whether the code runs under torch.jit.trace: never here."""
    return False


class Future:
    """The result of torch.jit.fork: here the call already ran; `wait()` returns its value (or raises its
    exception)."""

    def __init__(self, fn, args, kwargs) -> None:
        self._value = self._error = None
        try:
            self._value = fn(*args, **kwargs)
        except BaseException as e:  # noqa: BLE001  (re-raised by wait(), as a fork's error is)
            self._error = e

    def wait(self):
        """The call's value (its exception re-raised)."""
        if self._error is not None:
            raise self._error
        return self._value

    def done(self) -> bool:
        """Whether the call finished: always."""
        return True


def fork(func, *args, **kwargs) -> Future:
    """Runs func(*args, **kwargs) (at once: Python has no TorchScript interpreter thread here) and returns its
    Future."""
    return Future(func, args, kwargs)


def wait(future: Future):
    """The value of a fork's Future."""
    return future.wait()


def save(m, f, _extra_files=None) -> None:
    """Saves a ScriptModule as a TorchScript archive: refused, there are no ScriptModules here."""
    raise Error(f"torch.jit.save needs a ScriptModule, and {_NO_TORCHSCRIPT}; use torch.save(module.state_dict(), f)")


def load(f, map_location=None, _extra_files=None, _restore_shapes=False):
    """Loads a TorchScript archive: refused, there is no TorchScript interpreter here."""
    raise Error(
        f"torch.jit.load cannot run a TorchScript archive: {_NO_TORCHSCRIPT}; torch.load reads torch.save's files"
    )


def freeze(mod, preserved_attrs=None, optimize_numerics: bool = True):
    """Freezes a ScriptModule; returns mod (an nn.Module here) unchanged."""
    return mod


def optimize_for_inference(mod, other_methods=None):
    """Optimizes a ScriptModule for inference; returns mod unchanged."""
    return mod


@contextlib.contextmanager
def optimized_execution(should_optimize: bool):
    """TorchScript's optimized-execution switch for a block (nothing is optimized here)."""
    yield


_fusion = {"onednn": False, "strategy": [("STATIC", 2), ("DYNAMIC", 10)]}


def enable_onednn_fusion(enabled: bool) -> None:
    """Records TorchScript's oneDNN fusion switch."""
    _fusion["onednn"] = bool(enabled)


def onednn_fusion_enabled() -> bool:
    """TorchScript's oneDNN fusion switch."""
    return _fusion["onednn"]


def set_fusion_strategy(strategy):
    """Records TorchScript's fusion strategy; returns the previous one."""
    old, _fusion["strategy"] = _fusion["strategy"], list(strategy)
    return old


class strict_fusion:  # noqa: N801  (upstream's name)
    """`with torch.jit.strict_fusion():` fails scripted code that does not fuse; nothing to check here."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> bool:
        return False
