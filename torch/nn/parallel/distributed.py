"""DistributedDataParallel (PyTorch's API) in a build without torch.distributed: constructing one raises
upstream's error for a missing process group, so that scripts fall back to their single-process path."""

from __future__ import annotations

from torch.nn.modules.module import Module

__all__ = ["DistributedDataParallel"]


class DistributedDataParallel(Module):
    """Data parallelism over processes; needs a process group, which this build cannot make."""

    def __init__(self, module, *args, process_group=None, **kwargs) -> None:
        super().__init__()
        raise ValueError(
            "Default process group has not been initialized, please make sure to call init_process_group "
            "(this torch is built without torch.distributed)."
        )
