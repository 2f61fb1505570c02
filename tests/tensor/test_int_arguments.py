"""`int` and `int[]` arguments take what upstream's parser takes: Python ints, NumPy integers and 0-dim integer
tensors (their __index__); never a bool (x.topk(True) is not k=1) or a float."""

import numpy as np
import pytest

import torch

BOOL_CALLS = {
    "topk": lambda x: x.topk(True),
    "unsqueeze": lambda x: x.unsqueeze(True),
    "flatten": lambda x: x.flatten(True),
    "narrow": lambda x: x.narrow(0, True, 1),
    "sum_dim": lambda x: x.sum(dim=True),
    "zeros": lambda x: torch.zeros(True),
    "view": lambda x: x.view(True, 6),
    "repeat": lambda x: x.repeat(True),
    "roll": lambda x: x.roll(True),
    "argmax_dim": lambda x: torch.argmax(x, dim=True),
    "cumsum": lambda x: torch.cumsum(x, True),
    "softmax": lambda x: torch.softmax(x, True),
}


@pytest.mark.parametrize("name", sorted(BOOL_CALLS))
def test_a_bool_is_not_an_int(name):
    x = torch.arange(6.0).reshape(2, 3)
    with pytest.raises(TypeError):
        BOOL_CALLS[name](x)


@pytest.mark.parametrize("call", [lambda x: x.unsqueeze(1.0), lambda x: x.topk(2.0), lambda x: x.sum(dim=1.0)])
def test_a_float_is_not_an_int(call):
    with pytest.raises(TypeError):
        call(torch.arange(6.0).reshape(2, 3))


def test_numpy_integers_and_0_dim_tensors_are_ints():
    x = torch.arange(6.0).reshape(2, 3)
    assert x.topk(np.int64(2)).values.shape == (2, 2)
    assert x.unsqueeze(np.int32(0)).shape == (1, 2, 3)
    assert x.sum(np.int64(1)).tolist() == [3.0, 12.0]
    assert x.sum(dim=(np.int64(0), 1)).item() == 15.0
    assert x.view(np.int64(3), 2).shape == (3, 2)
    assert torch.zeros((np.int64(2), 3)).shape == (2, 3)
    assert x.flatten(torch.tensor(0)).shape == (6,)
    assert x.narrow(1, 1, np.int64(2)).tolist() == [[1.0, 2.0], [4.0, 5.0]]


def test_a_bool_tensor_is_not_an_int():
    with pytest.raises((TypeError, RuntimeError)):  # upstream: an internal assert (RuntimeError)
        torch.ones(3).topk(torch.tensor(True))
    assert torch.ones(3).topk(torch.tensor(2)).values.shape == (2,)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda x: x.diagonal(True), "diagonal(): argument 'offset' (position 1) must be int, not bool"),
        (lambda x: torch.diagonal(x, True), "diagonal(): argument 'offset' (position 2) must be int, not bool"),
        (lambda x: torch.kthvalue(x[0], True), "kthvalue(): argument 'k' (position 2) must be int, not bool"),
        (
            lambda x: torch.hann_window(True),
            "hann_window(): argument 'window_length' (position 1) must be int, not bool",
        ),
    ],
)
def test_python_level_ops_refuse_a_bool_for_an_int_as_upstream(call, message):
    with pytest.raises(TypeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call(torch.ones(4, 4))


def test_keyword_bool_message_names_no_position_and_a_bool_tensor_is_a_dim():
    with pytest.raises(TypeError, match=r"diagonal\(\): argument 'offset' must be int, not bool"):
        torch.ones(3, 3).diagonal(offset=True)
    assert torch.ones(2, 3).sum(torch.tensor(True)).shape == (2,)  # an int[] element may be a 0-dim bool tensor
