// CUDA take / put: one thread per index; accumulating puts use atomicAdd (float, double, int32,
// int64), so duplicates sum in any order.
#include <TH/IndexKernels.h>
#include <TH/ScalarType.h>

#include "DeviceGuard.h"
#include "Exception.h"

namespace thc {
namespace {

template <typename T>
__global__ void take_impl(const T* src, const int64_t* idx, T* dst, int64_t n, th::LogicalToStorage where) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(blockDim.x) * gridDim.x)
    dst[i] = src[where(idx[i])];
}

template <typename T>
__device__ void add_at(T* p, T v) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, int32_t>) {
    atomicAdd(p, v);
  } else if constexpr (std::is_same_v<T, int64_t>) {
    atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
  } else if constexpr (std::is_same_v<T, bool>) {
    if (v) *p = true;
  } else {
    *p = T(*p + v);  // 8/16-bit integers: no atomics (PyTorch refuses these on CUDA too)
  }
}

template <typename T>
__global__ void put_impl(T* dst, const int64_t* idx, const T* src, int64_t n, th::LogicalToStorage where,
                         bool accumulate) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(blockDim.x) * gridDim.x) {
    if (accumulate) {
      add_at(dst + where(idx[i]), src[i]);
    } else {
      dst[where(idx[i])] = src[i];
    }
  }
}

unsigned blocks_for(int64_t n) { return unsigned(std::min<int64_t>((n + 255) / 256, 65535)); }

void take_kernel(const th::Tensor& self, const th::Tensor& index, const th::Tensor& out) {
  DeviceGuard guard(self.device());
  const int64_t n = index.numel();
  if (n == 0) return;
  TH_DISPATCH_ALL_TYPES(self.dtype(), "take_cuda", [&] {
    take_impl<scalar_t><<<blocks_for(n), 256>>>(reinterpret_cast<const scalar_t*>(self.data_ptr()),
                                                reinterpret_cast<const int64_t*>(index.data_ptr()),
                                                reinterpret_cast<scalar_t*>(out.data_ptr()), n,
                                                th::LogicalToStorage(self));
  });
  THC_CHECK(cudaGetLastError());
}

void put_kernel(const th::Tensor& self, const th::Tensor& index, const th::Tensor& source, bool accumulate) {
  DeviceGuard guard(self.device());
  const int64_t n = index.numel();
  if (n == 0) return;
  TH_DISPATCH_ALL_TYPES(self.dtype(), "put_cuda", [&] {
    put_impl<scalar_t><<<blocks_for(n), 256>>>(
        reinterpret_cast<scalar_t*>(self.data_ptr()), reinterpret_cast<const int64_t*>(index.data_ptr()),
        reinterpret_cast<const scalar_t*>(source.data_ptr()), n, th::LogicalToStorage(self), accumulate);
  });
  THC_CHECK(cudaGetLastError());
}

}  // namespace

TH_REGISTER_KERNEL(th::take_stub, CUDA, take_kernel);
TH_REGISTER_KERNEL(th::put_stub, CUDA, put_kernel);

}  // namespace thc
