"""Argument helpers shared by functional ops and layers: _single/_pair/_triple/_quadruple and _ntuple."""

from __future__ import annotations

import collections.abc
from itertools import repeat

__all__ = ["_ntuple", "_pair", "_quadruple", "_reverse_repeat_tuple", "_single", "_triple", "assert_int_or_pair"]


def _ntuple(n: int, name: str = "parse"):
    """A parser that turns a scalar into an n-tuple and passes iterables through as tuples."""

    def parse(x):
        if isinstance(x, collections.abc.Iterable) and not isinstance(x, str):
            return tuple(x)
        return tuple(repeat(x, n))

    parse.__name__ = name
    return parse


_single = _ntuple(1, "_single")
_pair = _ntuple(2, "_pair")
_triple = _ntuple(3, "_triple")
_quadruple = _ntuple(4, "_quadruple")


def _reverse_repeat_tuple(t, n: int) -> tuple:
    """Reverses `t` and repeats each element `n` times: (1, 2) with n=2 -> (2, 2, 1, 1) (F.pad order)."""
    return tuple(x for x in reversed(t) for _ in range(n))


def assert_int_or_pair(arg, arg_name: str, message: str) -> None:
    """Asserts (upstream's helper of F.fold/unfold) that arg is an int or a pair; message.format(arg_name)
    is the AssertionError's text."""
    assert isinstance(arg, int) or len(arg) == 2, message.format(arg_name)
