"""LayerNorm, GroupNorm, RMSNorm, LocalResponseNorm."""

from __future__ import annotations

import numbers

import torch
from torch.nn import functional as F
from torch.nn import init
from torch.nn.modules.module import Module
from torch.nn.parameter import Parameter

__all__ = ["CrossMapLRN2d", "GroupNorm", "LayerNorm", "LocalResponseNorm", "RMSNorm"]


class LocalResponseNorm(Module):
    """Normalization over neighbouring channels."""

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> None:
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input):
        """F.local_response_norm."""
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return "{size}, alpha={alpha}, beta={beta}, k={k}".format(**self.__dict__)


class CrossMapLRN2d(Module):
    """The legacy (Lua Torch) cross-channel LRN of 4-D input: x * (k + alpha/size * S)^-beta, where S sums the
    squares over the legacy sliding window of channels (channel 0 stays in every window once it entered, as
    upstream's implementation computes it; LocalResponseNorm is the symmetric, zero-padded form)."""

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1) -> None:
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input):
        """The normalized input (a composite of cumulative sums, differentiable through autograd)."""
        if input.dim() != 4:
            raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {input.dim()}D instead.")
        channels = input.size(1)
        pre_pad = int((self.size - 1) / 2 + 1)
        csum = (input * input).cumsum(1)  # csum[:, j] = sum of the squares of channels 0..j
        c = torch.arange(channels, device=input.device)
        upper = csum.index_select(1, (c + pre_pad - 1).clamp(max=channels - 1))
        low = c - pre_pad  # channels 1..c-pre_pad have left the window (channel 0 never does)
        removed = csum.index_select(1, low.clamp(min=0)) - csum[:, :1]
        removed = removed * (low >= 1).to(input.dtype).view(1, channels, 1, 1)
        scale = (upper - removed) * (self.alpha / self.size) + self.k
        return input * scale.pow(-self.beta)

    def extra_repr(self):
        return "{size}, alpha={alpha}, beta={beta}, k={k}".format(**self.__dict__)


class LayerNorm(Module):
    """Normalizes over the trailing `normalized_shape` dims with an elementwise affine (weight 1, bias 0)."""

    def __init__(
        self, normalized_shape, eps: float = 1e-5, elementwise_affine: bool = True, bias: bool = True, device=None,
        dtype=None,
    ) -> None:  # fmt: skip
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if self.elementwise_affine:
            self.weight = Parameter(torch.empty(self.normalized_shape, **factory_kwargs))
            if bias:
                self.bias = Parameter(torch.empty(self.normalized_shape, **factory_kwargs))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """weight = 1, bias = 0."""
        if self.elementwise_affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input):
        """F.layer_norm."""
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return "{normalized_shape}, eps={eps}, elementwise_affine={elementwise_affine}, bias={use_bias}".format(
            **self.__dict__, use_bias=self.bias is not None
        )


class GroupNorm(Module):
    """Normalizes groups of channels with a per-channel affine."""

    def __init__(
        self, num_groups: int, num_channels: int, eps: float = 1e-5, affine: bool = True, device=None, dtype=None,
        *, bias: bool = True,
    ) -> None:  # fmt: skip
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError("num_channels must be divisible by num_groups")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        if self.affine:
            self.weight = Parameter(torch.empty(num_channels, **factory_kwargs))
            if bias:
                self.bias = Parameter(torch.empty(num_channels, **factory_kwargs))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """weight = 1, bias = 0."""
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input):
        """F.group_norm."""
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return "{num_groups}, {num_channels}, eps={eps}, affine={affine}, bias={use_bias}".format(
            **self.__dict__, use_bias=self.bias is not None
        )


class RMSNorm(Module):
    """Root-mean-square normalization over the trailing dims with an elementwise weight."""

    def __init__(self, normalized_shape, eps=None, elementwise_affine: bool = True, device=None, dtype=None) -> None:
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if self.elementwise_affine:
            self.weight = Parameter(torch.empty(self.normalized_shape, **factory_kwargs))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """weight = 1."""
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, x):
        """F.rms_norm."""
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return "{normalized_shape}, eps={eps}, elementwise_affine={elementwise_affine}".format(**self.__dict__)
