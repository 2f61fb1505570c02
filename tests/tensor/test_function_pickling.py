"""torch's functions and Tensor methods pickle and deep-copy by reference, like builtin functions: a module
holding one (an activation) deep-copies, and a pickled reference comes back as the same function."""

from __future__ import annotations

import copy
import pickle

import pytest

import torch
import torch.nn.functional as F


@pytest.mark.parametrize("fn", [torch.tanh, torch.add, torch.Tensor.add, F.gelu, torch.relu])
def test_deepcopy_and_pickle_return_the_same_function(fn):
    assert copy.deepcopy(fn) is fn
    assert pickle.loads(pickle.dumps(fn)) is fn


def test_module_with_a_torch_function_deep_copies():
    layer = torch.nn.TransformerEncoderLayer(8, 2, activation=torch.tanh, batch_first=True)
    clone = copy.deepcopy(layer)
    assert clone.activation is torch.tanh
