#pragma once
// Scalar math of torch.special's Bessel, error-function, zeta, incomplete-gamma and orthogonal-polynomial
// functions, written once for the CPU and CUDA kernels (ops/Special.cpp, cpu/SpecialKernels.cpp,
// THC/SpecialKernels.cu). Everything computes in double precision from the definitions: power series where
// their terms do not cancel, Miller's backward recurrence with Neumann's series for J and Y, the trapezoidal
// rule on K's integral (exponentially convergent), Hankel's and the exponential asymptotic expansions for
// large arguments, Euler-Maclaurin for zeta, and the series / Lentz continued fraction for the incomplete
// gamma function. Domains and special values follow PyTorch (and SciPy).
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "../Macros.h"
#include "Unary.h"

// _(name, Functor, expression of x) for the unary functions (x a double)
#define TH_SPECIAL_UNARY_OPS(_)                                                       \
  _(i0, I0, th::math::special::bessel_i0(x))                                          \
  _(_special_i0e, I0e, th::math::special::bessel_i0e(x))                              \
  _(_special_i1, I1, th::math::special::bessel_i1(x))                                 \
  _(_special_i1e, I1e, th::math::special::bessel_i1e(x))                              \
  _(_special_modified_bessel_k0, K0, th::math::special::bessel_k(0, x, false))        \
  _(_special_modified_bessel_k1, K1, th::math::special::bessel_k(1, x, false))        \
  _(_special_scaled_modified_bessel_k0, K0e, th::math::special::bessel_k(0, x, true)) \
  _(_special_scaled_modified_bessel_k1, K1e, th::math::special::bessel_k(1, x, true)) \
  _(_special_bessel_j0, J0, th::math::special::bessel_j(0, x))                        \
  _(_special_bessel_j1, J1, th::math::special::bessel_j(1, x))                        \
  _(_special_bessel_y0, Y0, th::math::special::bessel_y(0, x))                        \
  _(_special_bessel_y1, Y1, th::math::special::bessel_y(1, x))                        \
  _(_special_spherical_bessel_j0, SphericalJ0, th::math::special::spherical_j0(x))    \
  _(_special_airy_ai, AiryAi, th::math::special::airy_ai(x))                          \
  _(_special_erfcx, Erfcx, th::math::special::erfcx(x))                               \
  _(_special_ndtri, Ndtri, th::math::special::ndtri(x))

// _(name, Functor, expression of x and y) for the binary functions (doubles; the polynomials' degree y is
// truncated to an integer)
#define TH_SPECIAL_BINARY_OPS(_)                                                                        \
  _(_special_zeta, Zeta, th::math::special::zeta(x, y))                                                 \
  _(igamma, Igamma, th::math::special::igamma(x, y, false))                                             \
  _(igammac, Igammac, th::math::special::igamma(x, y, true))                                            \
  _(_standard_gamma_grad, StandardGammaGrad, th::math::special::standard_gamma_grad(x, y))              \
  _(_special_chebyshev_polynomial_t, ChebyshevT, th::math::special::chebyshev(x, y, 'T'))               \
  _(_special_chebyshev_polynomial_u, ChebyshevU, th::math::special::chebyshev(x, y, 'U'))               \
  _(_special_chebyshev_polynomial_v, ChebyshevV, th::math::special::chebyshev(x, y, 'V'))               \
  _(_special_chebyshev_polynomial_w, ChebyshevW, th::math::special::chebyshev(x, y, 'W'))               \
  _(_special_shifted_chebyshev_polynomial_t, ShiftedT, th::math::special::chebyshev(2 * x - 1, y, 'T')) \
  _(_special_shifted_chebyshev_polynomial_u, ShiftedU, th::math::special::chebyshev(2 * x - 1, y, 'U')) \
  _(_special_shifted_chebyshev_polynomial_v, ShiftedV, th::math::special::chebyshev(2 * x - 1, y, 'V')) \
  _(_special_shifted_chebyshev_polynomial_w, ShiftedW, th::math::special::chebyshev(2 * x - 1, y, 'W')) \
  _(_special_hermite_polynomial_h, HermiteH, th::math::special::hermite(x, y, true))                    \
  _(_special_hermite_polynomial_he, HermiteHe, th::math::special::hermite(x, y, false))                 \
  _(_special_laguerre_polynomial_l, LaguerreL, th::math::special::laguerre(x, y))                       \
  _(_special_legendre_polynomial_p, LegendreP, th::math::special::legendre(x, y))

namespace th::math::special {

constexpr double kPi = 3.14159265358979323846;
constexpr double kEulerGamma = 0.57721566490153286061;
/// Beyond this |x| the Bessel functions take their asymptotic expansions.
constexpr double kAsymptotic = 25.0;

/// I0(x) and I1(x) by their power series sum_k t^k / (k! (k + n)!) (t = x^2 / 4, times (x / 2)^n): every
/// term positive, so the sum is accurate for any x; about |x| + 20 terms.
TH_HOST_DEVICE inline double bessel_i_series(int n, double x) {
  const double t = 0.25 * x * x;
  double term = n == 0 ? 1.0 : 0.5 * std::fabs(x), sum = term;
  for (int k = 1; k < 1000; ++k) {
    term *= t / (double(k) * double(k + n));
    sum += term;
    if (term <= sum * 1e-17) break;
  }
  return n == 1 && x < 0 ? -sum : sum;  // I1 is odd
}

/// e^-|x| I_n(x) for |x| >= kAsymptotic: the expansion 1/sqrt(2 pi x) sum_k (-1)^k a_k(n) / x^k, a_k =
/// prod_{j<=k} (4n^2 - (2j - 1)^2) / (8 j) (its terms shrink until k ~ 2|x|).
TH_HOST_DEVICE inline double bessel_i_scaled_asymptotic(int n, double x) {
  const double ax = std::fabs(x), mu = 4.0 * n * n;
  double term = 1.0, sum = 1.0;
  for (int k = 1; k < 60; ++k) {
    term *= -(mu - double(2 * k - 1) * double(2 * k - 1)) / (8.0 * k * ax);
    sum += term;
    if (std::fabs(term) <= std::fabs(sum) * 1e-17) break;
  }
  const double r = sum / std::sqrt(2 * kPi * ax);
  return n == 1 && x < 0 ? -r : r;
}

TH_HOST_DEVICE inline double bessel_i0e(double x) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return 0.0;
  return std::fabs(x) < kAsymptotic ? bessel_i_series(0, x) * std::exp(-std::fabs(x))
                                    : bessel_i_scaled_asymptotic(0, x);
}

TH_HOST_DEVICE inline double bessel_i1e(double x) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return std::copysign(0.0, x);
  return std::fabs(x) < kAsymptotic ? bessel_i_series(1, x) * std::exp(-std::fabs(x))
                                    : bessel_i_scaled_asymptotic(1, x);
}

TH_HOST_DEVICE inline double bessel_i0(double x) {
  if (std::isnan(x)) return x;
  if (std::fabs(x) < kAsymptotic) return bessel_i_series(0, x);
  const double ax = std::fabs(x);  // e^|x| in two halves: the product overflows only where I0 does
  const double h = std::exp(0.5 * ax);
  return bessel_i_scaled_asymptotic(0, x) * h * h;
}

TH_HOST_DEVICE inline double bessel_i1(double x) {
  if (std::isnan(x)) return x;
  if (std::fabs(x) < kAsymptotic) return bessel_i_series(1, x);
  const double h = std::exp(0.5 * std::fabs(x));
  return bessel_i_scaled_asymptotic(1, x) * h * h;
}

/// K_n(x) (n = 0, 1), or e^x K_n(x) with `scaled`: NaN below 0, +inf at 0. Up to x = 2 the series
/// K0 = -(ln(x/2) + gamma) I0 + sum_k H_k t^k / k!^2 and K1 = 1/x + ln(x/2) I1 - x/4 sum_k (psi(k+1) +
/// psi(k+2)) t^k / (k! (k+1)!); beyond, the trapezoidal rule on e^x K_n(x) = integral_0^inf
/// exp(-x (cosh s - 1)) cosh(n s) ds, whose integrand is analytic and decays doubly exponentially (its
/// error falls exponentially with 1 / step: a step of min(0.1, 0.6 / sqrt(x)) keeps it below 1e-16).
TH_HOST_DEVICE inline double bessel_k(int n, double x, bool scaled) {
  if (std::isnan(x)) return x;
  if (x < 0) return NAN;
  if (x == 0) return INFINITY;
  if (std::isinf(x)) return 0.0;
  if (x <= 2) {
    const double t = 0.25 * x * x, log_half = std::log(0.5 * x);
    double r;
    if (n == 0) {
      double term = 1.0, harmonic = 0.0, sum = 0.0;
      for (int k = 1; k < 60; ++k) {
        term *= t / (double(k) * k);
        harmonic += 1.0 / k;
        sum += term * harmonic;
        if (term * harmonic <= sum * 1e-17) break;
      }
      r = -(log_half + kEulerGamma) * bessel_i_series(0, x) + sum;
    } else {
      double term = 1.0, psi1 = -kEulerGamma, psi2 = 1.0 - kEulerGamma, sum = psi1 + psi2;
      for (int k = 1; k < 60; ++k) {
        term *= t / (double(k) * (k + 1));
        psi1 += 1.0 / k;
        psi2 += 1.0 / (k + 1);
        sum += term * (psi1 + psi2);
        if (std::fabs(term * (psi1 + psi2)) <= std::fabs(sum) * 1e-17) break;
      }
      r = 1.0 / x + log_half * bessel_i_series(1, x) - 0.25 * x * sum;
    }
    return scaled ? r * std::exp(x) : r;
  }
  // the step: the integrand is about exp(-x s^2 / 2), a peak of width 1 / sqrt(x) that the rule must resolve
  const double h = std::fmin(0.1, 0.6 / std::sqrt(x));
  double sum = 0.5;  // the s = 0 term, halved
  for (int k = 1; k < 400; ++k) {
    // cosh(s) - 1 as 2 sinh(s/2)^2: no cancellation at the tiny steps that large x takes
    const double s = k * h, half = std::sinh(0.5 * s);
    const double f = std::exp(-x * 2.0 * half * half) * (n == 0 ? 1.0 : std::cosh(s));
    sum += f;
    if (f < sum * 1e-18) break;
  }
  const double r = h * sum;
  return scaled ? r : r * std::exp(-x);
}

/// J_n(x) and Y_n(x) (n = 0, 1) for |x| >= kAsymptotic by Hankel's expansion: sqrt(2 / (pi x)) (P cos chi -
/// Q sin chi) and (P sin chi + Q cos chi), chi = x - (n / 2 + 1/4) pi.
TH_HOST_DEVICE inline void bessel_jy_asymptotic(int n, double x, double& j, double& y) {
  const double mu = 4.0 * n * n;
  double p = 1.0, q = 0.0, term = 1.0;
  for (int k = 1; k < 60; ++k) {
    term *= (mu - double(2 * k - 1) * double(2 * k - 1)) / (8.0 * k * x);  // a_k / x^k
    if (k % 2 == 1) {
      q += (k % 4 == 1 ? 1.0 : -1.0) * term;
    } else {
      p += (k % 4 == 2 ? -1.0 : 1.0) * term;
    }
    if (std::fabs(term) < 1e-17) break;
  }
  const double chi = x - (0.5 * n + 0.25) * kPi, scale = std::sqrt(2.0 / (kPi * x));
  const double c = std::cos(chi), s = std::sin(chi);
  j = scale * (p * c - q * s);
  y = scale * (p * s + q * c);
}

/// J0, J1, Y0 and Y1 at 0 < x < kAsymptotic by Miller's backward recurrence J_{k-1} = (2k / x) J_k - J_{k+1}
/// from far above x (normalized by J0 + 2 sum J_2k = 1) and Neumann's series Y0 = (2/pi) (ln(x/2) + gamma) J0
/// - (4/pi) sum_k (-1)^k J_2k / k; Y1 = -Y0', differentiated term by term (J_k' = (J_{k-1} - J_{k+1}) / 2).
TH_HOST_DEVICE inline void bessel_jy_recurrence(double x, double& j0, double& j1, double& y0, double& y1) {
  const double lg = std::log(0.5 * x) + kEulerGamma;
  if (x < 1e-5) {  // the series' leading terms (the recurrence's 2k / x would overflow for tiny x)
    const double t = 0.25 * x * x;
    j0 = 1.0 - t;
    j1 = 0.5 * x * (1.0 - 0.5 * t);
    y0 = (2.0 / kPi) * (lg * j0 + t);
    y1 = -2.0 / (kPi * x) + (x / kPi) * (lg - 0.5);
    return;
  }
  const int top = 2 * (int(x) / 2) + 40;  // even, well above x
  double next = 0.0, cur = 1e-30;         // J_{k+1}, J_k (unnormalized), k = top
  double norm = 0.0, neumann = 0.0, neumann_d = 0.0, above = 0.0;
  for (int k = top; k >= 1; --k) {
    const double prev = (2.0 * k / x) * cur - next;  // J_{k-1}
    if (k % 2 == 0) {  // cur is J_k, k = 2m: its share of the norm and of the Neumann sums
      const int m = k / 2;
      const double sign = m % 2 == 0 ? 1.0 : -1.0;
      norm += 2.0 * cur;
      neumann += sign * cur / m;
      neumann_d += sign * (prev - next) / (2.0 * m);  // J_2m' = (J_{2m-1} - J_{2m+1}) / 2
    }
    above = cur;
    next = cur;
    cur = prev;
    if (std::fabs(cur) > 1e250) {  // rescale before overflow
      next *= 1e-250, cur *= 1e-250, above *= 1e-250, norm *= 1e-250, neumann *= 1e-250, neumann_d *= 1e-250;
    }
  }
  norm += cur;  // cur = J0, above = J1
  j0 = cur / norm;
  j1 = above / norm;
  y0 = (2.0 / kPi) * lg * j0 - (4.0 / kPi) * neumann / norm;
  y1 = -((2.0 / kPi) * (j0 / x - lg * j1) - (4.0 / kPi) * neumann_d / norm);
}

TH_HOST_DEVICE inline double bessel_j(int n, double x) {
  if (std::isnan(x) || std::isinf(x)) return NAN;  // PyTorch's value at +-inf (the limit is 0)
  const double ax = std::fabs(x), sign = n == 1 && x < 0 ? -1.0 : 1.0;
  if (ax == 0) return n == 0 ? 1.0 : x;
  double j0, j1, y0, y1;
  if (ax >= kAsymptotic) {
    bessel_jy_asymptotic(n, ax, j0, y0);
    return sign * j0;
  }
  bessel_jy_recurrence(ax, j0, j1, y0, y1);
  return sign * (n == 0 ? j0 : j1);
}

TH_HOST_DEVICE inline double bessel_y(int n, double x) {
  if (std::isnan(x)) return x;
  if (x < 0) return NAN;
  if (x == 0) return -INFINITY;
  if (std::isinf(x)) return NAN;  // PyTorch's value at inf (the limit is 0)
  double j0, j1, y0, y1;
  if (x >= kAsymptotic) {
    bessel_jy_asymptotic(n, x, j0, y0);
    return y0;
  }
  bessel_jy_recurrence(x, j0, j1, y0, y1);
  return n == 0 ? y0 : y1;
}

/// sin(x) / x, 1 at 0 (and 0 at +-inf).
TH_HOST_DEVICE inline double spherical_j0(double x) {
  if (std::isinf(x)) return 0.0;
  if (std::fabs(x) < 0.5) {  // the Taylor series: no cancellation near 0
    const double x2 = x * x;
    return 1.0 - x2 / 6.0 * (1.0 - x2 / 20.0 * (1.0 - x2 / 42.0 * (1.0 - x2 / 72.0 * (1.0 - x2 / 110.0))));
  }
  return std::sin(x) / x;
}

/// Ai(x), the Airy function of the first kind (the solution of y'' = x y that decays as x -> +inf), from its
/// definitions: above 1, Ai(x) = sqrt(x / 3) K_{1/3}(zeta) / pi, zeta = 2/3 x^(3/2), with K's integral
/// e^-zeta integral_0^inf exp(-zeta (cosh s - 1)) cosh(s / 3) ds by the trapezoidal rule (as bessel_k);
/// below -10, the asymptotic expansion (DLMF 9.7.9) z^(-1/4) / sqrt(pi) (sin(zeta + pi/4) P - cos(zeta +
/// pi/4) Q), z = -x; between, Taylor series of the differential equation stepped from Ai(0) and Ai'(0) in
/// steps of at most 1 (y_(n+2) = (t y_n + y_(n-1)) / ((n+1)(n+2)) about t), where no term is large enough
/// to cancel. NaN at +-inf, as SciPy and PyTorch.
TH_HOST_DEVICE inline double airy_ai(double x) {
  if (std::isnan(x) || std::isinf(x)) return NAN;
  if (x > 1) {
    const double zeta = 2.0 / 3.0 * x * std::sqrt(x);
    if (zeta > 800) return 0.0;  // below the smallest double
    const double h = std::fmin(0.1, 0.6 / std::sqrt(zeta));
    double sum = 0.5;  // the s = 0 term, halved
    for (int k = 1; k < 2000; ++k) {
      const double s = k * h, half = std::sinh(0.5 * s);
      const double f = std::exp(-zeta * 2.0 * half * half) * std::cosh(s / 3.0);
      sum += f;
      if (f < sum * 1e-18) break;
    }
    return std::sqrt(x / 3.0) / kPi * h * sum * std::exp(-zeta);
  }
  if (x < -10) {
    const double z = -x, zeta = 2.0 / 3.0 * z * std::sqrt(z);
    // u_k = u_(k-1) (6k - 5)(6k - 3)(6k - 1) / ((2k - 1) 216 k); P takes the even k, Q the odd ones, with
    // alternating signs; the series is stopped where its terms stop falling
    double p = 1.0, q = 0.0, term = 1.0;
    for (int k = 1; k < 60; ++k) {
      const double next =
          term * (6.0 * k - 5) * (6.0 * k - 3) * (6.0 * k - 1) / ((2.0 * k - 1) * 216.0 * k * zeta);
      if (std::fabs(next) >= std::fabs(term) || std::fabs(next) < 1e-18) break;
      term = next;
      const double sign = (k / 2) % 2 == 0 ? 1.0 : -1.0;
      if (k % 2 == 0)
        p += sign * term;
      else
        q += sign * term;
    }
    const double phase = zeta + 0.25 * kPi;
    return (std::sin(phase) * p - std::cos(phase) * q) / (std::sqrt(kPi) * std::sqrt(std::sqrt(z)));
  }
  double t = 0.0, y = 0.355028053887817239260, dy = -0.258819403792806798405;  // Ai(0), Ai'(0)
  while (t != x) {
    const double h = std::fabs(x - t) <= 1.0 ? x - t : (x > t ? 1.0 : -1.0);
    // a_n: the Taylor coefficients about t; y(t + h) = sum a_n h^n, y'(t + h) = sum n a_n h^(n-1)
    double a_prev2 = y, a_prev = dy, a_next = t * y / 2.0;  // a_0, a_1, a_2
    double value = y + dy * h, slope = dy, power = h;       // power = h^n at n = 1
    for (int n = 2; n < 80; ++n) {
      const double a = a_next;
      slope += n * a * power;
      power *= h;
      value += a * power;
      // a_(n+1) = (t a_(n-1) + a_(n-2)) / (n (n+1))
      a_next = (t * a_prev + a_prev2) / (double(n) * (n + 1));
      a_prev2 = a_prev, a_prev = a;
      if (n > 8 && std::fabs(a * power) < 1e-18 * std::fabs(value) &&
          std::fabs(a_next * power * h) < 1e-18 * std::fabs(value))
        break;
    }
    y = value, dy = slope, t += h;
  }
  return y;
}

/// exp(x^2) erfc(x): directly up to 10 (relative error about x^2 eps), the asymptotic series 1 / (x sqrt(pi))
/// sum_k (-1)^k (2k - 1)!! / (2 x^2)^k beyond, and 2 exp(x^2) - erfcx(-x) below 0 (+inf past -26.6).
TH_HOST_DEVICE inline double erfcx(double x) {
  if (std::isnan(x)) return x;
  if (x < 0) {
    if (x < -26.7) return INFINITY;
    return 2.0 * std::exp(x * x) - erfcx(-x);
  }
  if (x < 10) return std::exp(x * x) * std::erfc(x);
  if (std::isinf(x)) return 0.0;
  const double inv = 1.0 / (2.0 * x * x);
  double term = 1.0, sum = 1.0;
  for (int k = 1; k < 14; ++k) {
    term *= -(2.0 * k - 1.0) * inv;
    sum += term;
  }
  return sum / (x * std::sqrt(kPi));
}

/// The standard normal distribution function.
TH_HOST_DEVICE inline double ndtr(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

/// The inverse of the standard normal distribution function: -inf at 0, +inf at 1, NaN outside [0, 1].
/// Newton's method on log(ndtr(x)) = log(q) (q = min(p, 1 - p)) from the tail's asymptotic start, or on
/// ndtr(x) = q from sqrt(2) erfinv(2q - 1) near the middle.
TH_HOST_DEVICE inline double ndtri(double p) {
  if (std::isnan(p) || p < 0 || p > 1) return NAN;
  if (p == 0) return -INFINITY;
  if (p == 1) return INFINITY;
  if (p == 0.5) return 0.0;
  const bool upper = p > 0.5;
  const double q = upper ? 1.0 - p : p;  // solve ndtr(x) = q for x < 0
  double x;
  if (q > 1e-3) {  // a start from the logistic approximation, then Newton on ndtr itself
    x = -std::sqrt(kPi / 8.0) * std::log((1.0 - q) / q) * 0.9;
    for (int i = 0; i < 40; ++i) {
      const double f = ndtr(x) - q, d = std::exp(-0.5 * x * x) / std::sqrt(2.0 * kPi);
      const double step = f / d;
      x -= step;
      if (std::fabs(step) <= 1e-16 * std::fabs(x) + 1e-300) break;
    }
  } else {  // the tail: the asymptotic start, then Newton on log(ndtr(x)) - log(q)
    const double l = -2.0 * std::log(q);
    x = -std::sqrt(l - std::log(l) - std::log(2.0 * kPi));
    const double lq = std::log(q);
    for (int i = 0; i < 40; ++i) {
      const double cdf = ndtr(x);
      const double d = std::exp(-0.5 * x * x) / std::sqrt(2.0 * kPi) / cdf;  // (log ndtr)'
      const double step = (std::log(cdf) - lq) / d;
      x -= step;
      if (std::fabs(step) <= 1e-16 * std::fabs(x)) break;
    }
  }
  return upper ? -x : x;
}

/// The Hurwitz zeta function sum_k (k + q)^-x for x > 1: inf at x = 1, NaN below; q <= 0 is a pole at the
/// non-positive integers (+inf) and NaN elsewhere for non-integer x (as PyTorch). Euler-Maclaurin: nine
/// terms, the integral and the Bernoulli corrections up to B_24.
TH_HOST_DEVICE inline double zeta(double x, double q) {
  if (std::isnan(x) || std::isnan(q)) return NAN;
  if (x == 1) return INFINITY;
  if (x < 1) return NAN;
  if (q <= 0) {
    if (q == std::floor(q)) return INFINITY;
    if (x != std::floor(x)) return NAN;
  }
  // B_2k / (2k)!
  constexpr double kB[] = {1.0 / 6 / 2,
                           -1.0 / 30 / 24,
                           1.0 / 42 / 720,
                           -1.0 / 30 / 40320,
                           5.0 / 66 / 3628800,
                           -691.0 / 2730 / 479001600,
                           7.0 / 6 / 87178291200.0,
                           -3617.0 / 510 / 20922789888000.0,
                           43867.0 / 798 / 6402373705728000.0,
                           -174611.0 / 330 / 2432902008176640000.0,
                           854513.0 / 138 / 1124000727777607680000.0,
                           -236364091.0 / 2730 / 620448401733239439360000.0};
  double sum = std::pow(q, -x);
  double a = q;
  int i = 0;
  while (i < 9 || a <= 9) {
    a += 1.0;
    ++i;
    const double b = std::pow(a, -x);
    sum += b;
    if (std::fabs(b / sum) < 1e-17) return sum;
  }
  // the tail from a on: a^(1-x)/(x-1) - a^-x/2 (a's own term is in the sum) + corrections
  double w = std::pow(a, -x);
  sum += a * w / (x - 1) - 0.5 * w;
  double factor = x * w / a;  // x (x+1) ... (x+2k-2) a^(-x-2k+1)
  for (int k = 0; k < 12; ++k) {
    const double t = kB[k] * factor;
    sum += t;
    if (std::fabs(t / sum) < 1e-17) break;
    factor *= (x + 2 * k + 1) * (x + 2 * k + 2) / (a * a);
  }
  return sum;
}

/// The regularized incomplete gamma functions P(a, x) (or Q = 1 - P with `upper`): the series for x < a + 1,
/// Lentz's continued fraction for Q beyond; the prefactor x^a e^-x / Gamma(a) in logs. NaN for a or x < 0
/// (and both 0); a = 0 is P = 1 for x > 0; x = inf is P = 1.
TH_HOST_DEVICE inline double igamma(double a, double x, bool upper) {
  if (std::isnan(a) || std::isnan(x) || a < 0 || x < 0 || (a == 0 && x == 0)) return NAN;
  if (a == 0) return upper ? 0.0 : 1.0;
  if (x == 0) return upper ? 1.0 : 0.0;
  if (std::isinf(a)) return std::isinf(x) ? NAN : (upper ? 1.0 : 0.0);
  if (std::isinf(x)) return upper ? 0.0 : 1.0;
  const double log_prefix = a * std::log(x) - x - std::lgamma(a);
  if (x < a + 1) {  // P = prefix / a * sum_n x^n / ((a+1) ... (a+n))
    double term = 1.0 / a, sum = term, ap = a;
    for (int n = 0; n < 100000; ++n) {
      ap += 1;
      term *= x / ap;
      sum += term;
      if (term < sum * 1e-17) break;
    }
    const double p = sum * std::exp(log_prefix);
    return upper ? 1.0 - p : p;
  }
  // Q = prefix * 1 / (x + 1 - a - 1 (1 - a) / (x + 3 - a - ...)) by the modified Lentz method
  constexpr double kTiny = 1e-300;
  double b = x + 1 - a, c = 1.0 / kTiny, d = 1.0 / b, h = d;
  for (int i = 1; i < 100000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = b + an / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1.0) < 1e-16) break;
  }
  const double q = std::exp(log_prefix) * h;
  return upper ? q : 1.0 - q;
}

/// d sample / d alpha of a Gamma(alpha, 1) sample x, by implicit differentiation of its distribution function
/// P(alpha, x) (the reparameterization of Figurnov et al. 2018): -(dP/dalpha) / p(x), dP/dalpha from the
/// series P = sum_n x^(alpha+n) e^-x / Gamma(alpha+n+1), differentiated term by term (d/dalpha of a term is
/// the term times log x - psi(alpha+n+1)).
TH_HOST_DEVICE inline double standard_gamma_grad(double alpha, double x) {
  if (std::isnan(alpha) || std::isnan(x) || !(alpha > 0) || !(x > 0) || std::isinf(x)) return 0.0;
  const double log_x = std::log(x);
  double term = std::exp(alpha * log_x - x - std::lgamma(alpha + 1)), psi = th::math::digamma(alpha + 1);
  double sum = 0.0;
  for (int n = 0; n < 100000; ++n) {
    const double t = term * (log_x - psi);
    sum += t;
    const double z = alpha + n + 1;
    if (n > x && std::fabs(t) <= 1e-17 * std::fabs(sum)) break;
    term *= x / z;
    psi += 1.0 / z;
    if (term == 0) break;
  }
  const double density = std::exp((alpha - 1) * log_x - x - std::lgamma(alpha));
  return density > 0 ? -sum / density : 0.0;
}

/// The degree of a polynomial from its (floating) argument: negative degrees give 0, as PyTorch.
TH_HOST_DEVICE inline int64_t degree(double n) { return std::isnan(n) ? -1 : int64_t(n); }

/// p_n(x) of a family of polynomials by its three-term recurrence p_{k+1} = next(k, p_k, p_{k-1}) from p_0 =
/// 1 and p_1 (0 for n < 0).
template <typename Next>
TH_HOST_DEVICE double recurrence(int64_t n, double p1, Next next) {
  if (n < 0) return 0.0;
  if (n == 0) return 1.0;
  double prev = 1.0, cur = p1;
  for (int64_t k = 1; k < n; ++k) {
    const double following = next(double(k), cur, prev);
    prev = cur;
    cur = following;
  }
  return cur;
}

/// Chebyshev polynomials of the first to fourth kind (T, U, V, W) of degree n at x: the three-term
/// recurrence p_{k+1} = 2x p_k - p_{k-1} from p_0 = 1 and p_1 = x, 2x, 2x - 1, 2x + 1 (for degrees above 6
/// inside (-1, 1), their trigonometric forms, as PyTorch).
TH_HOST_DEVICE inline double chebyshev(double x, double n_, char kind) {
  const int64_t n = degree(n_);
  if (n < 0) return 0.0;
  if (n == 0) return 1.0;
  if (n > 6 && std::fabs(x) < 1) {  // the trigonometric forms at x = cos(theta): no long recurrence
    const double theta = std::acos(x), m = double(n);
    switch (kind) {
      case 'T': return std::cos(m * theta);
      case 'U': return std::sin((m + 1) * theta) / std::sin(theta);
      case 'V': return std::cos((m + 0.5) * theta) / std::cos(0.5 * theta);
      default: return std::sin((m + 0.5) * theta) / std::sin(0.5 * theta);
    }
  }
  const double p1 = kind == 'T' ? x : kind == 'U' ? 2 * x : kind == 'V' ? 2 * x - 1 : 2 * x + 1;
  return recurrence(n, p1, [=](double, double p, double q) { return 2 * x * p - q; });
}

/// Hermite polynomials: the physicists' H (H_{k+1} = 2x H_k - 2k H_{k-1}) or the probabilists' He
/// (He_{k+1} = x He_k - k He_{k-1}).
TH_HOST_DEVICE inline double hermite(double x, double n, bool physicists) {
  const double s = physicists ? 2.0 : 1.0;
  return recurrence(degree(n), s * x, [=](double k, double p, double q) { return s * (x * p - k * q); });
}

/// Laguerre polynomials: L_{k+1} = ((2k + 1 - x) L_k - k L_{k-1}) / (k + 1).
TH_HOST_DEVICE inline double laguerre(double x, double n) {
  return recurrence(degree(n), 1.0 - x,
                    [=](double k, double p, double q) { return ((2 * k + 1 - x) * p - k * q) / (k + 1); });
}

/// Legendre polynomials: P_{k+1} = ((2k + 1) x P_k - k P_{k-1}) / (k + 1).
TH_HOST_DEVICE inline double legendre(double x, double n) {
  return recurrence(degree(n), x,
                    [=](double k, double p, double q) { return ((2 * k + 1) * x * p - k * q) / (k + 1); });
}

/// A double result as T (through float for the 16-bit types, which convert from float).
template <typename T>
TH_HOST_DEVICE T from_double(double r) {
  if constexpr (std::is_same_v<T, double>) {
    return r;
  } else {
    return T(float(r));
  }
}

}  // namespace th::math::special

namespace th::math {

#define TH_DEFINE_SPECIAL_UNARY_FUNCTOR(name, Functor, expr) \
  struct Functor {                                           \
    static constexpr int arity = 1;                          \
    template <typename T>                                    \
    TH_HOST_DEVICE T operator()(T x_) const {                \
      const double x = double(x_);                           \
      return special::from_double<T>(expr);                  \
    }                                                        \
  };
#define TH_DEFINE_SPECIAL_BINARY_FUNCTOR(name, Functor, expr) \
  struct Functor {                                            \
    static constexpr int arity = 2;                           \
    template <typename T>                                     \
    TH_HOST_DEVICE T operator()(T x_, T y_) const {           \
      const double x = double(x_), y = double(y_);            \
      return special::from_double<T>(expr);                   \
    }                                                         \
  };
TH_SPECIAL_UNARY_OPS(TH_DEFINE_SPECIAL_UNARY_FUNCTOR)
TH_SPECIAL_BINARY_OPS(TH_DEFINE_SPECIAL_BINARY_FUNCTOR)
#undef TH_DEFINE_SPECIAL_UNARY_FUNCTOR
#undef TH_DEFINE_SPECIAL_BINARY_FUNCTOR

/// The op ids the special kernels switch on.
enum class SpecialOp {
#define TH_SPECIAL_ENUM(name, Functor, expr) Functor,
  TH_SPECIAL_UNARY_OPS(TH_SPECIAL_ENUM) TH_SPECIAL_BINARY_OPS(TH_SPECIAL_ENUM)
#undef TH_SPECIAL_ENUM
};

/// Calls f(Functor{}) for `op` (the one switch both backends share; Functor::arity says how many inputs the
/// iterator has).
template <typename F>
void with_special_functor(SpecialOp op, F&& f) {
  switch (op) {
#define TH_SPECIAL_CASE(name, Functor, expr) \
  case SpecialOp::Functor: return f(Functor{});
    TH_SPECIAL_UNARY_OPS(TH_SPECIAL_CASE) TH_SPECIAL_BINARY_OPS(TH_SPECIAL_CASE)
#undef TH_SPECIAL_CASE
  }
}

}  // namespace th::math
