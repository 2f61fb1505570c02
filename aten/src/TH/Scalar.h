#pragma once
// A Python number crossing into C++: bool, int or float, kept exactly.
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "Half.h"
#include "ScalarType.h"

namespace th {

/// A number argument (PyTorch's `Scalar`): remembers whether it was a bool, int or float. An int
/// past int64 (a Python int in [2^63, 2^64), c10's HAS_u) is kept as a uint64.
class Scalar {
 public:
  Scalar() : Scalar(int64_t(0)) {}
  Scalar(double v) : kind_(Kind::Float), d_(v) {}
  Scalar(int64_t v) : kind_(Kind::Int), i_(v) {}
  Scalar(uint64_t v)
      : kind_(v > uint64_t(std::numeric_limits<int64_t>::max()) ? Kind::UInt : Kind::Int), u_(v) {}
  Scalar(int v) : Scalar(int64_t(v)) {}
  Scalar(bool v) : kind_(Kind::Bool), i_(v) {}
  Scalar(complex<double> v) : kind_(Kind::Complex), d_(v.re), im_(v.im) {}

  bool is_floating_point() const { return kind_ == Kind::Float; }
  /// An int, in int64's range or past it (c10's isIntegral(false)).
  bool is_integral() const { return kind_ == Kind::Int || kind_ == Kind::UInt; }
  /// An int in [2^63, 2^64): it has no int64.
  bool is_uint64() const { return kind_ == Kind::UInt; }
  bool is_bool() const { return kind_ == Kind::Bool; }
  bool is_complex() const { return kind_ == Kind::Complex; }

  /// The value converted to T. A value T cannot hold raises PyTorch's "value cannot be converted
  /// to type uint8_t without overflow" (as c10's checked Scalar::to): an int may wrap into an
  /// unsigned type from as low as -max (uint8: -1 is 255, -256 is refused); infinities and NaN
  /// convert to the floating types only, and a finite value past a floating type's largest finite one
  /// is refused (c10's rule for every floating type: 65505.0 into float16, 449.0 into float8_e4m3fn).
  /// A float is compared with an integer type's largest value rounded to double, as c10 does, so
  /// 2.0**63 passes into int64 and 2.0**64 into uint64, and wraps (to -2^63 and 0, as upstream on
  /// x86). An int past int64 fits uint64 and the floating types only. Converting to bool is never
  /// refused.
  template <typename T>
  T to() const {
    if constexpr (is_complex_v<T>) {
      using R = real_t<T>;
      return kind_ == Kind::Complex ? T(R(d_), R(im_)) : T(to<R>());
    } else if constexpr (std::is_same_v<T, bool>) {
      if (kind_ == Kind::Complex) return d_ != 0 || im_ != 0;
      return kind_ == Kind::Float ? static_cast<bool>(d_) : static_cast<bool>(i_);
    } else {
      // a complex number converts to a real type only without an imaginary part (c10's checked to<T>)
      const bool floating = kind_ == Kind::Float || kind_ == Kind::Complex;
      bool bad = kind_ == Kind::Complex && im_ != 0;
      bad = bad || (floating              ? overflows<T>(d_)
                    : kind_ == Kind::UInt ? overflows_uint64<T>(u_)
                                          : kind_ == Kind::Int && overflows<T>(i_));
      if (bad)
        throw Error(
            detail::str("value cannot be converted to type ", cpp_type_name<T>(), " without overflow"));
      if (kind_ == Kind::UInt) {
        if constexpr (is_floating_v<T> && sizeof(T) < 4) return static_cast<T>(static_cast<float>(u_));
        return static_cast<T>(u_);
      }
      if constexpr (!is_floating_v<T> && !is_float8_v<T> && (std::is_unsigned_v<T> || sizeof(T) == 8)) {
        return floating ? static_cast<T>(float_to_uint64_bits(d_)) : static_cast<T>(i_);
      }
      return floating ? static_cast<T>(d_) : static_cast<T>(i_);
    }
  }
  /// The value as a complex number (imaginary part 0 for the real kinds).
  complex<double> to_complex() const { return to<complex<double>>(); }
  /// The dtype a tensor made from this number alone would get.
  ScalarType type() const {
    switch (kind_) {
      case Kind::Float: return ScalarType::Double;
      case Kind::Int: return ScalarType::Long;
      case Kind::UInt: return ScalarType::UInt64;
      case Kind::Complex: return ScalarType::ComplexDouble;
      default: return ScalarType::Bool;
    }
  }

 private:
  template <typename T>
  static bool overflows(double v) {
    using limits = std::numeric_limits<T>;
    if constexpr (is_floating_v<T> || is_float8_v<T>) {
      if (std::isinf(v))
        return !limits::has_infinity;  // c10: inf fits a type with one (float8_e4m3fn has none)
      return !std::isnan(v) && (v < double(limits::lowest()) || v > double(limits::max()));
    } else {  // c10 compares with max as a double: 2^63 passes into int64 (its max rounds up to it)
      return std::isnan(v) || v < double(limits::lowest()) || v > double(limits::max());
    }
  }
  template <typename T>
  static bool overflows(int64_t v) {
    using limits = std::numeric_limits<T>;
    if constexpr (is_floating_v<T> || is_float8_v<T>) {
      return double(v) < double(limits::lowest()) || double(v) > double(limits::max());
    } else if constexpr (std::is_unsigned_v<T> && sizeof(T) == 8) {
      return false;  // every int64 has a uint64 (a negative one wraps, as upstream's)
    } else if constexpr (std::is_unsigned_v<T>) {
      return v > int64_t(limits::max()) || v < -int64_t(limits::max());
    } else {
      return v < int64_t(limits::lowest()) || v > int64_t(limits::max());
    }
  }
  template <typename T>
  static bool overflows_uint64(uint64_t v) {
    if constexpr (is_floating_v<T> || is_float8_v<T>) {
      return double(v) > double(std::numeric_limits<T>::max());
    } else {
      return !(std::is_unsigned_v<T> && sizeof(T) == 8);
    }
  }
  /// A float that passed the range check as a uint64 bit pattern: a negative one through int64 (-1.0
  /// is 2^64 - 1, c10's wrap), 2^64 (the one value past uint64 c10 lets through) as 0.
  static uint64_t float_to_uint64_bits(double v) {
    if (v >= 18446744073709551616.0) return 0;
    if (v >= 9223372036854775808.0) return static_cast<uint64_t>(v);
    return static_cast<uint64_t>(static_cast<int64_t>(v));
  }
  /// The C++ type names PyTorch's overflow error gives.
  template <typename T>
  static const char* cpp_type_name() {
    if constexpr (std::is_same_v<T, uint8_t>) return "uint8_t";
    if constexpr (std::is_same_v<T, int8_t>) return "int8_t";
    if constexpr (std::is_same_v<T, int16_t>) return "int16_t";
    if constexpr (std::is_same_v<T, int32_t>) return "int";
    if constexpr (std::is_same_v<T, int64_t>) return "int64_t";
    if constexpr (std::is_same_v<T, uint16_t>) return "uint16_t";
    if constexpr (std::is_same_v<T, uint32_t>) return "uint32_t";
    if constexpr (std::is_same_v<T, uint64_t>) return "uint64_t";
    if constexpr (std::is_same_v<T, float>) return "float";
    if constexpr (std::is_same_v<T, double>) return "double";
    if constexpr (std::is_same_v<T, Half>) return "c10::Half";
    if constexpr (std::is_same_v<T, BFloat16>) return "c10::BFloat16";
    if constexpr (std::is_same_v<T, Float8_e4m3fn>) return "c10::Float8_e4m3fn";
    if constexpr (std::is_same_v<T, Float8_e5m2>) return "c10::Float8_e5m2";
    return "?";
  }

  /// The real part of a complex number as a Float-kind Scalar; other kinds are themselves.
  Scalar real_part() const { return kind_ == Kind::Complex ? Scalar(d_) : *this; }

  enum class Kind { Bool, Int, UInt, Float, Complex } kind_;
  union {
    double d_;
    int64_t i_;
    uint64_t u_;  // a UInt (past int64)
  };
  double im_ = 0;  // the imaginary part of a Complex
};

}  // namespace th
