// CUDA kernel of sum: each element is added atomically into its output slot.
#include <TH/Kernels.h>

#include "Loops.cuh"

namespace thc {
namespace {

__device__ void atomic_add(float* p, float v) { atomicAdd(p, v); }
__device__ void atomic_add(double* p, double v) { atomicAdd(p, v); }
__device__ void atomic_add(int32_t* p, int32_t v) { atomicAdd(p, v); }
__device__ void atomic_add(int64_t* p, int64_t v) {
  atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
}

template <typename T>
void sum_typed(th::TensorIterator& iter) {
  Pointers<2> ptrs{{iter.data_ptr(0), iter.data_ptr(1)}};
  launch<2>(iter, [=] __device__(const int64_t (&off)[2]) {
    atomic_add(reinterpret_cast<T*>(ptrs.p[0] + off[0]), *reinterpret_cast<const T*>(ptrs.p[1] + off[1]));
  });
}

void sum_kernel(th::TensorIterator& iter) {
  switch (iter.common_dtype()) {
    case th::ScalarType::Float: return sum_typed<float>(iter);
    case th::ScalarType::Double: return sum_typed<double>(iter);
    case th::ScalarType::Int: return sum_typed<int32_t>(iter);
    case th::ScalarType::Long: return sum_typed<int64_t>(iter);
    default:
      throw th::TypeError(th::detail::str("\"sum_cuda\" not implemented for '",
                                          th::scalar_type_name(iter.common_dtype()), "'"));
  }
}

}  // namespace

TH_REGISTER_KERNEL(th::sum_stub, CUDA, sum_kernel);

}  // namespace thc
