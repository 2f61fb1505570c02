"""torch.save / torch.load round trips (paths and file objects, state-dict-like containers, views,
every dtype, requires_grad), map_location, and weights_only refusing code (these tests run against
upstream too: each library reads back what it wrote)."""

from __future__ import annotations

import collections
import io
import os
import pickle

import pytest

import torch


def roundtrip(obj, **load_args):
    buf = io.BytesIO()
    torch.save(obj, buf)
    buf.seek(0)
    return torch.load(buf, **load_args)


@pytest.mark.parametrize(
    "dtype",
    [
        torch.float32,
        torch.float64,
        torch.float16,
        torch.bfloat16,
        torch.int64,
        torch.int32,
        torch.int8,
        torch.uint8,
        torch.bool,
    ],
    ids=str,
)
def test_tensors_of_every_dtype(dtype):
    t = (torch.arange(12).reshape(3, 4) % 3).to(dtype)
    r = roundtrip(t)
    assert r.dtype == dtype and r.shape == t.shape and torch.equal(r, t)


def test_state_dict_like_containers(tmp_path):
    state = collections.OrderedDict(
        weight=torch.randn(4, 3),
        bias=torch.zeros(4, dtype=torch.float64),
        step=7,
        names=["a", "b"],
        shape=torch.Size([2]),
    )
    path = tmp_path / "ckpt.pt"
    torch.save({"model": state, "epoch": 3, "lr": 0.1, "view": state["weight"].t()}, path)
    back = torch.load(path)
    assert back["epoch"] == 3 and back["lr"] == 0.1 and isinstance(back["model"], collections.OrderedDict)
    assert list(back["model"]) == ["weight", "bias", "step", "names", "shape"]
    assert torch.equal(back["model"]["weight"], state["weight"]) and back["model"]["bias"].dtype == torch.float64
    assert torch.equal(back["view"], state["weight"].t()) and back["model"]["shape"] == torch.Size([2])
    back2 = torch.load(os.fspath(path), map_location="cpu")
    assert back2["model"]["weight"].device.type == "cpu"


def test_requires_grad_and_empty_and_scalar():
    w = torch.ones(2, requires_grad=True)
    r = roundtrip([w, torch.ones(0, 3), torch.tensor(2.5)])
    assert r[0].requires_grad and r[0].is_leaf
    assert r[1].shape == (0, 3) and r[2].item() == 2.5


class Evil:
    def __reduce__(self):
        return (os.system, ("echo pwned",))


def test_weights_only_refuses_code():
    buf = io.BytesIO()
    pickle.dump({"x": Evil()}, buf)
    buf.seek(0)
    with pytest.raises(pickle.UnpicklingError, match="Weights only load failed"):
        torch.load(buf)
    buf.seek(0)
    with pytest.raises(pickle.UnpicklingError, match="Weights only load failed"):
        torch.load(buf, weights_only=True)


def test_protocol_2_files_load():
    buf = io.BytesIO()
    torch.save({"w": torch.arange(3.0)}, buf, pickle_protocol=2)
    buf.seek(0)
    assert torch.load(buf)["w"].tolist() == [0.0, 1.0, 2.0]


def test_weights_only_false_loads_other_objects():
    r = roundtrip({"counter": collections.Counter("aab")}, weights_only=False)
    assert r["counter"]["a"] == 2


def test_tensors_sharing_a_storage_still_share_it_after_load():
    """Tied weights and views saved together come back as views of one storage (each storage is written once,
    whole); a view alone keeps its offset and strides; one storage seen as two dtypes is refused, as upstream."""
    w = torch.arange(12.0).reshape(3, 4)
    back = roundtrip({"w": w, "tied": w, "col": w[:, 1], "t": w.t()})
    assert back["w"] is back["tied"]
    assert torch.equal(back["col"], w[:, 1]) and back["col"].stride() == (4,) and back["col"].storage_offset() == 1
    assert torch.equal(back["t"], w.t()) and back["t"].stride() == (1, 4)
    back["w"].fill_(7.0)  # the views see it: one storage
    assert back["col"].tolist() == [7.0] * 3 and back["t"].sum().item() == 84.0
    alone = roundtrip(w[1:, 2:])
    assert torch.equal(alone, w[1:, 2:]) and alone.stride() == (4, 1)
    with pytest.raises(RuntimeError, match="view the same data as different types"):
        roundtrip([w, w.view(torch.int32)])
