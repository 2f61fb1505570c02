// CPU kernels of the special-function family: math/Special.h's functors over cpu_kernel, for the float
// types (each computes in double).
#include "../ops/Special.h"
#include "Loops.h"

namespace th {
namespace {

void special_kernel(TensorIterator& iter, math::SpecialOp op) {
  math::with_special_functor(op, [&](auto f) {
    TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "special_cpu",
                               [&] { cpu::cpu_kernel<scalar_t, decltype(f)::arity>(iter, f); });
  });
}

}  // namespace

TH_REGISTER_KERNEL(special_stub, CPU, special_kernel);

}  // namespace th
