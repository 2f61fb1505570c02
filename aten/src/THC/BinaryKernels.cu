// The binary pointwise family on CUDA: add/sub/mul (add_stub, mul_stub), and binary_stub, which
// dispatches each math/Binary.h op to its functor's kernel, compiled in the parts
// BinaryArithmeticKernels.cu and BinaryCompareKernels.cu (see FunctorKernel.cuh).
#include <TH/ops/Binary.h>

#include "FunctorKernel.cuh"

namespace thc {

#define THC_BINARY_EXTERN(name, Functor, expr) extern THC_BINARY_INSTANTIATE(name, Functor, expr)
TH_BINARY_OPS(THC_BINARY_EXTERN)
TH_COMPARE_OPS(THC_BINARY_EXTERN)
#undef THC_BINARY_EXTERN

namespace {

void add_kernel(th::TensorIterator& iter, const th::Scalar& alpha) {
  TH_DISPATCH_ALL_TYPES_AND_COMPLEX(iter.common_dtype(), "add_cuda", [&] {
    using op_t = th::opmath_t<scalar_t>;
    gpu_kernel<scalar_t, 2>(iter, th::math::Add<op_t>{alpha.to<op_t>()});
  });
}

void mul_kernel(th::TensorIterator& iter, const th::Scalar&) {
  TH_DISPATCH_ALL_TYPES_AND_COMPLEX(iter.common_dtype(), "mul_cuda", [&] {
    gpu_kernel_with_scalars<scalar_t>(iter, th::math::Mul<th::opmath_t<scalar_t>>{});
  });
}

void binary_kernel(th::TensorIterator& iter, th::math::BinaryOp op) {
  th::math::with_binary_functor(op, [&](auto f) { functor_kernel<2, decltype(f)>(iter); });
}

}  // namespace

TH_REGISTER_KERNEL(th::add_stub, CUDA, add_kernel);
TH_REGISTER_KERNEL(th::mul_stub, CUDA, mul_kernel);
TH_REGISTER_KERNEL(th::binary_stub, CUDA, binary_kernel);

}  // namespace thc
