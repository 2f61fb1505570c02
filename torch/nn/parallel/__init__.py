"""torch.nn.parallel (PyTorch's API): DataParallel over the GPUs of one process, its pieces (scatter, gather,
replicate, parallel_apply), and DistributedDataParallel, which needs torch.distributed (absent here)."""

from torch.nn.parallel.data_parallel import DataParallel, data_parallel
from torch.nn.parallel.distributed import DistributedDataParallel
from torch.nn.parallel.parallel_apply import parallel_apply
from torch.nn.parallel.replicate import replicate
from torch.nn.parallel.scatter_gather import gather, scatter, scatter_kwargs

__all__ = [
    "DataParallel",
    "DistributedDataParallel",
    "data_parallel",
    "gather",
    "parallel_apply",
    "replicate",
    "scatter",
    "scatter_kwargs",
]
