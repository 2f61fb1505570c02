"""Tensors cross process boundaries through shared memory, not through pickled bytes.

``init_reductions()`` registers a reducer for ``Tensor`` with multiprocessing's ``ForkingPickler`` (what
``multiprocessing.Queue``, ``Pipe`` and ``Pool`` pickle with; plain ``pickle`` is not affected). The sender
copies the tensor's elements once into a new shared-memory segment, a file in ``/dev/shm`` (PyTorch's
``file_system`` sharing strategy), and pickles only its name, dtype, shape and strides; the receiver maps
the file, unlinks it at once (the mapping keeps the memory until the last tensor over it is freed) and
rebuilds the tensor with ``torch.from_numpy`` over the mapping: no copy on the receiving side.

A segment is named ``torch_<pid of its creator>_<n>_<random>``: one that was sent but never received
(its receiver died, or the queue was dropped) is removed by ``unlink_segments_of(pid)`` once that
creator is gone (the DataLoader does so for its workers).
"""

from __future__ import annotations

import glob
import itertools
import mmap
import os
import secrets
import tempfile
import weakref
from multiprocessing.reduction import ForkingPickler

import numpy as np

import torch
from torch._C import Tensor

__all__ = [
    "init_reductions",
    "is_shared",
    "rebuild_tensor",
    "reduce_tensor",
    "share_memory_",
    "shared_empty",
    "unlink_segments_of",
]

SHM_DIR = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else tempfile.gettempdir()
_counter = itertools.count()
_segments: dict[int, tuple[int, weakref.ref]] = {}  # address -> (nbytes, the live mapping) of this process


def _map(name: str, nbytes: int, create: bool) -> mmap.mmap:
    """The shared mapping of segment ``name``: a new one of ``nbytes`` bytes, or an existing one (unlinked
    once mapped: the mapping outlives the name)."""
    path = os.path.join(SHM_DIR, name)
    fd = os.open(path, os.O_RDWR | (os.O_CREAT | os.O_EXCL if create else 0), 0o600)
    try:
        if create:
            os.ftruncate(fd, nbytes)
        mapping = mmap.mmap(fd, nbytes)
    finally:
        os.close(fd)
        if not create:
            os.unlink(path)
    return mapping


def _over(mapping: mmap.mmap, nbytes: int, dtype, shape, stride, offset: int):
    """A tensor over ``mapping``'s bytes (zero copy); the tensor keeps the mapping alive."""
    base = torch.from_numpy(np.frombuffer(mapping, dtype=np.uint8, count=nbytes))
    address = base.data_ptr()
    _segments[address] = (nbytes, weakref.ref(mapping, lambda _, a=address: _segments.pop(a, None)))
    return base.view(dtype).as_strided(shape, stride, offset)


def _new_segment(nbytes: int) -> tuple[str, mmap.mmap]:
    name = f"torch_{os.getpid()}_{next(_counter)}_{secrets.token_hex(4)}"
    return name, _map(name, nbytes, create=True)


def _contiguous_strides(shape) -> tuple[int, ...]:
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def shared_empty(shape, dtype):
    """An uninitialized contiguous tensor in anonymous shared memory (``MAP_SHARED``: processes forked
    afterwards write into the same memory)."""
    shape = tuple(shape)
    numel = 1
    for size in shape:
        numel *= size
    nbytes = max(numel * torch.empty((), dtype=dtype).element_size(), 1)
    return _over(mmap.mmap(-1, nbytes), nbytes, dtype, shape, _contiguous_strides(shape), 0)


def is_shared(tensor) -> bool:
    """Whether ``tensor``'s memory lies in a shared-memory segment mapped by this process."""
    if tensor.device.type != "cpu":
        return False
    ptr = tensor.data_ptr()
    return any(base <= ptr < base + nbytes for base, (nbytes, _) in list(_segments.items()))


def share_memory_(tensor):
    """Moves ``tensor``'s storage into anonymous shared memory (``MAP_SHARED``: processes forked afterwards,
    DataLoader workers among them, read and write the same memory), for every tensor viewing that storage;
    a no-op where it is shared already or not on the CPU (PyTorch's Tensor.share_memory_). Returns tensor."""
    if tensor.device.type != "cpu" or is_shared(tensor):
        return tensor
    nbytes = tensor._storage_nbytes()
    if nbytes == 0:
        return tensor
    mapping = mmap.mmap(-1, nbytes)
    tensor._move_storage_into(_over(mapping, nbytes, torch.uint8, (nbytes,), (1,), 0))
    return tensor


def rebuild_tensor(name: str, nbytes: int, dtype, shape, stride, offset: int, requires_grad: bool):
    """The receiving side of ``reduce_tensor``: maps (and unlinks) segment ``name`` and views it."""
    tensor = _over(_map(name, nbytes, create=False), nbytes, dtype, shape, stride, offset)
    if requires_grad:
        tensor.requires_grad_(True)
    return tensor


def rebuild_subclass(cls, fn, args, requires_grad: bool):
    """The receiving side of ``reduce_tensor`` for a Tensor subclass (nn.Parameter): cls over the tensor."""
    return cls(fn(*args), requires_grad)


def reduce_tensor(tensor):
    """The sending side: the tensor's elements copied once into a new segment, the segment's name pickled.
    Empty and non-CPU tensors are pickled as usual."""
    if tensor.requires_grad and not tensor.is_leaf:
        raise RuntimeError(
            "Cowardly refusing to serialize non-leaf tensor which requires_grad, "
            "since autograd does not support crossing process boundaries.  "
            "If you just want to transfer the data, call detach() on the tensor "
            "before serializing (e.g., putting it on the queue)."
        )
    if type(tensor) is not Tensor:  # nn.Parameter: the shared tensor, made a Parameter again on arrival
        fn, args = reduce_tensor(tensor.detach())
        return rebuild_subclass, (type(tensor), fn, args, tensor.requires_grad)
    if tensor.device.type != "cpu" or tensor.numel() == 0:
        return tensor.__reduce_ex__(2)
    shape = tuple(tensor.shape)
    stride = _contiguous_strides(shape)
    nbytes = tensor.numel() * tensor.element_size()
    name, mapping = _new_segment(nbytes)
    _over(mapping, nbytes, tensor.dtype, shape, stride, 0).copy_(tensor.detach())
    return rebuild_tensor, (name, nbytes, tensor.dtype, shape, stride, 0, tensor.requires_grad)


def unlink_segments_of(pid: int) -> int:
    """Removes the segments that process ``pid`` created and no one received; how many there were. Call it
    only once ``pid`` has exited."""
    count = 0
    for path in glob.glob(os.path.join(SHM_DIR, f"torch_{pid}_*")):
        try:
            os.unlink(path)
            count += 1
        except FileNotFoundError:
            pass
    return count


def init_reductions() -> None:
    """Registers ``reduce_tensor`` for ``Tensor`` and ``nn.Parameter`` with ``ForkingPickler`` (idempotent)."""
    from torch.nn.parameter import Parameter  # noqa: PLC0415 (torch.nn imports this package)

    ForkingPickler.register(Tensor, reduce_tensor)
    ForkingPickler.register(Parameter, reduce_tensor)
