"""Padding layers: Constant/Zero/Reflection/Replication/Circular Pad 1d-3d."""

from __future__ import annotations

from torch.nn import functional as F
from torch.nn.modules.module import Module
from torch.nn.modules.utils import _ntuple

__all__ = [
    "CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d",
    "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
    "ReplicationPad3d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d",
]  # fmt: skip


class _PadNd(Module):
    """Pads with F.pad(mode); `padding` is an int (all sides) or a 2n-tuple (left, right, top, bottom, ...)."""

    _n = 1
    _mode = "constant"

    def __init__(self, padding) -> None:
        super().__init__()
        self.padding = _ntuple(2 * self._n)(padding)

    def forward(self, input):
        """F.pad(input, padding, mode)."""
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    def __init__(self, padding, value: float) -> None:
        super().__init__(padding)
        self.value = value

    def forward(self, input):
        """F.pad(input, padding, 'constant', value)."""
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


def _make(name, base, n, mode, doc):
    return type(name, (base,), {"_n": n, "_mode": mode, "__doc__": doc, "__module__": __name__})


ConstantPad1d = _make("ConstantPad1d", _ConstantPadNd, 1, "constant", "Pads the last dim with a constant.")
ConstantPad2d = _make("ConstantPad2d", _ConstantPadNd, 2, "constant", "Pads the last 2 dims with a constant.")
ConstantPad3d = _make("ConstantPad3d", _ConstantPadNd, 3, "constant", "Pads the last 3 dims with a constant.")
ReflectionPad1d = _make("ReflectionPad1d", _PadNd, 1, "reflect", "Pads the last dim by reflection.")
ReflectionPad2d = _make("ReflectionPad2d", _PadNd, 2, "reflect", "Pads the last 2 dims by reflection.")
ReflectionPad3d = _make("ReflectionPad3d", _PadNd, 3, "reflect", "Pads the last 3 dims by reflection.")
ReplicationPad1d = _make("ReplicationPad1d", _PadNd, 1, "replicate", "Pads the last dim by edge replication.")
ReplicationPad2d = _make("ReplicationPad2d", _PadNd, 2, "replicate", "Pads the last 2 dims by edge replication.")
ReplicationPad3d = _make("ReplicationPad3d", _PadNd, 3, "replicate", "Pads the last 3 dims by edge replication.")
CircularPad1d = _make("CircularPad1d", _PadNd, 1, "circular", "Pads the last dim circularly.")
CircularPad2d = _make("CircularPad2d", _PadNd, 2, "circular", "Pads the last 2 dims circularly.")
CircularPad3d = _make("CircularPad3d", _PadNd, 3, "circular", "Pads the last 3 dims circularly.")


class _ZeroPadNd(_ConstantPadNd):
    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


ZeroPad1d = _make("ZeroPad1d", _ZeroPadNd, 1, "constant", "Pads the last dim with zeros.")
ZeroPad2d = _make("ZeroPad2d", _ZeroPadNd, 2, "constant", "Pads the last 2 dims with zeros.")
ZeroPad3d = _make("ZeroPad3d", _ZeroPadNd, 3, "constant", "Pads the last 3 dims with zeros.")
