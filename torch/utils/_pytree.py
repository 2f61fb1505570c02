"""torch.utils._pytree (PyTorch's pure-Python pytree API): flattening nested containers into their leaves and
a TreeSpec that rebuilds them, mapping over leaves, key paths, and a registry of container types.

Containers are the registered node types: tuple, list, dict, collections.OrderedDict, collections.defaultdict,
collections.deque, namedtuples (torch.return_types included), and whatever `register_pytree_node` or
`register_dataclass` adds; everything else, None included (as upstream's Python pytree), is a leaf. Dicts keep
their insertion order. torch.func's transforms (vmap's in_dims/out_dims, grad's argnums trees) run on it.
"""

from __future__ import annotations

import collections
import dataclasses
from typing import Any, Callable, NamedTuple

__all__ = [
    "PyTree",
    "Context",
    "TreeSpec",
    "LeafSpec",
    "NodeDef",
    "SUPPORTED_NODES",
    "SequenceKey",
    "MappingKey",
    "GetAttrKey",
    "register_pytree_node",
    "register_dataclass",
    "is_namedtuple",
    "is_namedtuple_instance",
    "tree_is_leaf",
    "tree_flatten",
    "tree_unflatten",
    "tree_iter",
    "tree_leaves",
    "tree_structure",
    "tree_map",
    "tree_map_",
    "map_only",
    "tree_map_only",
    "tree_map_only_",
    "tree_all",
    "tree_any",
    "tree_all_only",
    "tree_any_only",
    "tree_flatten_with_path",
    "tree_leaves_with_path",
    "tree_map_with_path",
    "keystr",
    "key_get",
    "treespec_pprint",
    "arg_tree_leaves",
    "broadcast_prefix",
]

PyTree = Any
Context = Any


class NodeDef(NamedTuple):
    """How one container type flattens: fn(obj) -> (children, context), unflatten_fn(children, context),
    and optionally flatten_with_keys_fn(obj) -> ([(key, child)], context)."""

    type: type
    flatten_fn: Callable
    unflatten_fn: Callable
    flatten_with_keys_fn: Callable | None


SUPPORTED_NODES: dict[type, NodeDef] = {}
"""The registered container types (namedtuples are recognised by their fields, not registered one by one)."""


# --- key paths -------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class SequenceKey:
    """The key of a sequence's child: its index."""

    idx: int

    def __str__(self) -> str:
        return f"[{self.idx!r}]"

    def get(self, sequence):
        """The child of `sequence` this key names."""
        return sequence[self.idx]


@dataclasses.dataclass(frozen=True)
class MappingKey:
    """The key of a mapping's child."""

    key: Any

    def __str__(self) -> str:
        return f"[{self.key!r}]"

    def get(self, mapping):
        """The child of `mapping` this key names."""
        return mapping[self.key]


@dataclasses.dataclass(frozen=True)
class GetAttrKey:
    """The key of an attribute child (a namedtuple's field, a dataclass's field)."""

    name: str

    def __str__(self) -> str:
        return f".{self.name}"

    def get(self, obj):
        """The attribute of `obj` this key names."""
        return getattr(obj, self.name)


def keystr(kp) -> str:
    """A key path as the Python accessor it stands for, e.g. `['a'][1].x`."""
    return "".join(str(k) for k in kp)


def key_get(obj, kp):
    """The element of `obj` at key path `kp`."""
    for k in kp:
        obj = k.get(obj)
    return obj


# --- the registry ------------------------------------------------------------------------------------------


def register_pytree_node(
    cls: type,
    flatten_fn: Callable,
    unflatten_fn: Callable,
    *,
    serialized_type_name: str | None = None,
    to_dumpable_context: Callable | None = None,
    from_dumpable_context: Callable | None = None,
    flatten_with_keys_fn: Callable | None = None,
) -> None:
    """Makes `cls` a container: flatten_fn(obj) -> (children, context), unflatten_fn(children, context) -> obj,
    and optionally flatten_with_keys_fn(obj) -> ([(key, child)], context) for the *_with_path functions.
    (The serialization arguments are accepted for upstream's signature; TreeSpecs are not serialized here.)"""
    if cls in SUPPORTED_NODES:
        raise ValueError(f"{cls} is already registered as pytree node.")
    SUPPORTED_NODES[cls] = NodeDef(cls, flatten_fn, unflatten_fn, flatten_with_keys_fn)


def register_dataclass(cls: type, *, field_names=None, drop_field_names=None, **kwargs) -> type:
    """Makes the dataclass `cls` a container of its fields (those in field_names, default all that take part
    in __init__, less drop_field_names); returns cls, so it also works as a decorator."""
    if field_names is None:
        if not dataclasses.is_dataclass(cls):
            raise ValueError(f"field_names must be specified with a list of all fields used to initialize {cls}")
        field_names = [f.name for f in dataclasses.fields(cls) if f.init]
    drop = set(drop_field_names or ())
    names = [n for n in field_names if n not in drop]

    def flatten(obj):
        return [getattr(obj, n) for n in names], names

    def unflatten(values, context):
        return cls(**dict(zip(context, values)))

    def flatten_with_keys(obj):
        return [(GetAttrKey(n), getattr(obj, n)) for n in names], names

    register_pytree_node(cls, flatten, unflatten, flatten_with_keys_fn=flatten_with_keys)
    return cls


def is_namedtuple(obj) -> bool:
    """Whether obj is a namedtuple class or instance (a tuple subclass with _fields)."""
    cls = obj if isinstance(obj, type) else type(obj)
    return issubclass(cls, tuple) and isinstance(getattr(cls, "_fields", None), tuple)


def is_namedtuple_instance(obj) -> bool:
    """Whether obj is a namedtuple instance."""
    return is_namedtuple(type(obj))


def _seq_with_keys(seq):
    return [(SequenceKey(i), c) for i, c in enumerate(seq)], None


def _dict_flatten(d):
    keys = list(d)
    return [d[k] for k in keys], keys


def _dict_with_keys(d):
    keys = list(d)
    return [(MappingKey(k), d[k]) for k in keys], keys


def _defaultdict_flatten(d):
    keys = list(d)
    return [d[k] for k in keys], (d.default_factory, keys)


def _defaultdict_with_keys(d):
    values, context = _defaultdict_flatten(d)
    return [(MappingKey(k), v) for k, v in zip(context[1], values)], context


register_pytree_node(tuple, lambda t: (list(t), None), lambda v, c: tuple(v), flatten_with_keys_fn=_seq_with_keys)
register_pytree_node(list, lambda t: (list(t), None), lambda v, c: list(v), flatten_with_keys_fn=_seq_with_keys)
register_pytree_node(dict, _dict_flatten, lambda v, c: dict(zip(c, v)), flatten_with_keys_fn=_dict_with_keys)
register_pytree_node(
    collections.OrderedDict,
    _dict_flatten,
    lambda v, c: collections.OrderedDict(zip(c, v)),
    flatten_with_keys_fn=_dict_with_keys,
)
register_pytree_node(
    collections.defaultdict,
    _defaultdict_flatten,
    lambda v, c: collections.defaultdict(c[0], zip(c[1], v)),
    flatten_with_keys_fn=_defaultdict_with_keys,
)
register_pytree_node(
    collections.deque,
    lambda d: (list(d), d.maxlen),
    lambda v, c: collections.deque(v, maxlen=c),
    flatten_with_keys_fn=lambda d: ([(SequenceKey(i), x) for i, x in enumerate(d)], d.maxlen),
)

_NAMEDTUPLE = NodeDef(
    tuple,  # stands for every namedtuple class; the class itself is the context
    lambda t: (list(t), type(t)),
    lambda v, c: c(*v),
    lambda t: ([(GetAttrKey(f), getattr(t, f)) for f in t._fields], type(t)),
)


def _node_def(obj) -> NodeDef | None:
    """The NodeDef of obj's type, or None for a leaf."""
    node = SUPPORTED_NODES.get(type(obj))
    if node is not None:
        return node
    if is_namedtuple_instance(obj):
        return _NAMEDTUPLE
    return None


def _node_type(obj):
    """The container type of obj, or None for a leaf."""
    return type(obj) if _node_def(obj) is not None else None


def tree_is_leaf(tree, is_leaf: Callable | None = None) -> bool:
    """Whether `tree` is a leaf: not a registered container, or one that is_leaf(tree) says to keep whole."""
    if is_leaf is not None and is_leaf(tree):
        return True
    return _node_def(tree) is None


# --- TreeSpec ----------------------------------------------------------------------------------------------


class TreeSpec:
    """The structure of a pytree: its container type, context (a dict's keys) and children's specs."""

    def __init__(self, type, context, children_specs: list[TreeSpec]) -> None:
        self.type = type
        self.context = context
        self.children_specs = children_specs
        self.num_leaves = sum(c.num_leaves for c in children_specs)
        self.num_nodes = 1 + sum(c.num_nodes for c in children_specs)

    @property
    def num_children(self) -> int:
        """How many direct children the container has."""
        return len(self.children_specs)

    def is_leaf(self) -> bool:
        """Whether this spec stands for one leaf."""
        return False

    def unflatten(self, leaves):
        """The pytree of this structure holding `leaves` (tree_unflatten(leaves, self))."""
        return tree_unflatten(leaves, self)

    def flatten_up_to(self, tree) -> list:
        """The subtrees of `tree` at this spec's leaves (tree must have this structure down to them)."""
        out = broadcast_prefix_subtrees(tree, self)
        if out is None:
            raise ValueError(f"the tree {tree!r} does not have the structure {self}")
        return out

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, TreeSpec)
            and self.is_leaf() == other.is_leaf()
            and self.type is other.type
            and self.context == other.context
            and self.children_specs == other.children_specs
        )

    def __hash__(self):  # specs compare by value; they are not meant as dict keys
        return hash((self.type, self.num_leaves))

    def __repr__(self, indent: int = 0) -> str:
        inner = [c.__repr__(indent + 2) for c in self.children_specs]
        sep = ",\n" + " " * (indent + 2)
        name = getattr(self.type, "__qualname__", str(self.type))
        return f"TreeSpec({name}, {self.context}, [{sep.join(inner)}])"


class LeafSpec(TreeSpec):
    """The spec of a single leaf, printed as '*'."""

    def __init__(self) -> None:
        super().__init__(None, None, [])
        self.num_leaves = 1
        self.num_nodes = 1

    def is_leaf(self) -> bool:
        """Whether this spec stands for one leaf."""
        return True

    def __repr__(self, indent: int = 0) -> str:
        return "*"


def _rebuild(node_type, context, children: list):
    node = SUPPORTED_NODES.get(node_type)
    if node is None:  # a namedtuple
        return _NAMEDTUPLE.unflatten_fn(children, context)
    return node.unflatten_fn(children, context)


# --- flatten / unflatten / map -------------------------------------------------------------------------------


def tree_flatten(tree, is_leaf: Callable | None = None) -> tuple[list, TreeSpec]:
    """The leaves of `tree` (depth first, left to right) and the spec that rebuilds it; `is_leaf(node)` True
    keeps a container whole as one leaf."""
    leaves: list = []

    def go(obj) -> TreeSpec:
        node = None if (is_leaf is not None and is_leaf(obj)) else _node_def(obj)
        if node is None:
            leaves.append(obj)
            return LeafSpec()
        children, context = node.flatten_fn(obj)
        return TreeSpec(type(obj), context, [go(c) for c in children])

    spec = go(tree)
    return leaves, spec


def tree_unflatten(leaves, treespec: TreeSpec):
    """Rebuilds the pytree of `treespec` from its leaves (the inverse of tree_flatten)."""
    if not isinstance(treespec, TreeSpec):
        raise TypeError(
            f"tree_unflatten(leaves, treespec): Expected `treespec` to be instance of TreeSpec but got item of "
            f"type {type(treespec)}."
        )
    leaves = list(leaves)
    if len(leaves) != treespec.num_leaves:
        raise ValueError(
            f"treespec.unflatten(leaves): `leaves` has length {len(leaves)} but the spec refers to a pytree "
            f"that holds {treespec.num_leaves} items ({treespec})."
        )
    it = iter(leaves)

    def go(s: TreeSpec):
        if s.is_leaf():
            return next(it)
        return _rebuild(s.type, s.context, [go(c) for c in s.children_specs])

    return go(treespec)


def tree_iter(tree, is_leaf: Callable | None = None):
    """Iterates over the leaves of `tree` (depth first, left to right)."""
    if tree_is_leaf(tree, is_leaf):
        yield tree
        return
    children, _ = _node_def(tree).flatten_fn(tree)
    for child in children:
        yield from tree_iter(child, is_leaf)


def tree_leaves(tree, is_leaf: Callable | None = None) -> list:
    """The leaves of `tree`."""
    return list(tree_iter(tree, is_leaf))


def tree_structure(tree, is_leaf: Callable | None = None) -> TreeSpec:
    """The TreeSpec of `tree`."""
    return tree_flatten(tree, is_leaf)[1]


def tree_map(func: Callable, tree, *rests, is_leaf: Callable | None = None):
    """A pytree of the structure of `tree` with func(leaf, *same leaves of rests) at each leaf; each of
    `rests` must have tree's structure (or a structure of which tree's is a prefix)."""
    leaves, spec = tree_flatten(tree, is_leaf)
    flat_args = [leaves] + [spec.flatten_up_to(r) for r in rests]
    return tree_unflatten([func(*xs) for xs in zip(*flat_args)], spec)


def tree_map_(func: Callable, tree, *rests, is_leaf: Callable | None = None):
    """Calls func on each leaf (and the same leaves of rests) for its side effects; returns `tree`."""
    leaves, spec = tree_flatten(tree, is_leaf)
    flat_args = [leaves] + [spec.flatten_up_to(r) for r in rests]
    for xs in zip(*flat_args):
        func(*xs)
    return tree


def _type_pred(type_or_types_or_pred) -> Callable[[Any], bool]:
    if isinstance(type_or_types_or_pred, type) or (
        isinstance(type_or_types_or_pred, tuple) and all(isinstance(t, type) for t in type_or_types_or_pred)
    ):
        return lambda x: isinstance(x, type_or_types_or_pred)
    if callable(type_or_types_or_pred):
        return type_or_types_or_pred
    raise TypeError(f"Unexpected type {type(type_or_types_or_pred)}")


def map_only(type_or_types_or_pred):
    """A decorator: the function applies to leaves of the given type(s) (or passing the predicate) and passes
    every other leaf through unchanged."""
    pred = _type_pred(type_or_types_or_pred)

    def wrapper(func):
        def wrapped(x):
            return func(x) if pred(x) else x

        return wrapped

    return wrapper


def tree_map_only(type_or_types_or_pred, func: Callable, tree, is_leaf: Callable | None = None):
    """tree_map of func over the leaves of the given type(s) only; other leaves stay as they are."""
    return tree_map(map_only(type_or_types_or_pred)(func), tree, is_leaf=is_leaf)


def tree_map_only_(type_or_types_or_pred, func: Callable, tree, is_leaf: Callable | None = None):
    """tree_map_ of func over the leaves of the given type(s) only."""
    return tree_map_(map_only(type_or_types_or_pred)(func), tree, is_leaf=is_leaf)


def tree_all(pred: Callable, tree, is_leaf: Callable | None = None) -> bool:
    """Whether pred holds for every leaf."""
    return all(map(pred, tree_iter(tree, is_leaf)))


def tree_any(pred: Callable, tree, is_leaf: Callable | None = None) -> bool:
    """Whether pred holds for some leaf."""
    return any(map(pred, tree_iter(tree, is_leaf)))


def tree_all_only(type_or_types, pred: Callable, tree, is_leaf: Callable | None = None) -> bool:
    """Whether pred holds for every leaf of the given type(s)."""
    match = _type_pred(type_or_types)
    return all(pred(x) for x in tree_iter(tree, is_leaf) if match(x))


def tree_any_only(type_or_types, pred: Callable, tree, is_leaf: Callable | None = None) -> bool:
    """Whether pred holds for some leaf of the given type(s)."""
    match = _type_pred(type_or_types)
    return any(pred(x) for x in tree_iter(tree, is_leaf) if match(x))


# --- key paths ------------------------------------------------------------------------------------------------


def _with_keys(obj, node: NodeDef):
    if node.flatten_with_keys_fn is not None:
        return node.flatten_with_keys_fn(obj)
    children, context = node.flatten_fn(obj)  # a type registered without keys: its children by position
    return [(SequenceKey(i), c) for i, c in enumerate(children)], context


def tree_flatten_with_path(tree, is_leaf: Callable | None = None) -> tuple[list, TreeSpec]:
    """Like tree_flatten, with each leaf as (key path, leaf); `keystr(path)` prints a path."""
    out: list = []

    def go(obj, path):
        node = None if (is_leaf is not None and is_leaf(obj)) else _node_def(obj)
        if node is None:
            out.append((path, obj))
            return
        for key, child in _with_keys(obj, node)[0]:
            go(child, (*path, key))

    go(tree, ())
    return out, tree_structure(tree, is_leaf)


def tree_leaves_with_path(tree, is_leaf: Callable | None = None) -> list:
    """The (key path, leaf) pairs of `tree`."""
    return tree_flatten_with_path(tree, is_leaf)[0]


def tree_map_with_path(func: Callable, tree, *rests, is_leaf: Callable | None = None):
    """tree_map where func is called as func(key_path, leaf, *same leaves of rests)."""
    pairs, spec = tree_flatten_with_path(tree, is_leaf)
    flat_rests = [spec.flatten_up_to(r) for r in rests]
    values = [func(path, leaf, *(r[i] for r in flat_rests)) for i, (path, leaf) in enumerate(pairs)]
    return tree_unflatten(values, spec)


def treespec_pprint(treespec: TreeSpec) -> str:
    """The structure as the Python literal it would be with '*' at each leaf, e.g. `{'a': [*, *]}`."""
    return repr(tree_unflatten([_Asterisk()] * treespec.num_leaves, treespec))


class _Asterisk(str):
    def __new__(cls):
        return super().__new__(cls, "*")

    def __repr__(self) -> str:
        return "*"


def arg_tree_leaves(*args, **kwargs) -> list:
    """The leaves of the positional and keyword arguments of a call, in that order."""
    leaves: list = []
    for a in args:
        leaves.extend(tree_iter(a))
    for v in kwargs.values():
        leaves.extend(tree_iter(v))
    return leaves


# --- prefixes -------------------------------------------------------------------------------------------------


def broadcast_prefix_subtrees(tree, spec: TreeSpec) -> list | None:
    """The subtrees of `tree` at the leaves of `spec` (spec's structure is a prefix of tree's); None when
    tree does not have spec's structure."""
    out: list = []

    def go(t, s: TreeSpec) -> bool:
        if s.is_leaf():
            out.append(t)
            return True
        node = _node_def(t)
        if node is None or type(t) is not s.type:
            return False
        children, context = node.flatten_fn(t)
        if context != s.context or len(children) != s.num_children:
            return False
        return all(go(c, cs) for c, cs in zip(children, s.children_specs))

    return out if go(tree, spec) else None


def broadcast_prefix(prefix, spec: TreeSpec) -> list | None:
    """Flattens `prefix` (a pytree whose leaves stand for whole subtrees of `spec`, as vmap's in_dims
    do for its inputs) to one value per leaf of `spec`; None when it is not a prefix of `spec`."""
    out: list = []

    def go(p, s: TreeSpec) -> bool:
        node = _node_def(p)
        if node is None:
            out.extend([p] * s.num_leaves)
            return True
        if s.is_leaf() or type(p) is not s.type:
            return False
        children, context = node.flatten_fn(p)
        if context != s.context or len(children) != s.num_children:
            return False
        return all(go(c, cs) for c, cs in zip(children, s.children_specs))

    return out if go(prefix, spec) else None


_broadcast_to_and_flatten = broadcast_prefix  # upstream's private name, which libraries reach for
