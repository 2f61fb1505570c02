"""Datasets: TensorDataset, Subset, ConcatDataset, ChainDataset, StackDataset, random_split."""

import warnings

import pytest

import torch
from torch.utils.data import (
    ChainDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    StackDataset,
    Subset,
    TensorDataset,
    random_split,
)


class Range(IterableDataset):
    def __init__(self, start, end):
        self.start, self.end = start, end

    def __iter__(self):
        return iter(range(self.start, self.end))

    def __len__(self):
        return self.end - self.start


def test_tensor_dataset():
    x, y = torch.arange(12.0).reshape(6, 2), torch.arange(6)
    ds = TensorDataset(x, y)
    assert len(ds) == 6
    a, b = ds[4]
    assert a.tolist() == [8.0, 9.0] and b.item() == 4
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        TensorDataset(x, torch.arange(5))


def test_dataset_base():
    with pytest.raises(NotImplementedError, match="Subclasses of Dataset should implement __getitem__"):
        Dataset()[0]


def test_subset_and_getitems():
    ds = Subset(list(range(10, 20)), [3, 1, 7])
    assert len(ds) == 3 and [ds[i] for i in range(3)] == [13, 11, 17]
    assert ds.__getitems__([2, 0]) == [17, 13]


def test_concat_dataset():
    ds = ConcatDataset([list(range(3)), list(range(10, 15))])
    assert len(ds) == 8 and ds.cumulative_sizes == [3, 8]
    assert [ds[i] for i in range(8)] == [0, 1, 2, 10, 11, 12, 13, 14]
    assert ds[-1] == 14 and ds[-8] == 0
    with pytest.raises(ValueError, match="absolute value of index should not exceed dataset length"):
        ds[-9]
    with pytest.raises(AssertionError, match="datasets should not be an empty iterable"):
        ConcatDataset([])
    with pytest.raises(AssertionError, match="ConcatDataset does not support IterableDataset"):
        ConcatDataset([Range(0, 2)])
    both = TensorDataset(torch.zeros(2)) + TensorDataset(torch.ones(3))
    assert isinstance(both, ConcatDataset) and len(both) == 5


def test_chain_dataset():
    ds = ChainDataset([Range(0, 3), Range(5, 7)])
    assert list(ds) == [0, 1, 2, 5, 6] and len(ds) == 5
    assert list(Range(0, 2) + Range(3, 4)) == [0, 1, 3]
    with pytest.raises(AssertionError, match="ChainDataset only supports IterableDataset"):
        list(ChainDataset([[1, 2]]))


def test_stack_dataset():
    ds = StackDataset(list("abc"), [1, 2, 3])
    assert ds[1] == ("b", 2) and len(ds) == 3
    assert StackDataset(x=list("ab"), y=[5, 6])[0] == {"x": "a", "y": 5}
    with pytest.raises(ValueError, match="Size mismatch between datasets"):
        StackDataset([1], [1, 2])
    with pytest.raises(ValueError, match="At least one dataset should be passed"):
        StackDataset()


def test_random_split_lengths_and_generator():
    data = list(range(10))
    a, b = random_split(data, [7, 3], generator=torch.Generator().manual_seed(3))
    assert len(a) == 7 and len(b) == 3
    assert sorted(list(a) + list(b)) == data
    c, d = random_split(data, [7, 3], generator=torch.Generator().manual_seed(3))
    assert list(a) == list(c) and list(b) == list(d)
    with pytest.raises(ValueError, match="Sum of input lengths does not equal the length of the input dataset!"):
        random_split(data, [5, 4])


def test_random_split_fractions():
    parts = random_split(range(10), [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(0))
    assert [len(p) for p in parts] == [5, 3, 2]
    parts = random_split(range(11), [0.5, 0.5], generator=torch.Generator().manual_seed(0))
    assert [len(p) for p in parts] == [6, 5]  # the remainder goes round-robin from the first
    with pytest.raises(ValueError, match="Fraction at index 1 is not between 0 and 1"):
        random_split(range(10), [0.5, -0.5, 1.0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        random_split(range(2), [0.9, 0.1])
    assert any("Length of split at index 1 is 0" in str(w.message) for w in caught)
