"""The memory layout of an NN kernel's output: upstream's kernels allocate it in their input's suggested memory
format (Tensor.suggest_memory_format), so a channels-last input gives a channels-last output; ours compute
row-major and lay the result out again where the input is channels-last (one copy, on that path only)."""

from __future__ import annotations

import torch
from torch._C import Tensor

# the dims from innermost to outermost in the channels-last formats (upstream's is_channels_last_strides_*)
_ORDERS = {4: (1, 3, 2, 0), 5: (1, 4, 3, 2, 0)}


def _strides_like_channels_last(sizes, strides) -> bool:
    """Upstream's is_channels_last_strides_2d/3d: whether the strides order the dims C innermost, then the
    spatial dims from the last, N outermost (ambiguous cases such as [N, 1, 1, 1] read as row-major)."""
    if strides[1] == 0:
        return False
    low = 0
    for d in _ORDERS[len(sizes)]:
        if sizes[d] == 0 or strides[d] < low:
            return False
        if d == 0 and low == strides[1]:
            return False
        low = strides[d] * (sizes[d] if sizes[d] > 1 else 1)
    return True


def channels_last_format(x: Tensor):
    """torch.channels_last(_3d) when x (a batched 3-D, 4-D or 5-D input; 3-D read as 4-D with a unit H, as
    upstream runs conv1d and pool1d) is laid out channels-last, else None."""
    if x.dim() == 3:
        x = x.unsqueeze(2)
    if x.dim() not in _ORDERS or not _strides_like_channels_last(x.shape, x.stride()):
        return None
    return torch.channels_last if x.dim() == 4 else torch.channels_last_3d


def laid_out_like(out: Tensor, x: Tensor, ranks=(3, 4, 5), weight: Tensor | None = None) -> Tensor:
    """out, laid out channels-last when x is (a copy then), else out itself. `ranks`: the input ranks whose
    upstream kernel keeps the layout (its avg_pool3d and conv3d do not; its batch_norm reads no 3-D input
    as channels-last); a convolution's output is channels-last also when its weight is."""
    if out.dim() != x.dim() or x.dim() not in ranks:
        return out
    fmt = channels_last_format(x)
    if fmt is None and weight is not None and weight.dim() == x.dim():
        fmt = channels_last_format(weight)
    if fmt is None:
        return out
    if out.dim() == 3:
        return out.unsqueeze(2).contiguous(memory_format=fmt).squeeze(2)
    return out.contiguous(memory_format=fmt)
