"""Converting the weights of a model's convolutions to a memory format (channels_last for NHWC kernels)."""

from __future__ import annotations

import torch

__all__ = ["convert_conv2d_weight_memory_format", "convert_conv3d_weight_memory_format"]


def _convert(module, memory_format, kinds):
    if isinstance(module, kinds):
        weight_data = module.weight.detach().clone(memory_format=memory_format)
        module.weight.data = weight_data.resize_(weight_data.size(), memory_format=memory_format)
    for child in module.children():
        _convert(child, memory_format, kinds)
    return module


def convert_conv2d_weight_memory_format(module, memory_format):
    """Lays out the weight of every Conv2d / ConvTranspose2d in `module` (recursively, `module` included) in
    `memory_format`, the values unchanged; returns `module`."""
    return _convert(module, memory_format, (torch.nn.Conv2d, torch.nn.ConvTranspose2d))


def convert_conv3d_weight_memory_format(module, memory_format):
    """Lays out the weight of every Conv3d / ConvTranspose3d in `module` (recursively, `module` included) in
    `memory_format`, the values unchanged; returns `module`."""
    return _convert(module, memory_format, (torch.nn.Conv3d, torch.nn.ConvTranspose3d))
