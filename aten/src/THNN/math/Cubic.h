#pragma once
// Keys' cubic convolution (a = -0.75, PyTorch's): the weights of the four taps x0 - 1 .. x0 + 2 around a
// point at fraction t in [0, 1) past x0, and their derivatives with respect to t. Bicubic interpolation
// (math/Upsample.h) and bicubic grid sampling (math/GridSample.h) share them.
#include <TH/Macros.h>

namespace th::math {

template <typename A>
TH_HOST_DEVICE void cubic_weights(A t, A w[4]) {
  const A a = A(-0.75);
  const auto near = [a](A d) { return ((a + A(2)) * d - (a + A(3))) * d * d + A(1); };       // |d| <= 1
  const auto far = [a](A d) { return ((a * d - A(5) * a) * d + A(8) * a) * d - A(4) * a; };  // 1 < |d| < 2
  w[0] = far(t + A(1));
  w[1] = near(t);
  w[2] = near(A(1) - t);
  w[3] = far(A(2) - t);
}

/// d w[k] / d t of cubic_weights.
template <typename A>
TH_HOST_DEVICE void cubic_weight_grads(A t, A dw[4]) {
  const A a = A(-0.75);
  const auto near = [a](A d) { return (A(3) * (a + A(2)) * d - A(2) * (a + A(3))) * d; };  // d near / d d
  const auto far = [a](A d) { return (A(3) * a * d - A(10) * a) * d + A(8) * a; };         // d far / d d
  dw[0] = far(t + A(1));
  dw[1] = near(t);
  dw[2] = -near(A(1) - t);
  dw[3] = -far(A(2) - t);
}

}  // namespace th::math
