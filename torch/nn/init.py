"""torch.nn.init: in-place initializers with PyTorch's fan rules and gain table."""

from __future__ import annotations

import math
import warnings

import numpy as np

import torch

__all__ = [
    "calculate_gain", "constant_", "dirac_", "eye_", "kaiming_normal_", "kaiming_uniform_", "normal_", "ones_",
    "orthogonal_", "sparse_", "trunc_normal_", "uniform_", "xavier_normal_", "xavier_uniform_", "zeros_",
]  # fmt: skip


def calculate_gain(nonlinearity: str, param=None) -> float:
    """The recommended gain for a nonlinearity (linear/conv/sigmoid 1, tanh 5/3, relu sqrt 2,
    leaky_relu sqrt(2 / (1 + slope^2)), selu 3/4)."""
    linear_fns = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d"]
    if nonlinearity in linear_fns or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    dimensions = tensor.dim()
    if dimensions < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    num_input_fmaps = tensor.shape[1]
    num_output_fmaps = tensor.shape[0]
    receptive_field_size = math.prod(tensor.shape[2:]) if dimensions > 2 else 1
    return num_input_fmaps * receptive_field_size, num_output_fmaps * receptive_field_size


def _calculate_correct_fan(tensor, mode: str) -> int:
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid_modes}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor, a: float = 0.0, b: float = 1.0, generator=None):
    """Fills with U(a, b)."""
    with torch.no_grad():
        return tensor.uniform_(a, b)


def normal_(tensor, mean: float = 0.0, std: float = 1.0, generator=None):
    """Fills with N(mean, std^2)."""
    with torch.no_grad():
        return tensor.normal_(mean, std)


def trunc_normal_(tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0, b: float = 2.0, generator=None):
    """Fills with N(mean, std^2) truncated to [a, b] (redrawing the values outside)."""
    with torch.no_grad():
        tensor.normal_(mean, std)
        for _ in range(1000):
            bad = (tensor < a) | (tensor > b)
            if not bool(bad.any()):
                break
            fresh = torch.empty_like(tensor).normal_(mean, std)
            tensor.copy_(torch.where(bad, fresh, tensor))
        tensor.clamp_(min=a, max=b)
        return tensor


def constant_(tensor, val: float):
    """Fills with `val`."""
    with torch.no_grad():
        return tensor.fill_(val)


def ones_(tensor):
    """Fills with 1."""
    return constant_(tensor, 1.0)


def zeros_(tensor):
    """Fills with 0."""
    with torch.no_grad():
        return tensor.zero_()


def eye_(tensor):
    """Fills a 2D tensor with the identity matrix."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with torch.no_grad():
        return tensor.copy_(torch.eye(tensor.shape[0], tensor.shape[1], dtype=tensor.dtype, device=tensor.device))


def dirac_(tensor, groups: int = 1):
    """Fills a 3-5D tensor with the Dirac delta (convolution identity), per group."""
    dimensions = tensor.dim()
    if dimensions not in [3, 4, 5]:
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.shape
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_chans_per_grp = sizes[0] // groups
    min_dim = min(out_chans_per_grp, sizes[1])
    with torch.no_grad():
        tensor.zero_()
        for g in range(groups):
            for d in range(min_dim):
                index = (g * out_chans_per_grp + d, d) + tuple(s // 2 for s in sizes[2:])
                tensor[index] = 1
    return tensor


def xavier_uniform_(tensor, gain: float = 1.0, generator=None):
    """U(-a, a) with a = gain * sqrt(6 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(tensor, -a, a)


def xavier_normal_(tensor, gain: float = 1.0, generator=None):
    """N(0, std^2) with std = gain * sqrt(2 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std)


def kaiming_uniform_(tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu", generator=None):
    """U(-bound, bound) with bound = gain * sqrt(3 / fan)."""
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    bound = math.sqrt(3.0) * gain / math.sqrt(fan)
    return uniform_(tensor, -bound, bound)


def kaiming_normal_(tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu", generator=None):
    """N(0, std^2) with std = gain / sqrt(fan)."""
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    std = calculate_gain(nonlinearity, a) / math.sqrt(fan)
    return normal_(tensor, 0.0, std)


def orthogonal_(tensor, gain: float = 1, generator=None):
    """A (semi-)orthogonal matrix (QR of a normal matrix, sign-corrected), reshaped to the tensor, times gain."""
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    flattened = torch.randn(rows, cols, dtype=torch.float64)
    a = flattened.numpy()
    if rows < cols:
        a = a.T
    q, r = np.linalg.qr(a)
    q = q * np.sign(np.diag(r))
    if rows < cols:
        q = q.T
    with torch.no_grad():
        tensor.copy_(torch.from_numpy(np.ascontiguousarray(q)).reshape(tensor.shape).to(tensor.dtype) * gain)
    return tensor


def sparse_(tensor, sparsity: float, std: float = 0.01, generator=None):
    """A 2D tensor with N(0, std^2) entries and, in each column, ceil(sparsity * rows) zeros."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = int(math.ceil(sparsity * rows))
    with torch.no_grad():
        tensor.normal_(0, std)
        for col_idx in range(cols):
            row_indices = torch.randperm(rows)
            zero_indices = row_indices[:num_zeros]
            tensor[zero_indices, col_idx] = 0
    return tensor


def _deprecated(method):
    """The pre-0.4 name of an init function (no trailing underscore): warns, then calls the new one."""
    new_name = method.__name__
    old_name = new_name[:-1]

    def deprecated_init(*args, **kwargs):
        warnings.warn(
            f"`nn.init.{old_name}` is now deprecated in favor of `nn.init.{new_name}`.", FutureWarning, stacklevel=2
        )
        return method(*args, **kwargs)

    deprecated_init.__doc__ = f"Deprecated: torch.nn.init.{new_name}."
    deprecated_init.__name__ = old_name
    return deprecated_init


uniform = _deprecated(uniform_)
normal = _deprecated(normal_)
constant = _deprecated(constant_)
eye = _deprecated(eye_)
dirac = _deprecated(dirac_)
xavier_uniform = _deprecated(xavier_uniform_)
xavier_normal = _deprecated(xavier_normal_)
kaiming_uniform = _deprecated(kaiming_uniform_)
kaiming_normal = _deprecated(kaiming_normal_)
orthogonal = _deprecated(orthogonal_)
sparse = _deprecated(sparse_)
