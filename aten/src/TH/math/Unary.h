#pragma once
// Scalar math of the unary pointwise ops, written once for the CPU and CUDA kernels.
// TH_UNARY_FLOAT_OPS lists ops that compute in floating point (integer inputs are promoted
// to the default dtype, as in PyTorch); TH_UNARY_KEEP_OPS keep the input dtype. The expressions call
// the math functions unqualified: the functors bring std's in scope, and argument-dependent lookup
// finds th::complex's (Complex.h), so the ops listed in kUnaryComplex serve complex x too.
#include <cmath>
#include <type_traits>

#include "../Complex.h"
#include "../Half.h"
#include "../Macros.h"

// _(name, Functor, expression of x)
#define TH_UNARY_FLOAT_OPS(_)                              \
  _(exp, Exp, exp(x))                                      \
  _(exp2, Exp2, exp2(x))                                   \
  _(expm1, Expm1, expm1(x))                                \
  _(log, Log, log(x))                                      \
  _(log2, Log2, log2(x))                                   \
  _(log10, Log10, log10(x))                                \
  _(log1p, Log1p, log1p(x))                                \
  _(sqrt, Sqrt, sqrt(x))                                   \
  _(rsqrt, Rsqrt, T(1) / sqrt(x))                          \
  _(reciprocal, Reciprocal, T(1) / x)                      \
  _(sin, Sin, sin(x))                                      \
  _(cos, Cos, cos(x))                                      \
  _(tan, Tan, tan(x))                                      \
  _(asin, Asin, asin(x))                                   \
  _(acos, Acos, acos(x))                                   \
  _(atan, Atan, atan(x))                                   \
  _(asinh, Asinh, asinh(x))                                \
  _(acosh, Acosh, acosh(x))                                \
  _(atanh, Atanh, atanh(x))                                \
  _(sinh, Sinh, sinh(x))                                   \
  _(cosh, Cosh, cosh(x))                                   \
  _(tanh, Tanh, tanh(x))                                   \
  _(sigmoid, Sigmoid, T(1) / (T(1) + exp(-x)))             \
  _(erf, Erf, std::erf(x))                                 \
  _(erfc, Erfc, std::erfc(x))                              \
  _(frac, Frac, x - std::trunc(x))                         \
  _(sinc, Sinc, th::math::sinc(x))                         \
  _(lgamma, Lgamma, std::lgamma(x))                        \
  _(digamma, Digamma, T(th::math::digamma(double(x))))     \
  _(_trigamma, Trigamma, T(th::math::trigamma(double(x)))) \
  _(erfinv, Erfinv, T(th::math::erfinv(double(x))))

// ops that keep integer dtypes (rounding is the identity on integers)
#define TH_UNARY_KEEP_OPS(_)                                                            \
  _(neg, Neg, T(-x))                                                                    \
  _(abs, Abs, th::math::is_negative(x) ? T(-x) : x)                                     \
  _(sign, Sign, T((T(0) < x) - th::math::is_negative(x)))                               \
  _(floor, Floor, th::math::round_like<T>(x, [](auto v) { return std::floor(v); }))     \
  _(ceil, Ceil, th::math::round_like<T>(x, [](auto v) { return std::ceil(v); }))        \
  _(round, Round, th::math::round_like<T>(x, [](auto v) { return std::nearbyint(v); })) \
  _(trunc, Trunc, th::math::round_like<T>(x, [](auto v) { return std::trunc(v); }))

namespace th::math {

/// x < 0; false for the unsigned types (and bool) without comparing, which nvcc warns about.
template <typename T>
TH_HOST_DEVICE bool is_negative(T x) {
  if constexpr (std::is_unsigned_v<T>) {
    return false;
  } else {
    return x < T(0);
  }
}

/// sin(pi x) / (pi x), 1 at x = 0 (the normalized sinc, NumPy's and PyTorch's); for complex x too (sin found
/// by argument-dependent lookup).
template <typename T>
TH_HOST_DEVICE T sinc(T x) {
  using std::sin;
  if (x == T(0)) return T(1);
  const T px = T(3.14159265358979323846) * x;
  return sin(px) / px;
}

/// p[0] x^n + p[1] x^(n-1) + ... + p[n] (Cephes' polevl).
TH_HOST_DEVICE inline double polevl(double x, const double* p, int n) {
  double r = p[0];
  for (int i = 1; i <= n; ++i) r = r * x + p[i];
  return r;
}

/// The digamma function psi(x) = d/dx log Gamma(x), in double precision (Cephes' psi, as PyTorch computes
/// it): -inf at +0 (+inf at -0), NaN at the negative integers, the reflection formula for x < 0, the
/// recurrence up to x >= 10 and the asymptotic series there.
TH_HOST_DEVICE inline double digamma(double x) {
  constexpr double kPi = 3.14159265358979323846, kPsi10 = 2.25175258906672110764;
  if (x == 0) return std::copysign(INFINITY, -x);
  if (x < 0) {
    if (x == std::trunc(x)) return NAN;
    const double frac = x - std::trunc(x);
    return digamma(1 - x) - kPi / std::tan(kPi * frac);
  }
  double result = 0;
  while (x < 10) {
    result -= 1 / x;
    x += 1;
  }
  if (x == 10) return result + kPsi10;
  constexpr double A[] = {8.33333333333333333333E-2,  -2.10927960927960927961E-2, 7.57575757575757575758E-3,
                          -4.16666666666666666667E-3, 3.96825396825396825397E-3,  -8.33333333333333333333E-3,
                          8.33333333333333333333E-2};
  double y = 0;
  if (x < 1.0e17) {
    const double z = 1.0 / (x * x);
    y = z * polevl(z, A, 6);
  }
  return result + std::log(x) - 0.5 / x - y;
}

/// The trigamma function psi'(x) (the derivative of digamma): the reflection formula below 1/2, six steps of
/// the recurrence, then the asymptotic series (PyTorch's).
TH_HOST_DEVICE inline double trigamma(double x) {
  constexpr double kPi = 3.14159265358979323846;
  double sign = 1, result = 0;
  if (x < 0.5) {
    sign = -1;
    const double s = std::sin(kPi * x);
    result -= (kPi * kPi) / (s * s);
    x = 1 - x;
  }
  for (int i = 0; i < 6; ++i) {
    result += 1 / (x * x);
    x += 1;
  }
  const double ixx = 1 / (x * x);
  result += (1 + 1 / (2 * x) + ixx * (1. / 6 - ixx * (1. / 30 - ixx * (1. / 42)))) / x;
  return sign * result;
}

/// The inverse of erf on (-1, 1) (+-inf at +-1, NaN outside): a rational approximation refined by two Newton
/// steps on erf (PyTorch's).
TH_HOST_DEVICE inline double erfinv(double y) {
  constexpr double a[4] = {0.886226899, -1.645349621, 0.914624893, -0.140543331};
  constexpr double b[4] = {-2.118377725, 1.442710462, -0.329097515, 0.012229801};
  constexpr double c[4] = {-1.970840454, -1.624906493, 3.429567803, 1.641345311};
  constexpr double d[2] = {3.543889200, 1.637067800};
  const double y_abs = std::fabs(y);
  if (!(y_abs <= 1)) return NAN;
  if (y_abs == 1) return std::copysign(INFINITY, y);
  double x;
  if (y_abs <= 0.7) {
    const double z = y * y;
    const double num = ((a[3] * z + a[2]) * z + a[1]) * z + a[0];
    const double den = (((b[3] * z + b[2]) * z + b[1]) * z + b[0]) * z + 1;
    x = y * num / den;
  } else {
    const double z = std::sqrt(-std::log((1 - y_abs) / 2));
    const double num = ((c[3] * z + c[2]) * z + c[1]) * z + c[0];
    const double den = (d[1] * z + d[0]) * z + 1;
    x = std::copysign(num, y) / den;
  }
  constexpr double kTwoOverSqrtPi = 1.12837916709551257390;
  x -= (std::erf(x) - y) / (kTwoOverSqrtPi * std::exp(-x * x));
  x -= (std::erf(x) - y) / (kTwoOverSqrtPi * std::exp(-x * x));
  return x;
}

/// Rounding functions: applied to floating values, the identity on integers.
template <typename T, typename F>
TH_HOST_DEVICE T round_like(T x, F f) {
  if constexpr (is_floating_v<T>) {
    return f(x);
  } else {
    return x;
  }
}

#define TH_DEFINE_UNARY_FUNCTOR(name, Functor, expr) \
  struct Functor {                                   \
    template <typename T>                            \
    TH_HOST_DEVICE T operator()(T x) const {         \
      TH_USING_STD_MATH                              \
      return expr;                                   \
    }                                                \
  };
#define TH_USING_STD_MATH                                                                                  \
  using std::exp, std::exp2, std::expm1, std::log, std::log1p, std::log2, std::log10, std::sqrt, std::sin, \
      std::cos, std::tan, std::asin, std::acos, std::atan, std::asinh, std::acosh, std::atanh, std::sinh,  \
      std::cosh, std::tanh;
TH_UNARY_FLOAT_OPS(TH_DEFINE_UNARY_FUNCTOR)
TH_UNARY_KEEP_OPS(TH_DEFINE_UNARY_FUNCTOR)
#undef TH_DEFINE_UNARY_FUNCTOR
#undef TH_USING_STD_MATH

/// Whether a functor computes in floating point only (its kernels exist for float types only).
template <typename Functor>
constexpr bool kUnaryFloating = false;
#define TH_UNARY_FLOATING(name, Functor, expr) \
  template <>                                  \
  constexpr bool kUnaryFloating<Functor> = true;
TH_UNARY_FLOAT_OPS(TH_UNARY_FLOATING)
#undef TH_UNARY_FLOATING

/// The functors that also have complex kernels (the principal branches of the standard library's
/// complex functions).
template <typename Functor>
constexpr bool kUnaryComplex =
    std::is_same_v<Functor, Exp> || std::is_same_v<Functor, Exp2> || std::is_same_v<Functor, Expm1> ||
    std::is_same_v<Functor, Log> || std::is_same_v<Functor, Log1p> || std::is_same_v<Functor, Log2> ||
    std::is_same_v<Functor, Log10> || std::is_same_v<Functor, Sqrt> || std::is_same_v<Functor, Rsqrt> ||
    std::is_same_v<Functor, Reciprocal> || std::is_same_v<Functor, Sin> || std::is_same_v<Functor, Cos> ||
    std::is_same_v<Functor, Tan> || std::is_same_v<Functor, Asin> || std::is_same_v<Functor, Acos> ||
    std::is_same_v<Functor, Atan> || std::is_same_v<Functor, Asinh> || std::is_same_v<Functor, Acosh> ||
    std::is_same_v<Functor, Atanh> || std::is_same_v<Functor, Sinh> || std::is_same_v<Functor, Cosh> ||
    std::is_same_v<Functor, Tanh> || std::is_same_v<Functor, Sigmoid> || std::is_same_v<Functor, Neg> ||
    std::is_same_v<Functor, Sinc>;

/// The op ids the unary kernels switch on.
enum class UnaryOp {
#define TH_UNARY_ENUM(name, Functor, expr) Functor,
  TH_UNARY_FLOAT_OPS(TH_UNARY_ENUM) TH_UNARY_KEEP_OPS(TH_UNARY_ENUM)
#undef TH_UNARY_ENUM
};

/// Calls f(Functor{}) for the functor of `op` (the one switch both backends share).
template <typename F>
void with_unary_functor(UnaryOp op, F&& f) {
  switch (op) {
#define TH_UNARY_CASE(name, Functor, expr) \
  case UnaryOp::Functor: return f(Functor{});
    TH_UNARY_FLOAT_OPS(TH_UNARY_CASE) TH_UNARY_KEEP_OPS(TH_UNARY_CASE)
#undef TH_UNARY_CASE
  }
}

}  // namespace th::math
