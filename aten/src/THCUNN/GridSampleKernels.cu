// CUDA kernels of the grid-sample family (math/GridSample.h): the forward and the grid gradient a thread per
// grid point, the input gradient a thread per plane (its points in turn: no atomics, deterministic).
#include <THC/DeviceGuard.h>
#include <THC/Exception.h>
#include <THNN/math/GridSample.h>
#include <THNN/ops/GridSample.h>
#include <THC/Loops.cuh>

namespace thcunn {
namespace {

template <typename T>
__global__ void sample_points(const T* x, const T* g, T* y, int64_t N, int64_t C, int64_t H, int64_t W,
                              int64_t P, th::GridSampleOptions o) {
  using A = th::opmath_t<T>;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < N * P;
       i += int64_t(blockDim.x) * gridDim.x) {
    const int64_t n = i / P, p = i % P;
    const th::math::GridTaps<A> t{A(g[2 * i]), A(g[2 * i + 1]), H, W, o.mode, o.padding, o.align_corners};
    for (int64_t c = 0; c < C; ++c)
      y[(n * C + c) * P + p] = T(t.sample(x + (n * C + c) * H * W, H, W, o.mode));
  }
}

template <typename T>
__global__ void input_grad_planes(const T* g, const T* go, T* gi, int64_t N, int64_t C, int64_t H, int64_t W,
                                  int64_t P, th::GridSampleOptions o) {
  using A = th::opmath_t<T>;
  for (int64_t plane = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; plane < N * C;
       plane += int64_t(blockDim.x) * gridDim.x) {
    const int64_t n = plane / C;
    for (int64_t p = 0; p < P; ++p) {
      const int64_t at = n * P + p;
      const th::math::GridTaps<A> t{A(g[2 * at]), A(g[2 * at + 1]), H, W, o.mode, o.padding, o.align_corners};
      t.scatter(gi + plane * H * W, H, W, o.mode, A(go[plane * P + p]));
    }
  }
}

template <typename T>
__global__ void grid_grad_points(const T* x, const T* g, const T* go, T* gg, int64_t N, int64_t C, int64_t H,
                                 int64_t W, int64_t P, th::GridSampleOptions o) {
  using A = th::opmath_t<T>;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < N * P;
       i += int64_t(blockDim.x) * gridDim.x) {
    const int64_t n = i / P, p = i % P;
    const th::math::GridTaps<A> t{A(g[2 * i]), A(g[2 * i + 1]), H, W, o.mode, o.padding, o.align_corners};
    A dx = 0, dy = 0;
    for (int64_t c = 0; c < C; ++c)
      t.coordinate_grad(x + (n * C + c) * H * W, H, W, A(go[(n * C + c) * P + p]), dx, dy);
    gg[2 * i] = T(dx * t.sx);
    gg[2 * i + 1] = T(dy * t.sy);
  }
}

void grid_sample_kernel(const th::Tensor& input, const th::Tensor& grid, const th::Tensor& out,
                        const th::GridSampleOptions& o) {
  thc::DeviceGuard guard(input.device());
  const int64_t N = input.size(0), C = input.size(1), H = input.size(2), W = input.size(3);
  const int64_t P = grid.size(1) * grid.size(2);
  TH_DISPATCH_FLOATING_TYPES(input.dtype(), "grid_sampler_2d_cuda", [&] {
    sample_points<scalar_t>
        <<<thc::grid_for(N * P, 256), 256>>>(reinterpret_cast<const scalar_t*>(input.data_ptr()),
                                             reinterpret_cast<const scalar_t*>(grid.data_ptr()),
                                             reinterpret_cast<scalar_t*>(out.data_ptr()), N, C, H, W, P, o);
  });
  THC_CHECK(cudaGetLastError());
}

void grid_sample_backward_kernel(const th::Tensor& grad_out, const th::Tensor& input, const th::Tensor& grid,
                                 const th::Tensor& grad_input, const th::Tensor& grad_grid,
                                 const th::GridSampleOptions& o) {
  thc::DeviceGuard guard(input.device());
  const int64_t N = input.size(0), C = input.size(1), H = input.size(2), W = input.size(3);
  const int64_t P = grid.size(1) * grid.size(2);
  TH_DISPATCH_FLOATING_TYPES(input.dtype(), "grid_sampler_2d_backward_cuda", [&] {
    const auto* x = reinterpret_cast<const scalar_t*>(input.data_ptr());
    const auto* g = reinterpret_cast<const scalar_t*>(grid.data_ptr());
    const auto* go = reinterpret_cast<const scalar_t*>(grad_out.data_ptr());
    if (grad_input.defined())
      input_grad_planes<scalar_t><<<thc::grid_for(N * C, 128), 128>>>(
          g, go, reinterpret_cast<scalar_t*>(grad_input.data_ptr()), N, C, H, W, P, o);
    if (grad_grid.defined() && o.mode == th::math::GridMode::Bilinear)
      grid_grad_points<scalar_t><<<thc::grid_for(N * P, 256), 256>>>(
          x, g, go, reinterpret_cast<scalar_t*>(grad_grid.data_ptr()), N, C, H, W, P, o);
  });
  THC_CHECK(cudaGetLastError());
}

}  // namespace

TH_REGISTER_KERNEL(th::grid_sample_stub, CUDA, grid_sample_kernel);
TH_REGISTER_KERNEL(th::grid_sample_backward_stub, CUDA, grid_sample_backward_kernel);

}  // namespace thcunn
