"""torch.fft: discrete Fourier transforms, as PyTorch's module. Every function resizes its input (zero
padding or trimming to n / s), picks the normalization (norm="backward", "forward" or "ortho") and calls
one of the three transforms of TH's spectral family, as PyTorch's are written over them: torch._fft_c2c
(complex to complex), torch._fft_r2c (real to the onesided half spectrum) and torch._fft_c2r (a
Hermitian half spectrum to a real signal). The CPU kernels are ducc0's FFT (pocketfft's successor, which
NumPy and SciPy use); the gradients are PyTorch's (torch/autograd/_formulas.py)."""

from __future__ import annotations

import torch
from torch._C import Tensor
from torch._dtypes import scalar_type
from torch._out import with_out
from torch._refs._dims import wrap_dim
from torch._refs.creation import factory_result

__all__ = [
    "fft",
    "fft2",
    "fftfreq",
    "fftn",
    "fftshift",
    "hfft",
    "hfft2",
    "hfftn",
    "ifft",
    "ifft2",
    "ifftn",
    "ifftshift",
    "ihfft",
    "ihfft2",
    "ihfftn",
    "irfft",
    "irfft2",
    "irfftn",
    "rfft",
    "rfft2",
    "rfftfreq",
    "rfftn",
]

_NONE, _BY_ROOT_N, _BY_N = 0, 1, 2  # PyTorch's fft_norm_mode


def _norm(norm: str | None, forward: bool) -> int:
    """The normalization of a transform in the given direction for a norm= string."""
    if norm is None or norm == "backward":
        return _NONE if forward else _BY_N
    if norm == "forward":
        return _BY_N if forward else _NONE
    if norm == "ortho":
        return _BY_ROOT_N
    raise RuntimeError(f'Invalid normalization mode: "{norm}"')


def _promote(x: Tensor, require_complex: bool = False) -> Tensor:
    """Integers compute in the default dtype; the 16-bit floats are refused (as PyTorch's CPU); with
    require_complex, real input becomes complex."""
    if not x.dtype.is_floating_point and not x.dtype.is_complex:
        x = x.to(torch.get_default_dtype())
    if x.dtype in (torch.float16, torch.bfloat16):
        raise RuntimeError(f"Unsupported dtype {'Half' if x.dtype == torch.float16 else 'BFloat16'}")
    if require_complex and not x.is_complex():
        x = x.to(x.dtype.to_complex())
    return x


def _check_n(n: int) -> None:
    if n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")


def _resize(x: Tensor, dims, sizes) -> Tensor:
    """x trimmed or zero-padded at the end of each of dims to the given sizes."""
    for d, n in zip(dims, sizes):
        have = x.size(d)
        if n < have:
            x = x.narrow(d, 0, n)
        elif n > have:
            shape = list(x.shape)
            shape[d] = n - have
            x = torch.cat([x, x.new_zeros(shape)], d)
    return x


def _shape_and_dims(x: Tensor, s, dim) -> tuple[list, list]:
    """PyTorch's canonicalize_fft_shape_and_dim_args: the dims transformed and the signal size along each."""
    if isinstance(dim, int):
        dim = (dim,)
    if dim is not None:
        dims = [wrap_dim(d, x.dim()) for d in dim]
        if len(set(dims)) != len(dims):
            raise RuntimeError("FFT dims must be unique")
    if s is not None:
        if dim is not None and len(s) != len(dims):
            raise RuntimeError("When given, dim and shape arguments must have the same length")
        if len(s) > x.dim():
            raise RuntimeError(f"Got shape with {len(s)} values but input tensor only has {x.dim()} dimensions.")
        if dim is None:
            dims = list(range(x.dim() - len(s), x.dim()))
        sizes = [x.size(d) if n == -1 else n for d, n in zip(dims, s)]
        for n in sizes:
            _check_n(n)
    else:
        if dim is None:
            dims = list(range(x.dim()))
        sizes = [x.size(d) for d in dims]
    return sizes, dims


@with_out("fft_fft", "exact")
def fft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The one-dimensional discrete Fourier transform of input along dim (n points: trimmed or zero-padded)."""
    if not input.is_complex():
        return _r2c("fft", input, n, dim, norm, forward=True, onesided=False)
    return _c2c(input, n, dim, norm, forward=True)


@with_out("fft_ifft", "exact")
def ifft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The one-dimensional inverse discrete Fourier transform of input along dim."""
    if not input.is_complex():
        return _r2c("ifft", input, n, dim, norm, forward=False, onesided=False)
    return _c2c(input, n, dim, norm, forward=False)


@with_out("fft_rfft", "exact")
def rfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The transform of a real signal: the n // 2 + 1 non-negative frequencies."""
    return _r2c("rfft", input, n, dim, norm, forward=True, onesided=True)


@with_out("fft_irfft", "exact")
def irfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The inverse of rfft: the real signal of n points (2 * (m - 1) by default) with that half spectrum."""
    return _c2r(input, n, dim, norm, forward=False)


@with_out("fft_hfft", "exact")
def hfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The transform of a Hermitian-symmetric signal given by its first half: a real spectrum of n points."""
    return _c2r(input, n, dim, norm, forward=True)


@with_out("fft_ihfft", "exact")
def ihfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The inverse of hfft: the first half of the Hermitian signal whose transform is the real input."""
    return _r2c("ihfft", input, n, dim, norm, forward=False, onesided=True)


def _c2c(input, n, dim, norm, forward):
    x = _promote(input, require_complex=True)
    d = wrap_dim(dim, x.dim())
    n = x.size(d) if n is None else n
    _check_n(n)
    return torch._fft_c2c(_resize(x, [d], [n]), [d], _norm(norm, forward), forward)


def _r2c(name, input, n, dim, norm, forward, onesided):
    if input.is_complex():
        raise RuntimeError(f"{name} expects a real input tensor, but got {scalar_type(input.dtype)}")
    x = _promote(input)
    d = wrap_dim(dim, x.dim())
    n = x.size(d) if n is None else n
    _check_n(n)
    out = torch._fft_r2c(_resize(x, [d], [n]), [d], _norm(norm, forward), onesided)
    return out if forward else out.conj()


def _c2r(input, n, dim, norm, forward):
    x = _promote(input, require_complex=True)
    d = wrap_dim(dim, x.dim())
    last = 2 * (x.size(d) - 1) if n is None else n
    _check_n(last)
    if n is not None:
        x = _resize(x, [d], [last // 2 + 1])
    if forward:
        x = x.conj()
    return torch._fft_c2r(x, [d], _norm(norm, forward), last)


@with_out("fft_fftn", "exact")
def fftn(input: Tensor, s=None, dim=None, norm: str | None = None) -> Tensor:
    """The n-dimensional discrete Fourier transform over dim (all dims by default; s: the sizes)."""
    return _c2c_n(input, s, dim, norm, forward=True)


@with_out("fft_ifftn", "exact")
def ifftn(input: Tensor, s=None, dim=None, norm: str | None = None) -> Tensor:
    """The n-dimensional inverse discrete Fourier transform over dim."""
    return _c2c_n(input, s, dim, norm, forward=False)


@with_out("fft_fft2", "exact")
def fft2(input: Tensor, s=None, dim=(-2, -1), norm: str | None = None) -> Tensor:
    """The two-dimensional discrete Fourier transform (fftn over the last two dims by default)."""
    return fftn(input, s, dim, norm)


@with_out("fft_ifft2", "exact")
def ifft2(input: Tensor, s=None, dim=(-2, -1), norm: str | None = None) -> Tensor:
    """The two-dimensional inverse discrete Fourier transform."""
    return ifftn(input, s, dim, norm)


def _c2c_n(input, s, dim, norm, forward):
    x = _promote(input, require_complex=True)
    sizes, dims = _shape_and_dims(x, s, dim)
    x = _resize(x, dims, sizes)
    if not dims:
        return x.clone()
    return torch._fft_c2c(x, dims, _norm(norm, forward), forward)


def _real_nd(name: str, input: Tensor, s, dim) -> tuple[Tensor, list]:
    """The real input of rfftn / ihfftn resized to s, and the dims transformed (at least one)."""
    if input.is_complex():
        raise RuntimeError(f"{name} expects a real-valued input tensor, but got {scalar_type(input.dtype)}")
    x = _promote(input)
    sizes, dims = _shape_and_dims(x, s, dim)
    if not dims:
        raise RuntimeError(f"{name} must transform at least one axis")
    return _resize(x, dims, sizes), dims


@with_out("fft_rfftn", "exact")
def rfftn(input: Tensor, s=None, dim=None, norm: str | None = None) -> Tensor:
    """The n-dimensional transform of a real signal, the last transformed dim halved (n // 2 + 1)."""
    x, dims = _real_nd("rfftn", input, s, dim)
    return torch._fft_r2c(x, dims, _norm(norm, True), True)


@with_out("fft_rfft2", "exact")
def rfft2(input: Tensor, s=None, dim=(-2, -1), norm: str | None = None) -> Tensor:
    """The two-dimensional transform of a real signal (rfftn over the last two dims by default)."""
    return rfftn(input, s, dim, norm)


def _c2r_shape(x: Tensor, s, dim):
    """PyTorch's canonicalize_fft_c2r_shape_and_dim_args: the input sizes (last dim halved) and dims, and the
    output's last dim size."""
    sizes, dims = _shape_and_dims(x, s, dim)
    if not dims:
        raise RuntimeError("irfftn must transform at least one axis")
    if s is None or s[-1] == -1:
        last = 2 * (x.size(dims[-1]) - 1)
    else:
        last = s[-1]
    _check_n(last)
    sizes[-1] = last // 2 + 1
    return sizes, dims, last


@with_out("fft_irfftn", "exact")
def irfftn(input: Tensor, s=None, dim=None, norm: str | None = None) -> Tensor:
    """The inverse of rfftn: a real signal (its last transformed dim 2 * (m - 1) long unless s says)."""
    x = _promote(input, require_complex=True)
    sizes, dims, last = _c2r_shape(x, s, dim)
    return torch._fft_c2r(_resize(x, dims, sizes), dims, _norm(norm, False), last)


@with_out("fft_irfft2", "exact")
def irfft2(input: Tensor, s=None, dim=(-2, -1), norm: str | None = None) -> Tensor:
    """The inverse of rfft2."""
    return irfftn(input, s, dim, norm)


@with_out("fft_hfftn", "exact")
def hfftn(input: Tensor, s=None, dim=None, norm: str | None = None) -> Tensor:
    """The n-dimensional transform of a Hermitian signal given by its half (the last dim): a real result."""
    x = _promote(input, require_complex=True)
    sizes, dims, last = _c2r_shape(x, s, dim)
    x = _resize(x, dims, sizes)
    mode = _norm(norm, True)
    if len(dims) > 1:
        x = torch._fft_c2c(x, dims[:-1], mode, True)
    return torch._fft_c2r(x.conj(), dims[-1:], mode, last)


@with_out("fft_hfft2", "exact")
def hfft2(input: Tensor, s=None, dim=(-2, -1), norm: str | None = None) -> Tensor:
    """hfftn over the last two dims by default."""
    return hfftn(input, s, dim, norm)


@with_out("fft_ihfftn", "exact")
def ihfftn(input: Tensor, s=None, dim=None, norm: str | None = None) -> Tensor:
    """The inverse of hfftn: the half (last dim n // 2 + 1) of the Hermitian signal of a real input."""
    x, dims = _real_nd("ihfftn", input, s, dim)
    mode = _norm(norm, False)
    out = torch._fft_r2c(x, dims[-1:], mode, True).conj()
    if len(dims) > 1:
        out = torch._fft_c2c(out, dims[:-1], mode, False)
    return out


@with_out("fft_ihfft2", "exact")
def ihfft2(input: Tensor, s=None, dim=(-2, -1), norm: str | None = None) -> Tensor:
    """ihfftn over the last two dims by default."""
    return ihfftn(input, s, dim, norm)


@with_out("fft_fftfreq", "castable")
def fftfreq(
    n: int, d: float = 1.0, *, dtype=None, layout=None, device=None, requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:  # fmt: skip
    """The sample frequencies of an n-point transform with sample spacing d: [0, 1, ..., -(n // 2), ..., -1] / (d n)."""
    k = torch.arange(n, dtype=torch.int64, device=device)
    k = torch.where(k < (n + 1) // 2, k, k - n).to(dtype or torch.get_default_dtype())
    out = k * (1.0 / (n * d))
    return factory_result(out, pin_memory, requires_grad)


@with_out("fft_rfftfreq", "castable")
def rfftfreq(
    n: int, d: float = 1.0, *, dtype=None, layout=None, device=None, requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:  # fmt: skip
    """The non-negative sample frequencies of rfft: [0, 1, ..., n // 2] / (d n)."""
    k = torch.arange(n // 2 + 1, dtype=dtype or torch.get_default_dtype(), device=device)
    out = k * (1.0 / (n * d))
    return factory_result(out, pin_memory, requires_grad)


def _shift_dims(input: Tensor, dim) -> list:
    if dim is None:
        return list(range(input.dim()))
    return [dim] if isinstance(dim, int) else list(dim)


def fftshift(input: Tensor, dim=None) -> Tensor:
    """input rolled so that the zero frequency is in the middle of each of dim (all dims by default)."""
    dims = _shift_dims(input, dim)
    if not dims:
        return input.clone()
    return torch.roll(input, [input.size(d) // 2 for d in dims], dims)


def ifftshift(input: Tensor, dim=None) -> Tensor:
    """The inverse of fftshift."""
    dims = _shift_dims(input, dim)
    if not dims:
        return input.clone()
    return torch.roll(input, [(input.size(d) + 1) // 2 for d in dims], dims)
