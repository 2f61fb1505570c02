// CUDA kernels of the unary op family: the math/Unary.h functors over gpu_kernel.
#include <TH/Kernels.h>

#include "Loops.cuh"

namespace thc {
namespace {

void unary_kernel(th::TensorIterator& iter, th::math::UnaryOp op) {
  th::math::with_unary_functor(op, [&](auto f) {
    if constexpr (th::math::kUnaryFloating<decltype(f)>) {
      TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "unary_cuda",
                                 [&] { gpu_kernel<scalar_t, 1>(iter, f); });
    } else {
      TH_DISPATCH_ALL_TYPES(iter.common_dtype(), "unary_cuda", [&] { gpu_kernel<scalar_t, 1>(iter, f); });
    }
  });
}

}  // namespace

TH_REGISTER_KERNEL(th::unary_stub, CUDA, unary_kernel);

}  // namespace thc
