// CPU kernels of the activation family: math/Activation.h's functors over cpu_kernel.
#include <TH/cpu/Loops.h>

#include "../ops/Activation.h"

namespace th {
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

void activation_kernel(TensorIterator& iter, math::ActivationOp op, math::ActivationParams params) {
  TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "activation_cpu", [&] {
    cpu::cpu_kernel<scalar_t, 1>(iter, math::ActivationForward{op, params});
  });
}

void activation_backward_kernel(TensorIterator& iter, math::ActivationOp op, math::ActivationParams params) {
  TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "activation_backward_cpu", [&] {
    cpu::cpu_kernel<scalar_t, 2>(iter, math::ActivationBackward{op, params});
  });
}

}  // namespace

TH_REGISTER_KERNEL(activation_stub, CPU, activation_kernel);
TH_REGISTER_KERNEL(activation_backward_stub, CPU, activation_backward_kernel);
TH_REGISTER_KERNEL(output_backward_stub, CPU, output_backward_kernel);
TH_REGISTER_KERNEL(relu_stub, CPU, relu_kernel);
TH_REGISTER_KERNEL(threshold_backward_stub, CPU, threshold_backward_kernel);

}  // namespace th
