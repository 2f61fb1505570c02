#pragma once
// Scalar math of the activation functions (THNN and THCUNN share these).
#include <TH/Macros.h>

namespace th::math {

template <typename T>
struct Relu {
  TH_HOST_DEVICE T operator()(T x) const { return x > T(0) ? x : T(0); }
};

/// d tanh / dx from the output y = tanh(x): grad * (1 - y^2).
struct TanhBackward {
  template <typename T>
  TH_HOST_DEVICE T operator()(T grad, T y) const {
    return grad * (T(1) - y * y);
  }
};

/// d sigmoid / dx from the output y = sigmoid(x): grad * y * (1 - y).
struct SigmoidBackward {
  template <typename T>
  TH_HOST_DEVICE T operator()(T grad, T y) const {
    return grad * ((T(1) - y) * y);
  }
};

/// The activations whose backward is computed from their output.
enum class OutputBackward { Tanh, Sigmoid };

/// Calls f(Functor{}) for `op` (the one switch THNN and THCUNN share).
template <typename F>
void with_output_backward(OutputBackward op, F&& f) {
  switch (op) {
    case OutputBackward::Tanh: return f(TanhBackward{});
    case OutputBackward::Sigmoid: return f(SigmoidBackward{});
  }
}

/// d relu / dx: the gradient passes where the input was above `threshold`.
template <typename T>
struct ThresholdBackward {
  T threshold;
  TH_HOST_DEVICE T operator()(T grad, T x) const { return x > threshold ? grad : T(0); }
};

}  // namespace th::math
