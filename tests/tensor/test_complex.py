"""Complex dtypes (complex64, complex128): creation and NumPy interop, printing, promotion with the real
types, the parts (view_as_real/view_as_complex, real/imag views, conj, abs, angle, torch.complex/polar),
arithmetic, the transcendental functions and reductions against NumPy, complex matrix products, and
PyTorch's gradient convention (for a real loss L of z = x + iy, z.grad is dL/dx + i dL/dy) checked by
central differences in float64. Also run on upstream 2.13."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import torch

RNG = np.random.default_rng(0)
REFERENCE = "TORCH_REFERENCE" in os.environ


def crandn(*shape, dtype=np.complex128):
    return (RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)).astype(dtype)


def test_dtypes_and_creation():
    assert torch.cfloat is torch.complex64 and torch.cdouble is torch.complex128
    assert torch.complex64.is_complex and not torch.complex64.is_floating_point
    assert torch.complex128.itemsize == 16 and torch.complex64.itemsize == 8
    assert torch.tensor([1 + 2j]).dtype == torch.complex64
    assert torch.tensor([1, 2.5, 3j]).dtype == torch.complex64
    assert torch.tensor(1j, dtype=torch.complex128).item() == 1j
    assert torch.tensor([1.0, 2.0]).to(torch.cfloat).tolist() == [1 + 0j, 2 + 0j]
    assert torch.zeros(2, dtype=torch.cdouble).sum().item() == 0j
    assert torch.ones(3, dtype=torch.cfloat).cdouble().dtype == torch.complex128
    assert torch.tensor([1 + 1j, 0]).bool().tolist() == [True, False]
    assert torch.is_complex(torch.zeros(1, dtype=torch.cfloat)) and not torch.zeros(1).is_complex()
    assert complex(torch.tensor(2 - 1j)) == 2 - 1j
    assert torch.full((2,), 1 + 2j).dtype == torch.complex64
    assert torch.finfo(torch.complex128).eps == torch.finfo(torch.float64).eps
    with pytest.raises(RuntimeError):
        torch.zeros(2).fill_(1j)


def test_numpy_roundtrip_shares_memory():
    a = crandn(3, 4, dtype=np.complex64)
    t = torch.from_numpy(a)
    assert t.dtype == torch.complex64
    t[0, 0] = 5 - 5j
    assert a[0, 0] == 5 - 5j
    np.testing.assert_array_equal(t.numpy(), a)


def test_printing():
    assert repr(torch.tensor([1 + 2j, 3 - 1j])) == "tensor([1.+2.j, 3.-1.j])"
    assert repr(torch.tensor(1j, dtype=torch.complex128)) == "tensor(0.+1.j, dtype=torch.complex128)"
    assert repr(torch.tensor([1.5 - 0.25j])) == "tensor([1.5000-0.2500j])"


def test_promotion():
    assert (torch.tensor([1, 2]) + 1j).dtype == torch.complex64
    assert (torch.tensor([1.0], dtype=torch.float64) * 1j).dtype == torch.complex128
    assert torch.promote_types(torch.float64, torch.complex64) == torch.complex128
    assert torch.result_type(torch.tensor([1.0], dtype=torch.float64), 1j) == torch.complex128
    assert (torch.zeros(2, dtype=torch.cfloat) + torch.zeros(2, dtype=torch.float64)).dtype == torch.complex128
    assert not torch.can_cast(torch.complex64, torch.float64)


def test_parts_are_views():
    z = torch.tensor(crandn(2, 3))
    r = torch.view_as_real(z)
    assert r.shape == (2, 3, 2) and r.dtype == torch.float64 and r.stride() == (6, 2, 1)
    np.testing.assert_array_equal(r[..., 0].numpy(), z.numpy().real)
    z.real[0, 0] = 7.0
    z.imag[1, 2] = -3.0
    assert z[0, 0].item().real == 7.0 and z[1, 2].item().imag == -3.0
    back = torch.view_as_complex(r)
    assert back.dtype == torch.complex128 and back.data_ptr() == z.data_ptr()
    sliced = z[:, 1]  # a strided complex view
    col = z.numpy()[:, 1]
    np.testing.assert_array_equal(torch.view_as_real(sliced).numpy(), np.stack([col.real, col.imag], -1))
    with pytest.raises(RuntimeError, match="view_as_real is only supported for complex tensors"):
        torch.view_as_real(torch.zeros(2))
    with pytest.raises(RuntimeError, match="last dimension of size 2"):
        torch.view_as_complex(torch.zeros(3))
    with pytest.raises(RuntimeError, match="imag is not implemented"):
        _ = torch.zeros(2).imag


def test_pointwise_against_numpy():
    a, b = crandn(5, 4), crandn(5, 4)
    ta, tb = torch.tensor(a), torch.tensor(b)
    for got, want in [
        (ta + tb, a + b),
        (ta - 2 * tb, a - 2 * b),
        (ta * tb, a * b),
        (ta / tb, a / b),
        (ta**tb, a**b),
        (ta**2, a**2),
        (-ta, -a),
        (ta.conj(), a.conj()),
        (ta.abs(), np.abs(a)),
        (ta.angle(), np.angle(a)),
        (torch.sgn(ta), a / np.abs(a)),
        (ta.reciprocal(), 1 / a),
    ]:
        np.testing.assert_allclose(got.resolve_conj().numpy(), want, rtol=1e-12, atol=1e-12)
    for name in ["exp", "log", "log10", "log2", "sqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh",
                 "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh", "sinc"]:  # fmt: skip
        fn = getattr(torch, name)
        np.testing.assert_allclose(fn(ta).numpy(), getattr(np, name)(a), rtol=1e-12, atol=1e-12, err_msg=name)
    np.testing.assert_allclose(torch.sigmoid(ta).numpy(), 1 / (1 + np.exp(-a)), rtol=1e-12)
    np.testing.assert_allclose(torch.rsqrt(ta).numpy(), 1 / np.sqrt(a), rtol=1e-12)
    assert (ta == ta.clone()).all() and not (ta != ta.clone()).any()
    with pytest.raises(RuntimeError, match="torch.sgn"):
        torch.sign(ta)


def test_float32_precision_and_broadcast():
    a = crandn(3, 1, dtype=np.complex64)
    b = crandn(1, 4, dtype=np.complex64)
    got = torch.tensor(a) * torch.tensor(b) + torch.tensor(b).exp()
    assert got.dtype == torch.complex64 and got.shape == (3, 4)
    np.testing.assert_allclose(got.numpy(), a * b + np.exp(b), rtol=1e-5)


def _product_formula(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(ar br - ai bi) + (ar bi + ai br) i, each operation rounded once in a's precision (no contraction)."""
    with np.errstate(all="ignore"):
        re = a.real * b.real - a.imag * b.imag
        im = a.real * b.imag + a.imag * b.real
    out = np.empty(np.broadcast_shapes(a.shape, b.shape), a.dtype)
    out.real, out.imag = re, im
    return out


def _assert_same_complex_bits(got: torch.Tensor, want: np.ndarray, scale: np.ndarray):
    """got has want's bits (NaNs as NaNs). Upstream contracts some of its products into FMAs (its scalar loop,
    a broadcast operand): there, within 2 eps of `scale` (|a| |b|, the size of the products summed)."""
    g = np.ascontiguousarray(got.numpy())
    w = np.ascontiguousarray(want.astype(g.dtype))
    assert g.shape == w.shape
    gp, wp = g.view(g.real.dtype), w.view(w.real.dtype)  # the parts, interleaved
    nan = np.isnan(wp)
    np.testing.assert_array_equal(np.isnan(gp), nan)
    if REFERENCE:
        tol = 2 * np.finfo(gp.dtype).eps * np.repeat(np.broadcast_to(scale, g.shape), 2, axis=-1)
        with np.errstate(invalid="ignore"):
            close = (gp == wp) | (np.abs(gp - wp) <= tol)
        assert close[~nan].all(), (gp[~nan & ~close], wp[~nan & ~close])
        return
    ints = {4: np.int32, 8: np.int64}[gp.itemsize]
    np.testing.assert_array_equal(gp[~nan].view(ints), wp[~nan].view(ints))  # bit for bit: -0.0 too


def _check_product(got: torch.Tensor, a: np.ndarray, b: np.ndarray):
    with np.errstate(all="ignore"):
        scale = np.abs(a.astype(np.complex128)) * np.abs(b.astype(np.complex128))
    _assert_same_complex_bits(got, _product_formula(a, b), scale)


def _special_complex(n: int, dtype, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    parts = rng.standard_normal((n, 2)) * 10.0 ** rng.integers(-3, 4, (n, 2))
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e30, -1e-30, 3.0])
    mask = rng.random((n, 2)) < 0.15
    parts[mask] = rng.choice(specials, mask.sum())
    return (parts[:, 0] + 1j * parts[:, 1]).astype(dtype) if n else np.zeros(0, dtype)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7, 8, 9, 17, 1000, 4099])
def test_product_is_the_formula_bit_for_bit(dtype, n):
    """Complex mul on every layout (contiguous: the vectorized loop; a number or one-element tensor on either
    side; strided: the scalar loop; tails around the vector widths) is the schoolbook product, bit for bit,
    special values included (NaNs compared as NaNs)."""
    x, y = _special_complex(n, dtype, n), _special_complex(n, dtype, n + 7)
    a, b = torch.from_numpy(x), torch.from_numpy(y)
    _check_product(a * b, x, y)
    _check_product(a[::2] * b[::2], x[::2], y[::2])
    out = torch.empty(n, dtype=a.dtype)
    torch.mul(a, b, out=out)
    _check_product(out, x, y)
    c = a.clone()
    c *= b
    _check_product(c, x, y)
    for s in (2.5 - 1j, -0.0 + 0j, complex(0.0, -0.0), 3.0):
        one = np.array([s], dtype)
        _check_product(a * torch.from_numpy(one), x, one)
        _check_product(torch.from_numpy(one).view(()) * a, one, x)
    m = _special_complex(6 * 9, dtype, n + 1).reshape(6, 9)
    row, col = _special_complex(9, dtype, 3), _special_complex(6, dtype, 4)[:, None]
    tm = torch.from_numpy(m)
    _check_product(tm * torch.from_numpy(row), m, row)
    _check_product(torch.from_numpy(col) * tm, col, m)
    _check_product(tm.t() * tm.t(), m.T, m.T)


def test_reductions_and_classification():
    a = crandn(4, 6)
    t = torch.tensor(a)
    np.testing.assert_allclose(t.sum().item(), a.sum(), rtol=1e-12)
    np.testing.assert_allclose(t.sum(0).numpy(), a.sum(0), rtol=1e-12)
    np.testing.assert_allclose(t.mean(1).numpy(), a.mean(1), rtol=1e-12)
    np.testing.assert_allclose(t.prod(1).numpy(), a.prod(1), rtol=1e-12)
    np.testing.assert_allclose(t.t().sum(1).numpy(), a.sum(0), rtol=1e-12)
    bad = torch.tensor([1 + 1j, complex(float("nan"), 0), complex(0, float("inf"))])
    assert bad.isnan().tolist() == [False, True, False]
    assert bad.isinf().tolist() == [False, False, True]
    assert bad.isfinite().tolist() == [True, False, False]


def test_complex_and_polar():
    re, im = torch.tensor([1.0, -2.0]), torch.tensor([0.5, 3.0])
    z = torch.complex(re, im)
    assert z.dtype == torch.complex64 and z.tolist() == [1 + 0.5j, -2 + 3j]
    p = torch.polar(torch.tensor([2.0], dtype=torch.float64), torch.tensor([0.5], dtype=torch.float64))
    np.testing.assert_allclose(p.numpy(), 2 * np.exp(0.5j), rtol=1e-14)
    with pytest.raises(RuntimeError):
        torch.complex(torch.tensor([1]), torch.tensor([2]))


@pytest.mark.parametrize("dtype", [torch.complex64, torch.complex128])
def test_matrix_products(dtype):
    np_dtype = np.complex64 if dtype == torch.complex64 else np.complex128
    tol = 1e-4 if dtype == torch.complex64 else 1e-12
    a, b = crandn(2, 5, 3, dtype=np_dtype), crandn(2, 3, 4, dtype=np_dtype)
    ta, tb = torch.tensor(a), torch.tensor(b)
    np.testing.assert_allclose((ta @ tb).numpy(), a @ b, rtol=tol, atol=tol)
    np.testing.assert_allclose(ta[0].mm(tb[0]).numpy(), a[0] @ b[0], rtol=tol, atol=tol)
    np.testing.assert_allclose(ta[0].t().mm(ta[1]).numpy(), a[0].T @ a[1], rtol=tol, atol=tol)
    v = crandn(3, dtype=np_dtype)
    np.testing.assert_allclose(ta[0].mv(torch.tensor(v)).numpy(), a[0] @ v, rtol=tol, atol=tol)
    np.testing.assert_allclose(torch.tensor(v).dot(torch.tensor(v)).item(), v @ v, rtol=tol)
    assert ta[0].mH.resolve_conj().tolist() == a[0].conj().T.tolist()


def _wirtinger_grad(f, z: np.ndarray, eps=1e-6) -> np.ndarray:
    """dL/dx + i dL/dy by central differences, L = f(z) real."""
    g = np.zeros_like(z)
    for k in range(z.size):
        for step, unit in ((eps, 1), (eps * 1j, 1j)):
            zp, zm = z.copy(), z.copy()
            zp.flat[k] += step
            zm.flat[k] -= step
            d = (f(torch.tensor(zp)).item() - f(torch.tensor(zm)).item()) / (2 * eps)
            g.flat[k] += unit * d
    return g


@pytest.mark.parametrize(
    "name, f",
    [
        ("mul", lambda z: (z * z.conj() * (1 + 2j)).real.sum()),
        ("div", lambda z: (1 / (z + 3)).imag.sum()),
        ("exp", lambda z: z.exp().real.sum() + z.exp().imag.sum()),
        ("log", lambda z: z.log().imag.sum() + z.log().real.sum()),
        ("sqrt_sin", lambda z: (z.sqrt() + z.sin()).abs().sum()),
        ("tanh_sigmoid", lambda z: (z.tanh() * z.sigmoid()).real.sum()),
        ("abs", lambda z: (z.abs() ** 2).sum()),
        ("angle", lambda z: z.angle().sum()),
        ("matmul", lambda z: (z.reshape(2, 2) @ z.reshape(2, 2).conj()).abs().sum()),
        ("view_as_real", lambda z: (torch.view_as_real(z) ** 3).sum()),
        ("sum_mean", lambda z: (z.sum() * z.mean()).real),
    ],
)
def test_gradients_follow_pytorchs_convention(name, f):
    z = crandn(4) + 0.5
    zt = torch.tensor(z, requires_grad=True)
    f(zt).backward()
    np.testing.assert_allclose(zt.grad.numpy(), _wirtinger_grad(f, z), rtol=1e-6, atol=1e-7, err_msg=name)


def test_gradient_into_real_inputs():
    x = torch.tensor([0.5, -1.0], dtype=torch.float64, requires_grad=True)
    y = torch.tensor([2.0, 0.25], dtype=torch.float64, requires_grad=True)
    z = torch.complex(x, y) * (1 - 2j)
    (z.real**2 + 3 * z.imag).sum().backward()
    w = (x.detach() + 1j * y.detach()) * (1 - 2j)
    # L = Re(w)^2 + 3 Im(w); Re w = x + 2y, Im w = y - 2x
    np.testing.assert_allclose(x.grad.numpy(), (2 * w.real + 3 * -2).numpy())
    np.testing.assert_allclose(y.grad.numpy(), (2 * w.real * 2 + 3).numpy())
    assert x.grad.dtype == torch.float64
    r = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    (r * (1 + 1j)).abs().sum().backward()
    np.testing.assert_allclose(r.grad.numpy(), [np.sqrt(2)] * 2)


def test_real_only_functions_refuse_complex():
    z = torch.tensor([1 + 2j, -1j])
    for fn in (
        lambda: torch.copysign(z, 1.0),
        lambda: torch.xlogy(z, z),
        lambda: torch.logit(z),
        lambda: torch.gcd(z, z),
        lambda: torch.bitwise_left_shift(z, 1),
        lambda: torch.deg2rad(z),
        lambda: torch.isposinf(z),
        lambda: torch.nansum(z),
        lambda: torch.sort(z),
        lambda: torch.max(z),
        lambda: torch.clamp(z, 0, 1),
    ):
        with pytest.raises((RuntimeError, NotImplementedError, TypeError)):
            fn()


def test_functions_keep_complex_values():
    a = crandn(3, 5)
    t = torch.tensor(a)
    np.testing.assert_allclose(torch.cov(t).numpy(), np.cov(a), rtol=1e-12)
    np.testing.assert_allclose(torch.corrcoef(t).numpy(), np.corrcoef(a), rtol=1e-12)
    np.testing.assert_allclose(torch.gradient(t, dim=1)[0].numpy(), np.gradient(a, axis=1), rtol=1e-12)
    np.testing.assert_allclose(torch.float_power(t, 2).numpy(), a**2, rtol=1e-12)
    assert torch.float_power(t.to(torch.complex64), 2).dtype == torch.complex128
    np.testing.assert_allclose(torch.ldexp(t, torch.tensor([2])).numpy(), a * 4, rtol=1e-12)
    want = np.log(np.exp(a).sum(1))
    got = torch.logsumexp(t, 1).numpy()
    np.testing.assert_allclose(np.exp(got), np.exp(want), rtol=1e-12)  # equal up to 2 pi i
    zero = torch.zeros(2, dtype=torch.cdouble)
    assert (zero**0).tolist() == [1, 1] and (zero**2).tolist() == [0, 0]


def test_scans_moments_norms_and_more_functions():
    a = crandn(3, 4)
    t = torch.tensor(a)
    np.testing.assert_allclose(t.cumsum(1).numpy(), a.cumsum(1), rtol=1e-12)
    np.testing.assert_allclose(t.cumprod(0).numpy(), a.cumprod(0), rtol=1e-12)
    var = t.var(1)
    assert var.dtype == torch.float64
    np.testing.assert_allclose(var.numpy(), a.var(1, ddof=1), rtol=1e-12)
    np.testing.assert_allclose(t.std().item(), a.std(ddof=1), rtol=1e-12)
    np.testing.assert_allclose(torch.linalg.vector_norm(t).item(), np.linalg.norm(a), rtol=1e-12)
    np.testing.assert_allclose(torch.linalg.vector_norm(t, 1, dim=1).numpy(), np.abs(a).sum(1), rtol=1e-12)
    np.testing.assert_allclose(torch.expm1(t).numpy(), np.expm1(a), rtol=1e-12)
    np.testing.assert_allclose(torch.log1p(t).numpy(), np.log1p(a), rtol=1e-12)
    np.testing.assert_allclose(torch.exp2(t).numpy(), np.exp2(a), rtol=1e-12)
    small = torch.tensor([1e-10 + 1e-10j], dtype=torch.complex128)
    np.testing.assert_allclose(torch.expm1(small).numpy(), [1e-10 + 1e-10j], rtol=1e-9)
    np.testing.assert_allclose(torch.log1p(small).numpy(), [1e-10 + 1e-10j], rtol=1e-9)
    z = torch.tensor([1j, 0, 0j])
    assert torch.logical_and(z, torch.tensor([1j, 1j, 0])).tolist() == [True, False, False]
    assert torch.logical_or(z, z).tolist() == [True, False, False]


@pytest.mark.parametrize("dtype", [torch.complex64, torch.complex128])
def test_random_complex_tensors(dtype):
    """randn/normal_ draw each part from N(mean, std^2 / 2) (E|z - (1 + 1j) mean|^2 = std^2), rand/uniform_ each part
    from [from, to), as PyTorch does; strided tensors too."""
    torch.manual_seed(0)
    z = torch.randn(200_000, dtype=dtype)
    assert z.dtype == dtype
    np.testing.assert_allclose([z.real.var().item(), z.imag.var().item()], [0.5, 0.5], rtol=0.02)
    w = torch.empty(100_000, dtype=dtype).normal_(2.0, 3.0)
    np.testing.assert_allclose([w.real.mean().item(), w.imag.mean().item()], [2.0, 2.0], atol=0.05)
    np.testing.assert_allclose((w - (2 + 2j)).abs().pow(2).mean().item(), 9.0, rtol=0.03)  # mean on both parts
    u = torch.zeros(300, 300, dtype=dtype).t()
    u.uniform_(-1.0, 3.0)
    parts = torch.view_as_real(u.contiguous())
    assert parts.min().item() >= -1.0 and parts.max().item() < 3.0 and (parts != 0).all()
    r = torch.rand(1000, dtype=dtype)
    assert 0 <= torch.view_as_real(r).min().item() and torch.view_as_real(r).max().item() < 1
    assert torch.randn_like(r).dtype == dtype


def test_casting_complex_to_real_keeps_the_real_part_and_warns_once():
    z = torch.tensor([1 + 2j, -3 - 4j])
    assert z.float().tolist() == [1, -3] and z.to(torch.int64).tolist() == [1, -3]
    assert torch.empty(2).copy_(z).tolist() == [1, -3]
    # in a fresh process: the first cast warns, the next ones do not (upstream's TORCH_WARN_ONCE)
    code = (
        "import torch, warnings; z = torch.tensor([1 + 2j])\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always'); z.to(torch.complex128); z.bool()\n"
        "    assert not w, [str(x.message) for x in w]\n"
        "    z.float(); z.to(torch.int64); torch.empty(1).copy_(z)\n"
        "print([(x.category.__name__, str(x.message).split(' (Triggered')[0]) for x in w])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[('UserWarning', 'Casting complex values to real discards the imaginary part')]"


def test_backward_of_a_cast_to_complex_takes_the_real_part_silently():
    """The gradient of a real input cast to complex is the real part of the complex gradient, without the
    complex-to-real cast warning (checked in a fresh process: that warning is given once per process)."""
    code = (
        "import torch, warnings\n"
        "x = torch.tensor([1.0, -2.0], dtype=torch.float64, requires_grad=True)\n"
        "with warnings.catch_warnings():\n"
        "    warnings.simplefilter('error')\n"
        "    (x.to(torch.complex128) * torch.tensor([1 + 2j, 3j])).real.sum().backward()\n"
        "print(x.grad.tolist())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[1.0, 0.0]"


def test_isclose_compares_complex_values_whole():
    # the imaginary parts count (a real cast dropped them), NaN anywhere in a value is NaN
    a = torch.tensor([1 + 1j, 2 + 0j, complex("nan+1j"), complex(float("inf"), 0)])
    b = torch.tensor([1 + 2j, 2 + 1e-9j, complex("nan+1j"), complex(float("inf"), 0)])
    assert torch.isclose(a, b).tolist() == [False, True, False, True]
    assert torch.isclose(a, b, equal_nan=True).tolist() == [False, True, True, True]
    assert not torch.allclose(a[:1], b[:1])


def test_comparison_operators_take_python_complex_numbers():
    """`t == 1+2j`, `t != z` and `z in t` compare elementwise, as upstream (they used to return Python's False:
    the operators passed complex numbers to object's identity comparison)."""
    z = torch.tensor([1 + 2j, 3 - 4j])
    assert (z == (1 + 2j)).tolist() == [True, False]
    assert (z != (3 - 4j)).tolist() == [True, False]
    assert ((1 + 2j) == z).tolist() == [True, False]
    assert (3 - 4j) in z and (3 + 4j) not in z
