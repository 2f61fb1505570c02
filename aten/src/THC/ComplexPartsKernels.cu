// CUDA kernel of the complex-parts family: math/ComplexParts.h's functors over gpu_kernel.
#include <TH/math/ComplexParts.h>
#include <TH/ops/ComplexParts.h>

#include "Loops.cuh"

namespace thc {
namespace {

void complex_part_kernel(th::TensorIterator& iter, th::ComplexPart part) {
  th::math::with_complex_part(part, [&](auto f) {
    TH_DISPATCH_COMPLEX_TYPES(iter.common_dtype(), "complex_part_cuda",
                              [&] { gpu_kernel<scalar_t, 1>(iter, f); });
  });
}

}  // namespace

TH_REGISTER_KERNEL(th::complex_part_stub, CUDA, complex_part_kernel);

}  // namespace thc
