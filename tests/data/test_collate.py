"""default_collate and default_convert: nested structures, numbers, NumPy, strings."""

import collections

import numpy as np
import pytest

import torch
from torch.utils.data import default_collate, default_convert

Point = collections.namedtuple("Point", ["x", "y"])


def test_tensors_are_stacked():
    out = default_collate([torch.tensor([1, 2]), torch.tensor([3, 4])])
    assert out.tolist() == [[1, 2], [3, 4]] and out.dtype == torch.int64


def test_numbers_become_tensors():
    ints = default_collate([1, 2, 3])
    floats = default_collate([1.5, 2.5])
    assert ints.dtype == torch.int64 and ints.tolist() == [1, 2, 3]
    assert floats.dtype == torch.float64 and floats.tolist() == [1.5, 2.5]
    bools = default_collate([True, False])
    assert bools.dtype == torch.bool and bools.tolist() == [True, False]


def test_numpy_arrays_and_scalars():
    out = default_collate([np.array([1.0, 2.0], dtype=np.float32), np.array([3.0, 4.0], dtype=np.float32)])
    assert out.dtype == torch.float32 and out.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    scalars = default_collate([np.int16(3), np.int16(4)])
    assert scalars.dtype == torch.int16 and scalars.tolist() == [3, 4]
    with pytest.raises(TypeError, match="default_collate: batch must contain tensors, numpy arrays, numbers"):
        default_collate([np.array(["a"]), np.array(["b"])])


def test_strings_are_kept():
    assert default_collate(["a", "b"]) == ["a", "b"]
    assert default_collate([b"a", b"b"]) == [b"a", b"b"]


def test_nested_structures():
    batch = [
        {"img": torch.zeros(2), "label": 0, "meta": {"name": "a", "p": Point(1.0, [1, 2])}},
        {"img": torch.ones(2), "label": 1, "meta": {"name": "b", "p": Point(2.0, [3, 4])}},
    ]
    out = default_collate(batch)
    assert set(out) == {"img", "label", "meta"}
    assert out["img"].tolist() == [[0.0, 0.0], [1.0, 1.0]]
    assert out["label"].tolist() == [0, 1]
    assert out["meta"]["name"] == ["a", "b"]
    p = out["meta"]["p"]
    assert isinstance(p, Point) and p.x.tolist() == [1.0, 2.0]
    assert [t.tolist() for t in p.y] == [[1, 3], [2, 4]]  # lists are transposed position by position
    pairs = default_collate([(1, "x"), (2, "y")])
    assert isinstance(pairs, list) and pairs[0].tolist() == [1, 2] and list(pairs[1]) == ["x", "y"]


def test_unequal_sequences_and_unknown_types():
    with pytest.raises(RuntimeError, match="each element in list of batch should be of equal size"):
        default_collate([[1, 2], [3]])
    with pytest.raises(TypeError, match="default_collate: batch must contain tensors, numpy arrays, numbers, dicts"):
        default_collate([object(), object()])


def test_default_convert():
    out = default_convert({"a": np.array([1, 2]), "b": (np.float64(1.5), "s"), "c": 3})
    assert torch.is_tensor(out["a"]) and out["a"].tolist() == [1, 2]
    assert isinstance(out["b"], list) and torch.is_tensor(out["b"][0]) and out["b"][1] == "s"
    assert out["c"] == 3  # Python numbers are left alone
    t = torch.ones(2)
    assert default_convert(t) is t
    p = default_convert(Point(np.int32(1), 2))
    assert isinstance(p, Point) and p.x.dtype == torch.int32 and p.y == 2
