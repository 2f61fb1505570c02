// CUDA kernels of the binary op family (arithmetic, comparisons, logical, bitwise):
// the math/Binary.h functors over gpu_kernel.
#include <TH/Kernels.h>

#include "Loops.cuh"

namespace thc {
namespace {

void binary_kernel(th::TensorIterator& iter, th::math::BinaryOp op) {
  th::math::with_binary_functor(op, [&](auto f) {
    using F = decltype(f);
    if constexpr (th::math::kFloatingOnly<F>) {
      TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "binary_cuda",
                                 [&] { gpu_kernel<scalar_t, 2>(iter, f); });
    } else if constexpr (th::math::kIntegralOnly<F>) {
      TH_DISPATCH_INTEGRAL_TYPES(iter.common_dtype(), "binary_cuda",
                                 [&] { gpu_kernel<scalar_t, 2>(iter, f); });
    } else {
      TH_DISPATCH_ALL_TYPES(iter.common_dtype(), "binary_cuda", [&] { gpu_kernel<scalar_t, 2>(iter, f); });
    }
  });
}

}  // namespace

TH_REGISTER_KERNEL(th::binary_stub, CUDA, binary_kernel);

}  // namespace thc
