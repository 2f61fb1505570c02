// Entry points of the activation family: relu forward/backward, tanh/sigmoid backward (the kernels:
// cpu/ActivationKernels.cpp, THCUNN/ActivationKernels.cu).
#include <TH/TensorIterator.h>

#include "../Functions.h"
#include "Activation.h"

namespace th {

TH_DEFINE_STUB(relu_fn, relu_stub);
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

}  // namespace th
