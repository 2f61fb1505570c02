// CUDA kernel of the embedding family: the backward counts each index's occurrences, then a thread per
// gradient element adds it (times 1 / count with scale_grad_by_freq) into a float accumulator row with
// atomicAdd, and the accumulator is rounded into the weight's dtype. The order of the additions is free,
// so the last bits may differ between runs (as upstream's CUDA kernels without deterministic mode).
#include <THC/DeviceGuard.h>
#include <THC/Exception.h>
#include <THC/Stream.h>
#include <THNN/ops/Embedding.h>
#include <THC/Loops.cuh>

namespace thcunn {
namespace {

/// A zero-filled contiguous tensor on `device`.
th::Tensor zeros_on(const th::IntList& sizes, th::ScalarType dtype, th::Device device) {
  th::Tensor t = th::empty_tensor(sizes, dtype, device);
  THC_CHECK(
      cudaMemsetAsync(t.data_ptr(), 0, size_t(t.numel()) * th::element_size(dtype), thc::current_stream()));
  return t;
}

__global__ void count_indices(const int64_t* idx, int64_t n, int* counts) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(blockDim.x) * gridDim.x)
    atomicAdd(counts + idx[i], 1);
}

template <typename T, typename A>
__global__ void accumulate_rows(const T* g, const int64_t* idx, const int* counts, A* acc, int64_t n,
                                int64_t D, int64_t padding_idx) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n * D;
       i += int64_t(blockDim.x) * gridDim.x) {
    const int64_t w = idx[i / D];
    if (w == padding_idx) continue;
    const A v = A(g[i]);
    atomicAdd(acc + w * D + i % D, counts ? v / A(counts[w]) : v);
  }
}

template <typename T, typename A>
__global__ void round_rows(const A* acc, T* out, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(blockDim.x) * gridDim.x)
    out[i] = T(acc[i]);
}

void embedding_backward_kernel(const th::Tensor& grad, const th::Tensor& indices,
                               const th::Tensor& grad_weight, int64_t padding_idx, bool scale_grad_by_freq) {
  thc::DeviceGuard guard(grad.device());
  const int64_t N = indices.numel(), W = grad_weight.size(0), D = grad_weight.size(1);
  const auto* idx = reinterpret_cast<const int64_t*>(indices.data_ptr());
  th::Tensor counts;
  if (scale_grad_by_freq) {
    counts = zeros_on({W}, th::ScalarType::Int, grad.device());
    count_indices<<<thc::grid_for(N, 256), 256, 0, thc::current_stream()>>>(
        idx, N, reinterpret_cast<int*>(counts.data_ptr()));
  }
  const int* cnt = scale_grad_by_freq ? reinterpret_cast<const int*>(counts.data_ptr()) : nullptr;
  TH_DISPATCH_FLOATING_TYPES(grad.dtype(), "embedding_backward_cuda", [&] {
    using A = th::opmath_t<scalar_t>;
    const auto* g = reinterpret_cast<const scalar_t*>(grad.data_ptr());
    if constexpr (std::is_same_v<A, scalar_t>) {
      accumulate_rows<scalar_t, A><<<thc::grid_for(N * D, 256), 256, 0, thc::current_stream()>>>(
          g, idx, cnt, reinterpret_cast<A*>(grad_weight.data_ptr()), N, D, padding_idx);
    } else {  // 16-bit weights: accumulate in float, round once
      th::Tensor acc = zeros_on({W, D}, th::ScalarType::Float, grad.device());
      accumulate_rows<scalar_t, A><<<thc::grid_for(N * D, 256), 256, 0, thc::current_stream()>>>(
          g, idx, cnt, reinterpret_cast<A*>(acc.data_ptr()), N, D, padding_idx);
      round_rows<scalar_t, A><<<thc::grid_for(W * D, 256), 256, 0, thc::current_stream()>>>(
          reinterpret_cast<const A*>(acc.data_ptr()), reinterpret_cast<scalar_t*>(grad_weight.data_ptr()),
          W * D);
    }
  });
  THC_CHECK(cudaGetLastError());
}

__global__ void bag_positions(const int64_t* st, int64_t* bag_of, int64_t B, int64_t N) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < N;
       i += int64_t(blockDim.x) * gridDim.x) {
    int64_t lo = 0, hi = B;  // the last bag whose start is <= i (binary search over the starts)
    if (B == 0 || i < st[0] || i >= st[B]) {  // before the first bag or after the last: in none
      bag_of[i] = -1;
      continue;
    }
    while (hi - lo > 1) {
      const int64_t mid = (lo + hi) / 2;
      if (st[mid] <= i)
        lo = mid;
      else
        hi = mid;
    }
    while (lo + 1 < B && st[lo + 1] <= i) ++lo;  // empty bags share a start: the last of them holds i
    bag_of[i] = lo;
  }
}

template <typename T>
__global__ void bag_columns(const T* w, const int64_t* idx, const int64_t* st, const T* psw, T* out,
                            int64_t* size, int64_t* mi, int64_t B, int64_t D, th::math::BagMode mode,
                            int64_t padding_idx) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < B * D;
       i += int64_t(blockDim.x) * gridDim.x) {
    const int64_t b = i / D, d = i % D;
    const int64_t n = th::math::bag_column(w, idx, psw, st[b], st[b + 1], D, d, mode, padding_idx, out[i],
                                           mi ? mi + i : nullptr);
    if (d == 0) size[b] = n;
  }
}

void embedding_bag_kernel(const th::Tensor& weight, const th::Tensor& indices, const th::Tensor& starts,
                          const th::Tensor& psw, const th::Tensor& out, const th::Tensor& bag_size,
                          const th::Tensor& offset2bag, const th::Tensor& max_indices, th::math::BagMode mode,
                          int64_t padding_idx) {
  thc::DeviceGuard guard(weight.device());
  const int64_t B = out.size(0), D = out.size(1), N = indices.numel();
  if (N > 0)
    bag_positions<<<thc::grid_for(N, 256), 256, 0, thc::current_stream()>>>(
        reinterpret_cast<const int64_t*>(starts.data_ptr()),
        reinterpret_cast<int64_t*>(offset2bag.data_ptr()), B, N);
  if (B * D == 0) return;
  TH_DISPATCH_FLOATING_TYPES(weight.dtype(), "embedding_bag_cuda", [&] {
    bag_columns<scalar_t><<<thc::grid_for(B * D, 256), 256, 0, thc::current_stream()>>>(
        reinterpret_cast<const scalar_t*>(weight.data_ptr()),
        reinterpret_cast<const int64_t*>(indices.data_ptr()),
        reinterpret_cast<const int64_t*>(starts.data_ptr()),
        psw.defined() ? reinterpret_cast<const scalar_t*>(psw.data_ptr()) : nullptr,
        reinterpret_cast<scalar_t*>(out.data_ptr()), reinterpret_cast<int64_t*>(bag_size.data_ptr()),
        max_indices.defined() ? reinterpret_cast<int64_t*>(max_indices.data_ptr()) : nullptr, B, D, mode,
        padding_idx);
  });
  THC_CHECK(cudaGetLastError());
}

}  // namespace

TH_REGISTER_KERNEL(th::embedding_backward_stub, CUDA, embedding_backward_kernel);
TH_REGISTER_KERNEL(th::embedding_bag_stub, CUDA, embedding_bag_kernel);

}  // namespace thcunn
