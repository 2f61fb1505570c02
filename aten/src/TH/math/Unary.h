#pragma once
// Scalar math of the unary pointwise ops, written once for the CPU and CUDA kernels.
// TH_UNARY_FLOAT_OPS lists ops that compute in floating point (integer inputs are promoted
// to the default dtype, as in PyTorch); TH_UNARY_KEEP_OPS keep the input dtype.
#include <cmath>
#include <type_traits>

#include "../Half.h"
#include "../Macros.h"

// _(name, Functor, expression of x)
#define TH_UNARY_FLOAT_OPS(_)                       \
  _(exp, Exp, std::exp(x))                          \
  _(exp2, Exp2, std::exp2(x))                       \
  _(expm1, Expm1, std::expm1(x))                    \
  _(log, Log, std::log(x))                          \
  _(log2, Log2, std::log2(x))                       \
  _(log10, Log10, std::log10(x))                    \
  _(log1p, Log1p, std::log1p(x))                    \
  _(sqrt, Sqrt, std::sqrt(x))                       \
  _(rsqrt, Rsqrt, T(1) / std::sqrt(x))              \
  _(reciprocal, Reciprocal, T(1) / x)               \
  _(sin, Sin, std::sin(x))                          \
  _(cos, Cos, std::cos(x))                          \
  _(tan, Tan, std::tan(x))                          \
  _(asin, Asin, std::asin(x))                       \
  _(acos, Acos, std::acos(x))                       \
  _(atan, Atan, std::atan(x))                       \
  _(asinh, Asinh, std::asinh(x))                    \
  _(acosh, Acosh, std::acosh(x))                    \
  _(atanh, Atanh, std::atanh(x))                    \
  _(sinh, Sinh, std::sinh(x))                       \
  _(cosh, Cosh, std::cosh(x))                       \
  _(tanh, Tanh, std::tanh(x))                       \
  _(sigmoid, Sigmoid, T(1) / (T(1) + std::exp(-x))) \
  _(erf, Erf, std::erf(x))                          \
  _(erfc, Erfc, std::erfc(x))                       \
  _(frac, Frac, x - std::trunc(x))                  \
  _(sinc, Sinc, th::math::sinc(x))

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

/// sin(pi x) / (pi x), 1 at x = 0 (the normalized sinc, NumPy's and PyTorch's).
template <typename T>
TH_HOST_DEVICE T sinc(T x) {
  if (x == T(0)) return T(1);
  const T px = T(3.14159265358979323846) * x;
  return std::sin(px) / px;
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
      return expr;                                   \
    }                                                \
  };
TH_UNARY_FLOAT_OPS(TH_DEFINE_UNARY_FUNCTOR)
TH_UNARY_KEEP_OPS(TH_DEFINE_UNARY_FUNCTOR)
#undef TH_DEFINE_UNARY_FUNCTOR

/// Whether a functor computes in floating point only (its kernels exist for float types only).
template <typename Functor>
constexpr bool kUnaryFloating = false;
#define TH_UNARY_FLOATING(name, Functor, expr) \
  template <>                                  \
  constexpr bool kUnaryFloating<Functor> = true;
TH_UNARY_FLOAT_OPS(TH_UNARY_FLOATING)
#undef TH_UNARY_FLOATING

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
