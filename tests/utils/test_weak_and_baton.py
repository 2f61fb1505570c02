"""torch.utils.weak's identity-keyed weak dictionaries with tensor keys, and torch.utils.file_baton.
Runs against upstream PyTorch too (TORCH_REFERENCE)."""

from __future__ import annotations

import gc

import torch
from torch.utils.file_baton import FileBaton
from torch.utils.weak import TensorWeakRef, WeakIdKeyDictionary, WeakIdRef, WeakTensorKeyDictionary


def test_tensor_keys_match_by_identity_and_go_with_their_tensor():
    d = WeakTensorKeyDictionary()
    a, b = torch.ones(2), torch.ones(2)  # equal values, different tensors
    d[a] = "a"
    d[b] = "b"
    assert d[a] == "a" and d[b] == "b" and len(d) == 2
    assert a in d and torch.zeros(1) not in d
    del b
    gc.collect()
    assert len(d) == 1 and list(d) == [a]
    del d[a]
    assert len(d) == 0


def test_weak_id_ref_hash_and_identity():
    t = torch.zeros(1)
    r1, r2 = WeakIdRef(t), WeakIdRef(t)
    assert r1 == r2 and hash(r1) == hash(r2) == id(t)
    other = torch.zeros(1)
    assert not (r1 == WeakIdRef(other))


def test_copy_and_tensor_weakref():
    t = torch.ones(1)
    d = WeakIdKeyDictionary({t: 1})
    assert d.copy()[t] == 1
    ref = TensorWeakRef(t)
    assert ref() is t
    del t, d
    gc.collect()
    assert ref() is None


def test_file_baton(tmp_path):
    path = str(tmp_path / "lock")
    first, second = FileBaton(path), FileBaton(path)
    assert first.try_acquire()
    assert not second.try_acquire()
    first.release()
    second.wait()  # returns at once: the file is gone
    assert second.try_acquire()
    second.release()
