"""The out= keyword, as upstream's out= overloads behave: the result is written into the given tensor (or tuple
of tensors), which must be on the result's device and whose dtype follows one of three rules (DTYPE_RULES), and
which is resized where its shape differs (with upstream's deprecation warning when it had elements); the out
tensors are what is returned. out= does not record a gradient: a result that requires one is refused, as
upstream. A castable op whose `dtype=` is left out takes out's dtype (torch.zeros(3, out=ints) is int64,
torch.sum(x, out=ints) sums in int64), as upstream's factories and reductions do.

Three ways in: torch.linalg/fft/special functions are wrapped by with_out(name); Python ops registered on torch
take `register(..., out="castable")` (torch/_registry.py); the generated bindings of ops declared with
`out: castable` or `out: exact` in native_functions.yaml get an out= overload that calls write_out (through
torch/csrc/Out.cpp)."""

from __future__ import annotations

import functools
import inspect
import warnings

import torch
from torch._C import Tensor
from torch._dtypes import cpp_type_name, scalar_type
from torch._warnings import user_stacklevel

# how out's dtype must relate to the result's: "exact" (softmax, mm, argmax: the same dtype), "castable"
# (elementwise ops and reductions: any dtype the result casts to, TensorIterator's rule), "safe" (linalg's
# composites: the same rule, with linalg's message)
DTYPE_RULES = ("exact", "castable", "safe")


def _check_dtype(out: Tensor, value: Tensor, rule: str) -> None:
    if rule == "exact":
        if out.dtype != value.dtype:
            want, got = cpp_type_name(value.dtype), cpp_type_name(out.dtype)
            raise RuntimeError(f"Expected out tensor to have dtype {want}, but got {got} instead")
    elif not torch.can_cast(value.dtype, out.dtype):
        if rule == "safe":
            raise RuntimeError(
                f"Expected out tensor to be safely castable from {cpp_type_name(value.dtype)}, but got "
                f"{cpp_type_name(out.dtype)} instead"
            )
        raise RuntimeError(
            f"result type {scalar_type(value.dtype)} can't be cast to the desired output type {scalar_type(out.dtype)}"
        )


def _write(out: Tensor, value: Tensor, rule: str) -> None:
    """value into out: checked, resized if need be, copied without recording a gradient."""
    if not isinstance(out, Tensor):
        raise TypeError(f"argument 'out' must be Tensor, not {type(out).__name__}")
    _check_dtype(out, value, rule)
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
                stacklevel=user_stacklevel(),
            )
        out.resize_(value.shape)
    with torch.no_grad():
        out.copy_(value)


def write_out(name: str, out, result, rule: str = "exact"):
    """Writes `result` (a tensor, or a named tuple of them) into `out` and returns the out tensors (a named
    tuple torch.return_types.<type>_out for several, as upstream). out=None returns result itself."""
    if out is None:
        return result
    # a differentiable result (an input requires grad, grad mode is on) cannot go into out: upstream's refusal
    # (nonzero, argmax, isin: not differentiable, so no refusal)
    if _requires_grad([result]):
        raise RuntimeError(
            f"{name}(): functions with out=... arguments don't support automatic differentiation, but one of the "
            "arguments requires grad."
        )
    if not isinstance(result, tuple):
        _write(out, result, rule)
        return out
    if not isinstance(out, (tuple, list)):
        raise TypeError(f"{name}(): argument 'out' must be tuple of Tensors, not {type(out).__name__}")
    if len(out) != len(result):
        raise TypeError(f"expected tuple of {len(result)} elements but got {len(out)}")
    for o, r in zip(out, result):
        # integer parts (indices, exponents) take their own dtype only; the values follow the op's rule
        _write(o, r, rule if r.dtype.is_floating_point or r.dtype.is_complex else "exact")
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


def with_out(name: str, rule: str = "exact"):
    """fn with upstream's keyword-only out=None (its signature shows it): fn's result written into out.
    `name` is the op's name in upstream's messages (linalg_inv, ...); `rule` one of DTYPE_RULES."""
    if rule not in DTYPE_RULES:
        raise ValueError(f"with_out: rule is one of {DTYPE_RULES}, got {rule!r}")

    def wrap(fn):
        signature = inspect.signature(fn)
        # a castable op computes in out's dtype when its dtype= is left out (nansum, range, fftfreq)
        dtype_keyword = (
            rule == "castable"
            and "dtype" in signature.parameters
            and signature.parameters["dtype"].kind == inspect.Parameter.KEYWORD_ONLY
        )

        @functools.wraps(fn)
        def with_out_keyword(*args, out=None, **kwargs):
            if out is None:
                return fn(*args, **kwargs)
            if dtype_keyword and kwargs.get("dtype") is None and isinstance(out, Tensor):
                kwargs["dtype"] = out.dtype  # the result is computed in out's dtype, as upstream's
            return write_out(name, out, fn(*args, **kwargs), rule)

        parameters = list(signature.parameters.values())
        at = next((i for i, p in enumerate(parameters) if p.kind == p.VAR_KEYWORD), len(parameters))
        parameters.insert(at, inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, default=None))
        with_out_keyword.__signature__ = signature.replace(parameters=parameters)
        del with_out_keyword.__wrapped__  # the signature above is the one to show
        return with_out_keyword

    return wrap
