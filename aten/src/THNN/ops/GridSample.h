#pragma once
// The grid-sample family's kernels (math/GridSample.h): ops/GridSample.cpp, cpu/GridSampleKernels.cpp,
// THCUNN/GridSampleKernels.cu. input [N, C, H, W], grid [N, Ho, Wo, 2], output [N, C, Ho, Wo], all
// contiguous.
#include <TH/Dispatch.h>
#include <TH/Tensor.h>

#include "../math/GridSample.h"

namespace th {

struct GridSampleOptions {
  math::GridMode mode;
  math::GridPadding padding;
  bool align_corners;
};

using grid_sample_fn = void(const Tensor& input, const Tensor& grid, const Tensor& out,
                            const GridSampleOptions& o);
/// grad_input (zero on entry; undefined to skip) a plane at a time, and grad_grid (undefined to skip) a point
/// at a time, from grad_out.
using grid_sample_backward_fn = void(const Tensor& grad_out, const Tensor& input, const Tensor& grid,
                                     const Tensor& grad_input, const Tensor& grad_grid,
                                     const GridSampleOptions& o);

TH_DECLARE_STUB(grid_sample_fn, grid_sample_stub);
TH_DECLARE_STUB(grid_sample_backward_fn, grid_sample_backward_stub);

}  // namespace th
