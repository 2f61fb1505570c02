// CUDA take / put: one thread per index; accumulating puts use atomicAdd (float, double, int32,
// int64; a compare-and-swap loop for float16/bfloat16), so duplicates sum in any order.
#include <TH/ScalarType.h>
#include <TH/ops/Index.h>

#include "DeviceGuard.h"
#include "Exception.h"
#include "Loops.cuh"
#include "Stream.h"

namespace thc {
namespace {

template <typename T>
__global__ void take_impl(const T* src, const int64_t* idx, T* dst, int64_t n, th::LogicalToStorage where) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(blockDim.x) * gridDim.x)
    dst[i] = src[where(idx[i])];
}

/// *p += v for a 16-bit float: compare-and-swap on the aligned 32-bit word holding it.
template <typename T>
__device__ void add_at_16(T* p, T v) {
  auto* word = reinterpret_cast<unsigned int*>(reinterpret_cast<size_t>(p) & ~size_t(3));
  const unsigned shift = (reinterpret_cast<size_t>(p) & 2) ? 16 : 0;
  unsigned int old = *word, assumed;
  do {
    assumed = old;
    const T cur(static_cast<uint16_t>(assumed >> shift), th::from_bits);
    const T sum(static_cast<float>(cur) + static_cast<float>(v));
    const unsigned int next = (assumed & ~(0xffffu << shift)) | (unsigned(sum.x) << shift);
    old = atomicCAS(word, assumed, next);
  } while (assumed != old);
}

template <typename T>
__device__ void add_at(T* p, T v) {
  if constexpr (std::is_same_v<T, th::Half> || std::is_same_v<T, th::BFloat16>) {
    add_at_16(p, v);
  } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, int32_t>) {
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

void take_kernel(const th::Tensor& self, const th::Tensor& index, const th::Tensor& out) {
  DeviceGuard guard(self.device());
  const int64_t n = index.numel();
  if (n == 0) return;
  TH_DISPATCH_ALL_TYPES_AND_COMPLEX(self.dtype(), "take_cuda", [&] {
    take_impl<scalar_t><<<grid_for(n, 256), 256, 0, thc::current_stream()>>>(
        reinterpret_cast<const scalar_t*>(self.data_ptr()),
        reinterpret_cast<const int64_t*>(index.data_ptr()), reinterpret_cast<scalar_t*>(out.data_ptr()), n,
        th::LogicalToStorage(self));
  });
  THC_CHECK(cudaGetLastError());
}

void put_kernel(const th::Tensor& self, const th::Tensor& index, const th::Tensor& source, bool accumulate) {
  DeviceGuard guard(self.device());
  const int64_t n = index.numel();
  if (n == 0) return;
  TH_DISPATCH_ALL_TYPES(self.dtype(), "put_cuda", [&] {
    put_impl<scalar_t><<<grid_for(n, 256), 256, 0, thc::current_stream()>>>(
        reinterpret_cast<scalar_t*>(self.data_ptr()), reinterpret_cast<const int64_t*>(index.data_ptr()),
        reinterpret_cast<const scalar_t*>(source.data_ptr()), n, th::LogicalToStorage(self), accumulate);
  });
  THC_CHECK(cudaGetLastError());
}

}  // namespace

TH_REGISTER_KERNEL(th::take_stub, CUDA, take_kernel);
TH_REGISTER_KERNEL(th::put_stub, CUDA, put_kernel);

}  // namespace thc
