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
__global__ void arange_rows(int64_t n, T* out, th::math::arange_acc_t<T> start,
                            th::math::arange_acc_t<T> step) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(blockDim.x) * gridDim.x) {
    out[i] = th::math::arange_value<T>(i, start, step);
  }
}

template <typename T>
__global__ void linspace_rows(int64_t n, T* out, double start, double end) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(blockDim.x) * gridDim.x) {
    out[i] = th::math::linspace_value<T>(i, n, start, end);
  }
}

void arange_kernel(const th::Tensor& out, const th::Scalar& start, const th::Scalar& step) {
  const int64_t n = out.numel();
  DeviceGuard guard(out.device());
  TH_DISPATCH_NUMERIC_TYPES(out.dtype(), "arange_cuda", [&] {
    using acc_t = th::math::arange_acc_t<scalar_t>;
    arange_rows<scalar_t><<<grid_for(n, 256), 256, 0, thc::current_stream()>>>(
        n, reinterpret_cast<scalar_t*>(out.data_ptr()), start.to<acc_t>(), step.to<acc_t>());
  });
  THC_CHECK(cudaGetLastError());
}

void linspace_kernel(const th::Tensor& out, double start, double end) {
  const int64_t n = out.numel();
  DeviceGuard guard(out.device());
  TH_DISPATCH_NUMERIC_TYPES(out.dtype(), "linspace_cuda", [&] {
    linspace_rows<scalar_t><<<grid_for(n, 256), 256, 0, thc::current_stream()>>>(
        n, reinterpret_cast<scalar_t*>(out.data_ptr()), start, end);
  });
  THC_CHECK(cudaGetLastError());
}

}  // namespace

TH_REGISTER_KERNEL(th::fill_stub, CUDA, fill_kernel);
TH_REGISTER_KERNEL(th::arange_stub, CUDA, arange_kernel);
TH_REGISTER_KERNEL(th::linspace_stub, CUDA, linspace_kernel);

}  // namespace thc
