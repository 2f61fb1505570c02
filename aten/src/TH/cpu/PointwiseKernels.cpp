// CPU kernels of the unary and binary op families (math/Unary.h, math/Binary.h) over cpu_kernel.
#include "../Kernels.h"
#include "Loops.h"

namespace th {
namespace {

void unary_kernel(TensorIterator& iter, math::UnaryOp op) {
  math::with_unary_functor(op, [&](auto f) {
    if constexpr (math::kUnaryFloating<decltype(f)>) {
      TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "unary_cpu",
                                 [&] { cpu::cpu_kernel<scalar_t, 1>(iter, f); });
    } else {
      TH_DISPATCH_ALL_TYPES(iter.common_dtype(), "unary_cpu", [&] { cpu::cpu_kernel<scalar_t, 1>(iter, f); });
    }
  });
}

void binary_kernel(TensorIterator& iter, math::BinaryOp op) {
  math::with_binary_functor(op, [&](auto f) {
    using F = decltype(f);
    if constexpr (math::kFloatingOnly<F>) {
      TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "binary_cpu",
                                 [&] { cpu::cpu_kernel<scalar_t, 2>(iter, f); });
    } else if constexpr (math::kIntegralOnly<F>) {
      TH_DISPATCH_INTEGRAL_TYPES(iter.common_dtype(), "binary_cpu",
                                 [&] { cpu::cpu_kernel<scalar_t, 2>(iter, f); });
    } else {
      TH_DISPATCH_ALL_TYPES(iter.common_dtype(), "binary_cpu",
                            [&] { cpu::cpu_kernel<scalar_t, 2>(iter, f); });
    }
  });
}

}  // namespace

TH_REGISTER_KERNEL(unary_stub, CPU, unary_kernel);
TH_REGISTER_KERNEL(binary_stub, CPU, binary_kernel);

}  // namespace th
