// CPU kernels of add/sub/mul: the shared functors from math/Binary.h over cpu_kernel.
#include "../Kernels.h"
#include "../math/Binary.h"
#include "Loops.h"

namespace th {
namespace {

void add_kernel(TensorIterator& iter, const Scalar& alpha) {
  TH_DISPATCH_ALL_TYPES(iter.common_dtype(), "add_cpu", [&] {
    using op_t = opmath_t<scalar_t>;
    cpu::cpu_kernel<scalar_t, 2>(iter, math::Add<op_t>{alpha.to<op_t>()});
  });
}

void mul_kernel(TensorIterator& iter, const Scalar&) {
  TH_DISPATCH_ALL_TYPES(iter.common_dtype(), "mul_cpu", [&] {
    cpu::cpu_kernel_with_scalars<scalar_t>(iter, math::Mul<opmath_t<scalar_t>>{});
  });
}

}  // namespace

TH_REGISTER_KERNEL(add_stub, CPU, add_kernel);
TH_REGISTER_KERNEL(mul_stub, CPU, mul_kernel);

}  // namespace th
