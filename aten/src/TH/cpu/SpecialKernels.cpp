// CPU kernels of the special-function family: math/Special.h's functors over cpu_kernel, for the float
// types (each computes in double).
#include "../ops/Special.h"
#include "Loops.h"

namespace th {
namespace {

void special_unary_kernel(TensorIterator& iter, math::SpecialOp op) {
  math::with_special_unary_functor(op, [&](auto f) {
    TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "special_cpu",
                               [&] { cpu::cpu_kernel<scalar_t, 1>(iter, f); });
  });
}

void special_binary_kernel(TensorIterator& iter, math::SpecialOp op) {
  math::with_special_binary_functor(op, [&](auto f) {
    TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "special_cpu",
                               [&] { cpu::cpu_kernel<scalar_t, 2>(iter, f); });
  });
}

}  // namespace

TH_REGISTER_KERNEL(special_unary_stub, CPU, special_unary_kernel);
TH_REGISTER_KERNEL(special_binary_stub, CPU, special_binary_kernel);

}  // namespace th
