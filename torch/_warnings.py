"""Where torch's warnings point: at the user's line, however many of torch's own frames are in between."""

from __future__ import annotations

import os
import sys

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def user_stacklevel() -> int:
    """The `stacklevel` for a warnings.warn made by the caller of this function that points at the first frame
    outside the torch package."""
    frame, level = sys._getframe(2), 2
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    return level
