// The special-function family on CUDA: math/Special.h's functors (the same double-precision math as the
// CPU's) over gpu_kernel, for the float types.
#include <TH/ops/Special.h>

#include "Loops.cuh"

namespace thc {
namespace {

void special_kernel(th::TensorIterator& iter, th::math::SpecialOp op) {
  th::math::with_special_functor(op, [&](auto f) {
    using F = decltype(f);
    TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "special_cuda",
                               [&] { gpu_kernel<scalar_t, F::arity>(iter, F{}); });
  });
}

}  // namespace

TH_REGISTER_KERNEL(th::special_stub, CUDA, special_kernel);

}  // namespace thc
