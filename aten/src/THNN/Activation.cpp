// relu forward/backward, tanh/sigmoid backward: entry points and their CPU kernels.
#include <TH/cpu/Loops.h>
#include <TH/math/Activation.h>

#include "Functions.h"
#include "Kernels.h"

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

namespace {

void relu_kernel(TensorIterator& iter) {
  TH_DISPATCH_NUMERIC_TYPES(iter.common_dtype(), "relu_cpu",
                            [&] { cpu::cpu_kernel<scalar_t, 1>(iter, math::Relu<opmath_t<scalar_t>>{}); });
}

void threshold_backward_kernel(TensorIterator& iter, const Scalar& threshold) {
  TH_DISPATCH_NUMERIC_TYPES(iter.common_dtype(), "threshold_backward_cpu", [&] {
    using op_t = opmath_t<scalar_t>;
    cpu::cpu_kernel<scalar_t, 2>(iter, math::ThresholdBackward<op_t>{threshold.to<op_t>()});
  });
}

void output_backward_kernel(TensorIterator& iter, math::OutputBackward op) {
  math::with_output_backward(op, [&](auto f) {
    TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "output_backward_cpu",
                               [&] { cpu::cpu_kernel<scalar_t, 2>(iter, f); });
  });
}

}  // namespace

TH_REGISTER_KERNEL(output_backward_stub, CPU, output_backward_kernel);
TH_REGISTER_KERNEL(relu_stub, CPU, relu_kernel);
TH_REGISTER_KERNEL(threshold_backward_stub, CPU, threshold_backward_kernel);

}  // namespace th
