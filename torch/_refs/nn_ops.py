"""The NN ops that PyTorch also has in the torch namespace (torch.conv2d, torch.layer_norm, torch.dropout,
torch.pixel_shuffle, ...), as its torch.nn.functional ones (looked up when called: torch.nn is imported after
this module registers). Only those whose torch signature is functional's, or maps onto it as written here."""

from __future__ import annotations

import torch
from torch._registry import register

# torch.<name> takes torch.nn.functional.<name>'s arguments
_SAME = (
    "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "avg_pool1d",
    "max_pool1d", "max_pool2d", "max_pool3d", "adaptive_avg_pool1d", "celu", "selu", "prelu", "hardshrink",
    "pixel_shuffle", "pixel_unshuffle", "pairwise_distance", "cosine_similarity", "cdist", "pdist", "bilinear",
    "channel_shuffle", "rrelu",
)  # fmt: skip


def _functional(name: str):
    def fn(*args, **kwargs):
        return getattr(torch.nn.functional, name)(*args, **kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"torch.nn.functional.{name} (the same arguments)."
    return fn


for _name in _SAME:
    register(_functional(_name), name=_name)


def _in_place(name: str):
    def fn(input, *args, **kwargs):
        return getattr(torch.nn.functional, name)(input, *args, **kwargs, inplace=True)

    fn.__name__ = fn.__qualname__ = name + "_"
    fn.__doc__ = f"torch.nn.functional.{name} in place (inplace=True)."
    return fn


for _name in ("celu", "selu", "rrelu"):
    register(_in_place(_name), name=_name + "_")


@register
def dropout(input, p: float = 0.5, train: bool = True):
    """Zeroes elements with probability p and scales the rest by 1 / (1 - p), when train (torch.dropout's
    argument order: functional's `training` is `train` here)."""
    return torch.nn.functional.dropout(input, p, train)


@register
def alpha_dropout(input, p: float = 0.5, train: bool = True):
    """SELU-preserving dropout (torch.nn.functional.alpha_dropout), when train."""
    return torch.nn.functional.alpha_dropout(input, p, train)


@register
def feature_alpha_dropout(input, p: float = 0.5, train: bool = True):
    """alpha_dropout of whole channels (torch.nn.functional.feature_alpha_dropout), when train."""
    return torch.nn.functional.feature_alpha_dropout(input, p, train)


@register
def layer_norm(input, normalized_shape, weight=None, bias=None, eps: float = 1e-5, cudnn_enable: bool = True):
    """torch.nn.functional.layer_norm (cudnn_enable is accepted and has no effect)."""
    return torch.nn.functional.layer_norm(input, normalized_shape, weight, bias, eps)


@register
def group_norm(input, num_groups: int, weight=None, bias=None, eps: float = 1e-5, cudnn_enabled: bool = True):
    """torch.nn.functional.group_norm (cudnn_enabled is accepted and has no effect)."""
    return torch.nn.functional.group_norm(input, num_groups, weight, bias, eps)


register(lambda self, lambd=0.5: torch.nn.functional.hardshrink(self, lambd), name="hardshrink", function=False,
         method=True)  # fmt: skip
register(lambda self, weight: torch.nn.functional.prelu(self, weight), name="prelu", function=False, method=True)
