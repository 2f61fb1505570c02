#pragma once
// The CUDA kernels of the binary op family (arithmetic, comparisons, logical, bitwise): the
// math/Binary.h functors over gpu_kernel, for the dtypes each functor is defined on.
//
// binary_op<Functor> is instantiated in the family's .cu file (BinaryArithmeticKernels.cu,
// CompareKernels.cu), as PyTorch splits its BinaryOps: an edit recompiles one family, and a build
// compiles them in parallel. BinaryKernels.cu dispatches binary_stub to them.
#include <TH/Kernels.h>

#include "Loops.cuh"

namespace thc {

/// The kernel of functor F over the iterator's common dtype.
template <typename F>
void binary_op(th::TensorIterator& iter) {
  if constexpr (th::math::kFloatingOnly<F>) {
    TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "binary_cuda",
                               [&] { gpu_kernel<scalar_t, 2>(iter, F{}); });
  } else if constexpr (th::math::kIntegralOnly<F>) {
    TH_DISPATCH_INTEGRAL_TYPES(iter.common_dtype(), "binary_cuda",
                               [&] { gpu_kernel<scalar_t, 2>(iter, F{}); });
  } else {
    TH_DISPATCH_ALL_TYPES(iter.common_dtype(), "binary_cuda", [&] { gpu_kernel<scalar_t, 2>(iter, F{}); });
  }
}

#define THC_BINARY_INSTANTIATE(name, Functor, expr) \
  template void binary_op<th::math::Functor>(th::TensorIterator&);

}  // namespace thc
