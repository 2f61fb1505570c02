// CUDA kernels of the pooling family: the forward a thread per output element (math/Pooling.h), the
// backward a thread per plane (its outputs in turn: no two threads add to one element, no atomics).
#include <THC/DeviceGuard.h>
#include <THC/Exception.h>
#include <THC/Stream.h>
#include <THNN/math/Pooling.h>
#include <THNN/ops/Pooling.h>
#include <THC/Loops.cuh>

namespace thcunn {
namespace {

using th::math::ConvGeometry;

template <typename T>
__global__ void max_pool_outputs(const T* x, T* out, int64_t* idx, ConvGeometry g, int64_t total) {
  const int64_t L = g.out_numel(), I = g.in_numel();
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(blockDim.x) * gridDim.x)
    th::math::max_pool_window(x + (i / L) * I, g, i % L, out[i], idx[i]);
}

template <typename T>
__global__ void fractional_max_pool_outputs(const T* x, const th::opmath_t<T>* u, T* out, int64_t* idx,
                                            ConvGeometry g, int64_t total) {
  const int64_t L = g.out_numel(), I = g.in_numel();
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(blockDim.x) * gridDim.x)
    th::math::fractional_max_cell(x + (i / L) * I, g, u + (i / L) * 3, i % L, out[i], idx[i]);
}

template <typename T>
__global__ void max_pool_backward_planes(const T* go, const int64_t* idx, T* gx, ConvGeometry g,
                                         int64_t planes) {
  using A = th::opmath_t<T>;
  const int64_t L = g.out_numel(), I = g.in_numel();
  for (int64_t p = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; p < planes;
       p += int64_t(blockDim.x) * gridDim.x)
    for (int64_t o = 0; o < L; ++o) {
      const int64_t i = idx[p * L + o];
      if (i >= 0) gx[p * I + i] = T(A(gx[p * I + i]) + A(go[p * L + o]));
    }
}

template <typename T>
__global__ void avg_pool_outputs(const T* x, T* out, ConvGeometry g, bool include_pad, int64_t divisor,
                                 int64_t total) {
  using A = th::opmath_t<T>;
  const int64_t L = g.out_numel(), I = g.in_numel();
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(blockDim.x) * gridDim.x) {
    const T* plane = x + (i / L) * I;
    A sum = 0;
    th::math::for_each_in_window(g, i % L, [&](int64_t at) { sum += A(plane[at]); });
    out[i] = T(sum / A(th::math::avg_pool_divisor(g, i % L, include_pad, divisor)));
  }
}

template <typename T>
__global__ void avg_pool_backward_planes(const T* go, T* gx, ConvGeometry g, bool include_pad,
                                         int64_t divisor, int64_t planes) {
  using A = th::opmath_t<T>;
  const int64_t L = g.out_numel(), I = g.in_numel();
  for (int64_t p = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; p < planes;
       p += int64_t(blockDim.x) * gridDim.x)
    for (int64_t o = 0; o < L; ++o) {
      const A v = A(go[p * L + o]) / A(th::math::avg_pool_divisor(g, o, include_pad, divisor));
      T* plane = gx + p * I;
      th::math::for_each_in_window(g, o, [&](int64_t at) { plane[at] = T(A(plane[at]) + v); });
    }
}

void max_pool_kernel(const th::Tensor& x, const th::Tensor& out, const th::Tensor& indices,
                     const ConvGeometry& g) {
  thc::DeviceGuard guard(x.device());
  TH_DISPATCH_FLOATING_TYPES(x.dtype(), "max_pool_cuda", [&] {
    max_pool_outputs<scalar_t><<<thc::grid_for(out.numel(), 256), 256, 0, thc::current_stream()>>>(
        reinterpret_cast<const scalar_t*>(x.data_ptr()), reinterpret_cast<scalar_t*>(out.data_ptr()),
        reinterpret_cast<int64_t*>(indices.data_ptr()), g, out.numel());
  });
  THC_CHECK(cudaGetLastError());
}

void fractional_max_pool_kernel(const th::Tensor& x, const th::Tensor& samples, const th::Tensor& out,
                                const th::Tensor& indices, const ConvGeometry& g) {
  thc::DeviceGuard guard(x.device());
  TH_DISPATCH_FLOATING_TYPES(x.dtype(), "fractional_max_pool_cuda", [&] {
    fractional_max_pool_outputs<scalar_t><<<thc::grid_for(out.numel(), 256), 256, 0, thc::current_stream()>>>(
        reinterpret_cast<const scalar_t*>(x.data_ptr()),
        reinterpret_cast<const th::opmath_t<scalar_t>*>(samples.data_ptr()),
        reinterpret_cast<scalar_t*>(out.data_ptr()), reinterpret_cast<int64_t*>(indices.data_ptr()), g,
        out.numel());
  });
  THC_CHECK(cudaGetLastError());
}

void max_pool_backward_kernel(const th::Tensor& grad_out, const th::Tensor& indices, const th::Tensor& grad_x,
                              const ConvGeometry& g) {
  thc::DeviceGuard guard(grad_x.device());
  const int64_t planes = grad_x.numel() / g.in_numel();
  TH_DISPATCH_FLOATING_TYPES(grad_x.dtype(), "max_pool_backward_cuda", [&] {
    max_pool_backward_planes<scalar_t><<<thc::grid_for(planes, 128), 128, 0, thc::current_stream()>>>(
        reinterpret_cast<const scalar_t*>(grad_out.data_ptr()),
        reinterpret_cast<const int64_t*>(indices.data_ptr()), reinterpret_cast<scalar_t*>(grad_x.data_ptr()),
        g, planes);
  });
  THC_CHECK(cudaGetLastError());
}

void avg_pool_kernel(const th::Tensor& x, const th::Tensor& out, const ConvGeometry& g, bool include_pad,
                     int64_t divisor) {
  thc::DeviceGuard guard(x.device());
  TH_DISPATCH_FLOATING_TYPES(x.dtype(), "avg_pool_cuda", [&] {
    avg_pool_outputs<scalar_t><<<thc::grid_for(out.numel(), 256), 256, 0, thc::current_stream()>>>(
        reinterpret_cast<const scalar_t*>(x.data_ptr()), reinterpret_cast<scalar_t*>(out.data_ptr()), g,
        include_pad, divisor, out.numel());
  });
  THC_CHECK(cudaGetLastError());
}

void avg_pool_backward_kernel(const th::Tensor& grad_out, const th::Tensor& grad_x, const ConvGeometry& g,
                              bool include_pad, int64_t divisor) {
  thc::DeviceGuard guard(grad_x.device());
  const int64_t planes = grad_x.numel() / g.in_numel();
  TH_DISPATCH_FLOATING_TYPES(grad_x.dtype(), "avg_pool_backward_cuda", [&] {
    avg_pool_backward_planes<scalar_t><<<thc::grid_for(planes, 128), 128, 0, thc::current_stream()>>>(
        reinterpret_cast<const scalar_t*>(grad_out.data_ptr()),
        reinterpret_cast<scalar_t*>(grad_x.data_ptr()), g, include_pad, divisor, planes);
  });
  THC_CHECK(cudaGetLastError());
}

template <typename T>
__global__ void adaptive_pool_cells(const T* x, T* out, int64_t* idx, th::math::AdaptiveGeometry g,
                                    int64_t total) {
  const int64_t L = g.out_numel(), I = g.in_numel();
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(blockDim.x) * gridDim.x)
    th::math::adaptive_pool_cell(x + (i / L) * I, g, i % L, out[i], idx ? idx + i : nullptr);
}

template <typename T>
__global__ void adaptive_avg_backward_planes(const T* go, T* gx, th::math::AdaptiveGeometry g,
                                             int64_t planes) {
  for (int64_t p = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; p < planes;
       p += int64_t(blockDim.x) * gridDim.x)
    th::math::adaptive_avg_backward_plane(go + p * g.out_numel(), gx + p * g.in_numel(), g);
}

void adaptive_pool_kernel(const th::Tensor& x, const th::Tensor& out, const th::Tensor& indices,
                          const th::math::AdaptiveGeometry& g) {
  thc::DeviceGuard guard(x.device());
  const int64_t total = out.numel();
  TH_DISPATCH_FLOATING_TYPES(x.dtype(), "adaptive_pool_cuda", [&] {
    adaptive_pool_cells<scalar_t><<<thc::grid_for(total, 256), 256, 0, thc::current_stream()>>>(
        reinterpret_cast<const scalar_t*>(x.data_ptr()), reinterpret_cast<scalar_t*>(out.data_ptr()),
        indices.defined() ? reinterpret_cast<int64_t*>(indices.data_ptr()) : nullptr, g, total);
  });
  THC_CHECK(cudaGetLastError());
}

void adaptive_avg_pool_backward_kernel(const th::Tensor& grad_out, const th::Tensor& grad_x,
                                       const th::math::AdaptiveGeometry& g) {
  thc::DeviceGuard guard(grad_x.device());
  const int64_t planes = grad_x.numel() / g.in_numel();
  TH_DISPATCH_FLOATING_TYPES(grad_x.dtype(), "adaptive_avg_pool_backward_cuda", [&] {
    adaptive_avg_backward_planes<scalar_t><<<thc::grid_for(planes, 256), 256, 0, thc::current_stream()>>>(
        reinterpret_cast<const scalar_t*>(grad_out.data_ptr()),
        reinterpret_cast<scalar_t*>(grad_x.data_ptr()), g, planes);
  });
  THC_CHECK(cudaGetLastError());
}

}  // namespace

TH_REGISTER_KERNEL(th::adaptive_pool_stub, CUDA, adaptive_pool_kernel);
TH_REGISTER_KERNEL(th::adaptive_avg_pool_backward_stub, CUDA, adaptive_avg_pool_backward_kernel);
TH_REGISTER_KERNEL(th::max_pool_stub, CUDA, max_pool_kernel);
TH_REGISTER_KERNEL(th::fractional_max_pool_stub, CUDA, fractional_max_pool_kernel);
TH_REGISTER_KERNEL(th::max_pool_backward_stub, CUDA, max_pool_backward_kernel);
TH_REGISTER_KERNEL(th::avg_pool_stub, CUDA, avg_pool_kernel);
TH_REGISTER_KERNEL(th::avg_pool_backward_stub, CUDA, avg_pool_backward_kernel);

}  // namespace thcunn
