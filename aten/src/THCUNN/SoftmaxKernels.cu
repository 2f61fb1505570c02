// CUDA kernels of the softmax family. Rows along the last dim (inner == 1): a block per row, its threads
// striding over the row, with block-wide max and sum reductions (THC/BlockReduce.cuh). Otherwise a thread per
// line (math/Softmax.h), neighbouring threads on neighbouring columns so that reads coalesce.
#include <THC/DeviceGuard.h>
#include <THC/Exception.h>
#include <THC/Stream.h>
#include <THNN/math/Softmax.h>
#include <THNN/ops/Softmax.h>
#include <THC/BlockReduce.cuh>
#include <THC/Loops.cuh>

namespace thcunn {
namespace {

constexpr int kThreads = 256;

/// max that skips a NaN (it poisons the sum instead, as on the CPU), and sum, for thc::block_reduce.
struct Max {
  template <typename A>
  __device__ A operator()(A a, A b) const {
    return b > a ? b : a;
  }
};
struct Sum {
  template <typename A>
  __device__ A operator()(A a, A b) const {
    return a + b;
  }
};

template <typename T>
__global__ void softmax_rows(const T* in, T* out, int64_t rows, int64_t n, bool log) {
  using A = th::opmath_t<T>;
  __shared__ A buf[kThreads];
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const T* x = in + r * n;
    T* y = out + r * n;
    A m = -INFINITY;
    for (int64_t k = threadIdx.x; k < n; k += blockDim.x) m = Max{}(m, A(x[k]));
    m = thc::block_reduce(m, buf, Max{});
    A s = 0;
    for (int64_t k = threadIdx.x; k < n; k += blockDim.x) s += std::exp(A(x[k]) - m);
    s = thc::block_reduce(s, buf, Sum{});
    const A log_s = std::log(s), inv = A(1) / s;
    for (int64_t k = threadIdx.x; k < n; k += blockDim.x)
      y[k] = T(log ? (A(x[k]) - m) - log_s : std::exp(A(x[k]) - m) * inv);
  }
}

template <typename T>
__global__ void softmax_backward_rows(const T* grad, const T* out, T* grad_in, int64_t rows, int64_t n,
                                      bool log) {
  using A = th::opmath_t<T>;
  __shared__ A buf[kThreads];
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const T* g = grad + r * n;
    const T* y = out + r * n;
    T* gi = grad_in + r * n;
    A s = 0;
    for (int64_t k = threadIdx.x; k < n; k += blockDim.x) s += log ? A(g[k]) : A(g[k]) * A(y[k]);
    s = thc::block_reduce(s, buf, Sum{});
    for (int64_t k = threadIdx.x; k < n; k += blockDim.x)
      gi[k] = T(log ? A(g[k]) - std::exp(A(y[k])) * s : A(y[k]) * (A(g[k]) - s));
  }
}

template <typename T>
__global__ void softmax_lines(const T* in, T* out, int64_t lines, int64_t n, int64_t inner, bool log) {
  for (int64_t l = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; l < lines;
       l += int64_t(blockDim.x) * gridDim.x) {
    const int64_t at = (l / inner) * n * inner + l % inner;
    th::math::softmax_line(in + at, out + at, n, inner, log);
  }
}

template <typename T>
__global__ void softmax_backward_lines(const T* grad, const T* out, T* grad_in, int64_t lines, int64_t n,
                                       int64_t inner, bool log) {
  for (int64_t l = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; l < lines;
       l += int64_t(blockDim.x) * gridDim.x) {
    const int64_t at = (l / inner) * n * inner + l % inner;
    th::math::softmax_backward_line(grad + at, out + at, grad_in + at, n, inner, log);
  }
}

unsigned row_blocks(int64_t rows) { return static_cast<unsigned>(std::min<int64_t>(rows, 65535)); }

void softmax_kernel(const th::Tensor& in, const th::Tensor& out, int64_t outer, int64_t n, int64_t inner,
                    bool log) {
  thc::DeviceGuard guard(in.device());
  TH_DISPATCH_FLOATING_TYPES(in.dtype(), "softmax_cuda", [&] {
    const auto* src = reinterpret_cast<const scalar_t*>(in.data_ptr());
    auto* dst = reinterpret_cast<scalar_t*>(out.data_ptr());
    if (inner == 1) {
      softmax_rows<scalar_t>
          <<<row_blocks(outer), kThreads, 0, thc::current_stream()>>>(src, dst, outer, n, log);
    } else {
      softmax_lines<scalar_t><<<thc::grid_for(outer * inner, 128), 128, 0, thc::current_stream()>>>(
          src, dst, outer * inner, n, inner, log);
    }
  });
  THC_CHECK(cudaGetLastError());
}

void softmax_backward_kernel(const th::Tensor& grad, const th::Tensor& out, const th::Tensor& grad_in,
                             int64_t outer, int64_t n, int64_t inner, bool log) {
  thc::DeviceGuard guard(out.device());
  TH_DISPATCH_FLOATING_TYPES(out.dtype(), "softmax_backward_cuda", [&] {
    const auto* g = reinterpret_cast<const scalar_t*>(grad.data_ptr());
    const auto* y = reinterpret_cast<const scalar_t*>(out.data_ptr());
    auto* gi = reinterpret_cast<scalar_t*>(grad_in.data_ptr());
    if (inner == 1) {
      softmax_backward_rows<scalar_t>
          <<<row_blocks(outer), kThreads, 0, thc::current_stream()>>>(g, y, gi, outer, n, log);
    } else {
      softmax_backward_lines<scalar_t><<<thc::grid_for(outer * inner, 128), 128, 0, thc::current_stream()>>>(
          g, y, gi, outer * inner, n, inner, log);
    }
  });
  THC_CHECK(cudaGetLastError());
}

}  // namespace

TH_REGISTER_KERNEL(th::softmax_stub, CUDA, softmax_kernel);
TH_REGISTER_KERNEL(th::softmax_backward_stub, CUDA, softmax_backward_kernel);

}  // namespace thcunn
