// CUDA kernels of relu and threshold and their backward, and of tanh/sigmoid backward: math/Activation.h
// functors over gpu_kernel.
#include <THNN/ops/Activation.h>
#include <THC/Loops.cuh>

namespace thcunn {
namespace {

void relu_kernel(th::TensorIterator& iter) {
  TH_DISPATCH_NUMERIC_TYPES(iter.common_dtype(), "relu_cuda", [&] {
    thc::gpu_kernel<scalar_t, 1>(iter, th::math::Relu<th::opmath_t<scalar_t>>{});
  });
}

void threshold_kernel(th::TensorIterator& iter, const th::Scalar& threshold, const th::Scalar& value) {
  TH_DISPATCH_NUMERIC_TYPES(iter.common_dtype(), "threshold_cuda", [&] {
    using op_t = th::opmath_t<scalar_t>;
    thc::gpu_kernel<scalar_t, 1>(iter, th::math::Threshold<op_t>{threshold.to<op_t>(), value.to<op_t>()});
  });
}

void threshold_backward_kernel(th::TensorIterator& iter, const th::Scalar& threshold) {
  TH_DISPATCH_NUMERIC_TYPES(iter.common_dtype(), "threshold_backward_cuda", [&] {
    using op_t = th::opmath_t<scalar_t>;
    thc::gpu_kernel<scalar_t, 2>(iter, th::math::ThresholdBackward<op_t>{threshold.to<op_t>()});
  });
}

void output_backward_kernel(th::TensorIterator& iter, th::math::OutputBackward op) {
  th::math::with_output_backward(op, [&](auto f) {
    TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "output_backward_cuda",
                               [&] { thc::gpu_kernel<scalar_t, 2>(iter, f); });
  });
}

void activation_kernel(th::TensorIterator& iter, th::math::ActivationOp op,
                       th::math::ActivationParams params) {
  TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "activation_cuda", [&] {
    thc::gpu_kernel<scalar_t, 1>(iter, th::math::ActivationForward{op, params});
  });
}

void activation_backward_kernel(th::TensorIterator& iter, th::math::ActivationOp op,
                                th::math::ActivationParams params) {
  TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "activation_backward_cuda", [&] {
    thc::gpu_kernel<scalar_t, 2>(iter, th::math::ActivationBackward{op, params});
  });
}

void activation2_kernel(th::TensorIterator& iter, th::math::Activation2Op op) {
  TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "activation2_cuda", [&] {
    if (iter.ntensors() == 3)
      thc::gpu_kernel<scalar_t, 2>(iter, th::math::Activation2Forward{op});
    else
      thc::gpu_kernel<scalar_t, 3>(iter, th::math::Activation2Backward{op});
  });
}

}  // namespace

TH_REGISTER_KERNEL(th::activation_stub, CUDA, activation_kernel);
TH_REGISTER_KERNEL(th::activation2_stub, CUDA, activation2_kernel);
TH_REGISTER_KERNEL(th::activation_backward_stub, CUDA, activation_backward_kernel);
TH_REGISTER_KERNEL(th::output_backward_stub, CUDA, output_backward_kernel);
TH_REGISTER_KERNEL(th::relu_stub, CUDA, relu_kernel);
TH_REGISTER_KERNEL(th::threshold_stub, CUDA, threshold_kernel);
TH_REGISTER_KERNEL(th::threshold_backward_stub, CUDA, threshold_backward_kernel);

}  // namespace thcunn
