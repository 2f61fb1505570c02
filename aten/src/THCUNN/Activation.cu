// CUDA kernels of relu and its backward: math/Activation.h functors over gpu_kernel.
#include <TH/math/Activation.h>
#include <THNN/Kernels.h>
#include <THC/Loops.cuh>

namespace thcunn {
namespace {

void relu_kernel(th::TensorIterator& iter) {
  TH_DISPATCH_NUMERIC_TYPES(iter.common_dtype(), "relu_cuda", [&] {
    thc::gpu_kernel<scalar_t, 1>(iter, th::math::Relu<th::opmath_t<scalar_t>>{});
  });
}

void threshold_backward_kernel(th::TensorIterator& iter, const th::Scalar& threshold) {
  TH_DISPATCH_NUMERIC_TYPES(iter.common_dtype(), "threshold_backward_cuda", [&] {
    using op_t = th::opmath_t<scalar_t>;
    thc::gpu_kernel<scalar_t, 2>(iter, th::math::ThresholdBackward<op_t>{threshold.to<op_t>()});
  });
}

}  // namespace

TH_REGISTER_KERNEL(th::relu_stub, CUDA, relu_kernel);
TH_REGISTER_KERNEL(th::threshold_backward_stub, CUDA, threshold_backward_kernel);

}  // namespace thcunn
