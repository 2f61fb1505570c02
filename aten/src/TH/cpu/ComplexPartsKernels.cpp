// CPU kernel of the complex-parts family: math/ComplexParts.h's functors over cpu_kernel.
#include "../math/ComplexParts.h"
#include "../ops/ComplexParts.h"
#include "Loops.h"

namespace th {
namespace {

void complex_part_kernel(TensorIterator& iter, ComplexPart part) {
  math::with_complex_part(part, [&](auto f) {
    TH_DISPATCH_COMPLEX_TYPES(iter.common_dtype(), "complex_part_cpu",
                              [&] { cpu::cpu_kernel<scalar_t, 1>(iter, f); });
  });
}

}  // namespace

TH_REGISTER_KERNEL(complex_part_stub, CPU, complex_part_kernel);

}  // namespace th
