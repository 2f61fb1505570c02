"""Complex gradients: gradcheck in complex128 of every op that takes complex input (with PyTorch's
convention, for a real loss L the gradient of z = x + iy is dL/dx + i dL/dy, so a holomorphic f's
backward is grad * conj(f'(z))). gradcheck perturbs the real and the imaginary part of each input and
compares both parts of each output.

Inputs are small, seeded, and kept away from branch cuts and singularities: the logarithm's and the
square root's (Re z > 0), those of the inverse trigonometric and hyperbolic functions (|z| small, or
Re z > 1 for acosh), zero for abs/sgn/angle/reciprocal; matrices to invert are well conditioned, and
Cholesky's are Hermitian positive-definite. Complex eigh, svd and eig, and what is built on them, are in
tests/tensor/test_linalg_complex_spectral.py (their losses must not depend on the vectors' phases).

Runs against upstream PyTorch too (nox -s tests-reference).
"""

from __future__ import annotations

import numpy as np
import pytest

import torch
import torch.nn.functional as F
from torch.autograd import gradcheck

C128, F64 = torch.complex128, torch.float64
LA = torch.linalg
FFT = torch.fft


def z(*shape, seed=0, re=(-1.0, 1.0), im=(-1.0, 1.0), grad=True) -> torch.Tensor:
    """A complex128 tensor of `shape`, its real and imaginary parts uniform in `re` and `im`."""
    rng = np.random.default_rng(seed)
    v = rng.uniform(*re, size=shape) + 1j * rng.uniform(*im, size=shape)
    return torch.from_numpy(np.asarray(v, dtype=np.complex128)).requires_grad_(grad)


def r(*shape, seed=0, lo=-1.0, hi=1.0, grad=True) -> torch.Tensor:
    """A float64 tensor of `shape`, uniform in [lo, hi)."""
    v = np.random.default_rng(seed).uniform(lo, hi, size=shape)
    return torch.from_numpy(np.asarray(v, dtype=np.float64)).requires_grad_(grad)


def zr(*shape, seed=0) -> torch.Tensor:
    """Complex values in the right half-plane, away from the negative real axis and 0 (log, sqrt, pow)."""
    return z(*shape, seed=seed, re=(0.3, 2.0), im=(-1.5, 1.5))


def zs(*shape, seed=0) -> torch.Tensor:
    """Complex values of modulus below 0.7: inside the cuts of asin, acos, atan, asinh, atanh."""
    return z(*shape, seed=seed, re=(-0.5, 0.5), im=(-0.45, 0.45))


def ix(values) -> torch.Tensor:
    return torch.tensor(values)


def _well_conditioned(n=3, batch=(), seed=0) -> torch.Tensor:
    a = z(*batch, n, n, seed=seed, grad=False) + 3 * torch.eye(n, dtype=C128)
    return a.requires_grad_()


def _hpd(a: torch.Tensor) -> torch.Tensor:
    """A Hermitian positive-definite matrix made of a."""
    return a @ a.mH + a.shape[-1] * torch.eye(a.shape[-1], dtype=a.dtype)


def _herm(a: torch.Tensor) -> torch.Tensor:
    return a + a.mH


def _setitem(a, v):
    out = a * 1
    out[[0, 2], 1] = v
    return out


def _setitem_slice(a, v):
    out = a.clone()
    out[1, 1:3] = v
    return out


def _inplace_fill_row(a):
    out = a * 1
    out[0].fill_(1 + 1j)
    return out


def _inplace(method, *args):
    def run(a, *rest):
        out = a * 1
        getattr(out, method)(*[x(a, *rest) if callable(x) else x for x in args])
        return out

    return run


A34 = lambda s=0: z(3, 4, seed=s)  # noqa: E731

# (id, function, inputs maker): each case is gradcheck(function, inputs()).
CASES = [
    # ---- unary math -------------------------------------------------------------------------------
    ("exp", torch.exp, lambda: (A34(),)),
    ("exp2", torch.exp2, lambda: (A34(),)),
    ("expm1", torch.expm1, lambda: (A34(),)),
    ("log", torch.log, lambda: (zr(3, 4),)),
    ("log2", torch.log2, lambda: (zr(3, 4),)),
    ("log10", torch.log10, lambda: (zr(3, 4),)),
    ("log1p", torch.log1p, lambda: (zr(3, 4),)),
    ("sqrt", torch.sqrt, lambda: (zr(3, 4),)),
    ("rsqrt", torch.rsqrt, lambda: (zr(3, 4),)),
    ("reciprocal", torch.reciprocal, lambda: (zr(3, 4),)),
    ("square", torch.square, lambda: (A34(),)),
    ("neg", torch.neg, lambda: (A34(),)),
    ("positive", lambda a: torch.positive(a) * 1, lambda: (A34(),)),
    ("sin", torch.sin, lambda: (A34(),)),
    ("sinc", torch.sinc, lambda: (A34(),)),
    ("cos", torch.cos, lambda: (A34(),)),
    ("tan", torch.tan, lambda: (A34(),)),
    ("asin", torch.asin, lambda: (zs(3, 4),)),
    ("acos", torch.acos, lambda: (zs(3, 4),)),
    ("atan", torch.atan, lambda: (zs(3, 4),)),
    ("sinh", torch.sinh, lambda: (A34(),)),
    ("cosh", torch.cosh, lambda: (A34(),)),
    ("tanh", torch.tanh, lambda: (A34(),)),
    ("asinh", torch.asinh, lambda: (zs(3, 4),)),
    ("acosh", torch.acosh, lambda: (z(3, 4, re=(1.5, 3.0)),)),
    ("atanh", torch.atanh, lambda: (zs(3, 4),)),
    ("sigmoid", torch.sigmoid, lambda: (A34(),)),
    ("tanh_method", lambda a: a.tanh(), lambda: (A34(),)),
    ("F.tanh", F.tanh, lambda: (A34(),)),
    ("F.sigmoid", F.sigmoid, lambda: (A34(),)),
    ("F.softsign", F.softsign, lambda: (A34(),)),
    ("F.tanhshrink", F.tanhshrink, lambda: (A34(),)),
    # ---- complex parts ----------------------------------------------------------------------------
    ("real", lambda a: torch.real(a) * 1, lambda: (A34(),)),
    ("imag", lambda a: torch.imag(a) * 1, lambda: (A34(),)),
    ("real_attr", lambda a: a.real * a.imag, lambda: (A34(),)),
    ("abs", torch.abs, lambda: (A34(),)),
    ("absolute", torch.absolute, lambda: (A34(),)),
    ("angle", torch.angle, lambda: (zr(3, 4),)),
    ("sgn", torch.sgn, lambda: (A34(),)),
    ("conj", lambda a: torch.conj(a) * 1, lambda: (A34(),)),
    ("conj_physical", torch.conj_physical, lambda: (A34(),)),
    ("resolve_conj", lambda a: a.conj().resolve_conj(), lambda: (A34(),)),
    ("resolve_neg", lambda a: torch.resolve_neg(a) * 1, lambda: (A34(),)),
    ("conj_mul", lambda a, b: a.conj() * b, lambda: (A34(), A34(1))),
    ("polar", torch.polar, lambda: (r(3, 4, lo=0.5, hi=2.0), r(3, 4, seed=1, lo=-3.0, hi=3.0))),
    ("complex", torch.complex, lambda: (r(3, 4), r(3, 4, seed=1))),
    ("view_as_real", lambda a: torch.view_as_real(a) * 1, lambda: (A34(),)),
    ("view_as_complex", lambda a: torch.view_as_complex(a) * 1, lambda: (r(3, 4, 2),)),
    ("view_as_real_then_complex", lambda a: torch.view_as_complex(torch.view_as_real(a) * 2), lambda: (A34(),)),
    ("to_complex", lambda a: a.to(C128) * (1 + 2j), lambda: (r(3, 4),)),
    ("real_times_complex", lambda x, a: x * a, lambda: (r(3, 4), A34(1))),
    ("real_plus_complex", lambda x, a: x + a, lambda: (r(3, 4), A34(1))),
    ("isreal_mask", lambda a: a * torch.isreal(a), lambda: (A34(),)),
    # ---- binary arithmetic ------------------------------------------------------------------------
    ("add", torch.add, lambda: (A34(), A34(1))),
    ("add_alpha", lambda a, b: torch.add(a, b, alpha=2 - 1j), lambda: (A34(), A34(1))),
    ("add_broadcast", torch.add, lambda: (z(3, 1, 4), z(2, 1, seed=1))),
    ("sub", torch.sub, lambda: (A34(), A34(1))),
    ("sub_alpha", lambda a, b: torch.sub(a, b, alpha=0.5 + 1j), lambda: (A34(), A34(1))),
    ("rsub", lambda a, b: torch.rsub(a, b), lambda: (A34(), A34(1))),
    ("mul", torch.mul, lambda: (A34(), A34(1))),
    ("mul_broadcast", torch.mul, lambda: (z(3, 1, 4), z(2, 1, seed=1))),
    ("mul_scalar", lambda a: a * (2 - 3j), lambda: (A34(),)),
    ("mul_real_scalar", lambda a: a * 2.5, lambda: (A34(),)),
    ("div", torch.div, lambda: (A34(), zr(3, 4, seed=1))),
    ("true_divide", torch.true_divide, lambda: (A34(), zr(3, 4, seed=1))),
    ("div_scalar", lambda a: a / (1 + 2j), lambda: (A34(),)),
    ("rdiv_scalar", lambda a: (1 - 2j) / a, lambda: (zr(3, 4),)),
    ("pow", torch.pow, lambda: (zr(3, 4), A34(1))),
    ("pow_int_exponent", lambda a: a**3, lambda: (A34(),)),
    ("pow_float_exponent", lambda a: a**1.5, lambda: (zr(3, 4),)),
    ("pow_complex_exponent", lambda a: a ** (0.5 + 1j), lambda: (zr(3, 4),)),
    ("pow_scalar_base", lambda a: 2.0**a, lambda: (A34(),)),
    ("pow_complex_base", lambda a: (1 + 1j) ** a, lambda: (A34(),)),
    ("pow_broadcast", torch.pow, lambda: (zr(3, 1, 4), z(2, 1, seed=1))),
    ("float_power", lambda a, b: torch.float_power(a, b), lambda: (zr(3, 4), A34(1))),
    ("lerp_scalar", lambda a, b: torch.lerp(a, b, 0.3), lambda: (A34(), A34(1))),
    ("lerp_complex_scalar", lambda a, b: torch.lerp(a, b, 0.3 + 0.6j), lambda: (A34(), A34(1))),
    ("lerp_complex_scalar_large", lambda a, b: torch.lerp(a, b, 0.9 - 0.6j), lambda: (A34(), A34(1))),
    ("lerp_tensor", torch.lerp, lambda: (A34(), A34(1), A34(2))),
    ("addcmul", lambda a, b, c: torch.addcmul(a, b, c, value=0.5 - 1j), lambda: (A34(), A34(1), A34(2))),
    ("addcdiv", lambda a, b, c: torch.addcdiv(a, b, c, value=2 + 1j), lambda: (A34(), A34(1), zr(3, 4, seed=2))),
    ("logaddexp", torch.logaddexp, lambda: (A34(), A34(1))),
    ("inplace_add", _inplace("add_", lambda a, b: b), lambda: (A34(), A34(1))),
    ("inplace_mul", _inplace("mul_", lambda a, b: b), lambda: (A34(), A34(1))),
    ("inplace_div", _inplace("div_", lambda a, b: b), lambda: (A34(), zr(3, 4, seed=1))),
    ("inplace_exp", _inplace("exp_"), lambda: (A34(),)),
    ("inplace_conj_physical", _inplace("conj_physical_"), lambda: (A34(),)),
    ("inplace_copy", _inplace("copy_", lambda a, b: b), lambda: (A34(), A34(1))),
    ("inplace_fill_part", _inplace_fill_row, lambda: (A34(),)),
    # ---- reductions and scans ---------------------------------------------------------------------
    ("sum", torch.sum, lambda: (A34(),)),
    ("sum_dim", lambda a: a.sum(1), lambda: (A34(),)),
    ("sum_keepdim", lambda a: a.sum((0, 1), keepdim=True), lambda: (A34(),)),
    ("mean", torch.mean, lambda: (A34(),)),
    ("mean_dim", lambda a: a.mean(0), lambda: (A34(),)),
    ("prod", torch.prod, lambda: (A34(),)),
    ("prod_dim", lambda a: a.prod(1), lambda: (A34(),)),
    ("prod_with_zero", lambda a: (a * ix([1.0, 0.0, 1.0, 1.0])).prod(1), lambda: (A34(),)),
    ("cumsum", lambda a: a.cumsum(1), lambda: (A34(),)),
    ("cumprod", lambda a: a.cumprod(1), lambda: (A34(),)),
    ("cumprod_with_zero", lambda a: (a * ix([1.0, 0.0, 1.0, 1.0])).cumprod(1), lambda: (A34(),)),
    ("var", lambda a: a.var(1), lambda: (A34(),)),
    ("var_all", torch.var, lambda: (A34(),)),
    ("var_correction", lambda a: torch.var(a, 0, correction=0), lambda: (A34(),)),
    ("std", lambda a: a.std(1), lambda: (A34(),)),
    ("std_all", torch.std, lambda: (A34(),)),
    ("std_keepdim", lambda a: a.std(0, keepdim=True), lambda: (A34(),)),
    ("var_mean", lambda a: torch.var_mean(a, 1), lambda: (A34(),)),
    ("std_mean", lambda a: torch.std_mean(a, 1), lambda: (A34(),)),
    ("norm", torch.norm, lambda: (A34(),)),
    ("norm_dim", lambda a: a.norm(dim=1), lambda: (A34(),)),
    ("norm_p1", lambda a: a.norm(p=1), lambda: (A34(),)),
    ("norm_p3", lambda a: a.norm(p=3, dim=0), lambda: (A34(),)),
    ("norm_inf", lambda a: a.norm(p=float("inf"), dim=1), lambda: (A34(),)),
    ("vector_norm", LA.vector_norm, lambda: (A34(),)),
    ("vector_norm_ord1", lambda a: LA.vector_norm(a, 1, dim=1), lambda: (A34(),)),
    ("vector_norm_ord3", lambda a: LA.vector_norm(a, 3), lambda: (A34(),)),
    ("vector_norm_inf", lambda a: LA.vector_norm(a, float("inf"), dim=0), lambda: (A34(),)),
    ("linalg_norm", LA.norm, lambda: (A34(),)),
    ("matrix_norm_fro", LA.matrix_norm, lambda: (A34(),)),
    ("matrix_norm_1", lambda a: LA.matrix_norm(a, 1), lambda: (A34(),)),
    ("dist", torch.dist, lambda: (A34(), A34(1))),
    ("F.normalize", F.normalize, lambda: (A34(),)),
    ("logsumexp", lambda a: a.logsumexp(1), lambda: (A34(),)),
    ("trace", torch.trace, lambda: (A34(),)),
    ("diff", lambda a: torch.diff(a, dim=1), lambda: (A34(),)),
    ("trapezoid", lambda a: torch.trapezoid(a, dim=1), lambda: (A34(),)),
    ("cumulative_trapezoid", lambda a: torch.cumulative_trapezoid(a, dim=1), lambda: (A34(),)),
    ("cov", torch.cov, lambda: (A34(),)),
    ("corrcoef", torch.corrcoef, lambda: (A34(),)),
    # ---- products ---------------------------------------------------------------------------------
    ("matmul_2d", torch.matmul, lambda: (A34(), z(4, 2, seed=1))),
    ("matmul_vv", torch.matmul, lambda: (z(4), z(4, seed=1))),
    ("matmul_mv", torch.matmul, lambda: (A34(), z(4, seed=1))),
    ("matmul_vm", torch.matmul, lambda: (z(3), A34(1))),
    ("matmul_batched_broadcast", torch.matmul, lambda: (z(2, 3, 4), z(4, 2, seed=1))),
    ("matmul_batch_vec", torch.matmul, lambda: (z(4), z(2, 4, 3, seed=1))),
    ("matmul_operator", lambda a, b: a @ b, lambda: (A34(), z(4, 2, seed=1))),
    ("mm", torch.mm, lambda: (A34(), z(4, 2, seed=1))),
    ("bmm", torch.bmm, lambda: (z(2, 3, 4), z(2, 4, 2, seed=1))),
    ("mv", torch.mv, lambda: (A34(), z(4, seed=1))),
    ("dot", torch.dot, lambda: (z(4), z(4, seed=1))),
    ("vdot", torch.vdot, lambda: (z(4), z(4, seed=1))),
    ("inner", torch.inner, lambda: (A34(), z(5, 4, seed=1))),
    ("outer", torch.outer, lambda: (z(3), z(4, seed=1))),
    ("ger", torch.ger, lambda: (z(3), z(4, seed=1))),
    (
        "addmm",
        lambda i, a, b: torch.addmm(i, a, b, beta=0.5 - 1j, alpha=2 + 1j),
        lambda: (z(3, 2, seed=2), A34(), z(4, 2, seed=1)),
    ),
    ("addmm_broadcast", torch.addmm, lambda: (z(2, seed=2), A34(), z(4, 2, seed=1))),
    ("addmv", lambda i, a, v: torch.addmv(i, a, v, beta=2j, alpha=1 - 1j), lambda: (z(3, seed=2), A34(), z(4, seed=1))),
    ("addr", lambda i, a, b: torch.addr(i, a, b, beta=1 + 1j, alpha=0.5j), lambda: (A34(2), z(3), z(4, seed=1))),
    (
        "addbmm",
        lambda i, a, b: torch.addbmm(i, a, b, beta=1 - 1j, alpha=2j),
        lambda: (z(3, 2, seed=2), z(2, 3, 4), z(2, 4, 2, seed=1)),
    ),
    (
        "baddbmm",
        lambda i, a, b: torch.baddbmm(i, a, b, beta=1 - 1j, alpha=2j),
        lambda: (z(2, 3, 2, seed=2), z(2, 3, 4), z(2, 4, 2, seed=1)),
    ),
    ("einsum_ij_kj", lambda a, b: torch.einsum("ij,kj->ik", a, b), lambda: (A34(), z(2, 4, seed=1))),
    ("einsum_batched", lambda a, b: torch.einsum("bij,bjk->bik", a, b), lambda: (z(2, 3, 4), z(2, 4, 2, seed=1))),
    ("einsum_diagonal", lambda a: torch.einsum("ii->i", a), lambda: (z(3, 3),)),
    ("einsum_sum", lambda a, b: torch.einsum("ij,j->", a, b), lambda: (A34(), z(4, seed=1))),
    ("tensordot", lambda a, b: torch.tensordot(a, b, 2), lambda: (z(2, 3, 4), A34(1))),
    ("tensordot_dims", lambda a, b: torch.tensordot(a, b, ([0], [1])), lambda: (A34(), z(2, 3, seed=1))),
    ("kron", torch.kron, lambda: (z(2, 3), z(3, 2, seed=1))),
    ("chain_matmul", lambda a, b, c: LA.multi_dot([a, b, c]), lambda: (A34(), z(4, 2, seed=1), z(2, 3, seed=2))),
    ("matrix_power", lambda a: LA.matrix_power(a, 3), lambda: (z(3, 3),)),
    ("matrix_power_neg", lambda a: LA.matrix_power(a, -2), lambda: (_well_conditioned(3),)),
    ("cross", lambda a, b: LA.cross(a, b), lambda: (z(4, 3), z(4, 3, seed=1))),
    ("vecdot", lambda a, b: LA.vecdot(a, b), lambda: (A34(), A34(1))),
    ("F.linear", F.linear, lambda: (A34(), z(2, 4, seed=1), z(2, seed=2))),
    ("F.conv1d", F.conv1d, lambda: (z(1, 2, 5), z(3, 2, 2, seed=1), z(3, seed=2))),
    ("F.conv2d", F.conv2d, lambda: (z(1, 2, 4, 4), z(2, 2, 2, 2, seed=1), z(2, seed=2))),
    ("F.conv_transpose1d", F.conv_transpose1d, lambda: (z(1, 2, 4), z(2, 3, 2, seed=1))),
    # ---- linear algebra ---------------------------------------------------------------------------
    ("det", LA.det, lambda: (_well_conditioned(3, (2,)),)),
    ("slogdet_logabsdet", lambda a: LA.slogdet(a).logabsdet, lambda: (_well_conditioned(3, (2,)),)),
    ("slogdet_sign", lambda a: LA.slogdet(a).sign, lambda: (_well_conditioned(3),)),
    ("inv", LA.inv, lambda: (_well_conditioned(3, (2,)),)),
    ("solve", LA.solve, lambda: (_well_conditioned(3, (2,)), z(2, 3, 2, seed=1))),
    ("solve_right", lambda a, b: LA.solve(a, b, left=False), lambda: (_well_conditioned(3), z(2, 3, seed=1))),
    ("cholesky", lambda a: LA.cholesky(_hpd(a)), lambda: (z(3, 3),)),
    ("cholesky_upper", lambda a: LA.cholesky(_hpd(a), upper=True), lambda: (z(3, 3),)),
    ("cholesky_solve", lambda a, b: torch.cholesky_solve(b, LA.cholesky(_hpd(a))), lambda: (z(3, 3), z(3, 2, seed=1))),
    ("cholesky_inverse", lambda a: torch.cholesky_inverse(LA.cholesky(_hpd(a))), lambda: (z(3, 3),)),
    ("qr", lambda a: LA.qr(a), lambda: (A34(),)),
    ("qr_tall", lambda a: LA.qr(a), lambda: (z(4, 3),)),
    ("lu_factor", lambda a: LA.lu_factor(a).LU, lambda: (_well_conditioned(3, (2,)),)),
    ("lu", lambda a: LA.lu(a)[1:], lambda: (_well_conditioned(3),)),
    ("lu_solve", lambda a, b: LA.lu_solve(*LA.lu_factor(a), b), lambda: (_well_conditioned(3), z(3, 2, seed=1))),
    (
        "lu_solve_adjoint",
        lambda a, b: LA.lu_solve(*LA.lu_factor(a), b, adjoint=True),
        lambda: (_well_conditioned(3), z(3, 2, seed=1)),
    ),
    (
        "solve_triangular",
        lambda a, b: LA.solve_triangular(a.triu(), b, upper=True),
        lambda: (_well_conditioned(3), z(3, 2, seed=1)),
    ),
    (
        "solve_triangular_right",
        lambda a, b: LA.solve_triangular(a.tril(), b, upper=False, left=False),
        lambda: (_well_conditioned(3), z(2, 3, seed=1)),
    ),
    (
        "triangular_solve",
        lambda b, a: torch.triangular_solve(b, a.triu()).solution,
        lambda: (z(3, 2, seed=1), _well_conditioned(3)),
    ),
    # ---- views, reshaping -------------------------------------------------------------------------
    ("view", lambda a: a.view(12) * 1, lambda: (A34(),)),
    ("view_as", lambda a, b: a.view_as(b) * 1, lambda: (A34(), z(12, seed=1, grad=False))),
    ("reshape", lambda a: a.reshape(2, 6), lambda: (A34(),)),
    ("flatten", lambda a: a.flatten(), lambda: (z(2, 3, 2),)),
    ("unflatten", lambda a: a.unflatten(1, (2, 2)), lambda: (A34(),)),
    ("squeeze", lambda a: a.squeeze(), lambda: (z(3, 1, 4),)),
    ("unsqueeze", lambda a: a.unsqueeze(1), lambda: (A34(),)),
    ("t", lambda a: a.t() * 1, lambda: (A34(),)),
    ("transpose", lambda a: a.transpose(0, 1) * 1, lambda: (A34(),)),
    ("mT", lambda a: a.mT * 1, lambda: (A34(),)),
    ("mH", lambda a: a.mH * 1, lambda: (A34(),)),
    ("H", lambda a: a.H * 1, lambda: (A34(),)),
    ("adjoint", lambda a: a.adjoint() * 1, lambda: (A34(),)),
    ("permute", lambda a: a.permute(2, 0, 1), lambda: (z(2, 3, 4),)),
    ("movedim", lambda a: torch.movedim(a, 0, 2) * 1, lambda: (z(2, 3, 4),)),
    ("swapaxes", lambda a: torch.swapaxes(a, 0, 1) * 1, lambda: (A34(),)),
    ("expand", lambda a: a.expand(3, 4) * 1, lambda: (z(4),)),
    ("expand_as", lambda a, b: a.expand_as(b) * 1, lambda: (z(4), A34(1))),
    ("broadcast_to", lambda a: torch.broadcast_to(a, (2, 4)) * 1, lambda: (z(4),)),
    ("narrow", lambda a: a.narrow(1, 1, 2), lambda: (A34(),)),
    ("select", lambda a: a.select(0, 1), lambda: (A34(),)),
    ("getitem_slices", lambda a: a[1:, ::2] * a[0, 1], lambda: (A34(),)),
    ("getitem_none_ellipsis", lambda a: a[None, ..., 1], lambda: (A34(),)),
    ("getitem_advanced", lambda a: a[[0, 0, 2], 1:], lambda: (A34(),)),
    ("getitem_bool", lambda a: a[ix([True, False, True])], lambda: (A34(),)),
    ("as_strided", lambda a: a.as_strided((2, 2), (1, 2)) * 1, lambda: (z(6),)),
    ("split", lambda a: a.split(2, 1)[1] * 1, lambda: (A34(),)),
    ("split_sizes", lambda a: a.split([1, 3], 1)[1] * 1, lambda: (A34(),)),
    ("tensor_split", lambda a: a.tensor_split(3, 1)[1] * 1, lambda: (A34(),)),
    ("chunk", lambda a: a.chunk(2, 0)[0] * 1, lambda: (A34(),)),
    ("unbind", lambda a: a.unbind(1)[2] * a.unbind(1)[0], lambda: (A34(),)),
    ("unfold", lambda a: a.unfold(1, 2, 1) * 1, lambda: (A34(),)),
    ("diagonal", lambda a: a.diagonal(1) * 1, lambda: (A34(),)),
    ("diagonal_batched", lambda a: torch.diagonal(a, 0, -2, -1) * 1, lambda: (z(2, 3, 3),)),
    ("diag_2d", lambda a: torch.diag(a, 1), lambda: (A34(),)),
    ("diag_1d", lambda a: torch.diag(a, -1), lambda: (z(4),)),
    ("diag_embed", torch.diag_embed, lambda: (A34(),)),
    ("diagflat", torch.diagflat, lambda: (z(3),)),
    ("clone", torch.clone, lambda: (A34(),)),
    ("contiguous", lambda a: a.t().contiguous(), lambda: (A34(),)),
    ("flip", lambda a: a.flip(0, 1), lambda: (A34(),)),
    ("fliplr", torch.fliplr, lambda: (A34(),)),
    ("flipud", torch.flipud, lambda: (A34(),)),
    ("roll", lambda a: a.roll((1, -2), (0, 1)), lambda: (A34(),)),
    ("roll_flat", lambda a: a.roll(5), lambda: (A34(),)),
    ("rot90", lambda a: torch.rot90(a, 1) * 1, lambda: (A34(),)),
    ("repeat", lambda a: a.repeat(2, 1, 2), lambda: (A34(),)),
    ("tile", lambda a: a.tile((2,)), lambda: (A34(),)),
    ("repeat_interleave", lambda a: a.repeat_interleave(2, dim=0), lambda: (A34(),)),
    ("tril", lambda a: a.tril(1), lambda: (A34(),)),
    ("triu", lambda a: a.triu(-1), lambda: (A34(),)),
    ("atleast_3d", lambda a: torch.atleast_3d(a) * 1, lambda: (A34(),)),
    ("F.pad_constant", lambda a: F.pad(a, (1, 2, 0, 1)), lambda: (A34(),)),
    ("F.pad_reflect", lambda a: F.pad(a, (1, 2), mode="reflect"), lambda: (z(2, 3, 5),)),
    ("F.pad_replicate", lambda a: F.pad(a, (1, 2), mode="replicate"), lambda: (z(2, 3, 5),)),
    ("F.pad_circular", lambda a: F.pad(a, (1, 2), mode="circular"), lambda: (z(2, 3, 5),)),
    ("F.pixel_shuffle", lambda a: F.pixel_shuffle(a, 2), lambda: (z(1, 4, 2, 2),)),
    # ---- joining, selecting, indexing -------------------------------------------------------------
    ("cat", lambda a, b: torch.cat([a, b * 2], 1), lambda: (A34(), z(3, 2, seed=1))),
    ("cat_real_complex", lambda a, b: torch.cat([a, b], 0), lambda: (A34(), r(2, 4, seed=1))),
    ("stack", lambda a, b: torch.stack([a, b], 0), lambda: (A34(), A34(1))),
    ("hstack", lambda a, b: torch.hstack([a, b]), lambda: (A34(), A34(1))),
    ("vstack", lambda a, b: torch.vstack([a, b]), lambda: (A34(), A34(1))),
    ("dstack", lambda a, b: torch.dstack([a, b]), lambda: (A34(), A34(1))),
    ("column_stack", lambda a, b: torch.column_stack([a, b]), lambda: (z(3), A34(1))),
    ("block_diag", torch.block_diag, lambda: (z(2, 2), z(1, 3, seed=1))),
    ("meshgrid", lambda a, b: torch.stack(torch.meshgrid(a, b, indexing="ij")), lambda: (z(3), z(4, seed=1))),
    ("cartesian_prod", torch.cartesian_prod, lambda: (z(3), z(2, seed=1))),
    ("where", lambda a, b: torch.where(ix([True, False, True, False]), a, b), lambda: (A34(), A34(1))),
    ("where_scalar", lambda a: torch.where(a.real > 0, a, 0), lambda: (A34(),)),
    ("masked_fill", lambda a: a.masked_fill(ix([True, False, False, True]), 0.5 + 1j), lambda: (A34(),)),
    ("masked_select", lambda a: a.masked_select(ix([True, False, True, True])), lambda: (A34(),)),
    ("masked_scatter", lambda a, s: a.masked_scatter(ix([True, False, True, True]), s), lambda: (A34(), A34(1))),
    ("index_select", lambda a: a.index_select(1, ix([3, 0, 3])), lambda: (A34(),)),
    ("take", lambda a: a.take(ix([[0, 5], [5, 11]])), lambda: (A34(),)),
    ("take_along_dim", lambda a: torch.take_along_dim(a, ix([[0, 1], [2, 2], [3, 0]]), 1), lambda: (A34(),)),
    ("gather", lambda a: a.gather(1, ix([[0, 1], [2, 2], [3, 0]])), lambda: (A34(),)),
    ("scatter", lambda a, s: a.scatter(1, ix([[0, 1], [2, 3], [3, 0]]), s), lambda: (A34(), z(3, 2, seed=1))),
    ("scatter_value", lambda a: a.scatter(1, ix([[0, 1], [2, 3], [3, 0]]), 2.0), lambda: (A34(),)),
    ("scatter_add", lambda a, s: a.scatter_add(1, ix([[0, 1], [2, 2], [3, 0]]), s), lambda: (A34(), z(3, 2, seed=1))),
    ("index_add", lambda a, s: a.index_add(0, ix([2, 0]), s, alpha=1.5), lambda: (A34(), z(2, 4, seed=1))),
    ("index_copy", lambda a, s: a.index_copy(0, ix([2, 0]), s), lambda: (A34(), z(2, 4, seed=1))),
    ("index_fill", lambda a: a.index_fill(1, ix([0, 2]), 1 - 1j), lambda: (A34(),)),
    ("index_put", lambda a, v: a.index_put((ix([0, 2]), ix([1, 3])), v), lambda: (A34(), z(2, seed=1))),
    (
        "index_put_accumulate",
        lambda a, v: a.index_put((ix([0, 0]),), v, accumulate=True),
        lambda: (A34(), z(2, 4, seed=1)),
    ),
    ("put", lambda a, v: a.put(ix([1, 5]), v), lambda: (A34(), z(2, seed=1))),
    ("setitem_advanced", _setitem, lambda: (A34(), z(2, seed=1))),
    ("setitem_slice", _setitem_slice, lambda: (A34(), z(2, seed=1))),
    ("F.dropout_eval", lambda a: F.dropout(a, 0.5, training=False) * 1, lambda: (A34(),)),
    ("F.l1_loss", F.l1_loss, lambda: (A34(), A34(1))),
    # ---- discrete Fourier transforms -------------------------------------------------------------
    ("fft", FFT.fft, lambda: (A34(),)),
    ("fft_n", lambda a: FFT.fft(a, n=6, norm="ortho"), lambda: (A34(),)),
    ("fft_truncate", lambda a: FFT.fft(a, n=3, dim=0), lambda: (A34(),)),
    ("ifft", lambda a: FFT.ifft(a, norm="forward"), lambda: (A34(),)),
    ("fft2", FFT.fft2, lambda: (z(2, 3, 4),)),
    ("ifft2", FFT.ifft2, lambda: (z(2, 3, 4),)),
    ("fftn", FFT.fftn, lambda: (z(2, 3, 4),)),
    ("ifftn", lambda a: FFT.ifftn(a, s=(3, 5)), lambda: (z(2, 3, 4),)),
    ("fft_of_real", FFT.fft, lambda: (r(3, 4),)),
    ("rfft", FFT.rfft, lambda: (r(3, 5),)),
    ("rfft_even", lambda a: FFT.rfft(a, norm="ortho"), lambda: (r(3, 4),)),
    ("rfft2", FFT.rfft2, lambda: (r(2, 3, 4),)),
    ("rfftn", FFT.rfftn, lambda: (r(2, 3, 4),)),
    ("irfft", FFT.irfft, lambda: (A34(),)),
    ("irfft_odd", lambda a: FFT.irfft(a, n=7), lambda: (A34(),)),
    ("irfft2", FFT.irfft2, lambda: (z(2, 3, 4),)),
    ("irfftn", lambda a: FFT.irfftn(a, s=(3, 5)), lambda: (z(2, 3, 4),)),
    ("hfft", FFT.hfft, lambda: (A34(),)),
    ("ihfft", FFT.ihfft, lambda: (r(3, 5),)),
    ("hfft2", FFT.hfft2, lambda: (z(2, 3, 4),)),
    ("ihfft2", FFT.ihfft2, lambda: (r(2, 3, 4),)),
    ("fftshift", lambda a: FFT.fftshift(a) * 1, lambda: (A34(),)),
    ("ifftshift", lambda a: FFT.ifftshift(a, dim=1) * 1, lambda: (A34(),)),
    # ---- more ------------------------------------------------------------------------------------
    ("diagonal_scatter", lambda a, s: torch.diagonal_scatter(a, s, 1), lambda: (A34(), z(3, seed=1))),
    ("ravel", lambda a: a.t().ravel(), lambda: (A34(),)),
    ("logcumsumexp", lambda a: torch.logcumsumexp(a, 1), lambda: (A34(),)),
    ("type_as", lambda x, a: x.type_as(a) * a, lambda: (r(3, 4), A34(1))),
    ("inverse", torch.inverse, lambda: (_well_conditioned(3),)),
    ("linalg_det_legacy", torch.det, lambda: (_well_conditioned(3),)),
    ("inv_ex", lambda a: LA.inv_ex(a).inverse, lambda: (_well_conditioned(3),)),
    ("solve_ex", lambda a, b: LA.solve_ex(a, b).result, lambda: (_well_conditioned(3), z(3, 2, seed=1))),
    ("cholesky_ex", lambda a: LA.cholesky_ex(_hpd(a)).L, lambda: (z(3, 3),)),
    ("cholesky_legacy", lambda a: torch.cholesky(_hpd(a)), lambda: (z(3, 3),)),
    ("tensorinv", lambda a: LA.tensorinv(a.reshape(2, 2, 4), ind=2), lambda: (_well_conditioned(4),)),
    (
        "tensorsolve",
        lambda a, b: LA.tensorsolve(a.reshape(2, 2, 4), b),
        lambda: (_well_conditioned(4), z(2, 2, seed=1)),
    ),
    ("linalg_diagonal", lambda a: LA.diagonal(a) * 1, lambda: (z(2, 3, 3),)),
    ("linalg_matmul", LA.matmul, lambda: (A34(), z(4, 2, seed=1))),
    ("lu_factor_ex", lambda a: LA.lu_factor_ex(a).LU, lambda: (_well_conditioned(3),)),
    (
        "stft",
        lambda a: torch.stft(
            a, 4, hop_length=2, window=torch.hann_window(4, dtype=F64), return_complex=True, center=False
        ),
        lambda: (z(10),),
    ),
    ("F.unfold", lambda a: F.unfold(a, 2), lambda: (z(1, 2, 3, 3),)),
    ("F.fold", lambda a: F.fold(a, (3, 3), 2), lambda: (z(1, 8, 4),)),
    ("F.pixel_unshuffle", lambda a: F.pixel_unshuffle(a, 2), lambda: (z(1, 1, 4, 4),)),
    ("F.channel_shuffle", lambda a: F.channel_shuffle(a, 2), lambda: (z(1, 4, 2, 2),)),
    ("F.pairwise_distance", F.pairwise_distance, lambda: (A34(), A34(1))),
    ("renorm", lambda a: torch.renorm(a, 2, 0, 1.0), lambda: (A34(),)),
    (
        "F.conv2d_padding_same",
        lambda a, w: F.conv2d(a, w, padding="same"),
        lambda: (z(1, 2, 4, 4), z(2, 2, 2, 2, seed=1)),
    ),
    ("F.conv_transpose2d", F.conv_transpose2d, lambda: (z(1, 2, 3, 3), z(2, 2, 2, 2, seed=1), z(2, seed=2))),
    ("F.conv3d", F.conv3d, lambda: (z(1, 1, 3, 3, 3), z(1, 1, 2, 2, 2, seed=1))),
    ("F.l1_loss_sum", lambda a, b: F.l1_loss(a, b, reduction="sum"), lambda: (A34(), A34(1))),
    ("logaddexp_scalar_like", lambda a: torch.logaddexp(a, torch.zeros_like(a)), lambda: (A34(),)),
    ("abs_inplace", _inplace("abs_"), lambda: (r(3, 4),)),
    ("sgn_inplace", _inplace("sgn_"), lambda: (A34(),)),
    ("sqrt_inplace", _inplace("sqrt_"), lambda: (zr(3, 4),)),
    ("mul_inplace_scalar", _inplace("mul_", 1 - 2j), lambda: (A34(),)),
    ("addcmul_inplace", lambda a, b: (a * 1).addcmul_(b, b, value=1j), lambda: (A34(), A34(1))),
    # ---- compositions -----------------------------------------------------------------------------
    ("holomorphic_chain", lambda a, b: (a * b.exp()).sin() / (1 + a * a), lambda: (A34(), A34(1))),
    ("abs_of_product", lambda a, b: (a @ b).abs().sum(), lambda: (A34(), z(4, 2, seed=1))),
    (
        "nn_Linear",
        lambda a, w, b: torch.tanh(F.linear(a, w, b)).abs() ** 2,
        lambda: (A34(), z(2, 4, seed=1), z(2, seed=2)),
    ),
]

IDS = [c[0] for c in CASES]
assert len(set(IDS)) == len(IDS), "duplicate case ids"


@pytest.mark.parametrize("fn, make", [pytest.param(f, m, id=n) for n, f, m in CASES])
def test_complex_gradcheck(fn, make):
    torch.manual_seed(0)
    assert gradcheck(fn, make())


def test_in_place_ops_through_real_and_imag_views():
    """In-place ops on .real/.imag/view_as_real views of a complex tensor rebase its history (the views
    count strides in real elements: the base is taken as its real view)."""
    x = torch.randn(3, dtype=torch.float64, requires_grad=True)
    o = torch.zeros(3, dtype=torch.complex128)
    o.real.copy_(x)
    o.imag.copy_(2 * x)
    (o * torch.tensor([1 + 2j, 3j, 1])).real.sum().backward()
    assert torch.equal(x.grad, torch.tensor([-3.0, -6.0, 1.0], dtype=torch.float64))

    def build(x):
        o = torch.zeros(2, 3, dtype=torch.complex128)
        o.real.copy_(x)
        o.imag.add_(x * x)
        o.imag.mul_(2)
        return o * o

    assert gradcheck(build, (torch.randn(2, 3, dtype=torch.float64, requires_grad=True),))

    def scale_a_part(z):
        w = z.clone()
        torch.view_as_real(w)[:, 1, 0].mul_(5)
        w.imag.mul_(3)
        return w.exp()

    assert gradcheck(scale_a_part, (torch.randn(2, 3, dtype=torch.complex128, requires_grad=True),))
