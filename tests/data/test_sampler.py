"""Samplers: orders, lengths, determinism under a seeded generator, argument checks."""

import pytest

import torch
from torch.utils.data import (
    BatchSampler,
    RandomSampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)


def gen(seed):
    return torch.Generator().manual_seed(seed)


def test_sequential():
    s = SequentialSampler(range(5))
    assert list(s) == [0, 1, 2, 3, 4] and len(s) == 5


def test_random_is_a_permutation_and_seeded():
    data = range(20)
    order = list(RandomSampler(data, generator=gen(1)))
    assert sorted(order) == list(range(20)) and order != list(range(20))
    assert list(RandomSampler(data, generator=gen(1))) == order
    assert list(RandomSampler(data, generator=gen(2))) != order
    torch.manual_seed(5)
    first = list(RandomSampler(data))
    torch.manual_seed(5)
    assert list(RandomSampler(data)) == first  # no generator: seeded from the global one


def test_random_num_samples_and_replacement():
    s = RandomSampler(range(4), num_samples=10, generator=gen(0))
    order = list(s)
    assert len(s) == 10 and len(order) == 10
    assert sorted(order[:8]) == [0, 0, 1, 1, 2, 2, 3, 3]  # whole permutations first
    r = RandomSampler(range(3), replacement=True, num_samples=70, generator=gen(0))
    drawn = list(r)
    assert len(drawn) == 70 and set(drawn) <= {0, 1, 2} and set(drawn) == {0, 1, 2}
    assert list(RandomSampler(range(3), replacement=True, num_samples=70, generator=gen(0))) == drawn
    with pytest.raises(TypeError, match="replacement should be a boolean value, but got replacement=1"):
        RandomSampler(range(3), replacement=1)
    with pytest.raises(ValueError, match="num_samples should be a positive integer value, but got num_samples=0"):
        RandomSampler(range(3), num_samples=0)


def test_subset_random():
    s = SubsetRandomSampler([10, 20, 30, 40], generator=gen(0))
    assert sorted(s) == [10, 20, 30, 40] and len(s) == 4
    assert list(SubsetRandomSampler([10, 20, 30, 40], generator=gen(0))) == list(
        SubsetRandomSampler([10, 20, 30, 40], generator=gen(0))
    )


def test_weighted_random():
    s = WeightedRandomSampler([0.0, 1.0, 0.0, 3.0], 400, generator=gen(0))
    drawn = list(s)
    assert len(s) == 400 and set(drawn) == {1, 3}
    assert 0.65 < drawn.count(3) / 400 < 0.85
    assert list(WeightedRandomSampler([0.0, 1.0, 0.0, 3.0], 400, generator=gen(0))) == drawn
    no_repeat = list(WeightedRandomSampler([1.0, 2.0, 3.0, 0.0], 3, replacement=False, generator=gen(0)))
    assert sorted(no_repeat) == [0, 1, 2]
    assert s.weights.dtype == torch.float64
    with pytest.raises(ValueError, match="num_samples should be a positive integer value, but got num_samples=True"):
        WeightedRandomSampler([1.0], True)
    with pytest.raises(ValueError, match="replacement should be a boolean value, but got replacement=0"):
        WeightedRandomSampler([1.0], 1, replacement=0)
    with pytest.raises(ValueError, match=r"weights should be a 1d sequence but given weights have shape \(1, 2\)"):
        WeightedRandomSampler([[1.0, 2.0]], 1)


def test_batch_sampler():
    assert list(BatchSampler(SequentialSampler(range(10)), 3, drop_last=False)) == [
        [0, 1, 2],
        [3, 4, 5],
        [6, 7, 8],
        [9],
    ]
    assert list(BatchSampler(range(10), 3, drop_last=True)) == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    assert len(BatchSampler(range(10), 3, False)) == 4 and len(BatchSampler(range(10), 3, True)) == 3
    with pytest.raises(ValueError, match="batch_size should be a positive integer value, but got batch_size=0"):
        BatchSampler(range(3), 0, False)
    with pytest.raises(ValueError, match="drop_last should be a boolean value, but got drop_last=1"):
        BatchSampler(range(3), 1, 1)
