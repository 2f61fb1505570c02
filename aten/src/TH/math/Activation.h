#pragma once
// Scalar math of the activation functions (THNN and THCUNN share these).
#include "../Macros.h"

namespace th::math {

template <typename T>
struct Relu {
  TH_HOST_DEVICE T operator()(T x) const { return x > T(0) ? x : T(0); }
};

/// d relu / dx: the gradient passes where the input was above `threshold`.
template <typename T>
struct ThresholdBackward {
  T threshold;
  TH_HOST_DEVICE T operator()(T grad, T x) const { return x > threshold ? grad : T(0); }
};

}  // namespace th::math
