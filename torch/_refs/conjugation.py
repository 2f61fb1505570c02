"""Complex numbers' parts around the C++ ops (view_as_real, view_as_complex, real, imag, conj, angle and
complex in aten/src/TH/ops/ComplexParts.cpp): the real/imag properties, in-place conjugation, sgn and
polar, the negative-bit queries (conj's conjugate bit is C++'s: conj, resolve_conj and is_conj in
torch/csrc/Conj.h; there is no negative bit), isreal, and mH/adjoint (the conjugate transpose)."""

from __future__ import annotations

import warnings

import torch
from torch import _C
from torch._C import Tensor
from torch._registry import register
from torch.amp.autocast_mode import autocast_policy


def _real(self: Tensor) -> Tensor:
    """The real part (a view of a complex tensor); a real tensor's values."""
    return _C.real(self)


def _set_real(self: Tensor, value) -> None:
    _C.real(self).copy_(value)


def _imag(self: Tensor) -> Tensor:
    """The imaginary part (a view; complex tensors only)."""
    return _C.imag(self)


def _set_imag(self: Tensor, value) -> None:
    if self.is_conj():  # the imaginary parts of a conjugate view are its memory's negated
        _C.imag(_C.conj(self)).copy_(-value)
        return
    _C.imag(self).copy_(value)


register(property(_real, _set_real, doc="The real part (a view of a complex tensor); writable."), name="real",
         function=False, method=True)  # fmt: skip
register(property(_imag, _set_imag, doc="The imaginary part of a complex tensor (a view); writable."),
         name="imag", function=False, method=True)  # fmt: skip


@register(function=False, method=True)
def conj_physical_(self: Tensor) -> Tensor:
    """Conjugates self in place (nothing to do for a real dtype)."""
    if self.is_complex():  # through copy_, which autograd records (the imaginary part is a view of another dtype)
        return self.copy_(torch.conj_physical(self))
    return self


@register(method=True, out="castable")
def sgn(input: Tensor) -> Tensor:
    """z / abs(z) for complex input (0 where z is 0); the sign for real input."""
    if not input.is_complex():
        return torch.sign(input)
    a = input.abs()
    return torch.where(a == 0, torch.zeros((), dtype=input.dtype, device=input.device), input / a)


@register(function=False, method=True)
def sgn_(self: Tensor) -> Tensor:
    """sgn in place."""
    if not self.is_complex():
        return self.sign_()
    return self.copy_(sgn(self.clone()))  # sgn saves its input, which copy_ then overwrites


@register(numbers=False, out="castable")
@autocast_policy(cpu="fp32")
def polar(abs: Tensor, angle: Tensor) -> Tensor:
    """The complex tensor with modulus abs and argument angle: abs * (cos(angle) + i sin(angle))."""
    if abs.dtype != angle.dtype:
        raise RuntimeError(
            f"Expected object of scalar type {abs.dtype} but got scalar type {angle.dtype} for second argument"
        )
    return torch.complex(abs * torch.cos(angle), abs * torch.sin(angle))


@register(method=True)
def is_complex(input: Tensor) -> bool:
    """Whether input's dtype is complex (complex64 or complex128)."""
    return input.dtype.is_complex


@register(method=True)
def resolve_neg(input: Tensor) -> Tensor:
    """input with a lazy negation applied: input itself here (no tensor carries a negative bit: imag of a
    conjugate view is a new tensor)."""
    return input


@register(method=True)
def is_neg(input: Tensor) -> bool:
    """Whether input carries a lazy negation: never here."""
    return False


@register(method=True)
def isreal(input: Tensor) -> Tensor:
    """Whether each element is real: its imaginary part is 0 (all true for a real dtype)."""
    if input.is_complex():
        return _C.imag(input) == 0
    return torch.ones_like(input, dtype=torch.bool)


@register(method=True)
def adjoint(input: Tensor) -> Tensor:
    """The conjugate transpose of the last two dims (a view for real dtypes)."""
    if input.dim() < 2:
        raise RuntimeError("tensor.adjoint() is only supported on matrices or batches of matrices. Got 1-D tensor.")
    return input.transpose(-2, -1).conj()


def _mH(input: Tensor) -> Tensor:
    """adjoint, with upstream's own message for 1-D and its deprecated identity for 0-D."""
    if input.dim() == 0:
        warnings.warn("Tensor.mH is deprecated on 0-D tensors. Consider using x.conj().", UserWarning, stacklevel=2)
        return input.conj()
    if input.dim() < 2:
        raise RuntimeError("tensor.mH is only supported on matrices or batches of matrices. Got 1-D tensor.")
    return adjoint(input)


register(property(_mH, doc="The conjugate transpose of the last two dims."), name="mH", function=False,
         method=True)  # fmt: skip


def _matrix_H(input: Tensor) -> Tensor:
    """The conjugate transpose of a matrix (2-D tensor); a 0-D tensor itself."""
    if input.dim() == 0:
        warnings.warn("Tensor.H is deprecated on 0-D tensors. Consider using x.conj().", UserWarning, stacklevel=2)
        return input.conj()
    if input.dim() != 2:
        hint = " For batches of matrices, consider using tensor.mH" if input.dim() > 2 else ""
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {input.dim()}-D tensor.{hint}")
    return input.transpose(0, 1).conj()


register(property(_matrix_H, doc="The conjugate transpose of a matrix (2-D tensor)."), name="H", function=False,
         method=True)  # fmt: skip
