// Entry points of the activation family: relu forward/backward, tanh/sigmoid backward, and the activations
// of torch.nn.functional with their fused backward (gelu, silu, elu, leaky_relu, hardtanh, hardswish,
// hardsigmoid, softplus, mish, log_sigmoid, threshold; glu and prelu over two tensors; the kernels:
// cpu/ActivationKernels.cpp, THCUNN/ActivationKernels.cu).
#include <string>
#include <utility>

#include <TH/Functions.h>
#include <TH/TensorIterator.h>

#include "../Functions.h"
#include "Activation.h"

namespace th {

TH_DEFINE_STUB(relu_fn, relu_stub);
TH_DEFINE_STUB(activation2_fn, activation2_stub);
TH_DEFINE_STUB(activation_fn, activation_stub);
TH_DEFINE_STUB(activation_backward_fn, activation_backward_stub);
TH_DEFINE_STUB(threshold_fn, threshold_stub);
TH_DEFINE_STUB(threshold_backward_fn, threshold_backward_stub);
TH_DEFINE_STUB(output_backward_fn, output_backward_stub);

namespace {
void check_not_bool(const Tensor& t, const char* op) {
  TH_CHECK(t.dtype() != ScalarType::Bool, "Boolean inputs not supported for ", op);
}
}  // namespace

Tensor relu(const Tensor& self) {
  check_not_bool(self, "relu");
  TensorIterator iter = TensorIteratorConfig().add_output(Tensor()).add_input(self).build();
  relu_stub[iter.device().type](iter);
  return iter.output();
}

Tensor& relu_(Tensor& self) {
  check_not_bool(self, "relu");
  TensorIterator iter = TensorIteratorConfig().add_output(self).add_input(self).build();
  relu_stub[iter.device().type](iter);
  return self;
}

Tensor threshold_backward(const Tensor& grad_output, const Tensor& self, const Scalar& threshold) {
  TensorIterator iter =
      TensorIteratorConfig().add_output(Tensor()).add_input(grad_output).add_input(self).build();
  threshold_backward_stub[iter.device().type](iter, threshold);
  return iter.output();
}

namespace {
Tensor output_backward(const Tensor& grad_output, const Tensor& output, math::OutputBackward op,
                       const char* name) {
  TH_CHECK(is_floating_point(grad_output.dtype()) && is_floating_point(output.dtype()), "\"", name,
           "\" not implemented for '", scalar_type_cpp_name(output.dtype()), "'");
  TensorIterator iter =
      TensorIteratorConfig().add_output(Tensor()).add_input(grad_output).add_input(output).build();
  output_backward_stub[iter.device().type](iter, op);
  return iter.output();
}
}  // namespace

Tensor tanh_backward(const Tensor& grad_output, const Tensor& output) {
  return output_backward(grad_output, output, math::OutputBackward::Tanh, "tanh_backward");
}

Tensor sigmoid_backward(const Tensor& grad_output, const Tensor& output) {
  return output_backward(grad_output, output, math::OutputBackward::Sigmoid, "sigmoid_backward");
}

namespace {

using math::ActivationOp;
using math::ActivationParams;

void check_floating(const Tensor& t, const char* kernel) {
  TH_CHECK_T(NotImplementedError, is_floating_point(t.dtype()), "\"", kernel, "\" not implemented for '",
             scalar_type_cpp_name(t.dtype()), "'");
}

Tensor activation(const Tensor& self, ActivationOp op, ActivationParams p, const char* kernel) {
  check_floating(self, kernel);
  TensorIterator iter = TensorIteratorConfig().add_output(Tensor()).add_input(self).build();
  activation_stub[iter.device().type](iter, op, p);
  return iter.output();
}

Tensor activation_backward(const Tensor& grad_output, const Tensor& self, ActivationOp op, ActivationParams p,
                           const char* kernel) {
  check_floating(self, kernel);
  TensorIterator iter =
      TensorIteratorConfig().add_output(Tensor()).add_input(grad_output).add_input(self).build();
  activation_backward_stub[iter.device().type](iter, op, p);
  return iter.output();
}

ActivationOp gelu_op(const std::string& approximate) {
  TH_CHECK(approximate == "none" || approximate == "tanh",
           "approximate argument must be either none or tanh.");
  return approximate == "tanh" ? ActivationOp::GeluTanh : ActivationOp::GeluErf;
}

double d(const Scalar& s) { return s.to<double>(); }

}  // namespace

Tensor gelu(const Tensor& self, const std::string& approximate) {
  return activation(self, gelu_op(approximate), {}, "GeluKernelImpl");
}
Tensor gelu_backward(const Tensor& grad_output, const Tensor& self, const std::string& approximate) {
  return activation_backward(grad_output, self, gelu_op(approximate), {}, "GeluBackwardKernelImpl");
}
Tensor silu(const Tensor& self) { return activation(self, ActivationOp::Silu, {}, "silu_cpu"); }
Tensor silu_backward(const Tensor& grad_output, const Tensor& self) {
  return activation_backward(grad_output, self, ActivationOp::Silu, {}, "silu_backward");
}
Tensor elu(const Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) {
  return activation(self, ActivationOp::Elu, {d(alpha), d(scale), d(input_scale)}, "elu_cpu");
}
Tensor elu_backward(const Tensor& grad_output, const Tensor& self, const Scalar& alpha, const Scalar& scale,
                    const Scalar& input_scale) {
  return activation_backward(grad_output, self, ActivationOp::Elu, {d(alpha), d(scale), d(input_scale)},
                             "elu_backward");
}
Tensor leaky_relu(const Tensor& self, const Scalar& negative_slope) {
  return activation(self, ActivationOp::LeakyRelu, {d(negative_slope)}, "leaky_relu_cpu");
}
Tensor leaky_relu_backward(const Tensor& grad_output, const Tensor& self, const Scalar& negative_slope) {
  return activation_backward(grad_output, self, ActivationOp::LeakyRelu, {d(negative_slope)},
                             "leaky_relu_backward");
}
Tensor hardtanh(const Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  TH_CHECK(d(min_val) <= d(max_val), "hardtanh: min_val must be less than or equal to max_val");
  return activation(self, ActivationOp::Hardtanh, {d(min_val), d(max_val)}, "hardtanh_cpu");
}
Tensor hardtanh_backward(const Tensor& grad_output, const Tensor& self, const Scalar& min_val,
                         const Scalar& max_val) {
  return activation_backward(grad_output, self, ActivationOp::Hardtanh, {d(min_val), d(max_val)},
                             "hardtanh_backward");
}
Tensor hardswish(const Tensor& self) {
  return activation(self, ActivationOp::Hardswish, {}, "hardswish_cpu");
}
Tensor hardswish_backward(const Tensor& grad_output, const Tensor& self) {
  return activation_backward(grad_output, self, ActivationOp::Hardswish, {}, "hardswish_backward");
}
Tensor hardsigmoid(const Tensor& self) {
  return activation(self, ActivationOp::Hardsigmoid, {}, "hardsigmoid_cpu");
}
Tensor hardsigmoid_backward(const Tensor& grad_output, const Tensor& self) {
  return activation_backward(grad_output, self, ActivationOp::Hardsigmoid, {}, "hardsigmoid_backward");
}
Tensor softplus(const Tensor& self, const Scalar& beta, const Scalar& threshold) {
  return activation(self, ActivationOp::Softplus, {d(beta), d(threshold)}, "softplus_cpu");
}
Tensor softplus_backward(const Tensor& grad_output, const Tensor& self, const Scalar& beta,
                         const Scalar& threshold) {
  return activation_backward(grad_output, self, ActivationOp::Softplus, {d(beta), d(threshold)},
                             "softplus_backward");
}
Tensor mish(const Tensor& self) { return activation(self, ActivationOp::Mish, {}, "mish_cpu"); }
Tensor mish_backward(const Tensor& grad_output, const Tensor& self) {
  return activation_backward(grad_output, self, ActivationOp::Mish, {}, "mish_backward");
}
Tensor log_sigmoid(const Tensor& self) {
  return activation(self, ActivationOp::LogSigmoid, {}, "log_sigmoid_cpu");
}
Tensor log_sigmoid_backward(const Tensor& grad_output, const Tensor& self) {
  return activation_backward(grad_output, self, ActivationOp::LogSigmoid, {}, "log_sigmoid_backward");
}

Tensor threshold(const Tensor& self, const Scalar& threshold, const Scalar& value) {
  TH_CHECK(self.dtype() != ScalarType::Bool, "Boolean inputs not supported for threshold");
  TensorIterator iter = TensorIteratorConfig().add_output(Tensor()).add_input(self).build();
  threshold_stub[iter.device().type](iter, threshold, value);
  return iter.output();
}

namespace {

/// out = op over an iterator of `inputs` (two: (u, v), three: (grad, u, v)), broadcast, in their floating
/// dtype.
Tensor activation2(math::Activation2Op op, std::initializer_list<Tensor> inputs, const char* name) {
  TensorIteratorConfig config;
  config.add_output(Tensor());
  for (const Tensor& t : inputs) config.add_input(t);
  TensorIterator iter = config.build();
  TH_CHECK(is_floating_point(iter.common_dtype()), "\"", name, "\" not implemented for '",
           scalar_type_name(iter.common_dtype()), "'");
  activation2_stub[iter.device().type](iter, op);
  return iter.output();
}

/// The two halves of `self` along `dim` (glu's a and b), with PyTorch's checks.
std::pair<Tensor, Tensor> glu_halves(const Tensor& self, int64_t dim) {
  TH_CHECK(self.dim() > 0, "glu does not support scalars because halving size must be even");
  const int64_t d = wrap_dim(dim, self.dim());
  TH_CHECK(self.size(d) % 2 == 0, "Halving dimension must be even, but dimension ", d, " is size ",
           self.size(d));
  const int64_t h = self.size(d) / 2;
  return {narrow(self, d, 0, h), narrow(self, d, h, h)};
}

}  // namespace

Tensor glu(const Tensor& self, int64_t dim) {
  auto [a, b] = glu_halves(self, dim);
  return activation2(math::Activation2Op::Glu, {a, b}, "glu");
}

Tensor glu_backward(const Tensor& grad_output, const Tensor& self, int64_t dim) {
  auto [a, b] = glu_halves(self, dim);
  const int64_t d = wrap_dim(dim, self.dim());
  Tensor grad = empty_tensor(self.sizes(), grad_output.dtype(), self.device());
  Tensor first = narrow(grad, d, 0, a.size(d)), second = narrow(grad, d, a.size(d), a.size(d));
  copy_(first, activation2(math::Activation2Op::GluGradFirst, {grad_output, a, b}, "glu_backward"));
  copy_(second, activation2(math::Activation2Op::GluGradSecond, {grad_output, a, b}, "glu_backward"));
  return grad;
}

Tensor _prelu_kernel(const Tensor& self, const Tensor& weight) {
  return activation2(math::Activation2Op::Prelu, {self, weight}, "prelu_cpu");
}

std::tuple<Tensor, Tensor> _prelu_kernel_backward(const Tensor& grad_output, const Tensor& self,
                                                  const Tensor& weight) {
  return {activation2(math::Activation2Op::PreluGradInput, {grad_output, self, weight}, "prelu_backward"),
          activation2(math::Activation2Op::PreluGradWeight, {grad_output, self}, "prelu_backward")};
}

}  // namespace th
