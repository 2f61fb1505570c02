"""torch.utils: data loading (torch.utils.data), activation checkpointing (torch.utils.checkpoint), hooks' handles
and other utilities. The package imports only `hooks` (which needs nothing of torch), so that torch.nn can take
RemovableHandle from here without importing the data loader; `import torch` imports data and checkpoint."""

from torch.utils import hooks

__all__ = ["checkpoint", "data", "hooks"]
