"""torch.save / torch.load: objects holding tensors (state dicts, lists, nested containers) in PyTorch's
checkpoint format, so files go to and from upstream PyTorch.

The format is a zip archive (stored, not compressed) with one top-level directory: `data.pkl` pickles the
object (protocol 2) with every tensor as torch._utils._rebuild_tensor_v2(storage, offset, size, stride,
requires_grad, hooks) and every storage as a persistent id ('storage', torch.FloatStorage, key, location,
numel) whose bytes are the record `data/<key>` (little-endian, 64-byte aligned), beside `version`,
`byteorder` and `.format_version`. torch.save writes each storage once, whole, and every tensor as its offset,
sizes and strides into it (as upstream: views of one storage, tied weights among them, stay views of one
storage after torch.load; a conjugate view is its memory with {"conj": True} in the metadata).

`load` defaults to weights_only=True, as PyTorch 2.6+: it then unpickles only tensors, parameters, storages,
dtypes, torch.Size, OrderedDict, the builtin containers and scalars, so a file cannot run code. The plain pickle
of older builds of this project still loads.
"""

from __future__ import annotations

import builtins
import codecs
import collections
import io
import os
import pickle
import uuid
import zipfile

import torch
from torch import _C, _tensor, _utils
from torch._size import Size
from torch.storage import UntypedStorage, _rebuild_untyped

__all__ = ["save", "load"]

DEFAULT_PROTOCOL = 4  # the first with native bytes (protocol 2 spells bytes as _codecs.encode calls)

_SAFE_BUILTINS = frozenset("set frozenset list dict tuple slice complex int float bool str bytes bytearray".split())
_SAFE_GLOBALS = {
    ("collections", "OrderedDict"): collections.OrderedDict,
    ("torch._size", "Size"): Size,
    ("torch", "Size"): Size,
    ("_codecs", "encode"): codecs.encode,  # bytes under protocol 2
    ("torch._utils", "_rebuild_tensor_v2"): _utils._rebuild_tensor_v2,
    ("torch._utils", "_rebuild_tensor"): _utils._rebuild_tensor,
    ("torch._utils", "_rebuild_tensor_v3"): _utils._rebuild_tensor_v3,
    ("torch._utils", "_rebuild_parameter"): _utils._rebuild_parameter,
    ("torch._utils", "_rebuild_parameter_with_state"): _utils._rebuild_parameter_with_state,
    ("torch.storage", "_rebuild_untyped"): _rebuild_untyped,
}

# The storage classes checkpoints name, by dtype (upstream's legacy typed storages). A class stands in for each
# so that a pickle can name it (torch.FloatStorage); only its dtype is used.
_STORAGE_DTYPES = {
    "DoubleStorage": _C.float64, "FloatStorage": _C.float32, "HalfStorage": _C.float16,
    "BFloat16Storage": _C.bfloat16, "LongStorage": _C.int64, "IntStorage": _C.int32, "ShortStorage": _C.int16,
    "CharStorage": _C.int8, "ByteStorage": _C.uint8, "BoolStorage": _C.bool, "ComplexFloatStorage": _C.complex64,
    "ComplexDoubleStorage": _C.complex128, "UntypedStorage": _C.uint8,
}  # fmt: skip


def _storage_class(name: str, dtype: torch.dtype) -> type:
    def __init__(self, *args, **kwargs):
        raise TypeError(f"torch.{name}: storages are not exposed as objects here; it names a checkpoint's storage type")

    return type(name, (), {"dtype": dtype, "__init__": __init__, "__module__": "torch", "__qualname__": name,
                           "__doc__": f"The checkpoint storage type of {dtype} (its dtype only)."})  # fmt: skip


STORAGE_CLASSES = {
    name: _storage_class(name, dtype) for name, dtype in _STORAGE_DTYPES.items() if name != "UntypedStorage"
}
_STORAGE_OF_DTYPE = {cls.dtype: cls for cls in STORAGE_CLASSES.values()}
STORAGE_CLASSES["UntypedStorage"] = UntypedStorage  # the real class (torch/storage.py), pickled as torch.storage's
_ALIGNMENT = 64


def _open(f, mode: str):
    """(file object, whether we opened it) for a path or a file-like object."""
    if isinstance(f, (str, os.PathLike)):
        return open(f, mode), True
    return f, False


class _StorageRef:
    """A tensor's elements as one storage of the checkpoint (persistent id: its key)."""

    __slots__ = ("key", "flat", "location")

    def __init__(self, key: str, flat, location: str) -> None:
        self.key, self.flat, self.location = key, flat, location


class _ZipPickler(pickle.Pickler):
    """Pickles tensors and parameters as PyTorch does (_rebuild_tensor_v2 over a persistent storage)."""

    def __init__(self, file, protocol: int) -> None:
        super().__init__(file, protocol=protocol)
        self.storages: list[_StorageRef] = []
        self.by_memory: dict[tuple, _StorageRef] = {}  # (device, the storage's address) -> its record

    def persistent_id(self, obj):
        if type(obj) is _StorageRef:
            storage = _STORAGE_OF_DTYPE.get(obj.flat.dtype)
            if storage is None:  # a dtype with no storage class (uint16, float8): its bytes, as upstream
                return ("storage", STORAGE_CLASSES["UntypedStorage"], obj.key, obj.location, obj.flat.nbytes)
            return ("storage", storage, obj.key, obj.location, obj.flat.numel())
        return None

    def reducer_override(self, obj):
        if not isinstance(obj, torch.Tensor):
            return NotImplemented
        if isinstance(obj, torch.nn.Parameter):
            return (_utils._rebuild_parameter, (obj.detach(), obj.requires_grad, collections.OrderedDict()))
        conj = obj.is_conj()  # a conjugate view: its memory, and the bit in the metadata (upstream's format)
        t = obj.detach().conj() if conj else obj.detach()
        nbytes, itemsize = t._storage_nbytes(), t.element_size()
        where = (str(t.device), t.data_ptr() - t.storage_offset() * itemsize)
        ref = self.by_memory.get(where) if nbytes else None
        if ref is None:  # the whole storage, as elements of this tensor's dtype
            ref = _StorageRef(str(len(self.storages)), t.as_strided((nbytes // itemsize,), (1,), 0), str(t.device))
            self.storages.append(ref)
            if nbytes:
                self.by_memory[where] = ref
        elif ref.flat.dtype != t.dtype:
            raise RuntimeError("Cannot save multiple tensors or storages that view the same data as different types")
        args = (ref, t.storage_offset(), tuple(t.shape), t.stride(), obj.requires_grad, collections.OrderedDict())
        metadata = ({"conj": True},) if conj else ()
        if obj.dtype not in _STORAGE_OF_DTYPE:  # an untyped storage: the dtype goes with the tensor
            return (_utils._rebuild_tensor_v3, (*args, obj.dtype, *metadata))
        return (_utils._rebuild_tensor_v2, (*args, *metadata))


def _write_record(zf: zipfile.ZipFile, name: str, data: bytes) -> None:
    """One stored record, its data 64-byte aligned in the file (padding in the local header's extra field, as
    PyTorch's writer does) where the output can tell its position."""
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_STORED
    try:
        start = zf.fp.tell()
    except (AttributeError, OSError):
        start = None
    if start is not None:
        unpadded = start + 30 + len(name.encode()) + 4
        info.extra = b"FB" + (-unpadded % _ALIGNMENT).to_bytes(2, "little") + b"Z" * (-unpadded % _ALIGNMENT)
    zf.writestr(info, data)


def save(obj, f, pickle_module=pickle, pickle_protocol: int = 2, _use_new_zipfile_serialization: bool = True) -> None:
    """Writes obj (tensors, parameters, containers of them, numbers, strings) to a path or a writable binary
    file in PyTorch's zip checkpoint format."""
    if not _use_new_zipfile_serialization:
        raise NotImplementedError("torch.save: only the zip format (_use_new_zipfile_serialization=True) is written")
    buffer = io.BytesIO()
    pickler = _ZipPickler(buffer, pickle_protocol)
    pickler.dump(obj)
    name = os.path.splitext(os.path.basename(os.fspath(f)))[0] if isinstance(f, (str, os.PathLike)) else "archive"
    name = name or "archive"
    fh, owned = _open(f, "wb")
    try:
        with zipfile.ZipFile(fh, "w", compression=zipfile.ZIP_STORED) as zf:
            _write_record(zf, f"{name}/data.pkl", buffer.getvalue())
            _write_record(zf, f"{name}/.format_version", b"1")
            _write_record(zf, f"{name}/.storage_alignment", str(_ALIGNMENT).encode())
            _write_record(zf, f"{name}/byteorder", b"little")
            for ref in pickler.storages:
                flat = ref.flat.cpu()
                data = flat.detach().view(torch.uint8).numpy().tobytes() if flat.numel() else b""
                _write_record(zf, f"{name}/data/{ref.key}", data)
            _write_record(zf, f"{name}/version", b"3\n")
            _write_record(zf, f"{name}/.data/serialization_id", uuid.uuid4().hex.encode().ljust(40, b"0"))
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
    """Rebuilds tensors on map_location; with weights_only, refuses every class it does not know. `records`: a
    zip checkpoint's (ZipFile, directory), whose storages the persistent ids name."""

    def __init__(self, file, map_location, weights_only: bool, records=None):
        super().__init__(file)
        self.map_location, self.weights_only, self.records = map_location, weights_only, records
        self.storages: dict = {}

    def _rebuild(self, data, dtype, shape, requires_grad, device):
        return _tensor._rebuild(data, dtype, shape, requires_grad, _device_of(self.map_location, device))

    def persistent_load(self, pid):
        if self.records is None or not isinstance(pid, tuple) or not pid or pid[0] != "storage":
            raise pickle.UnpicklingError(f"torch.load: unsupported persistent id {pid!r}")
        _, storage_type, key, location, numel = pid
        if key not in self.storages:
            import numpy as np  # noqa: PLC0415

            zf, prefix = self.records
            try:
                raw = zf.read(f"{prefix}data/{key}")
            except KeyError:
                raise RuntimeError(
                    f"torch.load: the checkpoint has no record data/{key} (truncated or not PyTorch's)"
                ) from None
            dtype = _STORAGE_DTYPES[storage_type.__name__]
            flat = (
                torch.from_numpy(np.frombuffer(bytearray(raw), dtype=np.uint8)).view(dtype)
                if raw
                else torch.empty(0, dtype=dtype)
            )
            if flat.numel() != numel and storage_type.__name__ != "UntypedStorage":
                raise RuntimeError(
                    f"torch.load: storage {key} holds {flat.numel()} elements, the checkpoint says {numel}"
                )
            device = _device_of(self.map_location, str(location))
            self.storages[key] = flat if device == "cpu" else flat.to(device)
        return self.storages[key]

    def find_class(self, module: str, name: str):
        if (module, name) == ("torch._tensor", "_rebuild"):
            return self._rebuild
        if module == "torch" and name in STORAGE_CLASSES:
            return STORAGE_CLASSES[name]
        if (module, name) == ("torch.storage", "UntypedStorage"):
            return STORAGE_CLASSES[name]
        if (module, name) in _SAFE_GLOBALS:
            return _SAFE_GLOBALS[module, name]
        if not self.weights_only:
            return super().find_class(module, name)
        if module in ("torch", "torch._C") and isinstance(getattr(torch, name, None), torch.dtype):
            return getattr(torch, name)
        if module == "builtins" and name in _SAFE_BUILTINS:
            return getattr(builtins, name)
        raise pickle.UnpicklingError(
            f"Weights only load failed. This file can still be loaded, to do so you have two options, do those "
            f"steps only if you trust the source of the checkpoint.\n\t(1) Re-running `torch.load` with "
            f"`weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution.\n"
            f"\t(2) Unsupported global: GLOBAL {module}.{name} is not an allowed global by default."
        )


def _zip_directory(zf: zipfile.ZipFile) -> str:
    """The checkpoint's top-level directory ('name/'), the one holding data.pkl."""
    for name in zf.namelist():
        if name.endswith("data.pkl") and name.count("/") == 1:
            return name[: -len("data.pkl")]
    raise RuntimeError("torch.load: not a PyTorch checkpoint (the zip archive has no <name>/data.pkl)")


def load(f, map_location=None, pickle_module=None, *, weights_only: bool | None = None, mmap=None, **pickle_load_args):
    """Reads an object written by torch.save (here or by upstream PyTorch: its zip format; or this project's
    older plain pickle) from a path or a readable binary file; map_location (a device, or a dict from stored to
    wanted device) moves its tensors. weights_only (the default) refuses anything but tensors, parameters,
    dtypes, sizes, OrderedDict, builtin containers and scalars."""
    if weights_only is None:
        weights_only = pickle_module is None
    pickle_load_args.pop("encoding", None)
    if pickle_load_args:
        raise TypeError(f"torch.load: unsupported arguments {sorted(pickle_load_args)}")
    fh, owned = _open(f, "rb")
    try:
        start = fh.tell() if hasattr(fh, "tell") else 0
        magic = fh.read(4)
        fh.seek(start)
        if magic != b"PK\x03\x04":
            return _Unpickler(fh, map_location, weights_only).load()
        try:
            zf = zipfile.ZipFile(fh)
        except zipfile.BadZipFile as e:
            raise RuntimeError(f"torch.load: a truncated or damaged checkpoint ({e})") from None
        with zf:
            prefix = _zip_directory(zf)
            data = io.BytesIO(zf.read(f"{prefix}data.pkl"))
            return _Unpickler(data, map_location, weights_only, (zf, prefix)).load()
    finally:
        if owned:
            fh.close()
