"""torch.storage: a tensor's memory as an object, PyTorch's `UntypedStorage` (bytes) and the deprecated
`TypedStorage` (elements of one dtype) that `Tensor.untyped_storage()` and `Tensor.storage()` return.

A storage here is a view of the memory that tensors share (TH's StorageImpl), held as a 1-D uint8 tensor over all
of it (`Tensor._storage_bytes`): its address, size, device and bytes, writes that every tensor over the memory sees,
slices that are storages over part of it, and `Tensor.set_(storage, offset, size, stride)` to view it as a
tensor. `UntypedStorage` is also the name under which checkpoints store the dtypes with no typed storage class
(torch/serialization.py). Growing a storage in place (`resize_`) is not supported: tensors here grow by taking new
memory."""

from __future__ import annotations

import warnings

import torch
from torch._C import Tensor
from torch._registry import register

__all__ = ["TypedStorage", "UntypedStorage"]


def _device(device) -> torch.device:
    return torch.device("cpu") if device is None else torch.device(device)


class _Storage:
    """What both storage classes share: `_data`, a 1-D tensor over all of the memory (its bytes, or elements of one
    dtype), and the queries and element access that read it."""

    __slots__ = ("_data",)

    def data_ptr(self) -> int:
        """The address of the first byte."""
        return self._data.data_ptr()

    def size(self) -> int:
        """The number of elements (bytes, for an untyped storage)."""
        return self._data.numel()

    def __len__(self) -> int:
        return self._data.numel()

    def nbytes(self) -> int:
        """The size in bytes."""
        return self._data.numel() * self._data.element_size()

    def element_size(self) -> int:
        """The size of an element in bytes (1 for an untyped storage)."""
        return self._data.element_size()

    @property
    def device(self) -> torch.device:
        """The device of the memory."""
        return self._data.device

    @property
    def is_cuda(self) -> bool:
        """Whether the memory is on a GPU."""
        return self._data.device.type == "cuda"

    def __setitem__(self, index, value) -> None:
        self._data[index] = value

    def tolist(self) -> list:
        """The elements as Python numbers."""
        return self._data.tolist()

    def fill_(self, value):
        """Sets every element to `value`."""
        self._data.fill_(value)
        return self

    def _repr(self, what: str) -> str:
        """Upstream's repr: one element a line, then `what` and the size."""
        head = "".join(f" {v}\n" for v in self.tolist())
        return f"{head}[{what} of size {self.size()}]"


class UntypedStorage(_Storage):
    """The bytes of a tensor's memory (`Tensor.untyped_storage()`), or new memory: `UntypedStorage(nbytes,
    device=...)` (uninitialized), `UntypedStorage([ints])` (those bytes). Indexing reads and writes bytes; a slice
    is a storage over those bytes of the same memory."""

    __slots__ = ()

    def __init__(self, *args, device=None) -> None:
        if len(args) > 1:
            raise TypeError(f"UntypedStorage() takes a size or a sequence of bytes, got {len(args)} arguments")
        arg = args[0] if args else 0
        if isinstance(arg, int):
            self._data = torch.empty(arg, dtype=torch.uint8, device=_device(device))
        else:
            self._data = torch.tensor(list(arg), dtype=torch.uint8, device=_device(device))

    @classmethod
    def _over(cls, data: Tensor) -> UntypedStorage:
        """A storage object over `data`, a 1-D uint8 tensor of the memory."""
        self = cls.__new__(cls)
        self._data = data
        return self

    @classmethod
    def from_buffer(cls, buffer, *, device=None) -> UntypedStorage:
        """A copy of the bytes of an object with the buffer protocol (bytes, bytearray, memoryview, array)."""
        data = torch.frombuffer(bytearray(buffer), dtype=torch.uint8)
        return cls._over(data if device is None else data.to(device))

    def type(self) -> str:
        """The class's name, as upstream's storages give it."""
        return "torch.storage.UntypedStorage"

    def is_shared(self) -> bool:
        """Whether the memory is in a shared-memory segment (torch.multiprocessing)."""
        return self._data.is_shared()

    def is_pinned(self, device=None) -> bool:
        """Whether the memory is pinned host memory."""
        return self._data.is_pinned()

    def untyped(self) -> UntypedStorage:
        """Itself."""
        return self

    def __getitem__(self, index):
        if isinstance(index, slice):
            return UntypedStorage._over(self._data[index])
        return int(self._data[index])

    def __iter__(self):
        return iter(self.tolist())

    def copy_(self, source, non_blocking: bool = False) -> UntypedStorage:
        """Copies the bytes of another storage of the same size into this one (across devices too)."""
        source = source.untyped()
        if source.nbytes() != self.nbytes():
            raise RuntimeError(f"size mismatch: {self.nbytes()} bytes vs {source.nbytes()} bytes")
        self._data.copy_(source._data, non_blocking=non_blocking)
        return self

    def clone(self) -> UntypedStorage:
        """A copy of the bytes in new memory on the same device."""
        return UntypedStorage._over(self._data.clone())

    def to(self, *, device=None, non_blocking: bool = False) -> UntypedStorage:
        """The storage on `device` (itself if already there)."""
        target = _device(device)
        if target == self.device:
            return self
        return UntypedStorage._over(self._data.to(target, non_blocking=non_blocking))

    def cpu(self) -> UntypedStorage:
        """The storage in host memory (itself if already there)."""
        return self.to(device="cpu")

    def cuda(self, device=None, non_blocking: bool = False) -> UntypedStorage:
        """The storage on a GPU (the current one by default)."""
        target = torch.device("cuda", device) if isinstance(device, int) else torch.device(device or "cuda")
        return self.to(device=target, non_blocking=non_blocking)

    def pin_memory(self, device=None) -> UntypedStorage:
        """A copy in pinned host memory (itself if already pinned)."""
        return self if self.is_pinned() else UntypedStorage._over(self._data.pin_memory())

    def share_memory_(self) -> UntypedStorage:
        """Moves the memory into shared memory (every tensor over it follows), as Tensor.share_memory_."""
        self._data.share_memory_()
        return self

    def __copy__(self) -> UntypedStorage:
        return UntypedStorage._over(self._data)

    def __deepcopy__(self, memo) -> UntypedStorage:
        return memo.setdefault(id(self), self.clone())

    def __reduce__(self):
        return (_rebuild_untyped, (bytes(self._data.cpu().numpy()), str(self.device)))

    def __repr__(self) -> str:
        return self._repr(f"torch.storage.UntypedStorage(device={self.device})")


def _rebuild_untyped(data: bytes, device: str) -> UntypedStorage:
    """Unpickles an UntypedStorage (its bytes and device)."""
    return UntypedStorage.from_buffer(data, device=None if device == "cpu" else device)


class TypedStorage(_Storage):
    """The deprecated typed view of a tensor's memory (`Tensor.storage()`): elements of the tensor's dtype over all
    of its memory. Use `Tensor.untyped_storage()` instead."""

    __slots__ = ()

    def __init__(self, *args, **kwargs) -> None:
        raise TypeError("TypedStorage is deprecated; make one with Tensor.storage(), or use torch.UntypedStorage")

    @classmethod
    def _over(cls, tensor: Tensor) -> TypedStorage:
        self = cls.__new__(cls)
        data = tensor._storage_bytes()
        n = data.numel() // tensor.element_size()
        self._data = data[: n * tensor.element_size()].view(tensor.dtype)
        return self

    @property
    def dtype(self) -> torch.dtype:
        """The dtype of the elements."""
        return self._data.dtype

    def untyped(self) -> UntypedStorage:
        """The same memory as bytes."""
        return UntypedStorage._over(self._data._storage_bytes())

    def __getitem__(self, index):
        if isinstance(index, slice):
            raise TypeError("TypedStorage slices are not supported here; slice Tensor.untyped_storage() instead")
        return self._data[index].item()

    def __repr__(self) -> str:
        return self._repr(f"torch.storage.TypedStorage(dtype={self.dtype}, device={self.device})")


@register(function=False, method=True)
def untyped_storage(self: Tensor) -> UntypedStorage:
    """The memory under this tensor, all of it, as an UntypedStorage (its bytes; shared with the tensor)."""
    return UntypedStorage._over(self._storage_bytes())


@register(function=False, method=True)
def storage(self: Tensor) -> TypedStorage:
    """The memory under this tensor as a TypedStorage of its dtype (deprecated: use untyped_storage())."""
    warnings.warn(
        "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the only storage "
        "class. This should only matter to you if you are using storages directly.  To access UntypedStorage "
        "directly, use tensor.untyped_storage() instead of tensor.storage()",
        UserWarning,
        stacklevel=2,
    )
    return TypedStorage._over(self)
