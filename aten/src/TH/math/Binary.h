#pragma once
// Scalar math of the binary ops, written once for the CPU and CUDA kernels.
#include "../Macros.h"

namespace th::math {

/// a + alpha * b (add and sub: sub passes -alpha).
template <typename T>
struct Add {
  T alpha;
  TH_HOST_DEVICE T operator()(T a, T b) const { return static_cast<T>(a + alpha * b); }
};

template <typename T>
struct Mul {
  TH_HOST_DEVICE T operator()(T a, T b) const { return static_cast<T>(a * b); }
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

/// The accumulator type of sums: wide enough not to lose precision or overflow.
template <typename T>
struct acc_type {
  using type = T;
};
template <>
struct acc_type<float> {
  using type = double;
};

}  // namespace th::math
