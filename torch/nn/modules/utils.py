"""Argument helpers of the layers (PyTorch's torch.nn.modules.utils): _single/_pair/_triple/_ntuple."""

from torch.nn._functional._utils import _ntuple, _pair, _quadruple, _reverse_repeat_tuple, _single, _triple

__all__ = ["_ntuple", "_pair", "_quadruple", "_reverse_repeat_tuple", "_single", "_triple"]
