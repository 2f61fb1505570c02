"""torch.utils.weak (PyTorch's API): dictionaries keyed by object identity through weak references, for tensors
(whose `==` is elementwise, so they cannot be ordinary dict keys): WeakIdRef, WeakIdKeyDictionary,
WeakTensorKeyDictionary, and TensorWeakRef."""

from __future__ import annotations

import weakref
from collections.abc import MutableMapping

__all__ = ["TensorWeakRef", "WeakIdKeyDictionary", "WeakIdRef", "WeakTensorKeyDictionary"]


class WeakIdRef(weakref.ref):
    """A weak reference that hashes by the referent's id and compares by identity (while both are alive)."""

    __slots__ = ["_id"]

    def __init__(self, key, callback=None) -> None:
        self._id = id(key)
        super().__init__(key, callback)

    def __hash__(self) -> int:
        return self._id

    def __eq__(self, other) -> bool:
        a, b = self(), other()
        if a is not None and b is not None:
            return a is b
        return self is other


class WeakIdKeyDictionary(MutableMapping):
    """A mapping whose keys are held weakly and matched by identity; an entry goes when its key is collected."""

    def __init__(self, dict=None, ref_type=WeakIdRef) -> None:
        self.data: dict = {}
        self.ref_type = ref_type
        self_ref = weakref.ref(self)

        def remove(k) -> None:
            owner = self_ref()
            if owner is not None:
                owner.data.pop(k, None)

        self._remove = remove
        if dict is not None:
            self.update(dict)

    def __getitem__(self, key):
        return self.data[self.ref_type(key)]

    def __setitem__(self, key, value) -> None:
        self.data[self.ref_type(key, self._remove)] = value

    def __delitem__(self, key) -> None:
        del self.data[self.ref_type(key)]

    def __contains__(self, key) -> bool:
        try:
            ref = self.ref_type(key)
        except TypeError:
            return False
        return ref in self.data

    def __iter__(self):
        for ref in list(self.data):
            obj = ref()
            if obj is not None:
                yield obj

    def __len__(self) -> int:
        return sum(1 for ref in list(self.data) if ref() is not None)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} at {id(self):#x}>"

    def copy(self) -> WeakIdKeyDictionary:
        """A shallow copy (same weak keys)."""
        new = type(self)()
        for key, value in self.items():
            new[key] = value
        return new

    def keyrefs(self) -> list:
        """The weak references to the keys."""
        return list(self.data)


WeakTensorKeyDictionary = WeakIdKeyDictionary
"""A WeakIdKeyDictionary for tensor keys (upstream's name)."""


class TensorWeakRef:
    """A weak reference to a tensor: calling it gives the tensor, or None once it is collected."""

    def __init__(self, tensor) -> None:
        from torch._C import Tensor

        if not isinstance(tensor, Tensor):
            raise AssertionError(f"expected torch.Tensor, got {type(tensor)}.")
        self.ref = weakref.ref(tensor)

    def __call__(self):
        return self.ref()
