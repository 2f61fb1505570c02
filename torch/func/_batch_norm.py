"""torch.func.replace_all_batch_norm_modules_: batch norm without running statistics, for vmap."""

from __future__ import annotations

from torch import nn

__all__ = ["replace_all_batch_norm_modules_"]


def replace_all_batch_norm_modules_(root: nn.Module) -> nn.Module:
    """In place: every batch norm module in root (root included) stops tracking running statistics
    (running_mean, running_var and num_batches_tracked become None, track_running_stats False), so it
    normalizes with the statistics of each batch it sees. Returns root."""
    for module in root.modules():
        if isinstance(module, nn.modules.batchnorm._BatchNorm) and module.track_running_stats:
            module.running_mean = None
            module.running_var = None
            module.num_batches_tracked = None
            module.track_running_stats = False
    return root
