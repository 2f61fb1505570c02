"""The DataLoader's machinery: collation, fetchers and worker processes."""

from torch.utils.data._utils import collate, fetch, worker

__all__ = ["collate", "fetch", "worker"]
