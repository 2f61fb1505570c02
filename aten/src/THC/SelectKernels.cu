// CUDA kernel of where: a ternary functor over the shared elementwise loop.
#include <TH/ops/Select.h>

#include "Loops.cuh"

namespace thc {
namespace {

template <typename T>
struct WhereOp {
  __device__ T operator()(T c, T a, T b) const { return c != T(0) ? a : b; }
};

void where_kernel(th::TensorIterator& iter) {
  TH_DISPATCH_ALL_TYPES_AND_COMPLEX(iter.common_dtype(), "where_cuda", [&] {
    gpu_kernel<scalar_t, 3>(iter, WhereOp<th::opmath_t<scalar_t>>{});
  });
}

}  // namespace

TH_REGISTER_KERNEL(th::where_stub, CUDA, where_kernel);

}  // namespace thc
