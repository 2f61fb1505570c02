// CPU kernels of the grid-sample family (math/GridSample.h): the forward a grid point at a time (its taps
// found once for every channel), points in parallel; the input gradient a plane at a time (its points in
// turn: no two threads add to one pixel, deterministic); the grid gradient a point at a time.
#include <TH/Parallel.h>
#include <TH/ScalarType.h>

#include "../ops/GridSample.h"

namespace th {
namespace {

void grid_sample_kernel(const Tensor& input, const Tensor& grid, const Tensor& out,
                        const GridSampleOptions& o) {
  const int64_t N = input.size(0), C = input.size(1), H = input.size(2), W = input.size(3);
  const int64_t P = grid.size(1) * grid.size(2);
  TH_DISPATCH_FLOATING_TYPES(input.dtype(), "grid_sampler_2d_cpu", [&] {
    using A = opmath_t<scalar_t>;
    const auto* x = reinterpret_cast<const scalar_t*>(input.data_ptr());
    const auto* g = reinterpret_cast<const scalar_t*>(grid.data_ptr());
    auto* y = reinterpret_cast<scalar_t*>(out.data_ptr());
    parallel_for(N * P, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(4 * C, 1)),
                 [&](int64_t begin, int64_t end) {
                   for (int64_t i = begin; i < end; ++i) {
                     const int64_t n = i / P, p = i % P;
                     const math::GridTaps<A> t{A(g[2 * i]), A(g[2 * i + 1]), H, W, o.mode,
                                               o.padding,   o.align_corners};
                     for (int64_t c = 0; c < C; ++c)
                       y[(n * C + c) * P + p] = scalar_t(t.sample(x + (n * C + c) * H * W, H, W, o.mode));
                   }
                 });
  });
}

void grid_sample_backward_kernel(const Tensor& grad_out, const Tensor& input, const Tensor& grid,
                                 const Tensor& grad_input, const Tensor& grad_grid,
                                 const GridSampleOptions& o) {
  const int64_t N = input.size(0), C = input.size(1), H = input.size(2), W = input.size(3);
  const int64_t P = grid.size(1) * grid.size(2);
  TH_DISPATCH_FLOATING_TYPES(input.dtype(), "grid_sampler_2d_backward_cpu", [&] {
    using A = opmath_t<scalar_t>;
    const auto* x = reinterpret_cast<const scalar_t*>(input.data_ptr());
    const auto* g = reinterpret_cast<const scalar_t*>(grid.data_ptr());
    const auto* go = reinterpret_cast<const scalar_t*>(grad_out.data_ptr());
    if (grad_input.defined()) {
      auto* gi = reinterpret_cast<scalar_t*>(grad_input.data_ptr());
      parallel_for(N * C, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(4 * P, 1)),
                   [&](int64_t begin, int64_t end) {
                     for (int64_t plane = begin; plane < end; ++plane) {
                       const int64_t n = plane / C;
                       for (int64_t p = 0; p < P; ++p) {
                         const int64_t at = n * P + p;
                         const math::GridTaps<A> t{A(g[2 * at]), A(g[2 * at + 1]), H, W, o.mode,
                                                   o.padding,    o.align_corners};
                         t.scatter(gi + plane * H * W, H, W, o.mode, A(go[plane * P + p]));
                       }
                     }
                   });
    }
    if (grad_grid.defined() && o.mode == math::GridMode::Bilinear) {
      auto* gg = reinterpret_cast<scalar_t*>(grad_grid.data_ptr());
      parallel_for(N * P, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(8 * C, 1)),
                   [&](int64_t begin, int64_t end) {
                     for (int64_t i = begin; i < end; ++i) {
                       const int64_t n = i / P, p = i % P;
                       const math::GridTaps<A> t{A(g[2 * i]), A(g[2 * i + 1]), H, W, o.mode,
                                                 o.padding,   o.align_corners};
                       A dx = 0, dy = 0;
                       for (int64_t c = 0; c < C; ++c)
                         t.coordinate_grad(x + (n * C + c) * H * W, H, W, A(go[(n * C + c) * P + p]), dx, dy);
                       gg[2 * i] = scalar_t(dx * t.sx);
                       gg[2 * i + 1] = scalar_t(dy * t.sy);
                     }
                   });
    }
  });
}

}  // namespace

TH_REGISTER_KERNEL(grid_sample_stub, CPU, grid_sample_kernel);
TH_REGISTER_KERNEL(grid_sample_backward_stub, CPU, grid_sample_backward_kernel);

}  // namespace th
