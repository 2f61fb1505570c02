// CUDA kernels of the fill family: fill_ (a 0-ary functor over gpu_kernel) and arange/linspace
// (math/Fill.h, one thread per element).
#include <TH/ops/Fill.h>

#include "DeviceGuard.h"
#include "Exception.h"
#include "Loops.cuh"
#include "Stream.h"

namespace thc {
namespace {

void fill_kernel(th::TensorIterator& iter, const th::Scalar& value) {
  TH_DISPATCH_ALL_TYPES_AND_BAREBONES(iter.dtype(0), "fill_cuda", [&] {
    const scalar_t v = value.to<scalar_t>();
    gpu_kernel<scalar_t, 0>(iter, [v] __device__() { return v; });
  });
}

template <typename T>
__global__ void range_rows(int64_t n, T* out, double start, double step, double end, bool linspace) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(blockDim.x) * gridDim.x) {
    out[i] = th::math::range_value<T>(i, n, start, step, end, linspace);
  }
}

void range_kernel(const th::Tensor& out, double start, double step, double end, bool linspace) {
  const int64_t n = out.numel();
  DeviceGuard guard(out.device());
  TH_DISPATCH_NUMERIC_TYPES(out.dtype(), "range_cuda", [&] {
    range_rows<scalar_t><<<grid_for(n, 256), 256, 0, thc::current_stream()>>>(
        n, reinterpret_cast<scalar_t*>(out.data_ptr()), start, step, end, linspace);
  });
  THC_CHECK(cudaGetLastError());
}

}  // namespace

TH_REGISTER_KERNEL(th::fill_stub, CUDA, fill_kernel);
TH_REGISTER_KERNEL(th::range_stub, CUDA, range_kernel);

}  // namespace thc
