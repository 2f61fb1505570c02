"""torch.torch_version.TorchVersion (PyTorch's API): `torch.__version__` is a str that also compares as a
version against strings, tuples and packaging's Version (`torch.__version__ >= (0, 1)`), as code written
against both old and new PyTorch expects. Comparisons use the `packaging` library where it is installed, else
the release numbers (PEP 440's major.minor.micro, pre-release and local parts ignored)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from torch.version import __version__ as internal_version

__all__ = ["TorchVersion"]


def _release(text: str) -> tuple[int, ...]:
    match = re.match(r"v?(\d+(?:\.\d+)*)", str(text).strip())
    if match is None:
        raise ValueError(f"Invalid version: {text!r}")
    parts = [int(p) for p in match.group(1).split(".")]
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


def _version(value):
    try:
        from packaging.version import Version
    except ImportError:
        if isinstance(value, str):
            return _release(value)
        if isinstance(value, Iterable):
            return _release(".".join(str(v) for v in value))
        raise ValueError(f"Invalid version: {value!r}") from None
    if isinstance(value, Version):
        return value
    if isinstance(value, str):
        return Version(value)
    if isinstance(value, Iterable):
        return Version(".".join(str(v) for v in value))
    raise ValueError(f"Invalid version: {value!r}")


class TorchVersion(str):
    """A version string that compares as a version with str, tuple and packaging.version.Version (falling
    back to string comparison for what is not a version)."""

    __slots__ = ()

    def _cmp(self, other, method: str) -> bool:
        try:
            mine, theirs = _version(str(self)), _version(other)
        except Exception:  # noqa: BLE001  (not a version: compare as strings, as upstream's)
            return getattr(str, method)(self, other)
        return getattr(mine, method)(theirs)

    def __gt__(self, other) -> bool:
        return self._cmp(other, "__gt__")

    def __lt__(self, other) -> bool:
        return self._cmp(other, "__lt__")

    def __ge__(self, other) -> bool:
        return self._cmp(other, "__ge__")

    def __le__(self, other) -> bool:
        return self._cmp(other, "__le__")

    def __eq__(self, other) -> bool:
        return self._cmp(other, "__eq__")

    __hash__ = str.__hash__


__version__ = TorchVersion(internal_version)
