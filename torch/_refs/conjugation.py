"""Conjugation and the real/imaginary parts, for the real dtypes this torch has (complex dtypes are not built
yet): conj and resolve_conj are self, isreal is all true, real is self, imag is PyTorch's error; mH/adjoint are
the conjugate transpose, the transpose of the last two dims here."""

from __future__ import annotations

import math

import torch
from torch._C import Tensor
from torch._registry import register


@register(method=True)
def conj(input: Tensor) -> Tensor:
    """The complex conjugate: input itself for a real dtype (PyTorch returns a view of it)."""
    return input


@register(method=True)
def conj_physical(input: Tensor) -> Tensor:
    """The complex conjugate, materialized: a copy of a real input."""
    return input.clone()


@register(function=False, method=True)
def conj_physical_(self: Tensor) -> Tensor:
    """In-place conjugation: nothing to do for a real dtype."""
    return self


@register(method=True)
def angle(input: Tensor) -> Tensor:
    """The argument of each element as a complex number: pi for a negative real, 0 otherwise (NaN stays NaN;
    integers give the default float dtype). Its gradient is 0 for real input."""
    x = input if input.dtype.is_floating_point else input.to(torch.get_default_dtype())
    out = torch.where(x < 0, torch.full((), math.pi, dtype=x.dtype, device=x.device), torch.zeros((), dtype=x.dtype))
    return torch.where(x.isnan(), x, out.detach())


@register(method=True)
def resolve_conj(input: Tensor) -> Tensor:
    """input with a lazy conjugation applied: input itself here (no tensor carries one)."""
    return input


@register(method=True)
def resolve_neg(input: Tensor) -> Tensor:
    """input with a lazy negation applied: input itself here (no tensor carries one)."""
    return input


@register(method=True)
def is_conj(input: Tensor) -> bool:
    """Whether input carries a lazy conjugation: never here."""
    return False


@register(method=True)
def is_neg(input: Tensor) -> bool:
    """Whether input carries a lazy negation: never here."""
    return False


@register(method=True)
def isreal(input: Tensor) -> Tensor:
    """Whether each element is real (its imaginary part 0): all true for a real dtype."""
    return torch.ones_like(input, dtype=torch.bool)


@register
def real(input: Tensor) -> Tensor:
    """The real part: input itself for a real dtype."""
    return input


@register
def imag(input: Tensor) -> Tensor:
    """The imaginary part, for complex tensors only (PyTorch's error otherwise)."""
    raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")


register(property(real, doc="The real part: the tensor itself for a real dtype."), name="real", function=False,
         method=True)  # fmt: skip
register(property(imag, doc="The imaginary part (complex tensors only)."), name="imag", function=False, method=True)


@register(method=True)
def adjoint(input: Tensor) -> Tensor:
    """The conjugate transpose of the last two dims (a view)."""
    if input.dim() < 2:
        raise RuntimeError("tensor.adjoint() is only supported on matrices or batches of matrices. Got 1-D tensor.")
    return input.transpose(-2, -1)


register(property(adjoint, doc="The conjugate transpose of the last two dims (a view)."), name="mH", function=False,
         method=True)  # fmt: skip
