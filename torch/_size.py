"""torch.Size: the tuple subclass that shapes are."""

from __future__ import annotations

import math


class Size(tuple):
    """A tensor shape: a tuple of ints that prints as `torch.Size([2, 3])`."""

    def __repr__(self) -> str:
        return f"torch.Size({list(self)})"

    def numel(self) -> int:
        """Number of elements a tensor of this shape holds."""
        return math.prod(self)

    def __getitem__(self, key):
        out = super().__getitem__(key)
        return Size(out) if isinstance(key, slice) else out
