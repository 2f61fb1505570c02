"""torch.UntypedStorage and Tensor.untyped_storage() / Tensor.storage(): a tensor's memory as an object (its
address, size, device and bytes, shared with every tensor over it), slices of it, and Tensor.set_ from one.
Runs against upstream PyTorch too."""

from __future__ import annotations

import copy

import pytest

import torch


def test_untyped_storage_is_the_tensors_memory():
    """The whole memory, shared: every view of a tensor has the same storage, the bytes are the elements'."""
    x = torch.arange(4, dtype=torch.int16)
    s = x.untyped_storage()
    assert isinstance(s, torch.UntypedStorage) and type(s).__module__ == "torch.storage"
    assert s.nbytes() == s.size() == len(s) == 8 and s.element_size() == 1
    assert s.data_ptr() == x.data_ptr() and s.device == torch.device("cpu") and not s.is_cuda
    assert s.tolist() == [0, 0, 1, 0, 2, 0, 3, 0] and s[2] == 1 and list(s)[4] == 2
    view = x[2:]
    assert view.untyped_storage().data_ptr() == s.data_ptr() and view.untyped_storage().nbytes() == 8
    assert not s.is_shared() and not s.is_pinned()


def test_writes_through_the_storage_reach_the_tensor():
    """Byte writes, fill_, copy_ and writes into a slice (a storage over part of the memory) change the tensor."""
    x = torch.arange(4, dtype=torch.int16)
    s = x.untyped_storage()
    s[0] = 5
    assert x.tolist() == [5, 1, 2, 3]
    part = s[2:4]
    assert isinstance(part, torch.UntypedStorage) and part.nbytes() == 2 and part.data_ptr() == s.data_ptr() + 2
    part[1] = 1  # the high byte of x[1]
    assert x.tolist() == [5, 257, 2, 3]
    s.copy_(torch.tensor([1, 0, 2, 0, 3, 0, 4, 0], dtype=torch.uint8).untyped_storage())
    assert x.tolist() == [1, 2, 3, 4]
    s.fill_(0)
    assert x.tolist() == [0, 0, 0, 0]


def test_copies_do_not_share():
    """clone and deepcopy give new memory with the same bytes (upstream cannot unpickle a bare storage: not
    tested)."""
    x = torch.arange(3, dtype=torch.uint8)
    s = x.untyped_storage()
    for other in (s.clone(), copy.deepcopy(s)):
        assert other.tolist() == [0, 1, 2] and other.data_ptr() != s.data_ptr()
        other[0] = 9
        assert x.tolist() == [0, 1, 2]


def test_new_storages_and_set_():
    """UntypedStorage(n) / UntypedStorage(bytes); Tensor.set_ views a storage as the tensor's dtype, all of it or
    at an offset with sizes and strides, sharing its memory."""
    assert torch.UntypedStorage(5).nbytes() == 5 and torch.UntypedStorage().nbytes() == 0
    s = torch.UntypedStorage([1, 0, 2, 0, 3, 0])
    t = torch.empty(0, dtype=torch.int16).set_(s)
    assert t.tolist() == [1, 2, 3] and t.data_ptr() == s.data_ptr()
    u = torch.empty(0, dtype=torch.int16).set_(s, 1, (2,), (1,))
    assert u.tolist() == [2, 3]
    u[0] = 7
    assert s.tolist() == [1, 0, 7, 0, 3, 0] and t.tolist() == [1, 7, 3]


def test_typed_storage_is_deprecated_but_reads_elements():
    """Tensor.storage() warns (upstream's deprecation) and gives the memory as elements of the tensor's dtype."""
    x = torch.tensor([1.5, 2.5, 3.5])
    with pytest.warns(UserWarning, match="TypedStorage is deprecated"):
        t = x[1:].storage()
    assert t.dtype == torch.float32 and t.size() == len(t) == 3 and t.nbytes() == 12 and t.element_size() == 4
    assert t[1] == 2.5 and t.tolist() == [1.5, 2.5, 3.5] and t.data_ptr() == x.data_ptr()
    assert t.untyped().nbytes() == 12
    t[0] = 0.5
    assert x.tolist() == [0.5, 2.5, 3.5]


def test_repr_lists_the_bytes():
    """Upstream's repr: one byte a line, then the class, device and size."""
    s = torch.tensor([1, 2], dtype=torch.uint8).untyped_storage()
    assert repr(s) == " 1\n 2\n[torch.storage.UntypedStorage(device=cpu) of size 2]"


@pytest.mark.cuda
def test_cuda_storages():
    """A CUDA tensor's storage is on its device; to/cpu/cuda copy between devices."""
    x = torch.arange(4, dtype=torch.uint8, device="cuda")
    s = x.untyped_storage()
    assert s.is_cuda and s.device.type == "cuda" and s.data_ptr() == x.data_ptr()
    assert s.cpu().tolist() == [0, 1, 2, 3] and s.cpu().cuda().is_cuda
