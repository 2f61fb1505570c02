#pragma once
// A Python number crossing into C++: bool, int or float, kept exactly.
#include <cstdint>

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

  bool is_floating_point() const { return kind_ == Kind::Float; }
  bool is_integral() const { return kind_ == Kind::Int; }
  bool is_bool() const { return kind_ == Kind::Bool; }

  /// The value converted to T (the usual C++ conversion).
  template <typename T>
  T to() const {
    return kind_ == Kind::Float ? static_cast<T>(d_) : static_cast<T>(i_);
  }
  /// The dtype a tensor made from this number alone would get.
  ScalarType type() const {
    return kind_ == Kind::Float ? ScalarType::Double
                                : (kind_ == Kind::Int ? ScalarType::Long : ScalarType::Bool);
  }

 private:
  enum class Kind { Bool, Int, Float } kind_;
  union {
    double d_;
    int64_t i_;
  };
};

}  // namespace th
