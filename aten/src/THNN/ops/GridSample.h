#pragma once
// The grid-sample family's kernels (math/GridSample.h): ops/GridSample.cpp, cpu/GridSampleKernels.cpp,
// THCUNN/GridSampleKernels.cu. input [N, C, D, H, W] (D = 1 for a 2-D input), grid [N, P, 2] (2-D: x, y) or
// [N, P, 3] (3-D: x, y, z), output [N, C, P], all contiguous.
#include <TH/Dispatch.h>
#include <TH/Tensor.h>

#include <algorithm>

#include "../math/GridSample.h"

namespace th {

struct GridSampleOptions {
  math::GridMode mode;
  math::GridPadding padding;
  bool align_corners;
};

/// The sizes of a grid-sample call: N, C, (D, H, W) of the input, P points of k coordinates each.
struct GridSizes {
  int64_t N, C, size[3], P, k;
  explicit GridSizes(const Tensor& input, const Tensor& grid)
      : N(input.size(0)),
        C(input.size(1)),
        size{input.size(2), input.size(3), input.size(4)},
        P(grid.numel() / std::max<int64_t>(grid.size(0) * grid.size(-1), 1)),
        k(grid.size(-1)) {}
  TH_HOST_DEVICE int64_t plane() const { return size[0] * size[1] * size[2]; }
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
