// CPU kernels of the grid-sample family (math/GridSample.h), 2-D and 3-D: the forward a grid point at a time
// (its taps found once for every channel), points in parallel; the input gradient a block of one sample's
// planes at a time (its points in turn, each point's taps found once for the block: no two threads add to
// one pixel, deterministic); the grid gradient a point at a time.
#include <algorithm>

#include <TH/Parallel.h>
#include <TH/ScalarType.h>

#include "../ops/GridSample.h"

namespace th {
namespace {

void grid_sample_kernel(const Tensor& input, const Tensor& grid, const Tensor& out,
                        const GridSampleOptions& o) {
  const GridSizes s(input, grid);
  TH_DISPATCH_FLOATING_TYPES(input.dtype(), "grid_sampler_cpu", [&] {
    using A = opmath_t<scalar_t>;
    const auto* x = reinterpret_cast<const scalar_t*>(input.data_ptr());
    const auto* g = reinterpret_cast<const scalar_t*>(grid.data_ptr());
    auto* y = reinterpret_cast<scalar_t*>(out.data_ptr());
    parallel_for(s.N * s.P, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(4 * s.C, 1)),
                 [&](int64_t begin, int64_t end) {
                   for (int64_t i = begin; i < end; ++i) {
                     const int64_t n = i / s.P, p = i % s.P;
                     const A at[3] = {A(g[s.k * i]), A(g[s.k * i + 1]), s.k == 3 ? A(g[s.k * i + 2]) : A(0)};
                     const math::GridTaps<A> t{at, s.size, s.k == 3, o.mode, o.padding, o.align_corners};
                     for (int64_t c = 0; c < s.C; ++c)
                       y[(n * s.C + c) * s.P + p] = scalar_t(t.sample(x + (n * s.C + c) * s.plane(), s.size));
                   }
                 });
  });
}

void grid_sample_backward_kernel(const Tensor& grad_out, const Tensor& input, const Tensor& grid,
                                 const Tensor& grad_input, const Tensor& grad_grid,
                                 const GridSampleOptions& o) {
  const GridSizes s(input, grid);
  TH_DISPATCH_FLOATING_TYPES(input.dtype(), "grid_sampler_backward_cpu", [&] {
    using A = opmath_t<scalar_t>;
    const auto* x = reinterpret_cast<const scalar_t*>(input.data_ptr());
    const auto* g = reinterpret_cast<const scalar_t*>(grid.data_ptr());
    const auto* go = reinterpret_cast<const scalar_t*>(grad_out.data_ptr());
    const auto taps = [&](int64_t i) {
      const A at[3] = {A(g[s.k * i]), A(g[s.k * i + 1]), s.k == 3 ? A(g[s.k * i + 2]) : A(0)};
      return math::GridTaps<A>{at, s.size, s.k == 3, o.mode, o.padding, o.align_corners};
    };
    if (grad_input
            .defined()) {  // a block of one sample's planes per task, each point's taps found once for it
      auto* gi = reinterpret_cast<scalar_t*>(grad_input.data_ptr());
      constexpr int64_t kPlanes = 16;
      const int64_t blocks = (s.C + kPlanes - 1) / kPlanes;
      parallel_for(s.N * blocks, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(4 * s.P * kPlanes, 1)),
                   [&](int64_t begin, int64_t end) {
                     for (int64_t b = begin; b < end; ++b) {
                       const int64_t n = b / blocks, c0 = (b % blocks) * kPlanes;
                       const int64_t c1 = std::min(s.C, c0 + kPlanes);
                       for (int64_t p = 0; p < s.P; ++p) {
                         const math::GridTaps<A> t = taps(n * s.P + p);
                         for (int64_t c = c0; c < c1; ++c)
                           t.scatter(gi + (n * s.C + c) * s.plane(), s.size, A(go[(n * s.C + c) * s.P + p]));
                       }
                     }
                   });
    }
    if (grad_grid.defined() && o.mode != math::GridMode::Nearest) {
      auto* gg = reinterpret_cast<scalar_t*>(grad_grid.data_ptr());
      parallel_for(s.N * s.P, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(8 * s.C, 1)),
                   [&](int64_t begin, int64_t end) {
                     for (int64_t i = begin; i < end; ++i) {
                       const int64_t n = i / s.P, p = i % s.P;
                       const math::GridTaps<A> t = taps(i);
                       A d[3] = {0, 0, 0};
                       for (int64_t c = 0; c < s.C; ++c)
                         t.coordinate_grad(x + (n * s.C + c) * s.plane(), s.size,
                                           A(go[(n * s.C + c) * s.P + p]), d);
                       for (int64_t j = 0; j < s.k; ++j)
                         gg[s.k * i + j] = scalar_t(d[2 - j] * t.scale[2 - j]);
                     }
                   });
    }
  });
}

}  // namespace

TH_REGISTER_KERNEL(grid_sample_stub, CPU, grid_sample_kernel);
TH_REGISTER_KERNEL(grid_sample_backward_stub, CPU, grid_sample_backward_kernel);

}  // namespace th
