"""torch.result_type: the dtype an op of two operands computes in, by PyTorch's promotion rules."""

from __future__ import annotations

import functools

import torch
from torch._C import Tensor
from torch._dtypes import scalar_type
from torch._registry import register


def in_float32(fn, dtype: torch.dtype, *tensors: Tensor) -> Tensor:
    """fn(*tensors) in dtype; for the 16-bit floats computed in float32 and rounded once to dtype, as
    upstream's kernels compute them (their opmath type: 300 ** 2 or 60000 * 2 does not overflow on the way)."""
    if not (dtype.is_floating_point and dtype.itemsize == 2):
        return fn(*tensors)
    return fn(*(t.float() for t in tensors)).to(dtype)


def _category(dtype: torch.dtype) -> int:
    """bool < integers < floating < complex types: an operand of a lower category never changes the result's."""
    if dtype == torch.bool:
        return 0
    return 3 if dtype.is_complex else 2 if dtype.is_floating_point else 1


def dtype_of_number(x) -> torch.dtype | None:
    """The dtype PyTorch gives a Python number (bool, int64, the default float dtype); None for anything else."""
    if isinstance(x, bool):
        return torch.bool
    if isinstance(x, int):
        return torch.int64
    if isinstance(x, float):
        return torch.get_default_dtype()
    if isinstance(x, complex):
        return torch.get_default_dtype().to_complex()
    return None


@register
def result_type(*operands, **named) -> torch.dtype:
    """The dtype of an elementwise op of two operands (Tensors or Python numbers), given positionally or under
    upstream's keywords (tensor/other, scalar/tensor, scalar1/scalar2): the tensors with dimensions promote
    among themselves; a 0-dim tensor, then a Python number (as int64, or the default float dtype), counts only
    where its category (bool < integer < floating) is above the result so far."""
    unknown = set(named) - {"tensor", "other", "scalar", "scalar1", "scalar2"}
    if unknown:
        raise TypeError(f"result_type() got an unexpected keyword argument '{sorted(unknown)[0]}'")
    operands = operands + tuple(named.values())
    if len(operands) != 2:
        raise TypeError(f"result_type() takes 2 arguments ({len(operands)} given)")
    return common_dtype(*operands)


def common_dtype(*operands) -> torch.dtype:
    """result_type's rule over any number of operands at once (as TensorIterator promotes an op's inputs:
    clamp's three); None operands are skipped."""
    groups: tuple[list, list, list] = ([], [], [])  # dimensioned tensors, 0-dim tensors, numbers
    for x in operands:
        if x is None:
            continue
        if isinstance(x, Tensor):
            groups[0 if x.dim() > 0 else 1].append(x.dtype)
        else:
            dtype = dtype_of_number(x)
            if dtype is None:
                raise TypeError(f"result_type(): expected a Tensor or a Number, but got {type(x).__name__}")
            groups[2].append(dtype)
    result = None
    for group in groups:
        if not group:
            continue
        dtype = functools.reduce(torch.promote_types, group)
        if result is None or _category(dtype) > _category(result):
            # a complex operand over a floating result keeps the result's precision (c10's combine_categories)
            result = (
                result.to_complex() if dtype.is_complex and result is not None and result.is_floating_point else dtype
            )
    return result


def checked_scalar(value, dtype: torch.dtype, device=None) -> Tensor:
    """A number as a 0-dim tensor of dtype, converted as upstream's Scalar.to<T>() converts it: toward zero for an
    integer dtype, and upstream's RuntimeError ("value cannot be converted to type int8_t without overflow") for a
    value out of dtype's range or a complex one with an imaginary part for a real dtype."""
    one = torch.zeros((), dtype=dtype, device=device)
    return one.masked_fill_(torch.ones((), dtype=torch.bool, device=device), value)


def cast_into(out: Tensor | None, result: Tensor) -> Tensor:
    """result, or written into out as an elementwise op's out= is (TensorIterator's rule: the result must cast
    to out's dtype; out is resized to the result's shape)."""
    if out is None:
        return result
    if not torch.can_cast(result.dtype, out.dtype):
        raise RuntimeError(
            f"result type {scalar_type(result.dtype)} can't be cast to the desired output type {scalar_type(out.dtype)}"
        )
    if out.shape != result.shape:
        out.resize_(result.shape)
    return out.copy_(result)
