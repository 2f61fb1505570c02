"""torch.Size: the tuple subclass that shapes are."""

from __future__ import annotations

import math
import operator

_HEAPTYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class made by `class` (its C tp_name is its bare name)


def _tp_name(value) -> str:
    """The type name CPython's C messages print for value ('float', 'numpy.float64', 'Tensor')."""
    t = type(value)
    if t.__module__ == "builtins" or t.__flags__ & _HEAPTYPE:
        return t.__name__
    return f"{t.__module__}.{t.__qualname__}"


class Size(tuple):
    """A tensor shape: a tuple of ints that prints as `torch.Size([2, 3])`.

    As upstream's: built from any iterable of ints (or of what `__index__` makes an int: a one-element integer
    tensor, a numpy integer, a bool), slices, concatenation with any tuple (on either side) and repetition give a
    Size, it pickles as `torch.Size` and cannot be subclassed. Tensors' `.shape` builds it in C++ without
    `__new__`."""

    __slots__ = ()
    __module__ = "torch"  # pickles and prints as torch.Size, as upstream's C type does

    def __new__(cls, sizes=()):
        self = tuple.__new__(cls, sizes)
        for d in self:  # (a plain loop: the common all-int case at half the cost of all())
            if type(d) is not int:
                break
        else:
            return self
        dims = list(self)
        for i, d in enumerate(dims):
            try:
                dims[i] = int(operator.index(d))
            except TypeError:
                raise TypeError(f"torch.Size() takes an iterable of 'int' (item {i} is '{_tp_name(d)}')") from None
        return super().__new__(cls, dims)

    def __init_subclass__(cls, **kwargs):
        raise TypeError("type 'torch.Size' is not an acceptable base type")

    def __repr__(self) -> str:
        return f"torch.Size({list(self)})"

    def __reduce__(self):
        return (Size, (tuple(self),))

    def numel(self) -> int:
        """Number of elements a tensor of this shape holds."""
        return math.prod(self)

    def __getitem__(self, key):
        out = super().__getitem__(key)
        return Size(out) if isinstance(key, slice) else out

    def __add__(self, other):
        """self + other for any tuple other: a Size."""
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(self, other))

    def __radd__(self, other):
        """other + self for any tuple other: a Size (a plain tuple's + would give a tuple)."""
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(other, self))

    def __mul__(self, n):
        """self repeated n times (n an int, or anything __index__ makes one): a Size."""
        try:
            n = operator.index(n)
        except TypeError:
            if getattr(n, "ndim", None) == 0:  # a numpy or tensor scalar that is no int: as tuple's repeat says
                raise TypeError(f"can't multiply sequence by non-int of type '{_tp_name(n)}'") from None
            return NotImplemented  # n * self may still mean something to n (an array multiplies elementwise)
        return Size(tuple.__mul__(self, n))

    __rmul__ = __mul__
