// The unary pointwise family on CUDA: unary_stub dispatches each math/Unary.h op to its functor's
// kernel, compiled in the parts UnaryTranscendentalKernels.cu and UnarySignRoundKernels.cu (see
// FunctorKernel.cuh).
#include <TH/ops/Unary.h>

#include "FunctorKernel.cuh"

namespace thc {

#define THC_UNARY_EXTERN(name, Functor, expr) extern THC_UNARY_INSTANTIATE(name, Functor, expr)
TH_UNARY_FLOAT_OPS(THC_UNARY_EXTERN)
TH_UNARY_KEEP_OPS(THC_UNARY_EXTERN)
#undef THC_UNARY_EXTERN

namespace {

void unary_kernel(th::TensorIterator& iter, th::math::UnaryOp op) {
  th::math::with_unary_functor(op, [&](auto f) { functor_kernel<1, decltype(f)>(iter); });
}

}  // namespace

TH_REGISTER_KERNEL(th::unary_stub, CUDA, unary_kernel);

}  // namespace thc
