"""Fetchers: turn one entry of the index sampler into data (a sample or a collated batch)."""

from __future__ import annotations


class _BaseDatasetFetcher:
    """Holds the dataset, whether indices come in batches, the collate function and drop_last."""

    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        self.dataset = dataset
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.drop_last = drop_last

    def fetch(self, possibly_batched_index):
        """The data for one index (or list of indices)."""
        raise NotImplementedError


class _IterableDatasetFetcher(_BaseDatasetFetcher):
    """Draws from the dataset's iterator: ``batch_size`` samples per fetch when batching (a short last batch
    unless drop_last), one otherwise; raises StopIteration when the iterator is spent."""

    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        super().__init__(dataset, auto_collation, collate_fn, drop_last)
        self.dataset_iter = iter(dataset)
        self.ended = False

    def fetch(self, possibly_batched_index):
        """The next batch (or sample) of the iterator."""
        if self.ended:
            raise StopIteration
        if self.auto_collation:
            data = []
            for _ in possibly_batched_index:
                try:
                    data.append(next(self.dataset_iter))
                except StopIteration:
                    self.ended = True
                    break
            if len(data) == 0 or (self.drop_last and len(data) < len(possibly_batched_index)):
                raise StopIteration
        else:
            data = next(self.dataset_iter)
        return self.collate_fn(data)


class _MapDatasetFetcher(_BaseDatasetFetcher):
    """Indexes the dataset: ``__getitems__`` for a batch where the dataset has it, else one by one."""

    def fetch(self, possibly_batched_index):
        """The collated samples at the given index or indices."""
        if self.auto_collation:
            if hasattr(self.dataset, "__getitems__") and self.dataset.__getitems__:
                data = self.dataset.__getitems__(possibly_batched_index)
            else:
                data = [self.dataset[idx] for idx in possibly_batched_index]
        else:
            data = self.dataset[possibly_batched_index]
        return self.collate_fn(data)


def create_fetcher(dataset_kind, dataset, auto_collation, collate_fn, drop_last):
    """The fetcher for a map-style (0) or iterable-style (1) dataset."""
    cls = _MapDatasetFetcher if dataset_kind == 0 else _IterableDatasetFetcher
    return cls(dataset, auto_collation, collate_fn, drop_last)
