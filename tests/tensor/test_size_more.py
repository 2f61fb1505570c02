"""torch.Size beyond .shape: what stays a Size under tuple operations (concatenation with a tuple on either
side, repetition, slicing, += and *=), what it is built from (ints, and what __index__ makes one), numel,
pickling, repr, and the tuple methods it keeps. Runs against upstream PyTorch too (TORCH_REFERENCE)."""

from __future__ import annotations

import collections
import copy
import pickle

import numpy as np
import pytest

import torch

S = torch.Size


def test_concatenation_with_a_tuple_on_either_side_is_a_size():
    s = S([2, 3])
    for got, want in [
        (s + (4,), (2, 3, 4)),
        ((4,) + s, (4, 2, 3)),
        (s + s, (2, 3, 2, 3)),
        (() + s, (2, 3)),
        (s + (), (2, 3)),
        (torch.zeros(1, 5).shape + s, (1, 5, 2, 3)),
    ]:
        assert type(got) is S and got == want
    point = collections.namedtuple("point", "x y")(7, 8)
    assert type(point + s) is S and point + s == (7, 8, 2, 3)
    assert type(s + point) is S and s + point == (2, 3, 7, 8)
    assert s.__radd__((1,)) == (1, 2, 3) and type(s.__radd__((1,))) is S


def test_in_place_operators_give_sizes():
    s = S([2, 3])
    s += (4,)
    assert type(s) is S and s == (2, 3, 4)
    s *= 2
    assert type(s) is S and s == (2, 3, 4, 2, 3, 4)
    x = (1,)
    x += S([5])
    assert type(x) is S and x == (1, 5)


def test_concatenation_with_other_types_fails():
    s = S([2, 3])
    for other in ([4], 4, "a", None, 1.5):
        with pytest.raises(TypeError):
            s + other
        with pytest.raises(TypeError):
            other + s
    assert s.__add__([4]) is NotImplemented and s.__radd__(4) is NotImplemented


def test_concatenation_defers_to_the_other_operand():
    class Other:
        def __radd__(self, other):
            return "radd"

        def __add__(self, other):
            return "add"

    s = S([2, 3])
    assert s + Other() == "radd" and Other() + s == "add"


@pytest.mark.parametrize("n, want", [(2, (2, 3, 2, 3)), (1, (2, 3)), (0, ()), (-1, ()), (True, (2, 3))])
def test_repetition_is_a_size(n, want):
    s = S([2, 3])
    for got in (s * n, n * s, s.__mul__(n), s.__rmul__(n)):
        assert type(got) is S and got == want


def test_repetition_by_what_index_makes_an_int():
    class Two:
        def __index__(self):
            return 2

    s = S([2, 3])
    for n in (Two(), np.int64(2), torch.tensor(2)):
        got = s * n
        assert type(got) is S and got == (2, 3, 2, 3)


def test_repetition_by_a_non_int_fails():
    s = S([2, 3])
    for n in (2.0, "2", s, None, torch.tensor(2.0), np.float64(2.0)):
        with pytest.raises(TypeError):
            s * n
    for n in (2.0, "2", None):
        with pytest.raises(TypeError):
            n * s


def test_an_array_multiplies_elementwise():
    s = S([2, 3])
    np.testing.assert_array_equal(s * np.array([1, 2]), [2, 6])
    np.testing.assert_array_equal(np.array([1, 2]) * s, [2, 6])
    assert np.prod(s) == 6 and np.array(s).tolist() == [2, 3]


@pytest.mark.parametrize(
    "key", [slice(None), slice(1, None), slice(None, -1), slice(None, None, -1), slice(5, 9), slice(0, 3, 2)]
)
def test_slices_are_sizes(key):
    s = S([2, 3, 4])
    got = s[key]
    assert type(got) is S and got == (2, 3, 4)[key]


def test_items_are_ints():
    s = S([2, 3, 4])
    assert type(s[0]) is int and s[-1] == 4 and s[torch.tensor(1)] == 3 and s[np.int64(2)] == 4
    with pytest.raises(IndexError):
        s[3]
    with pytest.raises(TypeError):
        s["a"]


@pytest.mark.parametrize("dims, want", [([], 1), ([0], 0), ([5], 5), ([2, 3, 4], 24), ([2, 0, 7], 0), ([1, 1, 1], 1)])
def test_numel(dims, want):
    got = S(dims).numel()
    assert type(got) is int and got == want


def test_numel_of_shapes():
    for shape in [(), (3,), (2, 0, 5), (4, 1, 6)]:
        assert torch.empty(shape).shape.numel() == torch.empty(shape).numel()


def test_built_from_ints_and_what_index_makes_one():
    class Three:
        def __index__(self):
            return 3

    for dims in ([2, 3], (2, 3), iter([2, 3]), range(2, 4), S([2, 3]), np.array([2, 3]), torch.tensor([2, 3])):
        s = S(dims)
        assert type(s) is S and s == (2, 3) and repr(s) == "torch.Size([2, 3])"
    for dims, want in [
        ([torch.tensor(2), 3], (2, 3)),
        ([torch.tensor([4])], (4,)),
        ([True, 2], (1, 2)),
        ([Three()], (3,)),
    ]:
        s = S(dims)
        assert s == want and all(type(d) is int for d in s)
    assert S() == () and S([-1]) == (-1,)


@pytest.mark.parametrize(
    "dims, name",
    [
        ([2.0], "float"),
        (["a"], "str"),
        ([None], "NoneType"),
        ([2, torch.tensor(2.0)], "Tensor"),
        ([torch.tensor([1, 2])], "Tensor"),
    ],
)
def test_non_int_items_are_refused(dims, name):
    item = len(dims) - 1
    with pytest.raises(TypeError, match=rf"torch.Size\(\) takes an iterable of 'int' \(item {item} is '{name}'\)"):
        S(dims)


def test_non_iterables_are_refused():
    with pytest.raises(TypeError):
        S(3)
    with pytest.raises(TypeError):
        S(None)


def test_reduce_and_pickle():
    s = S([2, 3, 4])
    assert s.__reduce__() == (S, ((2, 3, 4),))
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        got = pickle.loads(pickle.dumps(s, protocol=protocol))
        assert type(got) is S and got == s
    assert b"ctorch\nSize\n" in pickle.dumps(s, protocol=0)  # by the name torch.Size, which upstream loads
    for got in (copy.copy(s), copy.deepcopy(s), copy.deepcopy(S())):
        assert type(got) is S
    assert copy.deepcopy(s) == s


def test_repr_and_str():
    assert repr(S([2, 3, 4])) == str(S([2, 3, 4])) == "torch.Size([2, 3, 4])"
    assert repr(S()) == "torch.Size([])" and repr(S([0])) == "torch.Size([0])"
    assert repr(S([-1, 2**40])) == "torch.Size([-1, 1099511627776])"
    assert repr([S([1])]) == "[torch.Size([1])]"


def test_the_class():
    assert S.__module__ == "torch" and S.__name__ == "Size" and repr(S) == "<class 'torch.Size'>"
    assert issubclass(S, tuple) and S.__mro__ == (S, tuple, object)
    with pytest.raises(TypeError):
        type("Sub", (S,), {})
    with pytest.raises(AttributeError):
        S([1]).extra = 1


def test_tuple_methods_and_comparisons():
    s = S([2, 3, 3, 4])
    assert s.count(3) == 2 and s.count(9) == 0 and s.index(3) == 1 and s.index(4) == 3
    with pytest.raises(ValueError):
        s.index(9)
    assert s == (2, 3, 3, 4) and s != [2, 3, 3, 4] and s < (3,) and hash(s) == hash((2, 3, 3, 4))
    assert 4 in s and 9 not in s and list(reversed(s)) == [4, 3, 3, 2] and len(s) == 4
    assert S([1, 2]) == S([1, 2]) and {S([1, 2]): "a"}[(1, 2)] == "a"
    assert S[int] == S[int]  # generic alias, as tuple's
