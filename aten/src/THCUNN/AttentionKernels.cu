// CUDA kernels of the attention family (math/Attention.h): a thread per query row of every batch-head for the
// forward and for dq, a thread per key row for dk and dv (the same row functions as the CPU, no atomics).
#include <THC/DeviceGuard.h>
#include <THC/Exception.h>
#include <THC/Stream.h>
#include <THNN/math/Attention.h>
#include <THNN/ops/Attention.h>
#include <THC/Loops.cuh>

namespace thcunn {
namespace {

template <typename T>
T* ptr(const th::Tensor& t) {
  return t.defined() ? reinterpret_cast<T*>(t.data_ptr()) : nullptr;
}

template <typename T, typename A>
__global__ void forward_rows(const T* q, const T* k, const T* v, const T* m, A* acc, A* lse,
                             th::math::AttentionShape a, int64_t rows) {
  for (int64_t r = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; r < rows;
       r += int64_t(blockDim.x) * gridDim.x) {
    const int64_t b = r / a.L, i = r % a.L;
    th::math::attention_forward_row<T, A>(q + b * a.L * a.E, k + b * a.S * a.E, v + b * a.S * a.Ev,
                                          m ? m + b * a.mask_b : nullptr, acc + b * a.L * a.Ev, lse + b * a.L,
                                          a, i);
  }
}

template <typename T, typename A>
__global__ void query_rows(const T* q, const T* k, const T* v, const T* m, const T* o, const T* g,
                           const A* lse, A* D, A* dq, T* dm, th::math::AttentionShape a, int64_t rows) {
  for (int64_t r = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; r < rows;
       r += int64_t(blockDim.x) * gridDim.x) {
    const int64_t b = r / a.L, i = r % a.L;
    th::math::attention_backward_query_row<T, A>(q + b * a.L * a.E, k + b * a.S * a.E, v + b * a.S * a.Ev,
                                                 m ? m + b * a.mask_b : nullptr, o + b * a.L * a.Ev,
                                                 g + b * a.L * a.Ev, lse + b * a.L, D + b * a.L,
                                                 dq + b * a.L * a.E, dm ? dm + b * a.L * a.S : nullptr, a, i);
  }
}

template <typename T, typename A>
__global__ void key_rows(const T* q, const T* k, const T* v, const T* m, const T* g, const A* lse, const A* D,
                         A* dk, A* dv, th::math::AttentionShape a, int64_t rows) {
  for (int64_t r = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; r < rows;
       r += int64_t(blockDim.x) * gridDim.x) {
    const int64_t b = r / a.S, j = r % a.S;
    th::math::attention_backward_key_row<T, A>(
        q + b * a.L * a.E, k + b * a.S * a.E, v + b * a.S * a.Ev, m ? m + b * a.mask_b : nullptr,
        g + b * a.L * a.Ev, lse + b * a.L, D + b * a.L, dk + b * a.S * a.E, dv + b * a.S * a.Ev, a, j);
  }
}

void attention_kernel(const th::Tensor& q, const th::Tensor& k, const th::Tensor& v, const th::Tensor& mask,
                      const th::Tensor& acc, const th::Tensor& lse, const th::math::AttentionShape& a) {
  thc::DeviceGuard guard(q.device());
  const int64_t rows = q.size(0) * a.L;
  if (rows == 0) return;
  TH_DISPATCH_FLOATING_TYPES(q.dtype(), "attention_cuda", [&] {
    using A = th::opmath_t<scalar_t>;
    forward_rows<scalar_t, A><<<thc::grid_for(rows, 128), 128, 0, thc::current_stream()>>>(
        ptr<scalar_t>(q), ptr<scalar_t>(k), ptr<scalar_t>(v), ptr<scalar_t>(mask), ptr<A>(acc), ptr<A>(lse),
        a, rows);
  });
  THC_CHECK(cudaGetLastError());
}

void attention_backward_kernel(const th::Tensor& q, const th::Tensor& k, const th::Tensor& v,
                               const th::Tensor& mask, const th::Tensor& out, const th::Tensor& dout,
                               const th::Tensor& lse, const th::Tensor& D, const th::Tensor& dq,
                               const th::Tensor& dk, const th::Tensor& dv, const th::Tensor& dmask,
                               const th::math::AttentionShape& a) {
  thc::DeviceGuard guard(q.device());
  const int64_t qrows = q.size(0) * a.L, krows = q.size(0) * a.S;
  TH_DISPATCH_FLOATING_TYPES(q.dtype(), "attention_backward_cuda", [&] {
    using A = th::opmath_t<scalar_t>;
    if (qrows > 0)
      query_rows<scalar_t, A><<<thc::grid_for(qrows, 128), 128, 0, thc::current_stream()>>>(
          ptr<scalar_t>(q), ptr<scalar_t>(k), ptr<scalar_t>(v), ptr<scalar_t>(mask), ptr<scalar_t>(out),
          ptr<scalar_t>(dout), ptr<A>(lse), ptr<A>(D), ptr<A>(dq), ptr<scalar_t>(dmask), a, qrows);
    if (krows > 0)
      key_rows<scalar_t, A><<<thc::grid_for(krows, 128), 128, 0, thc::current_stream()>>>(
          ptr<scalar_t>(q), ptr<scalar_t>(k), ptr<scalar_t>(v), ptr<scalar_t>(mask), ptr<scalar_t>(dout),
          ptr<A>(lse), ptr<A>(D), ptr<A>(dk), ptr<A>(dv), a, krows);
  });
  THC_CHECK(cudaGetLastError());
}

}  // namespace

TH_REGISTER_KERNEL(th::attention_stub, CUDA, attention_kernel);
TH_REGISTER_KERNEL(th::attention_backward_stub, CUDA, attention_backward_kernel);

}  // namespace thcunn
