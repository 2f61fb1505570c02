"""The out= keyword of torch.linalg's functions, as upstream's out= overloads behave: the result is written
into the given tensor (or tuple of tensors), which must be on the result's device and of its dtype (a few
functions only ask that the result cast to it safely), and which is resized where its shape differs (with
upstream's deprecation warning when it had elements); the out tensors are what is returned. out= does not
record a gradient, so an input that requires one is refused, as upstream."""

from __future__ import annotations

import functools
import inspect
import warnings

import torch
from torch._C import Tensor
from torch._dtypes import cpp_type_name


def _write(out: Tensor, value: Tensor, castable: bool) -> None:
    """value into out: checked, resized if need be, copied without recording a gradient."""
    if not isinstance(out, Tensor):
        raise TypeError(f"argument 'out' must be Tensor, not {type(out).__name__}")
    if castable:
        if not torch.can_cast(value.dtype, out.dtype):
            raise RuntimeError(
                f"Expected out tensor to be safely castable from {cpp_type_name(value.dtype)}, but got "
                f"{cpp_type_name(out.dtype)} instead"
            )
    elif out.dtype != value.dtype:
        want, got = cpp_type_name(value.dtype), cpp_type_name(out.dtype)
        raise RuntimeError(f"Expected out tensor to have dtype {want}, but got {got} instead")
    if out.device != value.device:
        raise RuntimeError(f"Expected out tensor to have device {value.device}, but got {out.device} instead")
    if out.shape != value.shape:
        if out.numel() != 0:
            warnings.warn(
                f"An output with one or more elements was resized since it had shape {list(out.shape)}, which does "
                f"not match the required output shape {list(value.shape)}. This behavior is deprecated, and in a "
                "future PyTorch release outputs will not be resized unless they have zero elements. You can "
                "explicitly reuse an out tensor t by resizing it, inplace, to zero elements with t.resize_(0).",
                UserWarning,
                stacklevel=4,
            )
        out.resize_(value.shape)
    with torch.no_grad():
        out.copy_(value)


def write_out(name: str, out, result, castable: bool = False):
    """Writes `result` (a tensor, or a named tuple of them) into `out` and returns the out tensors (a named
    tuple torch.return_types.<type>_out for several, as upstream)."""
    if not isinstance(result, tuple):
        _write(out, result, castable)
        return out
    if not isinstance(out, (tuple, list)):
        raise TypeError(f"{name}(): argument 'out' must be tuple of Tensors, not {type(out).__name__}")
    if len(out) != len(result):
        raise TypeError(f"expected tuple of {len(result)} elements but got {len(out)}")
    for o, r in zip(out, result):
        _write(o, r, castable)
    if hasattr(result, "_fields"):
        return torch.return_types.make(type(result).__name__ + "_out", result._fields)(*out)
    return tuple(out)


def _requires_grad(values) -> bool:
    for v in values:
        if isinstance(v, Tensor) and v.requires_grad:
            return True
        if isinstance(v, (tuple, list)) and _requires_grad(v):
            return True
    return False


def with_out(name: str, castable: bool = False):
    """fn with upstream's keyword-only out=None (its signature shows it): fn's result written into out.
    `name` is the op's name in upstream's messages (linalg_inv, ...)."""

    def wrap(fn):
        @functools.wraps(fn)
        def with_out_keyword(*args, out=None, **kwargs):
            if out is None:
                return fn(*args, **kwargs)
            if torch.is_grad_enabled() and _requires_grad([*args, *kwargs.values()]):
                raise RuntimeError(
                    f"{name}(): functions with out=... arguments don't support automatic differentiation, but one "
                    "of the arguments requires grad."
                )
            return write_out(name, out, fn(*args, **kwargs), castable)

        signature = inspect.signature(fn)
        parameters = list(signature.parameters.values())
        at = next((i for i, p in enumerate(parameters) if p.kind == p.VAR_KEYWORD), len(parameters))
        parameters.insert(at, inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, default=None))
        with_out_keyword.__signature__ = signature.replace(parameters=parameters)
        del with_out_keyword.__wrapped__  # the signature above is the one to show
        return with_out_keyword

    return wrap
