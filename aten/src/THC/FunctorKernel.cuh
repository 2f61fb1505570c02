#pragma once
// gpu_kernel of one math/ functor (Unary.h, Binary.h) over the iterator's common dtype, for the
// dtypes that functor is defined on. functor_kernel<Arity, F> is instantiated in the parts of the
// unary and binary families (UnaryTranscendentalKernels.cu, UnarySignRoundKernels.cu,
// BinaryArithmeticKernels.cu, BinaryCompareKernels.cu), as PyTorch splits its kernels: nvcc
// compiles the parts in parallel. UnaryKernels.cu and BinaryKernels.cu dispatch their stubs to them.
#include <TH/TensorIterator.h>
#include <TH/math/FunctorDispatch.h>

#include "Loops.cuh"

namespace thc {

/// gpu_kernel<T, Arity> of F{}; div reads a CPU scalar at opmath_t (th::math::kScalarAtOpmath).
template <typename T, int Arity, typename F>
void functor_loop(th::TensorIterator& iter) {
  if constexpr (Arity == 2 && th::math::kScalarAtOpmath<F>) {
    gpu_kernel_with_scalars<T>(iter, F{});
  } else {
    gpu_kernel<T, Arity>(iter, F{});
  }
}

template <int Arity, typename F>
void functor_kernel(th::TensorIterator& iter) {
  constexpr const char* name = Arity == 1 ? "unary_cuda" : "binary_cuda";  // for the dtype error
  th::math::dispatch_functor<F>(iter.common_dtype(), name, [&](auto tag) {
    functor_loop<typename decltype(tag)::type, Arity, F>(iter);
  });
}

// Entries of math/'s X-macro lists (name, Functor, expr) -> the explicit instantiation of their kernel.
#define THC_UNARY_INSTANTIATE(name, Functor, expr) \
  template void functor_kernel<1, th::math::Functor>(th::TensorIterator&);
#define THC_BINARY_INSTANTIATE(name, Functor, expr) \
  template void functor_kernel<2, th::math::Functor>(th::TensorIterator&);

}  // namespace thc
