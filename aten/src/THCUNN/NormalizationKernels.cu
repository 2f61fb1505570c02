// CUDA kernels of the normalization family: layer_norm a thread per row (math/Normalization.h); the
// backward's weight and bias gradients a thread per column summing over the rows (neighbouring threads
// read neighbouring columns).
#include <THC/DeviceGuard.h>
#include <THC/Exception.h>
#include <THC/Stream.h>
#include <THNN/math/Normalization.h>
#include <THNN/ops/Normalization.h>
#include <THC/Loops.cuh>

namespace thcunn {
namespace {

template <typename T, typename A>
__global__ void layer_norm_rows(const T* x, const T* w, const T* b, double eps, T* y, A* mean, A* rstd,
                                int64_t N, int64_t M) {
  for (int64_t r = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; r < N;
       r += int64_t(blockDim.x) * gridDim.x)
    th::math::layer_norm_row(x + r * M, y + r * M, M, w, b, eps, mean[r], rstd[r]);
}

template <typename T, typename A>
__global__ void layer_norm_backward_rows(const T* dy, const T* x, const A* mean, const A* rstd, const T* w,
                                         T* dx, int64_t N, int64_t M) {
  for (int64_t r = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; r < N;
       r += int64_t(blockDim.x) * gridDim.x)
    th::math::layer_norm_backward_row(dy + r * M, x + r * M, M, w, mean[r], rstd[r], dx + r * M);
}

template <typename T, typename A>
__global__ void layer_norm_param_grads(const T* dy, const T* x, const A* mean, const A* rstd, T* dw, T* db,
                                       int64_t N, int64_t M) {
  for (int64_t k = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; k < M;
       k += int64_t(blockDim.x) * gridDim.x) {
    A sw = 0, sb = 0;
    for (int64_t r = 0; r < N; ++r) {
      const A g = A(dy[r * M + k]);
      sw += g * (A(x[r * M + k]) - mean[r]) * rstd[r];
      sb += g;
    }
    if (dw) dw[k] = T(sw);
    if (db) db[k] = T(sb);
  }
}

template <typename T, typename A>
__global__ void batch_norm_channels(const T* x, const T* w, const T* b, A* mean, A* var, bool batch_stats,
                                    double eps, T* y, int64_t N, int64_t C, int64_t L) {
  for (int64_t c = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; c < C;
       c += int64_t(blockDim.x) * gridDim.x) {
    if (batch_stats) th::math::batch_norm_channel_stats(x, N, C, L, c, mean[c], var[c]);
    th::math::batch_norm_channel_apply(x, y, N, C, L, c, mean[c], A(1) / std::sqrt(var[c] + A(eps)), w, b);
  }
}

template <typename T, typename A>
__global__ void batch_norm_backward_channels(const T* dy, const T* x, const A* mean, const A* var, const T* w,
                                             bool batch_stats, double eps, T* dx, T* dw, T* db, int64_t N,
                                             int64_t C, int64_t L) {
  for (int64_t c = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; c < C;
       c += int64_t(blockDim.x) * gridDim.x)
    th::math::batch_norm_channel_backward(dy, x, N, C, L, c, mean[c], A(1) / std::sqrt(var[c] + A(eps)), w,
                                          batch_stats, dx, dw, db);
}

template <typename T>
T* ptr_or_null(const th::Tensor& t) {
  return t.defined() ? reinterpret_cast<T*>(t.data_ptr()) : nullptr;
}

void layer_norm_kernel(const th::Tensor& x, const th::Tensor& weight, const th::Tensor& bias, double eps,
                       const th::Tensor& y, const th::Tensor& mean, const th::Tensor& rstd, int64_t N,
                       int64_t M) {
  thc::DeviceGuard guard(x.device());
  TH_DISPATCH_FLOATING_TYPES(x.dtype(), "LayerNormKernelImpl", [&] {
    using A = th::opmath_t<scalar_t>;
    layer_norm_rows<scalar_t, A><<<thc::grid_for(N, 128), 128, 0, thc::current_stream()>>>(
        reinterpret_cast<const scalar_t*>(x.data_ptr()), ptr_or_null<const scalar_t>(weight),
        ptr_or_null<const scalar_t>(bias), eps, reinterpret_cast<scalar_t*>(y.data_ptr()),
        reinterpret_cast<A*>(mean.data_ptr()), reinterpret_cast<A*>(rstd.data_ptr()), N, M);
  });
  THC_CHECK(cudaGetLastError());
}

void layer_norm_backward_kernel(const th::Tensor& dy, const th::Tensor& x, const th::Tensor& mean,
                                const th::Tensor& rstd, const th::Tensor& weight, const th::Tensor& dx,
                                const th::Tensor& dweight, const th::Tensor& dbias, int64_t N, int64_t M) {
  thc::DeviceGuard guard(x.device());
  TH_DISPATCH_FLOATING_TYPES(x.dtype(), "LayerNormBackwardKernelImpl", [&] {
    using A = th::opmath_t<scalar_t>;
    const auto* g = reinterpret_cast<const scalar_t*>(dy.data_ptr());
    const auto* xp = reinterpret_cast<const scalar_t*>(x.data_ptr());
    const auto* mp = reinterpret_cast<const A*>(mean.data_ptr());
    const auto* rp = reinterpret_cast<const A*>(rstd.data_ptr());
    layer_norm_backward_rows<scalar_t, A><<<thc::grid_for(N, 128), 128, 0, thc::current_stream()>>>(
        g, xp, mp, rp, ptr_or_null<const scalar_t>(weight), reinterpret_cast<scalar_t*>(dx.data_ptr()), N, M);
    THC_CHECK(cudaGetLastError());
    if (dweight.defined() || dbias.defined()) {
      layer_norm_param_grads<scalar_t, A><<<thc::grid_for(M, 128), 128, 0, thc::current_stream()>>>(
          g, xp, mp, rp, ptr_or_null<scalar_t>(dweight), ptr_or_null<scalar_t>(dbias), N, M);
    }
  });
  THC_CHECK(cudaGetLastError());
}

void batch_norm_kernel(const th::Tensor& x, const th::Tensor& weight, const th::Tensor& bias,
                       const th::Tensor& mean, const th::Tensor& var, bool batch_stats, double eps,
                       const th::Tensor& y, int64_t N, int64_t C, int64_t L) {
  thc::DeviceGuard guard(x.device());
  TH_DISPATCH_FLOATING_TYPES(x.dtype(), "batch_norm_cuda", [&] {
    using A = th::opmath_t<scalar_t>;
    batch_norm_channels<scalar_t, A><<<thc::grid_for(C, 64), 64, 0, thc::current_stream()>>>(
        reinterpret_cast<const scalar_t*>(x.data_ptr()), ptr_or_null<const scalar_t>(weight),
        ptr_or_null<const scalar_t>(bias), reinterpret_cast<A*>(mean.data_ptr()),
        reinterpret_cast<A*>(var.data_ptr()), batch_stats, eps, reinterpret_cast<scalar_t*>(y.data_ptr()), N,
        C, L);
  });
  THC_CHECK(cudaGetLastError());
}

void batch_norm_backward_kernel(const th::Tensor& dy, const th::Tensor& x, const th::Tensor& mean,
                                const th::Tensor& var, const th::Tensor& weight, bool batch_stats, double eps,
                                const th::Tensor& dx, const th::Tensor& dweight, const th::Tensor& dbias,
                                int64_t N, int64_t C, int64_t L) {
  thc::DeviceGuard guard(x.device());
  TH_DISPATCH_FLOATING_TYPES(x.dtype(), "batch_norm_backward_cuda", [&] {
    using A = th::opmath_t<scalar_t>;
    batch_norm_backward_channels<scalar_t, A><<<thc::grid_for(C, 64), 64, 0, thc::current_stream()>>>(
        reinterpret_cast<const scalar_t*>(dy.data_ptr()), reinterpret_cast<const scalar_t*>(x.data_ptr()),
        reinterpret_cast<const A*>(mean.data_ptr()), reinterpret_cast<const A*>(var.data_ptr()),
        ptr_or_null<const scalar_t>(weight), batch_stats, eps, reinterpret_cast<scalar_t*>(dx.data_ptr()),
        ptr_or_null<scalar_t>(dweight), ptr_or_null<scalar_t>(dbias), N, C, L);
  });
  THC_CHECK(cudaGetLastError());
}

}  // namespace

TH_REGISTER_KERNEL(th::batch_norm_stub, CUDA, batch_norm_kernel);
TH_REGISTER_KERNEL(th::batch_norm_backward_stub, CUDA, batch_norm_backward_kernel);
TH_REGISTER_KERNEL(th::layer_norm_stub, CUDA, layer_norm_kernel);
TH_REGISTER_KERNEL(th::layer_norm_backward_stub, CUDA, layer_norm_backward_kernel);

}  // namespace thcunn
