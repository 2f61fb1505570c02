"""Module.get_extra_state/set_extra_state in state_dict and load_state_dict, set_submodule and to_empty, as
upstream's. Runs against upstream PyTorch too (TORCH_REFERENCE)."""

from __future__ import annotations

import pytest

import torch
from torch import nn


class Counter(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)
        self.steps = 0

    def get_extra_state(self):
        return {"steps": self.steps}

    def set_extra_state(self, state):
        self.steps = state["steps"]


def test_extra_state_round_trips_through_state_dict():
    m = nn.Sequential(Counter())
    m[0].steps = 7
    sd = m.state_dict()
    assert list(sd) == ["0._extra_state", "0.lin.weight", "0.lin.bias"]  # the module's own state first
    assert sd["0._extra_state"] == {"steps": 7}
    fresh = nn.Sequential(Counter())
    fresh.load_state_dict(sd)
    assert fresh[0].steps == 7


def test_extra_state_missing_and_unexpected_keys():
    sd = Counter().state_dict()
    del sd["_extra_state"]
    with pytest.raises(RuntimeError, match=r'Missing key\(s\) in state_dict: "_extra_state"'):
        Counter().load_state_dict(sd)
    result = Counter().load_state_dict(sd, strict=False)
    assert result.missing_keys == ["_extra_state"]
    plain = nn.Linear(2, 2)
    sd = {**plain.state_dict(), "_extra_state": 1}
    with pytest.raises(RuntimeError, match=r'Unexpected key\(s\) in state_dict: "_extra_state"'):
        plain.load_state_dict(sd)


def test_modules_without_extra_state_have_no_key():
    assert "_extra_state" not in nn.Linear(2, 2).state_dict()


def test_set_submodule():
    m = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.ReLU()))
    m.set_submodule("1.0", nn.Tanh())
    assert isinstance(m[1][0], nn.Tanh)
    m.set_submodule("extra", nn.Identity())
    assert isinstance(m.extra, nn.Identity)
    with pytest.raises(AttributeError):
        m.set_submodule("nothing_here", nn.Identity(), strict=True)
    with pytest.raises(ValueError, match="Cannot set the submodule without a target name"):
        m.set_submodule("", nn.Identity())
    with pytest.raises(ValueError, match="is not an nn.Module"):
        m.set_submodule("0", 3)


def test_to_empty_keeps_shapes_and_dtypes():
    m = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4)).double()
    out = m.to_empty(device="cpu")
    assert out is m
    assert m[0].weight.shape == (4, 3) and m[0].weight.dtype == torch.float64
    assert isinstance(m[0].weight, nn.Parameter) and m[1].running_mean.shape == (4,)
