"""Convolution layers: Conv1d/2d/3d and ConvTranspose1d/2d/3d."""

from __future__ import annotations

import math

import torch
from torch.nn import functional as F
from torch.nn import init
from torch.nn.modules.module import Module
from torch.nn.modules.utils import _ntuple, _reverse_repeat_tuple
from torch.nn.parameter import Parameter

__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"]


class _ConvNd(Module):
    """The state shared by every convolution: weight, bias, geometry, padding mode."""

    _n = 0

    def __init__(
        self, in_channels, out_channels, kernel_size, stride, padding, dilation, transposed, output_padding, groups,
        bias, padding_mode, device=None, dtype=None,
    ) -> None:  # fmt: skip
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        valid_padding_strings = {"same", "valid"}
        if isinstance(padding, str):
            if padding not in valid_padding_strings:
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {valid_padding_strings}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        valid_padding_modes = {"zeros", "reflect", "replicate", "circular"}
        if padding_mode not in valid_padding_modes:
            raise ValueError(
                f"padding_mode must be one of {valid_padding_modes}, but got padding_mode='{padding_mode}'"
            )
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.transposed = transposed
        self.output_padding = output_padding
        self.groups = groups
        self.padding_mode = padding_mode
        if isinstance(self.padding, str):
            self._reversed_padding_repeated_twice = [0, 0] * len(kernel_size)
            if padding == "same":
                for d, k, i in zip(dilation, kernel_size, range(len(kernel_size) - 1, -1, -1)):
                    total_padding = d * (k - 1)
                    left_pad = total_padding // 2
                    self._reversed_padding_repeated_twice[2 * i] = left_pad
                    self._reversed_padding_repeated_twice[2 * i + 1] = total_padding - left_pad
        else:
            self._reversed_padding_repeated_twice = _reverse_repeat_tuple(self.padding, 2)
        if transposed:
            shape = (in_channels, out_channels // groups, *kernel_size)
        else:
            shape = (out_channels, in_channels // groups, *kernel_size)
        self.weight = Parameter(torch.empty(shape, **factory_kwargs))
        if bias:
            self.bias = Parameter(torch.empty(out_channels, **factory_kwargs))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """PyTorch's default: weight ~ kaiming_uniform_(a=sqrt(5)), bias ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in))."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self) -> str:
        s = "{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}"
        if self.padding != (0,) * len(self.padding):
            s += ", padding={padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += ", dilation={dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += ", output_padding={output_padding}"
        if self.groups != 1:
            s += ", groups={groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += ", padding_mode={padding_mode}"
        return s.format(**self.__dict__)


_CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
_CONV_T = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}


class _Conv(_ConvNd):
    def __init__(
        self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
        padding_mode="zeros", device=None, dtype=None,
    ) -> None:  # fmt: skip
        tup = _ntuple(self._n)
        super().__init__(
            in_channels, out_channels, tup(kernel_size), tup(stride),
            padding if isinstance(padding, str) else tup(padding), tup(dilation), False, tup(0), groups, bias,
            padding_mode, device, dtype,
        )  # fmt: skip

    def _conv_forward(self, input, weight, bias):
        conv = _CONV[self._n]
        if self.padding_mode != "zeros":
            return conv(
                F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode), weight, bias,
                self.stride, _ntuple(self._n)(0), self.dilation, self.groups,
            )  # fmt: skip
        return conv(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input):
        """The convolution of input with weight (plus bias)."""
        return self._conv_forward(input, self.weight, self.bias)


class Conv1d(_Conv):
    """1D convolution over (N, C_in, L) input."""

    _n = 1


class Conv2d(_Conv):
    """2D convolution over (N, C_in, H, W) input."""

    _n = 2


class Conv3d(_Conv):
    """3D convolution over (N, C_in, D, H, W) input."""

    _n = 3


class _ConvTranspose(_ConvNd):
    def __init__(
        self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1, bias=True,
        dilation=1, padding_mode="zeros", device=None, dtype=None,
    ) -> None:  # fmt: skip
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {self.__class__.__name__}')
        tup = _ntuple(self._n)
        super().__init__(
            in_channels, out_channels, tup(kernel_size), tup(stride), tup(padding), tup(dilation), True,
            tup(output_padding), groups, bias, padding_mode, device, dtype,
        )  # fmt: skip

    def _output_padding(self, input, output_size):
        if output_size is None:
            return self.output_padding
        n = self._n
        has_batch = input.dim() == n + 2
        output_size = list(output_size)
        if len(output_size) == n + 2 or (len(output_size) == n + 1 and not has_batch):
            output_size = output_size[-n:]
        if len(output_size) != n:
            raise ValueError(
                f"ConvTranspose{n}D: for {input.dim()}D input, output_size must have {n} or {n + 2} elements "
                f"(got {len(output_size)})"
            )
        result = []
        for d in range(n):
            dim_size = input.shape[input.dim() - n + d]
            min_size = (
                (dim_size - 1) * self.stride[d] - 2 * self.padding[d] + self.dilation[d] * (self.kernel_size[d] - 1) + 1
            )
            max_size = min_size + self.stride[d] - 1
            if not min_size <= output_size[d] <= max_size:
                raise ValueError(
                    f"requested an output size of {output_size}, but valid sizes range from "
                    f"{[min_size]} to {[max_size]} (for an input of {list(input.shape[2:])})"
                )
            result.append(output_size[d] - min_size)
        return tuple(result)

    def forward(self, input, output_size=None):
        """The transposed convolution (output_size picks output_padding)."""
        output_padding = self._output_padding(input, output_size)
        return _CONV_T[self._n](
            input, self.weight, self.bias, self.stride, self.padding, output_padding, self.groups, self.dilation
        )


class ConvTranspose1d(_ConvTranspose):
    """1D transposed convolution."""

    _n = 1


class ConvTranspose2d(_ConvTranspose):
    """2D transposed convolution."""

    _n = 2


class ConvTranspose3d(_ConvTranspose):
    """3D transposed convolution."""

    _n = 3
