// CPU kernels of the binary pointwise family: add/sub/mul and math/Binary.h's functors over cpu_kernel.
#include "../math/FunctorDispatch.h"
#include "../ops/Binary.h"
#include "Loops.h"

namespace th {
namespace {

void add_kernel(TensorIterator& iter, const Scalar& alpha) {
  TH_DISPATCH_ALL_TYPES_AND_COMPLEX(iter.common_dtype(), "add_cpu", [&] {
    using op_t = opmath_t<scalar_t>;
    // alpha is read at the dtype (checked, then rounded: 1e-8 is 0 in float16), as upstream's CPU kernel;
    // its CUDA kernel reads it at opmath_t (THC/BinaryKernels.cu)
    cpu::cpu_kernel<scalar_t, 2>(iter, math::Add<op_t>{static_cast<op_t>(alpha.to<scalar_t>())});
  });
}

void mul_kernel(TensorIterator& iter, const Scalar&) {
  TH_DISPATCH_ALL_TYPES_AND_COMPLEX(iter.common_dtype(), "mul_cpu", [&] {
    cpu::cpu_kernel_with_scalars<scalar_t>(iter, math::Mul<opmath_t<scalar_t>>{});
  });
}

/// The loop of one binary functor: div reads a CPU scalar at opmath_t (kScalarAtOpmath).
template <typename T, typename F>
void binary_loop(TensorIterator& iter, const F& f) {
  if constexpr (math::kScalarAtOpmath<F>) {
    cpu::cpu_kernel_with_scalars<T>(iter, f);
  } else {
    cpu::cpu_kernel<T, 2>(iter, f);
  }
}

void binary_kernel(TensorIterator& iter, math::BinaryOp op) {
  math::with_binary_functor(op, [&](auto f) {
    math::dispatch_functor<decltype(f)>(iter.common_dtype(), "binary_cpu", [&](auto tag) {
      binary_loop<typename decltype(tag)::type>(iter, f);
    });
  });
}

}  // namespace

TH_REGISTER_KERNEL(add_stub, CPU, add_kernel);
TH_REGISTER_KERNEL(mul_stub, CPU, mul_kernel);
TH_REGISTER_KERNEL(binary_stub, CPU, binary_kernel);

}  // namespace th
