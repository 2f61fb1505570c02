// binary_stub on CUDA: dispatches each op to its functor's kernel, compiled in the family files
// (BinaryArithmeticKernels.cu, CompareKernels.cu; see FunctorKernel.cuh).
#include "FunctorKernel.cuh"

namespace thc {

#define THC_BINARY_EXTERN(name, Functor, expr) extern THC_BINARY_INSTANTIATE(name, Functor, expr)
TH_BINARY_OPS(THC_BINARY_EXTERN)
TH_COMPARE_OPS(THC_BINARY_EXTERN)
#undef THC_BINARY_EXTERN

namespace {

void binary_kernel(th::TensorIterator& iter, th::math::BinaryOp op) {
  th::math::with_binary_functor(op, [&](auto f) { functor_kernel<2, decltype(f)>(iter); });
}

}  // namespace

TH_REGISTER_KERNEL(th::binary_stub, CUDA, binary_kernel);

}  // namespace thc
