"""torch.nn.grad (PyTorch's API): the gradients of a convolution with respect to its input and its weight,
computed by THNN's (THCUNN's) convolution backward kernel, the one autograd runs for conv1d/2d/3d."""

from __future__ import annotations

__all__ = ["conv1d_input", "conv1d_weight", "conv2d_input", "conv2d_weight", "conv3d_input", "conv3d_weight"]


def _tuple(value, dims: int, name: str) -> list[int]:
    if isinstance(value, int):
        return [value] * dims
    value = list(value)
    if len(value) == 1:
        return value * dims
    if len(value) != dims:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {dims} values")
    return [int(v) for v in value]


def _backward(dims, grad_output, input, weight, stride, padding, dilation, groups, want_input: bool):
    import torch

    if grad_output.dim() != dims + 2:
        raise RuntimeError(
            f"conv{dims}d gradient: expected grad_output of {dims + 2} dims (batched), but got {grad_output.dim()}"
        )
    grad_input, grad_weight, _ = torch._convolution_nd_backward(
        grad_output,
        input,
        weight,
        _tuple(stride, dims, "stride"),
        _tuple(padding, dims, "padding"),
        _tuple(dilation, dims, "dilation"),
        int(groups),
        want_input,
        not want_input,
        False,
    )
    return grad_input if want_input else grad_weight


def _input_grad(dims, input_size, weight, grad_output, stride, padding, dilation, groups):
    import torch

    input = torch.zeros(tuple(input_size), dtype=grad_output.dtype, device=grad_output.device)
    return _backward(dims, grad_output, input, weight, stride, padding, dilation, groups, True)


def _weight_grad(dims, input, weight_size, grad_output, stride, padding, dilation, groups):
    import torch

    weight = torch.zeros(tuple(weight_size), dtype=grad_output.dtype, device=grad_output.device)
    return _backward(dims, grad_output, input, weight, stride, padding, dilation, groups, False)


def conv1d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv1d with respect to an input of size `input_size`, given grad_output."""
    return _input_grad(1, input_size, weight, grad_output, stride, padding, dilation, groups)


def conv1d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv1d with respect to a weight of size `weight_size`, given input and grad_output."""
    return _weight_grad(1, input, weight_size, grad_output, stride, padding, dilation, groups)


def conv2d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv2d with respect to an input of size `input_size`, given grad_output."""
    return _input_grad(2, input_size, weight, grad_output, stride, padding, dilation, groups)


def conv2d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv2d with respect to a weight of size `weight_size`, given input and grad_output."""
    return _weight_grad(2, input, weight_size, grad_output, stride, padding, dilation, groups)


def conv3d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv3d with respect to an input of size `input_size`, given grad_output."""
    return _input_grad(3, input_size, weight, grad_output, stride, padding, dilation, groups)


def conv3d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv3d with respect to a weight of size `weight_size`, given input and grad_output."""
    return _weight_grad(3, input, weight_size, grad_output, stride, padding, dilation, groups)
