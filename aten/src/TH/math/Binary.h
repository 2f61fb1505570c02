#pragma once
// Scalar math of the binary ops, written once for the CPU and CUDA kernels.
#include <cmath>
#include <type_traits>

#include "../Complex.h"
#include "../Exception.h"
#include "../Half.h"
#include "../Macros.h"

namespace th::math {

/// Integer arithmetic wraps (two's complement), as PyTorch's does: an int32/int64 product or sum
/// is computed in the unsigned type, where wrapping is defined, so no kernel has signed overflow
/// (undefined behaviour, which UBSan reports). The narrower types compute in int, which cannot
/// overflow for them, and round back by the cast; floats are untouched.
template <typename T>
using wrapping_t = std::conditional_t<std::is_same_v<T, int32_t>, uint32_t,
                                      std::conditional_t<std::is_same_v<T, int64_t>, uint64_t, T>>;
template <typename T>
TH_HOST_DEVICE T wrapping_mul(T a, T b) {
  return static_cast<T>(wrapping_t<T>(a) * wrapping_t<T>(b));
}
template <typename T>
TH_HOST_DEVICE T wrapping_add(T a, T b) {
  return static_cast<T>(wrapping_t<T>(a) + wrapping_t<T>(b));
}

/// a + alpha * b (add and sub: sub passes -alpha).
template <typename T>
struct Add {
  T alpha;
  TH_HOST_DEVICE T operator()(T a, T b) const { return wrapping_add(a, wrapping_mul(alpha, b)); }
};

template <typename T>
struct Mul {
  TH_HOST_DEVICE T operator()(T a, T b) const { return wrapping_mul(a, b); }
};

// bool arithmetic is logical, as in PyTorch (True + True == True).
template <>
struct Add<bool> {
  bool alpha;
  TH_HOST_DEVICE bool operator()(bool a, bool b) const { return a || (alpha && b); }
};
template <>
struct Mul<bool> {
  TH_HOST_DEVICE bool operator()(bool a, bool b) const { return a && b; }
};

/// The one checked integer division every integer quotient and remainder goes through, on both
/// devices. Its two traps are handled here, never at the call site: a zero divisor raises PyTorch's
/// "ZeroDivisionError" (on the host; a CUDA kernel cannot raise, and gives 0 as the quotient and
/// `a` as the remainder instead of trapping), and lowest / -1, whose quotient does not fit, wraps
/// as two's complement does (lowest // -1 == lowest, lowest % -1 == 0, as PyTorch's CPU kernels
/// give) instead of raising SIGFPE.
template <typename T>
struct IntDivision {
  T quot, rem;  // a == quot * b + rem, rem with the sign of a (C's truncation)
};
template <typename T>
TH_HOST_DEVICE IntDivision<T> int_divide(T a, T b) {
  static_assert(std::is_integral_v<T>, "int_divide is for integer types");
  if (b == T(0)) {
#ifndef __CUDA_ARCH__
    throw Error("ZeroDivisionError");
#else
    return {T(0), a};
#endif
  }
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1)) return {T(T(0) - static_cast<std::make_unsigned_t<T>>(a)), T(0)};  // wraps, never traps
  }
  return {T(a / b), T(a % b)};
}

/// Python's floor division (rounds toward -inf); on floats like torch.div(rounding_mode='floor').
template <typename T>
TH_HOST_DEVICE T div_floor(T a, T b) {
  if constexpr (is_floating_v<T>) {
    // Python's float floordiv (and PyTorch's): from the exact remainder, so that a quotient that
    // rounds up to an integer (219.9 / 0.1) is not floored one too high
    if (b == T(0)) return a / b;
    const T mod = std::fmod(a, b);
    T div = (a - mod) / b;
    if (mod != T(0) && (b < T(0)) != (mod < T(0))) div -= T(1);
    if (div == T(0)) return std::copysign(T(0), a / b);
    T floordiv = std::floor(div);
    if (div - floordiv > T(0.5)) floordiv += T(1);
    return floordiv;
  } else {
    const auto d = int_divide(a, b);
    if constexpr (std::is_signed_v<T>) {
      if (d.rem != 0 && ((d.rem < 0) != (b < 0))) return T(d.quot - 1);
    }
    return d.quot;
  }
}

template <typename T>
TH_HOST_DEVICE T div_trunc(T a, T b) {
  if constexpr (is_floating_v<T>) {
    return std::trunc(a / b);
  } else {
    return int_divide(a, b).quot;
  }
}

/// Python's modulo: the result has the sign of the divisor.
template <typename T>
TH_HOST_DEVICE T remainder(T a, T b) {
  if constexpr (is_floating_v<T>) {
    T r = std::fmod(a, b);
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
  } else {
    const T r = int_divide(a, b).rem;
    if constexpr (std::is_signed_v<T>) {
      if (r != 0 && ((r < 0) != (b < 0))) return T(r + b);
    }
    return r;
  }
}

/// C's fmod: the result has the sign of the dividend.
template <typename T>
TH_HOST_DEVICE T fmod(T a, T b) {
  if constexpr (is_floating_v<T>) {
    return std::fmod(a, b);
  } else {
    return int_divide(a, b).rem;
  }
}

/// a ** b; integers by squaring (negative exponents give 0, or +-1 for a base of +-1, as in PyTorch).
template <typename T>
TH_HOST_DEVICE T pow(T a, T b) {
  if constexpr (is_floating_v<T>) {
    return std::pow(a, b);
  } else if constexpr (is_complex_v<T>) {
    return th::pow(a, b);
  } else {
    if constexpr (std::is_signed_v<T>) {
      if (b < 0) return a == 1 ? T(1) : (a == -1 ? T((b % 2) ? -1 : 1) : T(0));
    }
    T result = 1;
    while (b) {
      if (b & 1) result = wrapping_mul(result, a);
      b = T(b >> 1);
      if (b) a = wrapping_mul(a, a);
    }
    return result;
  }
}

/// Elementwise max/min that propagate NaN, like torch.maximum.
template <typename T>
TH_HOST_DEVICE T maximum(T a, T b) {
  if constexpr (is_floating_v<T>) {
    if (a != a || b != b) return a != a ? a : b;
  }
  return a > b ? a : b;
}
template <typename T>
TH_HOST_DEVICE T minimum(T a, T b) {
  if constexpr (is_floating_v<T>) {
    if (a != a || b != b) return a != a ? a : b;
  }
  return a < b ? a : b;
}

/// a << b of an integer type, with b read in that type (PyTorch's kernel): 0 for b < 0 or b >= the width;
/// the bits shifted past the top are dropped (a wraps).
template <typename T>
TH_HOST_DEVICE T left_shift(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    constexpr T width = T(sizeof(T) * 8);
    if (static_cast<std::make_signed_t<T>>(b) < 0 || b >= width) return T(0);
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) << b);
  } else {
    return a;  // never dispatched (the entry point refuses bool and floats)
  }
}

/// a >> b of an integer type, with b read in that type (PyTorch's kernel): arithmetic for signed types;
/// b < 0 or b >= the width (the width - 1 for signed types) shifts in only the sign (0 unsigned).
template <typename T>
TH_HOST_DEVICE T right_shift(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    constexpr T width = T(sizeof(T) * 8 - std::is_signed_v<T>);
    if (static_cast<std::make_signed_t<T>>(b) < 0 || b >= width) {
      if constexpr (std::is_signed_v<T>) {
        return static_cast<T>(a >> width);
      } else {
        return T(0);
      }
    }
    return static_cast<T>(a >> b);
  } else {
    return a;
  }
}

// _(name, Functor, expression of a and b): same dtype in and out
#define TH_BINARY_OPS(_)                                                                          \
  _(div_true, DivTrue, a / b)                                                                     \
  _(div_trunc, DivTrunc, th::math::div_trunc(a, b))                                               \
  _(div_floor, DivFloor, th::math::div_floor(a, b))                                               \
  _(remainder, Remainder, th::math::remainder(a, b))                                              \
  _(fmod, Fmod, th::math::fmod(a, b))                                                             \
  _(pow, Pow, th::math::pow(a, b))                                                                \
  _(atan2, Atan2, th::math::float_only<T>(a, b, [](auto x, auto y) { return std::atan2(x, y); })) \
  _(maximum, Maximum, th::math::maximum(a, b))                                                    \
  _(minimum, Minimum, th::math::minimum(a, b))                                                    \
  _(bitwise_and, BitwiseAnd, th::math::bits(a, b, [](auto x, auto y) { return x & y; }))          \
  _(bitwise_or, BitwiseOr, th::math::bits(a, b, [](auto x, auto y) { return x | y; }))            \
  _(bitwise_xor, BitwiseXor, th::math::bits(a, b, [](auto x, auto y) { return x ^ y; }))          \
  _(bitwise_left_shift, LeftShift, th::math::left_shift(a, b))                                    \
  _(bitwise_right_shift, RightShift, th::math::right_shift(a, b))

// _(name, Functor, expression of a and b): bool out
#define TH_COMPARE_OPS(_)                        \
  _(eq, Eq, a == b)                              \
  _(ne, Ne, a != b)                              \
  _(lt, Lt, a < b)                               \
  _(le, Le, a <= b)                              \
  _(gt, Gt, a > b)                               \
  _(ge, Ge, a >= b)                              \
  _(logical_and, LogicalAnd, bool(a) && bool(b)) \
  _(logical_or, LogicalOr, bool(a) || bool(b))   \
  _(logical_xor, LogicalXor, bool(a) != bool(b))

/// Ops defined on floating types only (the kernels dispatch them over floats).
template <typename T, typename F>
TH_HOST_DEVICE T float_only(T a, T b, F f) {
  if constexpr (is_floating_v<T>) {
    return f(a, b);
  } else {
    return T(0);
  }
}

/// Bitwise ops: integers and bool only (the kernels never dispatch floats here).
template <typename T, typename F>
TH_HOST_DEVICE T bits(T a, T b, F f) {
  if constexpr (std::is_integral_v<T>) {
    return T(f(a, b));
  } else {
    return T(0);
  }
}

#define TH_DEFINE_BINARY_FUNCTOR(name, Functor, expr) \
  struct Functor {                                    \
    template <typename T>                             \
    TH_HOST_DEVICE T operator()(T a, T b) const {     \
      return expr;                                    \
    }                                                 \
  };
TH_BINARY_OPS(TH_DEFINE_BINARY_FUNCTOR)
#undef TH_DEFINE_BINARY_FUNCTOR

#define TH_DEFINE_COMPARE_FUNCTOR(name, Functor, expr) \
  struct Functor {                                     \
    template <typename T>                              \
    TH_HOST_DEVICE bool operator()(T a, T b) const {   \
      return expr;                                     \
    }                                                  \
  };
TH_COMPARE_OPS(TH_DEFINE_COMPARE_FUNCTOR)
#undef TH_DEFINE_COMPARE_FUNCTOR

enum class BinaryOp {
#define TH_BINARY_ENUM(name, Functor, expr) Functor,
  TH_BINARY_OPS(TH_BINARY_ENUM) TH_COMPARE_OPS(TH_BINARY_ENUM)
#undef TH_BINARY_ENUM
};

/// Which dtypes a functor's kernels are instantiated for (the entry points enforce the same).
template <typename Functor>
constexpr bool kFloatingOnly = std::is_same_v<Functor, Atan2> || std::is_same_v<Functor, DivTrue>;
template <typename Functor>
constexpr bool kIntegralOnly = std::is_same_v<Functor, BitwiseAnd> || std::is_same_v<Functor, BitwiseOr> ||
                               std::is_same_v<Functor, BitwiseXor> || std::is_same_v<Functor, LeftShift> ||
                               std::is_same_v<Functor, RightShift>;

/// The functors that also have complex kernels (true division, powers, equality); add, sub and mul
/// have their own stubs, which take complex too.
template <typename Functor>
constexpr bool kBinaryComplex =
    std::is_same_v<Functor, DivTrue> || std::is_same_v<Functor, Pow> || std::is_same_v<Functor, Eq> ||
    std::is_same_v<Functor, Ne> || std::is_same_v<Functor, LogicalAnd> ||
    std::is_same_v<Functor, LogicalOr> || std::is_same_v<Functor, LogicalXor>;

/// Calls f(Functor{}) for the functor of `op` (the one switch both backends share).
template <typename F>
void with_binary_functor(BinaryOp op, F&& f) {
  switch (op) {
#define TH_BINARY_CASE(name, Functor, expr) \
  case BinaryOp::Functor: return f(Functor{});
    TH_BINARY_OPS(TH_BINARY_CASE) TH_COMPARE_OPS(TH_BINARY_CASE)
#undef TH_BINARY_CASE
  }
}

/// The binary functors whose kernels read a CPU scalar at opmath_t, as PyTorch's do (mul has its
/// own stub and kernel; Mul is read the same way there).
template <typename Functor>
constexpr bool kScalarAtOpmath = std::is_same_v<Functor, DivTrue> || std::is_same_v<Functor, DivTrunc> ||
                                 std::is_same_v<Functor, DivFloor>;

/// The accumulator type of sums: wide enough not to lose precision or overflow (at least opmath_t:
/// float for the 16-bit floats).
template <typename T>
struct acc_type {
  using type = opmath_t<T>;
};
template <>
struct acc_type<float> {
  using type = double;
};
template <>
struct acc_type<complex<float>> {
  using type = complex<double>;
};
template <>
struct acc_type<bool> {  // counting, not logic (sum/prod of bools cast to int64 first anyway)
  using type = int64_t;
};

}  // namespace th::math
