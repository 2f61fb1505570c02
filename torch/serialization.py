"""torch.save / torch.load: objects holding tensors (state dicts, lists, nested containers) in a pickle.

Tensors pickle as their bytes, dtype, shape, device and requires_grad (torch._tensor._rebuild).
`load` defaults to weights_only=True, as PyTorch 2.6+: it then unpickles only tensors, dtypes,
torch.Size, the builtin containers and scalars, so a file cannot run code. The file format is a
plain pickle, not PyTorch's zip archive: files are exchanged between our builds only.
"""

from __future__ import annotations

import builtins
import codecs
import collections
import os
import pickle

import torch
from torch import _tensor
from torch._size import Size

__all__ = ["save", "load"]

DEFAULT_PROTOCOL = 4  # the first with native bytes (protocol 2 spells bytes as _codecs.encode calls)

_SAFE_BUILTINS = frozenset("set frozenset list dict tuple slice complex int float bool str bytes bytearray".split())
_SAFE_GLOBALS = {
    ("collections", "OrderedDict"): collections.OrderedDict,
    ("torch._size", "Size"): Size,
    ("torch", "Size"): Size,
    ("_codecs", "encode"): codecs.encode,  # bytes under protocol 2
}


def _open(f, mode: str):
    """(file object, whether we opened it) for a path or a file-like object."""
    if isinstance(f, (str, os.PathLike)):
        return open(f, mode), True
    return f, False


def save(obj, f, pickle_module=pickle, pickle_protocol: int = DEFAULT_PROTOCOL) -> None:
    """Writes obj (tensors, containers of them, numbers, strings) to a path or a writable binary file."""
    fh, owned = _open(f, "wb")
    try:
        pickle_module.dump(obj, fh, protocol=pickle_protocol)
    finally:
        if owned:
            fh.close()


def _device_of(map_location, stored: str) -> str:
    if map_location is None:
        return stored
    if callable(map_location) and not isinstance(map_location, (str, torch.device)):
        raise TypeError("torch.load: a callable map_location is not supported; pass a device or a dict")
    if isinstance(map_location, dict):
        return str(map_location.get(stored, stored))
    return str(torch.device(map_location))


class _Unpickler(pickle.Unpickler):
    """Rebuilds tensors on map_location; with weights_only, refuses every class it does not know."""

    def __init__(self, file, map_location, weights_only: bool):
        super().__init__(file)
        self.map_location, self.weights_only = map_location, weights_only

    def _rebuild(self, data, dtype, shape, requires_grad, device):
        return _tensor._rebuild(data, dtype, shape, requires_grad, _device_of(self.map_location, device))

    def find_class(self, module: str, name: str):
        if (module, name) == ("torch._tensor", "_rebuild"):
            return self._rebuild
        if not self.weights_only:
            return super().find_class(module, name)
        if module in ("torch", "torch._C") and isinstance(getattr(torch, name, None), torch.dtype):
            return getattr(torch, name)
        if (module, name) in _SAFE_GLOBALS:
            return _SAFE_GLOBALS[module, name]
        if module == "builtins" and name in _SAFE_BUILTINS:
            return getattr(builtins, name)
        raise pickle.UnpicklingError(
            f"Weights only load failed. This file can still be loaded, to do so you have two options, do those "
            f"steps only if you trust the source of the checkpoint.\n\t(1) Re-running `torch.load` with "
            f"`weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution.\n"
            f"\t(2) Unsupported global: GLOBAL {module}.{name} is not an allowed global by default."
        )


def load(f, map_location=None, pickle_module=None, *, weights_only: bool | None = None, **pickle_load_args):
    """Reads an object written by save from a path or a readable binary file; map_location (a device,
    or a dict from stored to wanted device) moves its tensors. weights_only (the default) refuses
    anything but tensors, dtypes, sizes, builtin containers and scalars."""
    if weights_only is None:
        weights_only = pickle_module is None
    if pickle_load_args:
        raise TypeError(f"torch.load: unsupported arguments {sorted(pickle_load_args)}")
    fh, owned = _open(f, "rb")
    try:
        return _Unpickler(fh, map_location, weights_only).load()
    finally:
        if owned:
            fh.close()
