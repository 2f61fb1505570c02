"""torch.functional (PyTorch's module name): the functions it has always offered. They are written
in torch/_refs/ by family (and torch/_type_info.py, torch/_tensor.py) and re-exported here."""

from torch._refs.creation import from_dlpack
from torch._refs.indexing import nonzero, where
from torch._refs.joins import split
from torch._refs.linalg import einsum, norm
from torch._refs.reductions import log_softmax, softmax
from torch._refs.views import broadcast_shapes, broadcast_tensors, broadcast_to, diagonal, movedim
from torch._tensor import is_floating_point, is_tensor, numel
from torch._type_info import finfo, iinfo

__all__ = [
    "broadcast_shapes",
    "einsum",
    "norm",
    "finfo",
    "iinfo",
    "from_dlpack",
    "nonzero",
    "where",
    "softmax",
    "log_softmax",
    "split",
    "broadcast_to",
    "broadcast_tensors",
    "movedim",
    "diagonal",
    "is_tensor",
    "numel",
    "is_floating_point",
]
