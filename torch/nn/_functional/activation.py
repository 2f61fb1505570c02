"""Activation functions of torch.nn.functional (and softmax's family): the THNN/THCUNN kernels of torch._C._nn
(gelu, silu, elu/selu/celu, leaky_relu, hardtanh/relu6, hardswish, hardsigmoid, softplus, mish, logsigmoid),
composites for the rest."""

from __future__ import annotations

import warnings

import torch
from torch._C import _nn  # the THNN/THCUNN kernels (forward and fused backward)
from torch._dtypes import scalar_type
from torch._out import with_out
from torch.amp.autocast_mode import autocast_policy

__all__ = [
    "celu", "celu_", "elu", "elu_", "gelu", "glu", "gumbel_softmax", "hardshrink", "hardsigmoid", "hardswish",
    "hardtanh", "hardtanh_", "leaky_relu", "leaky_relu_", "log_softmax", "logsigmoid", "mish", "prelu", "relu",
    "relu6", "relu_", "rrelu", "rrelu_", "selu", "selu_", "sigmoid", "silu", "softmax", "softmin", "softplus",
    "softshrink", "softsign", "tanh", "tanhshrink", "threshold", "threshold_",
]  # fmt: skip


def _inplace(input: torch.Tensor, inplace: bool, fn) -> torch.Tensor:
    """fn(input), written into `input` when `inplace`. While autograd records, fn reads a copy of the input:
    the backward of fn reads its input, which the write would make stale (PyTorch's in-place kernels keep the
    result or the input instead)."""
    if not inplace:
        return fn(input)
    x = input.clone() if input.requires_grad and torch.is_grad_enabled() else input
    return input.copy_(fn(x))


def threshold(input, threshold: float, value: float, inplace: bool = False):
    """input where input > threshold, else value (one kernel, torch.threshold)."""
    return _inplace(input, inplace, lambda x: torch.threshold(x, threshold, value))


def threshold_(input, threshold: float, value: float):
    """In-place threshold."""
    return globals()["threshold"](input, threshold, value, inplace=True)


def relu(input, inplace: bool = False):
    """max(input, 0) elementwise; in place if `inplace`."""
    return torch.relu_(input) if inplace else torch.relu(input)


def relu_(input):
    """In-place relu."""
    return torch.relu_(input)


def hardtanh(input, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False):
    """input clamped to [min_val, max_val]."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    if not input.is_floating_point():  # integers clamp in their own dtype (the kernel is for floats), as upstream
        return _inplace(input, inplace, lambda x: torch.clamp(x, int(min_val), int(max_val)))
    return _inplace(input, inplace, lambda x: _nn.hardtanh(x, min_val, max_val))


def hardtanh_(input, min_val: float = -1.0, max_val: float = 1.0):
    """In-place hardtanh."""
    return hardtanh(input, min_val, max_val, inplace=True)


def relu6(input, inplace: bool = False):
    """min(max(input, 0), 6)."""
    return hardtanh(input, 0.0, 6.0, inplace)


def elu(input, alpha: float = 1.0, inplace: bool = False):
    """input if input > 0 else alpha * (exp(input) - 1)."""
    return _inplace(input, inplace, lambda x: _nn.elu(x, alpha, 1.0, 1.0))


def elu_(input, alpha: float = 1.0):
    """In-place elu."""
    return elu(input, alpha, inplace=True)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(input, inplace: bool = False):
    """scale * elu(input, alpha) with SELU's fixed constants."""
    return _inplace(input, inplace, lambda x: _nn.elu(x, _SELU_ALPHA, _SELU_SCALE, 1.0))


def selu_(input):
    """In-place selu."""
    return selu(input, inplace=True)


def celu(input, alpha: float = 1.0, inplace: bool = False):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""
    return _inplace(input, inplace, lambda x: _nn.elu(x, alpha, 1.0, 1.0 / alpha))


def celu_(input, alpha: float = 1.0):
    """In-place celu."""
    return celu(input, alpha, inplace=True)


def leaky_relu(input, negative_slope: float = 0.01, inplace: bool = False):
    """input if input > 0 else negative_slope * input."""
    return _inplace(input, inplace, lambda x: _nn.leaky_relu(x, negative_slope))


def leaky_relu_(input, negative_slope: float = 0.01):
    """In-place leaky_relu."""
    return leaky_relu(input, negative_slope, inplace=True)


@autocast_policy(cpu="lower_precision_fp", cuda="lower_precision_fp")
def prelu(input, weight):
    """leaky relu with a learned slope per channel (dim 1), or one shared slope."""
    if weight.numel() != 1:
        if input.dim() == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = input.shape[1] if input.dim() >= 2 else 1
        if weight.numel() != channels:
            raise RuntimeError(
                "Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                f"{weight.numel()} and channel size = {channels}."
            )
        if input.dim() >= 2:
            weight = weight.reshape([channels] + [1] * (input.dim() - 2))
    else:
        weight = weight.reshape([])
    return torch._prelu_kernel(input, weight)  # the THNN/THCUNN kernel and its fused backward


def rrelu(input, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False, inplace: bool = False):
    """Randomized leaky relu: a slope drawn uniformly from [lower, upper] per element in training, their mean
    in evaluation."""
    return _rrelu(input, lower, upper, training, inplace, None)


def _rrelu(input, lower: float, upper: float, training: bool, inplace: bool, generator):
    """rrelu, its slopes drawn from `generator` (torch.rrelu and rrelu_ take one; F.rrelu does not)."""
    _floating_only(input, "leaky_relu_cpu")
    if training:
        slope = torch.empty_like(input).uniform_(lower, upper, generator=generator)
    else:
        slope = (lower + upper) / 2
    return _inplace(input, inplace, lambda x: torch.where(x >= 0, x, x * slope))


def rrelu_(input, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False, generator=None):
    """In-place rrelu (slopes drawn from `generator` if given)."""
    return _rrelu(input, lower, upper, training, True, generator)


def glu(input, dim: int = -1):
    """a * sigmoid(b) where a, b are the halves of input along dim (one kernel, and one for both halves'
    gradients)."""
    return _nn.glu(input, dim)


def gelu(input, approximate: str = "none"):
    """x * Phi(x) (exact, with erf) or its tanh approximation."""
    return _nn.gelu(input, approximate=approximate)


def logsigmoid(input):
    """log(sigmoid(input)), computed stably as -softplus(-input); row-major whatever input's layout, as
    upstream's."""
    return _nn.log_sigmoid(input).contiguous()


def _floating_only(input, kernel: str) -> None:
    """Upstream's NotImplementedError for an op whose kernels are floating only."""
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{scalar_type(input.dtype)}'")


@with_out("hardshrink", "castable")
def hardshrink(input, lambd: float = 0.5):
    """input where |input| > lambd, else 0."""
    _floating_only(input, "hardshrink_cpu")
    return torch.where((input > lambd) | (input < -lambd) | input.isnan(), input, 0.0)  # NaN stays NaN


def softshrink(input, lambd: float = 0.5):
    """input - lambd above lambd, input + lambd below -lambd, 0 between."""
    _floating_only(input, "softshrink_check")
    if lambd < 0:
        raise RuntimeError(f"lambda must be greater or equal to 0, but found to be {lambd}.")
    inside = torch.where(input.isnan(), input, 0.0)  # NaN stays NaN
    return torch.where(input > lambd, input - lambd, torch.where(input < -lambd, input + lambd, inside))


def tanhshrink(input):
    """input - tanh(input)."""
    return input - torch.tanh(input)


def softsign(input):
    """input / (1 + |input|)."""
    return input / (1 + torch.abs(input))


def softplus(input, beta: float = 1.0, threshold: float = 20.0):
    """log(1 + exp(beta * x)) / beta, linear where beta * x > threshold."""
    return _nn.softplus(input, beta, threshold)


def sigmoid(input):
    """1 / (1 + exp(-input))."""
    return torch.sigmoid(input)


def tanh(input):
    """Hyperbolic tangent."""
    return torch.tanh(input)


def hardsigmoid(input, inplace: bool = False):
    """relu6(x + 3) / 6."""
    return _inplace(input, inplace, _nn.hardsigmoid)


def silu(input, inplace: bool = False):
    """x * sigmoid(x); of a complex64/128 input x / (1 + exp(-x)), upstream's complex kernel."""
    if input.dtype in (torch.complex64, torch.complex128):
        return _inplace(input, inplace, lambda x: x / (1 + torch.exp(-x)))
    return _inplace(input, inplace, _nn.silu)


def mish(input, inplace: bool = False):
    """x * tanh(softplus(x))."""
    return _inplace(input, inplace, _nn.mish)


def hardswish(input, inplace: bool = False):
    """x * relu6(x + 3) / 6."""
    return _inplace(input, inplace, _nn.hardswish)


def _softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    """PyTorch's legacy choice of dim for softmax called without one (with its deprecation warning)."""
    warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X as an argument.",
        stacklevel=stacklevel,
    )
    return 0 if ndim in (0, 1, 3) else 1


@autocast_policy(cuda="fp32")
def softmax(input, dim: int | None = None, _stacklevel: int = 3, dtype=None):
    """exp(input) normalized along dim (PyTorch's legacy rule, with a warning, when dim is None)."""
    if dim is None:
        dim = _softmax_dim("softmax", input.dim(), _stacklevel)
    return torch.softmax(input, dim, dtype=dtype)


def softmin(input, dim: int | None = None, _stacklevel: int = 3, dtype=None):
    """softmax(-input) along dim."""
    if dim is None:
        dim = _softmax_dim("softmin", input.dim(), _stacklevel)
    return torch.softmax(-input, dim, dtype=dtype)


@autocast_policy(cuda="fp32")
def log_softmax(input, dim: int | None = None, _stacklevel: int = 3, dtype=None):
    """log(softmax(input)) along dim, computed stably (input - logsumexp)."""
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim(), _stacklevel)
    return torch.log_softmax(input, dim, dtype=dtype)


def gumbel_softmax(logits, tau: float = 1, hard: bool = False, eps: float = 1e-10, dim: int = -1):
    """Samples from the Gumbel-softmax distribution (straight-through one-hot if `hard`)."""
    gumbels = -torch.log(-torch.log(torch.rand_like(logits).clamp(min=torch.finfo(logits.dtype).tiny)))
    y_soft = torch.softmax((logits + gumbels) / tau, dim)
    if not hard:
        return y_soft
    index = y_soft.argmax(dim, keepdim=True)
    y_hard = torch.zeros_like(logits).scatter(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft
