"""torch.return_types: the named tuples of ops with several results (values, indices, ...).

torch._C makes each type on first use (a collections.namedtuple) and registers it here, so that
`type(x.max(0))` is `torch.return_types.max` and prints as in PyTorch.
"""

from __future__ import annotations


def _repr(self) -> str:
    """PyTorch's layout: `torch.return_types.max(\\nvalues=...,\\nindices=...)`."""
    fields = ",\n".join(f"{name}={value!r}" for name, value in zip(self._fields, self))
    return f"torch.return_types.{type(self).__name__}(\n{fields})"
