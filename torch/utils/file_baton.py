"""torch.utils.file_baton.FileBaton (PyTorch's API): a lock between processes through a file that only one of
them can create (O_EXCL); the others wait for it to disappear (how cpp_extension builds avoid racing)."""

from __future__ import annotations

import os
import time
import warnings

__all__ = ["FileBaton"]


class FileBaton:
    """A primitive, file-based synchronization utility."""

    def __init__(self, lock_file_path: str, wait_seconds: float = 0.1, warn_after_seconds: float | None = None):
        self.lock_file_path = lock_file_path
        self.wait_seconds = wait_seconds
        self.fd = None
        self.warn_after_seconds = warn_after_seconds

    def try_acquire(self) -> bool:
        """Creates the lock file if no one holds it; True when this baton now holds it."""
        try:
            self.fd = os.open(self.lock_file_path, os.O_CREAT | os.O_EXCL)
            return True
        except FileExistsError:
            return False

    def wait(self) -> None:
        """Waits (polling every wait_seconds) until the holder releases the lock file."""
        start = time.time()
        while os.path.exists(self.lock_file_path):
            time.sleep(self.wait_seconds)
            if self.warn_after_seconds is not None and time.time() - start > self.warn_after_seconds:
                warnings.warn(
                    f'Waited on lock file "{self.lock_file_path}" for {self.warn_after_seconds} seconds.', stacklevel=2
                )
                self.warn_after_seconds = None

    def release(self) -> None:
        """Releases the lock file (closes and removes it)."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        os.remove(self.lock_file_path)
