#pragma once
// THNN's op entry points: neural-network functions as forward/backward pairs.
#include <TH/Scalar.h>
#include <TH/Tensor.h>

namespace th {

/// max(x, 0) elementwise.
Tensor relu(const Tensor& self);
/// relu_ in place.
Tensor& relu_(Tensor& self);
/// Gradient of threshold/relu: grad_output where self > threshold, else 0.
Tensor threshold_backward(const Tensor& grad_output, const Tensor& self, const Scalar& threshold);
/// Gradient of tanh from its output: grad_output * (1 - output^2), one fused kernel.
Tensor tanh_backward(const Tensor& grad_output, const Tensor& output);
/// Gradient of sigmoid from its output: grad_output * output * (1 - output), one fused kernel.
Tensor sigmoid_backward(const Tensor& grad_output, const Tensor& output);

}  // namespace th
