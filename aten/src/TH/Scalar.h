#pragma once
// A Python number crossing into C++: bool, int or float, kept exactly.
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "Half.h"
#include "ScalarType.h"

namespace th {

/// A number argument (PyTorch's `Scalar`): remembers whether it was a bool, int or float.
class Scalar {
 public:
  Scalar() : Scalar(int64_t(0)) {}
  Scalar(double v) : kind_(Kind::Float), d_(v) {}
  Scalar(int64_t v) : kind_(Kind::Int), i_(v) {}
  Scalar(int v) : Scalar(int64_t(v)) {}
  Scalar(bool v) : kind_(Kind::Bool), i_(v) {}
  Scalar(complex<double> v) : kind_(Kind::Complex), d_(v.re), im_(v.im) {}

  bool is_floating_point() const { return kind_ == Kind::Float; }
  bool is_integral() const { return kind_ == Kind::Int; }
  bool is_bool() const { return kind_ == Kind::Bool; }
  bool is_complex() const { return kind_ == Kind::Complex; }

  /// The value converted to T. A value T cannot hold raises PyTorch's "value cannot be converted
  /// to type uint8_t without overflow" (as c10's checked Scalar::to): an int may wrap into an
  /// unsigned type from as low as -max (uint8: -1 is 255, -256 is refused); infinities and NaN
  /// convert to the floating types only, and a finite value past a floating type's largest finite one
  /// is refused (c10's rule for every floating type: 65505.0 into float16, 449.0 into float8_e4m3fn).
  /// Converting to bool is never refused.
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
      bad = bad || (floating ? overflows<T>(d_) : kind_ == Kind::Int && overflows<T>(i_));
      if (bad)
        throw Error(
            detail::str("value cannot be converted to type ", cpp_type_name<T>(), " without overflow"));
      if constexpr (std::is_unsigned_v<T>) {  // a negative float wraps through int64, as c10's
        return floating ? static_cast<T>(static_cast<int64_t>(d_)) : static_cast<T>(i_);
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
    } else {
      // 2^63 itself does not fit int64 (its max rounds up to it as a double)
      return !std::isfinite(v) || v < double(limits::lowest()) || v >= std::ldexp(1.0, limits::digits);
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

  enum class Kind { Bool, Int, Float, Complex } kind_;
  union {
    double d_;
    int64_t i_;
  };
  double im_ = 0;  // the imaginary part of a Complex
};

}  // namespace th
