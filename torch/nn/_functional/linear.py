"""linear and bilinear."""

from __future__ import annotations

import torch
from torch.amp.autocast_mode import autocast_policy

__all__ = ["bilinear", "linear"]


@autocast_policy(cpu="lower_precision_fp", cuda="lower_precision_fp")
def linear(input, weight, bias=None):
    """input @ weight.T + bias (weight: (out_features, in_features))."""
    if input.dim() == 0 or weight.dim() not in (1, 2):
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {weight.dim()}D")
    if input.shape[-1] != weight.shape[-1]:
        rows = input.numel() // input.shape[-1] if input.dim() > 1 else 1
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({rows}x{input.shape[-1]} and "
            f"{'x'.join(str(s) for s in reversed(weight.shape))})"
        )
    if weight.dim() == 2 and input.dim() >= 2:
        # one matrix product over every leading dim (a view where input is contiguous), bias fused by addmm:
        # its backward is two products as well, where a batched matmul's is a product per batch and a sum
        rows = input.reshape(-1, input.shape[-1])
        out = torch.addmm(bias, rows, weight.t()) if bias is not None and bias.dim() == 1 else rows.mm(weight.t())
        if bias is not None and bias.dim() != 1:
            out = out + bias
        return out.reshape(list(input.shape[:-1]) + [weight.shape[0]])
    out = torch.matmul(input, weight.t() if weight.dim() == 2 else weight)
    return out + bias if bias is not None else out


@autocast_policy(cuda="promote")
def bilinear(input1, input2, weight, bias=None):
    """y_k = x1^T A_k x2 + b_k (weight: (out_features, in1_features, in2_features))."""
    if input1.shape[:-1] != input2.shape[:-1]:
        raise RuntimeError(
            "bilinear(): input batch dimensions do not match: got "
            f"{list(input1.shape[:-1])} and {list(input2.shape[:-1])}"
        )
    if input1.shape[-1] != weight.shape[1]:
        raise RuntimeError(
            f"bilinear(): input1 size does not match weight size: got {input1.shape[-1]} but expected {weight.shape[1]}"
        )
    if input2.shape[-1] != weight.shape[2]:
        raise RuntimeError(
            f"bilinear(): input2 size does not match weight size: got {input2.shape[-1]} but expected {weight.shape[2]}"
        )
    out = torch.einsum("...i,kij,...j->...k", input1, weight, input2)
    return out + bias if bias is not None else out
