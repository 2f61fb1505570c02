"""DataLoader in the main process: batching, shuffling, samplers, collate_fn, len, argument checks."""

import pytest

import torch
from torch.utils.data import (
    BatchSampler,
    DataLoader,
    IterableDataset,
    SequentialSampler,
    TensorDataset,
)


class Stream(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(range(self.n))

    def __len__(self):
        return self.n


def dataset(n=10):
    return TensorDataset(torch.arange(n * 2.0).reshape(n, 2), torch.arange(n))


def test_batches_in_order_with_short_last():
    batches = list(DataLoader(dataset(), batch_size=4))
    assert [b[1].tolist() for b in batches] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert batches[0][0].shape == (4, 2)
    assert len(DataLoader(dataset(), batch_size=4)) == 3


def test_drop_last():
    loader = DataLoader(dataset(), batch_size=4, drop_last=True)
    assert [b[1].tolist() for b in loader] == [[0, 1, 2, 3], [4, 5, 6, 7]] and len(loader) == 2


def test_batch_size_none_converts_samples():
    loader = DataLoader(list(range(3)), batch_size=None)
    assert list(loader) == [0, 1, 2] and len(loader) == 3
    import numpy as np

    out = list(DataLoader([np.array([1, 2])], batch_size=None))
    assert torch.is_tensor(out[0]) and out[0].tolist() == [1, 2]


def test_shuffle_with_generator_is_reproducible():
    def order(seed):
        g = torch.Generator().manual_seed(seed)
        return [i for b in DataLoader(dataset(20), batch_size=3, shuffle=True, generator=g) for i in b[1].tolist()]

    first = order(7)
    assert sorted(first) == list(range(20)) and first != list(range(20))
    assert order(7) == first and order(8) != first


def test_sampler_and_batch_sampler():
    loader = DataLoader(list(range(6)), sampler=[5, 3, 1], batch_size=2)
    assert [b.tolist() for b in loader] == [[5, 3], [1]]
    loader = DataLoader(list(range(6)), batch_sampler=[[0, 5], [2]])
    assert [b.tolist() for b in loader] == [[0, 5], [2]] and len(loader) == 2
    loader = DataLoader(list(range(6)), batch_sampler=BatchSampler(SequentialSampler(range(6)), 4, False))
    assert [b.tolist() for b in loader] == [[0, 1, 2, 3], [4, 5]]


def test_collate_fn():
    loader = DataLoader(list(range(5)), batch_size=2, collate_fn=lambda batch: sum(batch))
    assert list(loader) == [1, 5, 4]


def test_dicts_and_strings():
    data = [{"x": torch.tensor([i]), "name": f"s{i}"} for i in range(3)]
    (batch,) = list(DataLoader(data, batch_size=3))
    assert batch["x"].tolist() == [[0], [1], [2]] and batch["name"] == ["s0", "s1", "s2"]


def test_iterable_dataset():
    loader = DataLoader(Stream(7), batch_size=3)
    assert [b.tolist() for b in loader] == [[0, 1, 2], [3, 4, 5], [6]] and len(loader) == 3
    loader = DataLoader(Stream(7), batch_size=3, drop_last=True)
    assert [b.tolist() for b in loader] == [[0, 1, 2], [3, 4, 5]] and len(loader) == 2
    assert list(DataLoader(Stream(2), batch_size=None)) == [0, 1]


def test_argument_checks():
    ds = dataset()
    cases = [
        (dict(num_workers=-1), "num_workers option should be non-negative"),
        (dict(timeout=-1), "timeout option should be non-negative"),
        (dict(prefetch_factor=2), "prefetch_factor option could only be specified in multiprocessing"),
        (dict(persistent_workers=True), "persistent_workers option needs num_workers > 0"),
        (dict(sampler=[0], shuffle=True), "sampler option is mutually exclusive with shuffle"),
        (dict(batch_sampler=[[0]], batch_size=2), "batch_sampler option is mutually exclusive with batch_size"),
        (dict(batch_size=None, drop_last=True), "batch_size=None option disables auto-batching"),
        (dict(multiprocessing_context="fork"), "multiprocessing_context can only be used with multi-process loading"),
        (dict(num_workers=1, multiprocessing_context="nope"), "multiprocessing_context option should specify a valid"),
    ]
    for kwargs, message in cases:
        with pytest.raises(ValueError, match=message):
            DataLoader(ds, **kwargs)
    with pytest.raises(ValueError, match="expected unspecified shuffle option, but got shuffle=True"):
        DataLoader(Stream(3), shuffle=True)
    with pytest.raises(ValueError, match="expected unspecified sampler option"):
        DataLoader(Stream(3), sampler=[0])
    loader = DataLoader(ds)
    with pytest.raises(ValueError, match="batch_size attribute should not be set after DataLoader is initialized"):
        loader.batch_size = 3


def test_pin_memory_is_accepted():
    if torch.cuda.is_available():
        pytest.skip("pins memory for real with CUDA")
    with pytest.warns(UserWarning, match="'pin_memory' argument is set as true but no accelerator is found"):
        batches = list(DataLoader(dataset(4), batch_size=2, pin_memory=True))
    assert [b[1].tolist() for b in batches] == [[0, 1], [2, 3]]
