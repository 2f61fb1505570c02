"""The legacy constructors old PyTorch code still calls: torch.Tensor(...) and torch.FloatTensor & co.,
and isinstance against the legacy types."""

from __future__ import annotations

import pytest

import torch


def test_tensor_of_sizes_data_and_nothing():
    assert torch.Tensor(2, 3).shape == (2, 3) and torch.Tensor(2, 3).dtype == torch.get_default_dtype()
    assert torch.Tensor(torch.Size([4])).shape == (4,)
    assert torch.Tensor().shape == (0,)
    t = torch.Tensor([[1, 2], [3, 4]])
    assert t.dtype == torch.float32 and t.tolist() == [[1.0, 2.0], [3.0, 4.0]]


def test_tensor_of_a_tensor_is_an_alias():
    a = torch.arange(3)
    t = torch.Tensor(a)
    assert t.dtype == torch.int64 and t.data_ptr() == a.data_ptr()


@pytest.mark.parametrize(
    "name, dtype",
    [
        ("FloatTensor", torch.float32),
        ("DoubleTensor", torch.float64),
        ("HalfTensor", torch.float16),
        ("LongTensor", torch.int64),
        ("IntTensor", torch.int32),
        ("ShortTensor", torch.int16),
        ("CharTensor", torch.int8),
        ("ByteTensor", torch.uint8),
        ("BoolTensor", torch.bool),
    ],
)
def test_typed_constructors_and_isinstance(name, dtype):
    cls = getattr(torch, name)
    t = cls([1, 0, 1])
    assert t.dtype == dtype
    assert t.tolist() == ([True, False, True] if dtype == torch.bool else [1, 0, 1])
    assert cls(2, 2).shape == (2, 2) and cls(2, 2).dtype == dtype
    assert isinstance(t, cls) and isinstance(t, torch.Tensor)
    other = torch.zeros(2, dtype=torch.float64 if dtype != torch.float64 else torch.float32)
    assert not isinstance(other, cls)
    assert t.type() == f"torch.{name}"


def test_typed_constructor_refuses_a_tensor_of_another_dtype():
    with pytest.raises(TypeError):
        torch.FloatTensor(torch.arange(3))


def test_bad_data():
    with pytest.raises(TypeError, match="invalid data type 'str'"):
        torch.Tensor("a")


def test_legacy_cuda_types_on_cpu_tensors():
    """torch.cuda.FloatTensor ... exist for isinstance and .type(); without a GPU they make nothing."""
    assert not isinstance(torch.ones(1), torch.cuda.FloatTensor)
    assert isinstance(torch.ones(1), torch.FloatTensor)
    assert torch.ones(1).type(torch.DoubleTensor).dtype == torch.float64
    if not torch.cuda.is_available():
        with pytest.raises(TypeError, match="type torch.cuda.FloatTensor not available"):
            torch.cuda.FloatTensor(2)
    else:
        t = torch.cuda.LongTensor(3)
        assert t.is_cuda and t.dtype == torch.int64 and isinstance(t, torch.cuda.LongTensor)
        assert torch.ones(1).type(torch.cuda.HalfTensor).dtype == torch.float16
