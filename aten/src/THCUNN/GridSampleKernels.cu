// CUDA kernels of the grid-sample family (math/GridSample.h), 2-D and 3-D: the forward and the grid gradient
// a thread per grid point, the input gradient a thread per plane (its points in turn: no atomics,
// deterministic).
#include <THC/DeviceGuard.h>
#include <THC/Exception.h>
#include <THC/Stream.h>
#include <THNN/math/GridSample.h>
#include <THNN/ops/GridSample.h>
#include <THC/Loops.cuh>

namespace thcunn {
namespace {

template <typename A, typename T>
__device__ th::math::GridTaps<A> taps_of(const T* g, int64_t i, const th::GridSizes& s,
                                         const th::GridSampleOptions& o) {
  const A at[3] = {A(g[s.k * i]), A(g[s.k * i + 1]), s.k == 3 ? A(g[s.k * i + 2]) : A(0)};
  return th::math::GridTaps<A>{at, s.size, s.k == 3, o.mode, o.padding, o.align_corners};
}

template <typename T>
__global__ void sample_points(const T* x, const T* g, T* y, th::GridSizes s, th::GridSampleOptions o) {
  using A = th::opmath_t<T>;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < s.N * s.P;
       i += int64_t(blockDim.x) * gridDim.x) {
    const int64_t n = i / s.P, p = i % s.P;
    const th::math::GridTaps<A> t = taps_of<A>(g, i, s, o);
    for (int64_t c = 0; c < s.C; ++c)
      y[(n * s.C + c) * s.P + p] = T(t.sample(x + (n * s.C + c) * s.plane(), s.size));
  }
}

template <typename T>
__global__ void input_grad_planes(const T* g, const T* go, T* gi, th::GridSizes s, th::GridSampleOptions o) {
  using A = th::opmath_t<T>;
  for (int64_t plane = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; plane < s.N * s.C;
       plane += int64_t(blockDim.x) * gridDim.x) {
    const int64_t n = plane / s.C;
    for (int64_t p = 0; p < s.P; ++p)
      taps_of<A>(g, n * s.P + p, s, o).scatter(gi + plane * s.plane(), s.size, A(go[plane * s.P + p]));
  }
}

template <typename T>
__global__ void grid_grad_points(const T* x, const T* g, const T* go, T* gg, th::GridSizes s,
                                 th::GridSampleOptions o) {
  using A = th::opmath_t<T>;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < s.N * s.P;
       i += int64_t(blockDim.x) * gridDim.x) {
    const int64_t n = i / s.P, p = i % s.P;
    const th::math::GridTaps<A> t = taps_of<A>(g, i, s, o);
    A d[3] = {0, 0, 0};
    for (int64_t c = 0; c < s.C; ++c)
      t.coordinate_grad(x + (n * s.C + c) * s.plane(), s.size, A(go[(n * s.C + c) * s.P + p]), d);
    for (int64_t j = 0; j < s.k; ++j) gg[s.k * i + j] = T(d[2 - j] * t.scale[2 - j]);
  }
}

void grid_sample_kernel(const th::Tensor& input, const th::Tensor& grid, const th::Tensor& out,
                        const th::GridSampleOptions& o) {
  thc::DeviceGuard guard(input.device());
  const th::GridSizes s(input, grid);
  TH_DISPATCH_FLOATING_TYPES(input.dtype(), "grid_sampler_cuda", [&] {
    sample_points<scalar_t><<<thc::grid_for(s.N * s.P, 256), 256, 0, thc::current_stream()>>>(
        reinterpret_cast<const scalar_t*>(input.data_ptr()),
        reinterpret_cast<const scalar_t*>(grid.data_ptr()), reinterpret_cast<scalar_t*>(out.data_ptr()), s,
        o);
  });
  THC_CHECK(cudaGetLastError());
}

void grid_sample_backward_kernel(const th::Tensor& grad_out, const th::Tensor& input, const th::Tensor& grid,
                                 const th::Tensor& grad_input, const th::Tensor& grad_grid,
                                 const th::GridSampleOptions& o) {
  thc::DeviceGuard guard(input.device());
  const th::GridSizes s(input, grid);
  TH_DISPATCH_FLOATING_TYPES(input.dtype(), "grid_sampler_backward_cuda", [&] {
    const auto* x = reinterpret_cast<const scalar_t*>(input.data_ptr());
    const auto* g = reinterpret_cast<const scalar_t*>(grid.data_ptr());
    const auto* go = reinterpret_cast<const scalar_t*>(grad_out.data_ptr());
    if (grad_input.defined())
      input_grad_planes<scalar_t><<<thc::grid_for(s.N * s.C, 128), 128, 0, thc::current_stream()>>>(
          g, go, reinterpret_cast<scalar_t*>(grad_input.data_ptr()), s, o);
    if (grad_grid.defined() && o.mode != th::math::GridMode::Nearest)
      grid_grad_points<scalar_t><<<thc::grid_for(s.N * s.P, 256), 256, 0, thc::current_stream()>>>(
          x, g, go, reinterpret_cast<scalar_t*>(grad_grid.data_ptr()), s, o);
  });
  THC_CHECK(cudaGetLastError());
}

}  // namespace

TH_REGISTER_KERNEL(th::grid_sample_stub, CUDA, grid_sample_kernel);
TH_REGISTER_KERNEL(th::grid_sample_backward_stub, CUDA, grid_sample_backward_kernel);

}  // namespace thcunn
