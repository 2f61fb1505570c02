"""Ops that rearrange or repeat elements: flip, roll, repeat, tile, tril/triu, diag.

Written with other torch ops (index_select, expand, masked_fill, as_strided, index_put), like the
composites of torch/functional.py: every device and dtype, and autograd, come from those ops.
"""

from __future__ import annotations

import torch
from torch._C import Tensor

__all__ = ["flip", "roll", "tile", "tril", "triu", "diag"]


def _ints(x) -> tuple:
    """(0,) from 0, (0, 1) from (0, 1) or [0, 1]."""
    return (x,) if isinstance(x, int) else tuple(x)


def _int_args(args) -> tuple:
    """(0, 1) from method(0, 1), method((0, 1)) or method([0, 1])."""
    return _ints(args[0]) if len(args) == 1 else tuple(args)


def _wrap(dim: int, ndim: int) -> int:
    """`dim` in [0, ndim), with PyTorch's IndexError otherwise."""
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim % n


def flip(input: Tensor, dims) -> Tensor:
    """A copy of `input` with the order of elements reversed along `dims`."""
    out, seen = input, set()
    for d in _ints(dims):
        d = _wrap(d, input.dim())
        if d in seen:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        seen.add(d)
        n = input.shape[d]
        if n > 1:
            out = out.index_select(d, torch.arange(n - 1, -1, -1, device=input.device))
    return out.clone() if out is input else out


def roll(input: Tensor, shifts, dims=None) -> Tensor:
    """A copy of `input` with elements shifted by `shifts` along `dims` (wrapping around); without
    dims, over the flattened tensor."""
    shifts = _ints(shifts)
    if dims is None:
        if len(shifts) != 1:
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:0")
        return roll(input.flatten(), shifts, 0).reshape(input.shape)
    dims = _ints(dims)
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    out = input
    for s, d in zip(shifts, dims):
        d = _wrap(d, input.dim())
        n = input.shape[d]
        if n and s % n:
            out = out.index_select(d, (torch.arange(n, device=input.device) - s) % n)
    return out.clone() if out is input else out


def repeat(self: Tensor, *sizes) -> Tensor:
    """Tensor.repeat: `self` tiled sizes[i] times along dim i (leading new dims for extra sizes)."""
    sizes = _int_args(sizes)
    if len(sizes) < self.dim():
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    shape = (1,) * (len(sizes) - self.dim()) + tuple(self.shape)
    out_shape = [r * n for r, n in zip(sizes, shape)]
    for r in sizes:
        if r < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {r}: {list(sizes)}")
    interleaved, expanded = [], []
    for r, n in zip(sizes, shape):
        interleaved += [1, n]
        expanded += [r, n]
    return self.reshape(interleaved).expand(expanded).clone().reshape(out_shape)


def tile(input: Tensor, dims) -> Tensor:
    """`input` repeated dims[i] times along dim i; missing leading dims count as 1 (like np.tile)."""
    dims = _ints(dims)
    return repeat(input, (1,) * (input.dim() - len(dims)) + dims)


def _outside_band(input: Tensor, diagonal: int, lower: bool, name: str) -> Tensor:
    """The mask of the elements tril (lower) or triu zeroes, over the last two dims."""
    if input.dim() < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    rows = torch.arange(input.shape[-2], device=input.device).unsqueeze(1)
    cols = torch.arange(input.shape[-1], device=input.device)
    return (cols - rows > diagonal) if lower else (cols - rows < diagonal)


def tril(input: Tensor, diagonal: int = 0) -> Tensor:
    """The lower triangle of the last two dims (on and below `diagonal`); the rest zeroed."""
    return input.masked_fill(_outside_band(input, diagonal, True, "tril"), 0)


def triu(input: Tensor, diagonal: int = 0) -> Tensor:
    """The upper triangle of the last two dims (on and above `diagonal`); the rest zeroed."""
    return input.masked_fill(_outside_band(input, diagonal, False, "triu"), 0)


def _tril_(self: Tensor, diagonal: int = 0) -> Tensor:
    return self.masked_fill_(_outside_band(self, diagonal, True, "tril"), 0)


def _triu_(self: Tensor, diagonal: int = 0) -> Tensor:
    return self.masked_fill_(_outside_band(self, diagonal, False, "triu"), 0)


def diag(input: Tensor, diagonal: int = 0) -> Tensor:
    """1-D input: a square matrix with it on the `diagonal`-th diagonal. 2-D input: a copy of that
    diagonal."""
    if input.dim() == 1:
        n = input.shape[0]
        m = n + abs(diagonal)
        out = torch.zeros(m, m, dtype=input.dtype, device=input.device)
        idx = torch.arange(n, device=input.device)
        out[idx + max(-diagonal, 0), idx + max(diagonal, 0)] = input
        return out
    if input.dim() == 2:
        input = input.contiguous()  # as_strided's backward wants a dense input
        r, c = input.shape
        if diagonal >= 0:
            n, offset = max(min(r, c - diagonal), 0), diagonal * input.stride(1)
        else:
            n, offset = max(min(r + diagonal, c), 0), -diagonal * input.stride(0)
        step = input.stride(0) + input.stride(1)
        return input.as_strided((n,), (step,), input.storage_offset() + (offset if n else 0)).clone()
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {input.dim()}D")


def install() -> None:
    """Adds the Tensor methods (called once by torch/__init__.py)."""
    Tensor.flip = lambda self, *dims: flip(self, _int_args(dims))
    Tensor.roll = lambda self, shifts, dims=None: roll(self, shifts, dims)
    Tensor.repeat = repeat
    Tensor.tile = lambda self, *dims: tile(self, _int_args(dims))
    Tensor.tril = tril
    Tensor.triu = triu
    Tensor.tril_ = _tril_
    Tensor.triu_ = _triu_
    Tensor.diag = diag
