"""torch.special's Bessel functions, erfcx, ndtri, zeta, polygamma, the incomplete gamma functions and the
orthogonal polynomials against SciPy (float64 to ~1e-12, float32 to its precision), at their special
values (0, infinities, NaN, outside the domain), with numbers for either argument of the binary ones,
out=, and their gradients by gradcheck where PyTorch has them."""

from __future__ import annotations

import os

import numpy as np
import pytest

import torch

# upstream PyTorch's J and Y are accurate to about 1e-6 absolute past x = 5 (single-precision rational
# approximations, also in float64), its incomplete gamma to about 1e-9: the tests of those allow that there
REFERENCE = "TORCH_REFERENCE" in os.environ

sp = pytest.importorskip("scipy.special")

# a grid through both sides of the functions' switches between methods (series, recurrence, asymptotic)
GRID = np.concatenate([np.linspace(-60, 60, 1201), np.logspace(-10, 2.7, 200), [0.0, 1e-300, 1.9999, 2.0, 25.0]])
POSITIVE = np.abs(GRID)

UNARY = {
    # torch.special name: (SciPy's function, domain, float64 rtol)
    "i0": (sp.i0, GRID, 1e-13),
    "modified_bessel_i0": (sp.i0, GRID, 1e-13),
    "i0e": (sp.i0e, GRID, 1e-13),
    "i1": (sp.i1, GRID, 1e-13),
    "modified_bessel_i1": (sp.i1, GRID, 1e-13),
    "i1e": (sp.i1e, GRID, 1e-13),
    "modified_bessel_k0": (sp.k0, POSITIVE, 1e-12),
    "modified_bessel_k1": (sp.k1, POSITIVE, 1e-12),
    "scaled_modified_bessel_k0": (sp.k0e, POSITIVE, 1e-12),
    "scaled_modified_bessel_k1": (sp.k1e, POSITIVE, 1e-12),
    "erfcx": (sp.erfcx, np.linspace(-26, 1e4, 3001), 1e-12),
    "ndtri": (sp.ndtri, np.concatenate([np.linspace(0, 1, 1001), np.logspace(-300, -1, 300)]), 1e-12),
    "spherical_bessel_j0": (lambda x: sp.spherical_jn(0, x), GRID, 1e-12),
    # upstream (Cephes) flushes Ai to 0 past x = 25.77; ours follows it down to the subnormals (see below)
    "airy_ai": (lambda x: sp.airy(x)[0], np.linspace(0, 25.5, 1021), 1e-12),
}
# oscillating: compared with an absolute tolerance (their zeros have no relative accuracy to speak of)
OSCILLATING = {
    "bessel_j0": (sp.j0, GRID),
    "bessel_j1": (sp.j1, GRID),
    "bessel_y0": (sp.y0, POSITIVE[POSITIVE > 1e-6]),
    "bessel_y1": (sp.y1, POSITIVE[POSITIVE > 1e-6]),
    # far out on the left, the phase 2/3 |x|^1.5 (~1900 at -200) carries its rounding (~eps * 1900) into Ai
    "airy_ai": (lambda x: sp.airy(x)[0], np.concatenate([np.linspace(-200, 25, 4501), GRID[GRID < 25]]), 1e-12),
}


@pytest.mark.parametrize("name", UNARY)
def test_unary_against_scipy(name):
    ref, domain, rtol = UNARY[name]
    fn = getattr(torch.special, name)
    want = ref(domain)
    np.testing.assert_allclose(fn(torch.tensor(domain, dtype=torch.float64)).numpy(), want, rtol=rtol, atol=1e-300)
    got32 = fn(torch.tensor(domain, dtype=torch.float32)).numpy()
    want32 = ref(domain.astype(np.float32).astype(np.float64))
    finite = np.isfinite(want32) & (np.abs(want32) < 1e38) & (np.abs(want32) > 1e-37)
    np.testing.assert_allclose(got32[finite], want32[finite], rtol=2e-5)


@pytest.mark.parametrize("name", OSCILLATING)
def test_bessel_j_y_against_scipy(name):
    ref, domain, *phase_atol = OSCILLATING[name]
    got = getattr(torch.special, name)(torch.tensor(domain, dtype=torch.float64)).numpy()
    want = ref(domain)
    rtol, atol = (1e-4, 1e-6) if REFERENCE else (1e-11, max([1e-14 * np.maximum(1, np.abs(want)).max(), *phase_atol]))
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


def _same(got, want):
    """Elementwise equal, NaN where NaN is wanted."""
    got, want = got.tolist(), [float(v) for v in want]
    return all((g != g and w != w) or g == w for g, w in zip(got, want)) and len(got) == len(want)


def test_special_values():
    # PyTorch's values at 0, -1, +inf, -inf and NaN (J and Y are NaN at the infinities, where SciPy has 0)
    s = torch.special
    inf, nan = float("inf"), float("nan")
    x = torch.tensor([0.0, -1.0, inf, -inf, nan], dtype=torch.float64)
    assert _same(s.bessel_j0(x)[[0, 2, 3, 4]], [1, nan, nan, nan])
    assert _same(s.bessel_j1(x)[[0, 2, 3, 4]], [0, nan, nan, nan])
    for y in (s.bessel_y0, s.bessel_y1):
        assert _same(y(x), [-inf, nan, nan, nan, nan])
    for k in (s.modified_bessel_k0, s.modified_bessel_k1, s.scaled_modified_bessel_k0, s.scaled_modified_bessel_k1):
        assert _same(k(x), [inf, nan, 0, nan, nan])
    assert _same(s.i0e(x)[[0, 2, 3, 4]], [1, 0, 0, nan]) and _same(s.i1e(x)[[0, 2, 4]], [0, 0, nan])
    assert _same(s.spherical_bessel_j0(x)[[0, 2, 3, 4]], [1, 0, 0, nan])
    assert _same(s.airy_ai(x)[2:], [nan, nan, nan])
    assert _same(s.erfcx(x)[[0, 2, 3, 4]], [1, 0, inf, nan])
    a, z = torch.tensor([0.0, 0.0, 1.0, inf, 2.0]), torch.tensor([0.0, 1.0, 0.0, 1.0, inf])
    assert _same(torch.igamma(a, z), [nan, 1, 0, 0, 1]) and _same(torch.igammac(a, z), [nan, 0, 1, 1, 0])
    p = torch.tensor([0.0, 1.0, -0.5, 1.5, 0.5], dtype=torch.float64)
    assert s.ndtri(p).tolist()[:2] == [-inf, inf] and s.ndtri(p)[2:4].isnan().all() and s.ndtri(p)[4] == 0
    assert s.erfcx(torch.tensor([-30.0, inf])).tolist() == [inf, 0.0]


@pytest.mark.skipif(REFERENCE, reason="upstream's Ai is 0 past x = 25.77")
def test_airy_ai_decays_to_the_subnormals():
    x = np.linspace(25, 100, 751)
    got = torch.special.airy_ai(torch.tensor(x, dtype=torch.float64)).numpy()
    np.testing.assert_allclose(got, sp.airy(x)[0], rtol=1e-12)
    assert torch.special.airy_ai(torch.tensor([110.0, 1e6], dtype=torch.float64)).tolist() == [0.0, 0.0]


def test_integer_input_computes_in_the_default_dtype():
    assert torch.special.i0(torch.arange(3)).dtype == torch.float32
    np.testing.assert_allclose(torch.special.i1e(torch.arange(3)).numpy(), sp.i1e(np.arange(3)), rtol=1e-6)


def test_zeta_and_polygamma_against_scipy():
    x, q = np.meshgrid(np.linspace(1.01, 40, 60), np.concatenate([np.linspace(0.05, 30, 59), [-2.5]]))
    got = torch.special.zeta(torch.tensor(x), torch.tensor(q)).numpy()
    np.testing.assert_allclose(got, sp.zeta(x, q), rtol=1e-12)
    assert torch.special.zeta(torch.tensor([1.0, 0.5, 2.0]), 1.0).tolist()[0] == float("inf")
    assert torch.special.zeta(torch.tensor([0.5]), 1.0).isnan().all()
    assert torch.special.zeta(2.0, torch.tensor([0.0, -1.0])).tolist() == [float("inf")] * 2
    x = torch.linspace(0.05, 30, 200, dtype=torch.float64)
    for n in range(6):
        np.testing.assert_allclose(torch.special.polygamma(n, x).numpy(), sp.polygamma(n, x.numpy()), rtol=1e-9)
        np.testing.assert_allclose(x.polygamma(n).numpy(), torch.polygamma(n, x).numpy())
    y = x.clone()
    y.polygamma_(2)
    np.testing.assert_allclose(y.numpy(), sp.polygamma(2, x.numpy()), rtol=1e-9)
    with pytest.raises(RuntimeError, match="negative n"):
        torch.polygamma(-1, x)


def test_incomplete_gamma_against_scipy():
    a, x = np.meshgrid(np.logspace(-3, 3, 80), np.concatenate([np.logspace(-3, 3.3, 80), [0.0, np.inf]]))
    lower = torch.special.gammainc(torch.tensor(a), torch.tensor(x)).numpy()
    upper = torch.igammac(torch.tensor(a), torch.tensor(x)).numpy()
    rtol = 1e-8 if REFERENCE else 1e-9
    np.testing.assert_allclose(lower, sp.gammainc(a, x), rtol=rtol, atol=1e-300)
    np.testing.assert_allclose(upper, sp.gammaincc(a, x), rtol=rtol, atol=1e-300)
    np.testing.assert_allclose(torch.tensor(a).igamma(torch.tensor(x)).numpy(), lower)
    assert torch.igamma(torch.tensor([-1.0, 1.0]), torch.tensor([1.0, -1.0])).isnan().all()


POLYNOMIALS = {
    "chebyshev_polynomial_t": lambda n, x: sp.eval_chebyt(n, x),
    "chebyshev_polynomial_u": lambda n, x: sp.eval_chebyu(n, x),
    # V and W: Jacobi polynomials P(-1/2, 1/2) and P(1/2, -1/2), normalized to V(1) = 1 and W(1) = 2n + 1
    "chebyshev_polynomial_v": lambda n, x: sp.eval_jacobi(n, -0.5, 0.5, x) / sp.eval_jacobi(n, -0.5, 0.5, 1.0),
    "chebyshev_polynomial_w": lambda n, x: (
        (2 * n + 1) * sp.eval_jacobi(n, 0.5, -0.5, x) / sp.eval_jacobi(n, 0.5, -0.5, 1)
    ),
    "shifted_chebyshev_polynomial_t": lambda n, x: sp.eval_sh_chebyt(n, x),
    "shifted_chebyshev_polynomial_u": lambda n, x: sp.eval_sh_chebyu(n, x),
    "hermite_polynomial_h": lambda n, x: sp.eval_hermite(n, x),
    "hermite_polynomial_he": lambda n, x: sp.eval_hermitenorm(n, x),
    "laguerre_polynomial_l": lambda n, x: sp.eval_laguerre(n, x),
    "legendre_polynomial_p": lambda n, x: sp.eval_legendre(n, x),
}


@pytest.mark.parametrize("name", POLYNOMIALS)
def test_polynomials_against_scipy(name):
    x, n = np.meshgrid(np.linspace(-1.5, 1.5, 31), np.arange(0, 15))
    fn = getattr(torch.special, name)
    got = fn(torch.tensor(x), torch.tensor(n)).numpy()
    want = POLYNOMIALS[name](n, x)
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10 * np.abs(want).max())
    # a number for either argument; a negative degree is 0
    np.testing.assert_allclose(fn(torch.tensor(x[0]), 3).numpy(), POLYNOMIALS[name](3, x[0]), rtol=1e-10, atol=1e-12)
    at_number = fn(0.25, torch.tensor(n[:, 0]))  # a number and integer degrees: the default dtype
    assert at_number.dtype == torch.float32
    np.testing.assert_allclose(at_number.numpy(), POLYNOMIALS[name](n[:, 0], 0.25), rtol=1e-5, atol=1e-5)
    assert fn(torch.tensor([0.3]), -1).tolist() == [0.0]
    assert fn(torch.tensor([0.3], dtype=torch.float32), 2).dtype == torch.float32


def test_out():
    x = torch.linspace(0.5, 3, 6, dtype=torch.float64)
    out = torch.empty_like(x)
    assert torch.special.i0e(x, out=out) is out
    np.testing.assert_allclose(out.numpy(), sp.i0e(x.numpy()), rtol=1e-12)
    assert torch.special.zeta(x + 1, x, out=out) is out
    np.testing.assert_allclose(out.numpy(), sp.zeta(x.numpy() + 1, x.numpy()), rtol=1e-12)


@pytest.mark.parametrize(
    "fn",
    [
        torch.special.i0,
        torch.special.i0e,
        torch.special.i1,
        torch.special.i1e,
        torch.special.erfcx,
        lambda t: torch.special.ndtri(torch.sigmoid(t)),
        lambda t: torch.special.zeta(3.5, t.abs() + 0.5),
        lambda t: torch.special.gammainc(torch.full_like(t, 2.5), t.abs() + 0.1),
        lambda t: torch.special.gammaincc(torch.full_like(t, 0.7), t.abs() + 0.1),
        lambda t: torch.special.polygamma(2, t.abs() + 0.5),
    ],
    ids=["i0", "i0e", "i1", "i1e", "erfcx", "ndtri", "zeta", "gammainc", "gammaincc", "polygamma"],
)
def test_gradients(fn):
    x = torch.tensor([-2.5, -0.3, 0.0, 0.7, 4.0], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(fn, (x,))


def test_scaled_k_at_large_arguments():
    x = np.array([1e8, 1e12, 1e16, 1e20, 1e300])
    for fn, ref in (
        (torch.special.scaled_modified_bessel_k0, sp.k0e),
        (torch.special.scaled_modified_bessel_k1, sp.k1e),
    ):
        np.testing.assert_allclose(fn(torch.tensor(x)).numpy(), ref(x), rtol=1e-10)


def test_gradients_pytorch_does_not_have_raise():
    x = torch.tensor([2.5], dtype=torch.float64, requires_grad=True)
    other = torch.tensor([1.5], dtype=torch.float64)
    for fn in (torch.special.zeta, torch.special.gammainc, torch.special.gammaincc):
        with pytest.raises(NotImplementedError, match="derivative for"):
            torch.autograd.grad(fn(x, other).sum(), x)


def test_trigamma_is_differentiable():
    x = torch.tensor([0.7, 2.5], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: torch.polygamma(1, t), (x,))
    assert torch.autograd.gradgradcheck(torch.digamma, (x,))


def test_polygamma_in_place_on_integers_raises():
    with pytest.raises(RuntimeError, match="can't be cast"):
        torch.tensor([1, 2, 3]).polygamma_(1)
