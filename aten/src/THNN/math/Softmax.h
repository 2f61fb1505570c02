#pragma once
// Scalar math of softmax / log_softmax along one line of n elements (stride apart), written once for
// the CPU and CUDA kernels (THNN/cpu/SoftmaxKernels.cpp, THCUNN/SoftmaxKernels.cu). Accumulates in
// opmath_t (float for the 16-bit floats). A NaN anywhere in a line makes the whole line NaN, as in
// PyTorch.
#include <cmath>
#include <cstdint>

#include <TH/Half.h>
#include <TH/Macros.h>

namespace th::math {

/// out = softmax(in) (or log_softmax with `log`) of the line in[0], in[stride], ... in[(n-1)*stride].
template <typename T>
TH_HOST_DEVICE void softmax_line(const T* in, T* out, int64_t n, int64_t stride, bool log) {
  using A = opmath_t<T>;
  A m = -INFINITY;
  for (int64_t k = 0; k < n; ++k) {
    const A x = A(in[k * stride]);
    m = x > m ? x : m;
  }
  A s = 0;
  for (int64_t k = 0; k < n; ++k) s += std::exp(A(in[k * stride]) - m);
  if (log) {
    const A log_s = std::log(s);  // (x - max) - log(sum): exact where max is large (max + log(sum) rounds)
    for (int64_t k = 0; k < n; ++k) out[k * stride] = T((A(in[k * stride]) - m) - log_s);
  } else {
    const A inv = A(1) / s;
    for (int64_t k = 0; k < n; ++k) out[k * stride] = T(std::exp(A(in[k * stride]) - m) * inv);
  }
}

/// The input gradient of one line from the output y and its gradient g: softmax y * (g - sum(g * y)),
/// log_softmax g - exp(y) * sum(g).
template <typename T>
TH_HOST_DEVICE void softmax_backward_line(const T* grad, const T* y, T* grad_in, int64_t n, int64_t stride,
                                          bool log) {
  using A = opmath_t<T>;
  A s = 0;
  for (int64_t k = 0; k < n; ++k) s += log ? A(grad[k * stride]) : A(grad[k * stride]) * A(y[k * stride]);
  for (int64_t k = 0; k < n; ++k) {
    const A g = A(grad[k * stride]), v = A(y[k * stride]);
    grad_in[k * stride] = T(log ? g - std::exp(v) * s : v * (g - s));
  }
}

}  // namespace th::math
