// The special-function family on CUDA: math/Special.h's functors (the same double-precision math as the
// CPU's) over gpu_kernel, for the float types.
#include <TH/ops/Special.h>

#include "Loops.cuh"

namespace thc {
namespace {

void special_unary_kernel(th::TensorIterator& iter, th::math::SpecialOp op) {
  th::math::with_special_unary_functor(op, [&](auto f) {
    using F = decltype(f);
    TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "special_cuda",
                               [&] { gpu_kernel<scalar_t, 1>(iter, F{}); });
  });
}

void special_binary_kernel(th::TensorIterator& iter, th::math::SpecialOp op) {
  th::math::with_special_binary_functor(op, [&](auto f) {
    using F = decltype(f);
    TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "special_cuda",
                               [&] { gpu_kernel<scalar_t, 2>(iter, F{}); });
  });
}

}  // namespace

TH_REGISTER_KERNEL(th::special_unary_stub, CUDA, special_unary_kernel);
TH_REGISTER_KERNEL(th::special_binary_stub, CUDA, special_binary_kernel);

}  // namespace thc
