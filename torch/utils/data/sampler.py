"""Samplers: the order in which a DataLoader visits a map-style dataset's indices (PyTorch's API)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence, Sized
from typing import Generic, TypeVar

import torch

__all__ = [
    "BatchSampler",
    "RandomSampler",
    "Sampler",
    "SequentialSampler",
    "SubsetRandomSampler",
    "WeightedRandomSampler",
]

_T_co = TypeVar("_T_co", covariant=True)


class Sampler(Generic[_T_co]):
    """Base class of samplers: ``__iter__`` yields indices (or lists of them); ``__len__`` is optional."""

    def __init__(self, data_source: Sized | None = None) -> None:
        pass

    def __iter__(self) -> Iterator[_T_co]:
        raise NotImplementedError


class SequentialSampler(Sampler[int]):
    """Yields 0, 1, ..., len(data_source) - 1."""

    def __init__(self, data_source: Sized) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


def _fresh_generator():
    """A generator seeded from the global one, as PyTorch's samplers make when given none."""
    seed = int(torch.randint(0, 2**63 - 1, (), dtype=torch.int64).item())
    return torch.Generator().manual_seed(seed)


class RandomSampler(Sampler[int]):
    """A random permutation of the indices (repeated to reach ``num_samples``), or with ``replacement``
    ``num_samples`` uniform draws. Without a ``generator`` each iteration seeds a fresh one from the
    global generator, so ``torch.manual_seed`` makes the order reproducible."""

    def __init__(
        self, data_source: Sized, replacement: bool = False, num_samples: int | None = None, generator=None
    ) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got replacement={self.replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={self.num_samples}")

    @property
    def num_samples(self) -> int:
        """How many indices one iteration yields (default: the dataset's length)."""
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        n = len(self.data_source)
        generator = _fresh_generator() if self.generator is None else self.generator
        if self.replacement:
            for _ in range(self.num_samples // 32):
                yield from torch.randint(0, n, (32,), dtype=torch.int64, generator=generator).tolist()
            yield from torch.randint(0, n, (self.num_samples % 32,), dtype=torch.int64, generator=generator).tolist()
        else:
            for _ in range(self.num_samples // n):
                yield from torch.randperm(n, generator=generator).tolist()
            yield from torch.randperm(n, generator=generator).tolist()[: self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler[int]):
    """The given indices in a random order (without replacement)."""

    def __init__(self, indices: Sequence[int], generator=None) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        for i in torch.randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


def _multinomial(weights, num_samples: int, replacement: bool, generator) -> list[int]:
    """``torch.multinomial`` of a 1-d float64 weight tensor where torch has none: inverse-CDF draws with
    replacement, the exponential-keys (Efraimidis-Spirakis) top-k without."""
    if hasattr(torch, "multinomial"):
        return torch.multinomial(weights, num_samples, replacement, generator=generator).tolist()
    import numpy as np

    w = weights.numpy()
    if (w < 0).any() or not np.isfinite(w).all() or w.sum() <= 0:
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    if not replacement and num_samples > int((w > 0).sum()):
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    u = torch.rand(num_samples if replacement else len(w), dtype=torch.float64, generator=generator).numpy()
    if replacement:
        cdf = np.cumsum(w) / w.sum()
        picks = np.searchsorted(cdf, u, side="right")
        return np.minimum(picks, np.flatnonzero(w)[-1]).tolist()
    with np.errstate(divide="ignore"):
        keys = np.log(np.maximum(u, np.finfo(np.float64).tiny)) / w  # -inf where w == 0: never picked first
    return np.argsort(-keys, kind="stable")[:num_samples].tolist()


class WeightedRandomSampler(Sampler[int]):
    """``num_samples`` indices of ``[0, len(weights))`` drawn with probabilities proportional to ``weights``
    (with or without ``replacement``)."""

    def __init__(self, weights: Sequence[float], num_samples: int, replacement: bool = True, generator=None) -> None:
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError(f"replacement should be a boolean value, but got replacement={replacement}")
        weights_tensor = torch.as_tensor(weights, dtype=torch.double)
        if len(weights_tensor.shape) != 1:
            raise ValueError(
                f"weights should be a 1d sequence but given weights have shape {tuple(weights_tensor.shape)}"
            )
        self.weights = weights_tensor
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        yield from _multinomial(self.weights, self.num_samples, self.replacement, self.generator)

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler[list[int]]):
    """Groups another sampler's indices into lists of ``batch_size`` (the last one shorter unless
    ``drop_last``)."""

    def __init__(self, sampler: Sampler[int] | Iterable[int], batch_size: int, drop_last: bool) -> None:
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list[int]]:
        sampler_iter = iter(self.sampler)
        if self.drop_last:
            yield from (list(batch) for batch in zip(*[sampler_iter] * self.batch_size))
        else:
            batch = list(itertools.islice(sampler_iter, self.batch_size))
            while batch:
                yield batch
                batch = list(itertools.islice(sampler_iter, self.batch_size))

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size
