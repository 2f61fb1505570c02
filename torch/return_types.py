"""torch.return_types: the named tuples of ops with several results (values, indices, ...).

torch._C makes each type on first use (a collections.namedtuple) and registers it here, so that
`type(x.max(0))` is `torch.return_types.max` and prints as in PyTorch.
"""

from __future__ import annotations


def _repr(self) -> str:
    """PyTorch's layout: `torch.return_types.max(\\nvalues=...,\\nindices=...)`."""
    fields = ",\n".join(f"{name}={value!r}" for name, value in zip(self._fields, self))
    return f"torch.return_types.{type(self).__name__}(\n{fields})"


def make(name: str, fields: tuple):
    """The named tuple type torch.return_types.<name> (made once, as torch._C makes its own)."""
    cls = globals().get(name)
    if cls is None:
        import collections  # noqa: PLC0415

        cls = collections.namedtuple(name, fields)
        cls.__module__ = __name__
        cls.__repr__ = _repr
        globals()[name] = cls
    return cls
