#pragma once
// Scalar math of the activation functions (THNN and THCUNN share these): each forward functor computes
// y from x, each backward functor the input gradient from (grad, x), in the op's math type (opmath_t).
#include <cmath>

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

/// threshold: `value` where x <= threshold, else x (NaN stays), in T (the integer types too, as PyTorch).
template <typename T>
struct Threshold {
  T threshold, value;
  TH_HOST_DEVICE T operator()(T x) const { return x <= threshold ? value : x; }
};

/// d relu / dx: the gradient passes where the input was above `threshold`.
template <typename T>
struct ThresholdBackward {
  T threshold;
  TH_HOST_DEVICE T operator()(T grad, T x) const { return x > threshold ? grad : T(0); }
};

/// The activations of torch.nn.functional with parameters (p0, p1, p2; unused ones are 0).
enum class ActivationOp {
  GeluErf,      // x * Phi(x)
  GeluTanh,     // gelu's tanh approximation
  Silu,         // x * sigmoid(x)
  Elu,          // p0 = alpha, p1 = scale, p2 = input_scale (selu and celu are elus)
  LeakyRelu,    // p0 = negative_slope
  Hardtanh,     // p0 = min_val, p1 = max_val
  Hardswish,    //
  Hardsigmoid,  //
  Softplus,     // p0 = beta, p1 = threshold
  Mish,         // x * tanh(softplus(x))
  LogSigmoid,   // log(sigmoid(x))
};

struct ActivationParams {
  double p0 = 0, p1 = 0, p2 = 0;
};

template <typename A>
TH_HOST_DEVICE A softplus_of(A x) {  // log(1 + exp(x)), without overflow
  return x > A(0) ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

template <typename A>
TH_HOST_DEVICE A sigmoid_of(A x) {
  return A(1) / (A(1) + std::exp(-x));
}

/// GELU and SiLU split at their transcendental functions: `*_arg(x)` is what erf / tanh / exp is applied
/// to, the other functions finish the formula from those values. The functors below compose them with
/// std::erf / tanh / exp; the CPU's vectorized path (cpu/ActivationKernels.cpp) computes the
/// transcendentals a block at a time (TH's VecKernels) and finishes with the same functions.
namespace act {
template <typename A>
TH_HOST_DEVICE A gelu_erf_arg(A x) {  // erf(x / sqrt(2))
  return x * A(0.70710678118654752440);
}
template <typename A>
TH_HOST_DEVICE A gelu_exp_arg(A x) {  // the normal density's exp(-x^2 / 2)
  return A(-0.5) * x * x;
}
template <typename A>
TH_HOST_DEVICE A gelu_erf(A x, A erf_v) {
  return x * A(0.5) * (A(1) + erf_v);
}
template <typename A>
TH_HOST_DEVICE A gelu_erf_backward(A grad, A x, A erf_v, A exp_v) {
  const A cdf = A(0.5) * (A(1) + erf_v), pdf = exp_v * A(0.39894228040143267794);
  return grad * (cdf + x * pdf);
}
template <typename A>
TH_HOST_DEVICE A gelu_tanh_arg(A x) {
  return A(0.79788456080286535588) * (x + A(0.044715) * x * x * x);
}
template <typename A>
TH_HOST_DEVICE A gelu_tanh(A x, A t) {
  return A(0.5) * x * (A(1) + t);
}
template <typename A>
TH_HOST_DEVICE A gelu_tanh_backward(A grad, A x, A t) {
  const A k = A(0.79788456080286535588), c = A(0.044715);
  return grad * (A(0.5) * (A(1) + t) + A(0.5) * x * (A(1) - t * t) * k * (A(1) + A(3) * c * x * x));
}
template <typename A>
TH_HOST_DEVICE A silu(A x, A sigmoid_v) {
  return x * sigmoid_v;
}
template <typename A>
TH_HOST_DEVICE A silu_backward(A grad, A x, A s) {
  return grad * s * (A(1) + x * (A(1) - s));
}
}  // namespace act

/// y = op(x).
struct ActivationForward {
  ActivationOp op;
  ActivationParams p;
  template <typename A>
  TH_HOST_DEVICE A operator()(A x) const {
    switch (op) {
      case ActivationOp::GeluErf: return act::gelu_erf(x, A(std::erf(act::gelu_erf_arg(x))));
      case ActivationOp::GeluTanh: return act::gelu_tanh(x, A(std::tanh(act::gelu_tanh_arg(x))));
      case ActivationOp::Silu: return act::silu(x, sigmoid_of(x));
      case ActivationOp::Elu:
        return x > A(0) ? A(p.p1) * x : A(p.p1) * A(p.p0) * (std::exp(x * A(p.p2)) - A(1));
      case ActivationOp::LeakyRelu: return x > A(0) ? x : x * A(p.p0);
      case ActivationOp::Hardtanh: return x < A(p.p0) ? A(p.p0) : (x > A(p.p1) ? A(p.p1) : x);
      case ActivationOp::Hardswish: return x * relu6(x + A(3)) / A(6);
      case ActivationOp::Hardsigmoid: return relu6(x + A(3)) / A(6);
      case ActivationOp::Softplus:
        return x * A(p.p0) > A(p.p1) ? x : std::log1p(std::exp(x * A(p.p0))) / A(p.p0);
      case ActivationOp::Mish: return x * std::tanh(softplus_of(x));
      case ActivationOp::LogSigmoid: return -softplus_of(-x);
    }
    return x;
  }
  template <typename A>
  static TH_HOST_DEVICE A relu6(A v) {
    return v < A(0) ? A(0) : (v > A(6) ? A(6) : v);
  }
};

/// The input gradient grad * op'(x).
struct ActivationBackward {
  ActivationOp op;
  ActivationParams p;
  template <typename A>
  TH_HOST_DEVICE A operator()(A grad, A x) const {
    switch (op) {
      case ActivationOp::GeluErf:
        return act::gelu_erf_backward(grad, x, A(std::erf(act::gelu_erf_arg(x))),
                                      A(std::exp(act::gelu_exp_arg(x))));
      case ActivationOp::GeluTanh:
        return act::gelu_tanh_backward(grad, x, A(std::tanh(act::gelu_tanh_arg(x))));
      case ActivationOp::Silu: return act::silu_backward(grad, x, sigmoid_of(x));
      case ActivationOp::Elu:
        return x > A(0) ? grad * A(p.p1) : grad * A(p.p1) * A(p.p0) * A(p.p2) * std::exp(x * A(p.p2));
      case ActivationOp::LeakyRelu: return x > A(0) ? grad : grad * A(p.p0);
      case ActivationOp::Hardtanh: return (x <= A(p.p0) || x >= A(p.p1)) ? A(0) : grad;
      case ActivationOp::Hardswish:
        return x <= A(-3) ? A(0) : (x < A(3) ? grad * ((x / A(3)) + A(0.5)) : grad);
      case ActivationOp::Hardsigmoid:
        return (x > A(-3) && x < A(3)) ? grad * A(1.0f / 6.0f) : A(0);  // upstream's float 1/6
      case ActivationOp::Softplus: {
        if (x * A(p.p0) > A(p.p1)) return grad;
        const A z = std::exp(x * A(p.p0));
        return grad * z / (z + A(1));
      }
      case ActivationOp::Mish: {
        const A t = std::tanh(softplus_of(x));
        return grad * (t + x * sigmoid_of(x) * (A(1) - t * t));
      }
      case ActivationOp::LogSigmoid: return grad * sigmoid_of(-x);
    }
    return grad;
  }
};

/// The activations of two tensors: glu (a * sigmoid(b) of the two halves of the input) and prelu (a learned
/// slope w for x < 0), with the gradients of each argument. Inputs are (a, b), (x, w), or (grad, a, b),
/// (grad, x, w) and (grad, x) for the gradients.
enum class Activation2Op { Glu, GluGradFirst, GluGradSecond, Prelu, PreluGradInput, PreluGradWeight };

struct Activation2Forward {  // Glu, Prelu, PreluGradWeight: f(u, v)
  Activation2Op op;
  template <typename A>
  TH_HOST_DEVICE A operator()(A u, A v) const {
    switch (op) {
      case Activation2Op::Glu: return u * sigmoid_of(v);
      case Activation2Op::Prelu: return u > A(0) ? u : v * u;
      default: return u * (v > A(0) ? A(0) : v);  // PreluGradWeight: (grad, x) -> x < 0 ? grad * x : 0
    }
  }
};

struct Activation2Backward {  // GluGradFirst, GluGradSecond, PreluGradInput: f(grad, u, v)
  Activation2Op op;
  template <typename A>
  TH_HOST_DEVICE A operator()(A g, A u, A v) const {
    switch (op) {
      case Activation2Op::GluGradFirst: return g * sigmoid_of(v);
      case Activation2Op::GluGradSecond: {
        const A s = sigmoid_of(v);
        return g * u * s * (A(1) - s);
      }
      default: return u > A(0) ? g : v * g;  // PreluGradInput: (grad, x, w)
    }
  }
};

}  // namespace th::math
