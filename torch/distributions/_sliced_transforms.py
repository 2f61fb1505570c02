"""CatTransform and StackTransform: a sequence of transforms, each applied to its own slice of a tensor along one
dim (slices of given lengths joined as torch.cat joins them, or single indices as torch.stack does)."""

from __future__ import annotations

import torch
from torch.distributions import constraints
from torch.distributions._transform import Transform
from torch.distributions.constraints import _cat_lengths, _check_dim
from torch.distributions.utils import _sum_rightmost, lazy_property

__all__ = ["CatTransform", "StackTransform"]


def _checked_transforms(tseq, cache_size: int) -> list:
    if not all(isinstance(t, Transform) for t in tseq):
        raise AssertionError("All elements of tseq must be Transform instances")
    return [t.with_cache(cache_size) for t in tseq] if cache_size else list(tseq)


class _Sliced(Transform):
    """What Cat and Stack share: `transforms` along `dim`, bijective where all of them are, and PyTorch's checks
    of the tensors they are given."""

    _size_name = ""

    @property
    def _size(self) -> int:
        raise NotImplementedError

    def _check(self, value, dim_name: str, label: str) -> None:
        """That `dim` indexes value and that value has as many entries along it as the slices take."""
        _check_dim(self.dim, value, dim_name)
        if value.size(self.dim) != self._size:
            raise AssertionError(
                f"{label}.size({self.dim}) = {value.size(self.dim)} must equal {self._size_name} {self._size}"
            )

    def _check_pair(self, x, y) -> None:
        self._check(x, "x", "x")
        self._check(y, "y", "y")

    @property
    def bijective(self) -> bool:
        return all(t.bijective for t in self.transforms)


class CatTransform(_Sliced):
    """Applies tseq[i] to the i-th slice along `dim` of length lengths[i] (1 each by default), the slices
    joined as torch.cat joins them; the log-Jacobians are joined along dim or, where dim lies inside the
    event, summed."""

    _size_name = "length"

    def __init__(self, tseq, dim: int = 0, lengths=None, cache_size: int = 0):
        tseq = _checked_transforms(tseq, cache_size)
        super().__init__(cache_size=cache_size)
        self.transforms = tseq
        self.lengths = _cat_lengths(lengths, self.transforms, "transforms")
        self.dim = dim

    @lazy_property
    def event_dim(self) -> int:
        return max(t.event_dim for t in self.transforms)

    @lazy_property
    def length(self) -> int:
        return sum(self.lengths)

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return CatTransform(self.transforms, self.dim, self.lengths, cache_size)

    @property
    def _size(self) -> int:
        return self.length

    def _slices(self, value):
        start = 0
        for length in self.lengths:
            yield value.narrow(self.dim, start, length)
            start = start + length

    def _call(self, x):
        self._check(x, "tensor", "x")
        return torch.cat([t(s) for t, s in zip(self.transforms, self._slices(x))], dim=self.dim)

    def _inverse(self, y):
        self._check(y, "tensor", "y")
        return torch.cat([t.inv(s) for t, s in zip(self.transforms, self._slices(y))], dim=self.dim)

    def log_abs_det_jacobian(self, x, y):
        self._check_pair(x, y)
        terms = []
        for t, xs, ys in zip(self.transforms, self._slices(x), self._slices(y)):
            terms.append(_sum_rightmost(t.log_abs_det_jacobian(xs, ys), self.event_dim - t.event_dim))
        dim = (self.dim - x.dim() if self.dim >= 0 else self.dim) + self.event_dim
        return torch.cat(terms, dim=dim) if dim < 0 else sum(terms)

    @constraints.dependent_property
    def domain(self):
        return constraints.cat([t.domain for t in self.transforms], self.dim, self.lengths)

    @constraints.dependent_property
    def codomain(self):
        return constraints.cat([t.codomain for t in self.transforms], self.dim, self.lengths)


class StackTransform(_Sliced):
    """Applies tseq[i] to index i along `dim`, the results joined as torch.stack joins them (and so are the
    log-Jacobians)."""

    _size_name = "len(transforms)"

    def __init__(self, tseq, dim: int = 0, cache_size: int = 0):
        tseq = _checked_transforms(tseq, cache_size)
        super().__init__(cache_size=cache_size)
        self.transforms = tseq
        self.dim = dim

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return StackTransform(self.transforms, self.dim, cache_size)

    @property
    def _size(self) -> int:
        return len(self.transforms)

    def _slice(self, z):
        return [z.select(self.dim, i) for i in range(z.size(self.dim))]

    def _call(self, x):
        self._check(x, "tensor", "x")
        return torch.stack([t(s) for s, t in zip(self._slice(x), self.transforms)], dim=self.dim)

    def _inverse(self, y):
        self._check(y, "tensor", "y")
        return torch.stack([t.inv(s) for s, t in zip(self._slice(y), self.transforms)], dim=self.dim)

    def log_abs_det_jacobian(self, x, y):
        self._check_pair(x, y)
        terms = [t.log_abs_det_jacobian(xs, ys) for xs, ys, t in zip(self._slice(x), self._slice(y), self.transforms)]
        return torch.stack(terms, dim=self.dim)

    @constraints.dependent_property
    def domain(self):
        return constraints.stack([t.domain for t in self.transforms], self.dim)

    @constraints.dependent_property
    def codomain(self):
        return constraints.stack([t.codomain for t in self.transforms], self.dim)
