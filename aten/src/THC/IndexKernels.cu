// CUDA take / put: one thread per index; accumulating puts use atomicAdd (float, double, int32,
// int64; a compare-and-swap loop for float16/bfloat16), so duplicates sum in any order. nonzero:
// CUB's DeviceSelect::Flagged picks the positions of the true bytes on the device, and one kernel
// turns them into coordinates; only the count comes to the host.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cub/device/device_select.cuh>

#include <TH/ScalarType.h>
#include <TH/ops/Index.h>

#include "Cub.cuh"
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
  TH_DISPATCH_ALL_TYPES_AND_BAREBONES(self.dtype(), "take_cuda", [&] {
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

/// A mask byte as a flag: any nonzero byte is true (a bool tensor viewed from uint8 may hold 255).
struct ByteIsTrue {
  __device__ bool operator()(unsigned char b) const { return b != 0; }
};

/// The shape whose row-major positions unravel_positions turns into coordinates.
struct Shape {
  int ndim;
  int64_t sizes[TH_MAX_DIMS];
};

__global__ void unravel_positions(const int64_t* positions, int64_t count, Shape shape, int64_t* out) {
  for (int64_t row = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; row < count;
       row += int64_t(blockDim.x) * gridDim.x) {
    int64_t rest = positions[row];
    for (int d = shape.ndim - 1; d >= 0; --d) {
      out[row * shape.ndim + d] = rest % shape.sizes[d];
      rest /= shape.sizes[d];
    }
  }
}

th::Tensor nonzero_kernel(const th::Tensor& mask, const th::IntList& sizes) {
  DeviceGuard guard(mask.device());
  const th::Device device = mask.device();
  const int64_t n = mask.numel();
  const int nd = int(sizes.size());
  if (n == 0) return th::empty_tensor({0, nd}, th::ScalarType::Long, device);
  th::Tensor positions = th::empty_tensor({n}, th::ScalarType::Long, device);
  th::Tensor selected = th::empty_tensor({1}, th::ScalarType::Long, device);
  auto* pos = reinterpret_cast<int64_t*>(positions.data_ptr());
  auto* num = reinterpret_cast<int64_t*>(selected.data_ptr());
  auto flags =
      thrust::make_transform_iterator(reinterpret_cast<const unsigned char*>(mask.data_ptr()), ByteIsTrue{});
  cub_call(device, [&](void* temp, size_t& bytes, cudaStream_t stream) {
    return cub::DeviceSelect::Flagged(temp, bytes, thrust::counting_iterator<int64_t>(0), flags, pos, num, n,
                                      stream);
  });
  int64_t count = 0;  // the result's size: the one host round trip, as upstream's
  const cudaStream_t stream = current_stream();
  THC_CHECK(cudaMemcpyAsync(&count, num, sizeof(count), cudaMemcpyDeviceToHost, stream));
  THC_CHECK(cudaStreamSynchronize(stream));
  th::Tensor out = th::empty_tensor({count, nd}, th::ScalarType::Long, device);
  if (count > 0 && nd > 0) {
    Shape shape{nd, {}};
    std::copy(sizes.begin(), sizes.end(), shape.sizes);
    unravel_positions<<<grid_for(count, 256), 256, 0, stream>>>(pos, count, shape,
                                                                reinterpret_cast<int64_t*>(out.data_ptr()));
    THC_CHECK(cudaGetLastError());
  }
  return out;
}

}  // namespace

TH_REGISTER_KERNEL(th::nonzero_stub, CUDA, nonzero_kernel);
TH_REGISTER_KERNEL(th::take_stub, CUDA, take_kernel);
TH_REGISTER_KERNEL(th::put_stub, CUDA, put_kernel);

}  // namespace thc
