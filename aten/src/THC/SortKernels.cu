// CUDA kernel of the sort family: CUB's stable radix sorts, DeviceRadixSort for one line and
// DeviceSegmentedSort for many, of (key, position) pairs. Floating keys are the values with NaN made
// +NaN (the largest key in either direction, as on the CPU) and -0.0 made +0.0 (so that zeros keep
// their order); the sorted values are then gathered from the input by position, NaN payloads and
// zero signs included. Integer keys are the values themselves, sorted straight into the output.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include <TH/ops/Sort.h>

#include "Cub.cuh"
#include "Exception.h"
#include "Loops.cuh"
#include "Stream.h"

namespace thc {
namespace {

/// The type CUB sorts T as: the same bits, in a type CUB knows how to order.
template <typename T>
struct sort_key {
  using type = T;
};
template <>
struct sort_key<bool> {
  using type = uint8_t;
};
template <>
struct sort_key<th::Half> {
  using type = __half;
};
template <>
struct sort_key<th::BFloat16> {
  using type = __nv_bfloat16;
};

/// Each element's position in its line, and (floating T) its key: +NaN for every NaN, +0.0 for -0.0.
template <typename T>
__global__ void make_keys(const T* src, T* keys, int64_t* positions, int64_t total, int64_t n) {
  for (int64_t j = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; j < total;
       j += int64_t(blockDim.x) * gridDim.x) {
    positions[j] = j % n;
    if constexpr (th::is_floating_v<T>) {
      const T v = src[j];
      keys[j] = v != v ? T(__int_as_float(0x7fc00000)) : v == T(0) ? T(0) : v;
    }
  }
}

/// dst[j] = the element of j's line at the sorted position positions[j].
template <typename T>
__global__ void gather_sorted(const T* src, const int64_t* positions, T* dst, int64_t total, int64_t n) {
  for (int64_t j = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; j < total;
       j += int64_t(blockDim.x) * gridDim.x)
    dst[j] = src[j - j % n + positions[j]];
}

/// Where line k begins (and, one further on, ends): k * n.
struct LineStart {
  int64_t n;
  __host__ __device__ int64_t operator()(int64_t k) const { return k * n; }
};

/// Sorts the (key, position) pairs of each line: keys_in/positions_in to keys_out/positions_out.
template <typename K>
void sort_pairs(th::Device device, const K* keys_in, K* keys_out, const int64_t* positions_in,
                int64_t* positions_out, int64_t segments, int64_t n, bool descending) {
  const int64_t total = segments * n;
  if (segments == 1) {
    cub_call(device, [&](void* temp, size_t& bytes, cudaStream_t stream) {
      return descending ? cub::DeviceRadixSort::SortPairsDescending(temp, bytes, keys_in, keys_out,
                                                                    positions_in, positions_out, total, 0,
                                                                    int(sizeof(*keys_in) * 8), stream)
                        : cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in, keys_out, positions_in,
                                                          positions_out, total, 0, int(sizeof(*keys_in) * 8),
                                                          stream);
    });
    return;
  }
  auto starts = thrust::make_transform_iterator(thrust::counting_iterator<int64_t>(0), LineStart{n});
  cub_call(device, [&](void* temp, size_t& bytes, cudaStream_t stream) {
    return descending ? cub::DeviceSegmentedSort::StableSortPairsDescending(
                            temp, bytes, keys_in, keys_out, positions_in, positions_out, total, segments,
                            starts, starts + 1, stream)
                      : cub::DeviceSegmentedSort::StableSortPairs(temp, bytes, keys_in, keys_out,
                                                                  positions_in, positions_out, total,
                                                                  segments, starts, starts + 1, stream);
  });
}

/// Sorts the lines of `in` (elements of type T) into `values` and `indices`.
template <typename T>
void sort_lines(const th::Tensor& in, const th::Tensor& values, const th::Tensor& indices, int64_t segments,
                int64_t n, bool descending) {
  using K = typename sort_key<T>::type;
  static_assert(sizeof(K) == sizeof(T));
  const int64_t total = segments * n;
  th::Tensor positions = th::empty_tensor({total}, th::ScalarType::Long, in.device());
  auto* pos = reinterpret_cast<int64_t*>(positions.data_ptr());
  auto* idx = reinterpret_cast<int64_t*>(indices.data_ptr());
  const auto* src = reinterpret_cast<const T*>(in.data_ptr());
  auto* val = reinterpret_cast<T*>(values.data_ptr());
  if constexpr (th::is_floating_v<T>) {
    th::Tensor keys = th::empty_tensor({total}, in.dtype(), in.device());
    auto* key = reinterpret_cast<T*>(keys.data_ptr());
    make_keys<<<grid_for(total, 256), 256, 0, thc::current_stream()>>>(src, key, pos, total, n);
    THC_CHECK(cudaGetLastError());
    // the sorted keys land in `values`, which the gather then overwrites with the input's values
    sort_pairs(in.device(), reinterpret_cast<const K*>(key), reinterpret_cast<K*>(val), pos, idx, segments, n,
               descending);
    gather_sorted<<<grid_for(total, 256), 256, 0, thc::current_stream()>>>(src, idx, val, total, n);
    THC_CHECK(cudaGetLastError());
  } else {
    make_keys<<<grid_for(total, 256), 256, 0, thc::current_stream()>>>(src, static_cast<T*>(nullptr), pos,
                                                                       total, n);
    THC_CHECK(cudaGetLastError());
    sort_pairs(in.device(), reinterpret_cast<const K*>(src), reinterpret_cast<K*>(val), pos, idx, segments, n,
               descending);
  }
}

void sort_kernel(const th::Tensor& in, const th::Tensor& values, const th::Tensor& indices, int64_t segments,
                 int64_t n, bool descending) {
  DeviceGuard guard(in.device());
  TH_DISPATCH_ALL_TYPES(in.dtype(), "sort_cuda",
                        [&] { sort_lines<scalar_t>(in, values, indices, segments, n, descending); });
}

}  // namespace

TH_REGISTER_KERNEL(th::sort_stub, CUDA, sort_kernel);

}  // namespace thc
