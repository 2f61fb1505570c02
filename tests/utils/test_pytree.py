"""torch.utils._pytree, which libraries built on PyTorch (and torch.func here) use to walk nested inputs: flatten
and unflatten round trips, None as a leaf (upstream's Python pytree), registered types, key paths, prefix
broadcasting in tree_map. Runs against upstream PyTorch too (TORCH_REFERENCE)."""

from __future__ import annotations

import collections
import dataclasses

import pytest

import torch
import torch.utils._pytree as pytree

Point = collections.namedtuple("Point", ["x", "y"])


def test_flatten_unflatten_round_trip():
    tree = {"b": [1, (2, 3)], "a": Point(4, None), "c": collections.OrderedDict(z=5)}
    leaves, spec = pytree.tree_flatten(tree)
    assert leaves == [1, 2, 3, 4, None, 5]
    assert spec.num_leaves == 6
    back = pytree.tree_unflatten(leaves, spec)
    assert back == tree and type(back["a"]) is Point and type(back["c"]) is collections.OrderedDict
    assert spec.unflatten(list(range(6)))["a"] == Point(3, 4)
    assert pytree.tree_structure(tree) == spec


def test_unflatten_checks_the_leaf_count():
    _, spec = pytree.tree_flatten([1, 2])
    with pytest.raises(ValueError):
        pytree.tree_unflatten([1], spec)


def test_tree_map_over_several_trees_and_only():
    assert pytree.tree_map(lambda a, b: a + b, [1, (2, 3)], [10, (20, 30)]) == [11, (22, 33)]
    t = torch.ones(2)
    out = pytree.tree_map_only(torch.Tensor, lambda x: x * 2, {"t": t, "n": 3})
    assert out["n"] == 3 and torch.equal(out["t"], t * 2)
    seen = []
    pytree.tree_map_(seen.append, [1, [2]])
    assert seen == [1, 2]
    assert pytree.tree_all(lambda x: x > 0, [1, (2,)]) and not pytree.tree_any(lambda x: x > 5, [1, (2,)])
    assert pytree.tree_any_only(int, lambda x: x == 2, [1.0, 2])


def test_is_leaf_keeps_subtrees_whole():
    leaves = pytree.tree_leaves([[1, 2], [3]], is_leaf=lambda x: isinstance(x, list) and len(x) == 1)
    assert leaves == [1, 2, [3]]


def test_register_pytree_node_and_dataclass():
    class Box:
        def __init__(self, a, b):
            self.a, self.b = a, b

    pytree.register_pytree_node(Box, lambda bx: ([bx.a, bx.b], None), lambda v, c: Box(*v))
    try:
        leaves, spec = pytree.tree_flatten([Box(1, 2), 3])
        assert leaves == [1, 2, 3]
        back = pytree.tree_unflatten([4, 5, 6], spec)
        assert isinstance(back[0], Box) and (back[0].a, back[0].b, back[1]) == (4, 5, 6)
    finally:
        pytree._deregister_pytree_node(Box) if hasattr(pytree, "_deregister_pytree_node") else None

    @dataclasses.dataclass
    class Pair:
        left: int
        right: int

    pytree.register_dataclass(Pair)
    assert pytree.tree_leaves(Pair(1, 2)) == [1, 2]


def test_key_paths():
    pairs, _ = pytree.tree_flatten_with_path({"a": [1, 2], "p": Point(3, 4)})
    assert [pytree.keystr(p) for p, _ in pairs] == ["['a'][0]", "['a'][1]", "['p'].x", "['p'].y"]
    assert [v for _, v in pairs] == [1, 2, 3, 4]
    tree = {"a": [1, 2]}
    assert pytree.key_get(tree, pairs[1][0]) == 2
    doubled = pytree.tree_map_with_path(lambda path, v: (pytree.keystr(path), v * 2), tree)
    assert doubled == {"a": [("['a'][0]", 2), ("['a'][1]", 4)]}


def test_treespec_pprint():
    assert pytree.treespec_pprint(pytree.tree_structure({"b": [1, 2], "a": (3,)})) == "{'b': [*, *], 'a': (*,)}"
