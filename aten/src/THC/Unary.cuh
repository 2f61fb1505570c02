#pragma once
// The CUDA kernels of the unary op family: the math/Unary.h functors over gpu_kernel, for the
// dtypes each functor is defined on (floating types only for TH_UNARY_FLOAT_OPS).
//
// unary_op<Functor> is instantiated in the family's .cu file (UnaryFloatKernels.cu,
// UnaryKeepKernels.cu): an edit recompiles one family, and a build compiles them in parallel.
// UnaryKernels.cu dispatches unary_stub to them.
#include <TH/Kernels.h>

#include "Loops.cuh"

namespace thc {

/// The kernel of functor F over the iterator's common dtype.
template <typename F>
void unary_op(th::TensorIterator& iter) {
  if constexpr (th::math::kUnaryFloating<F>) {
    TH_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "unary_cuda",
                               [&] { gpu_kernel<scalar_t, 1>(iter, F{}); });
  } else {
    TH_DISPATCH_ALL_TYPES(iter.common_dtype(), "unary_cuda", [&] { gpu_kernel<scalar_t, 1>(iter, F{}); });
  }
}

#define THC_UNARY_INSTANTIATE(name, Functor, expr) \
  template void unary_op<th::math::Functor>(th::TensorIterator&);

}  // namespace thc
