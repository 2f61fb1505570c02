// Entry points of the grid-sample family: grid_sampler_2d (bilinear, nearest or bicubic sampling of a 4-D
// input at the grid's points, zeros / border / reflection padding, align_corners), grid_sampler_3d (trilinear
// or nearest, 5-D input) and their backwards (PyTorch's names). torch.nn.functional.grid_sample checks the
// arguments and calls it; affine_grid builds grids from torch ops.
#include <TH/Functions.h>

#include "../Functions.h"
#include "GridSample.h"

namespace th {

TH_DEFINE_STUB(grid_sample_fn, grid_sample_stub);
TH_DEFINE_STUB(grid_sample_backward_fn, grid_sample_backward_stub);

namespace {

GridSampleOptions options(const Tensor& input, const Tensor& grid, int64_t mode, int64_t padding, bool align,
                          int64_t dims) {
  const std::string op = dims == 2 ? "grid_sampler_2d()" : "grid_sampler_3d()";
  TH_CHECK(input.dim() == dims + 2 && grid.dim() == dims + 2, op, ": expected ", dims + 2,
           "D input and grid with same number of dimensions, but got input with sizes ",
           shape_str(input.sizes()), " and grid with sizes ", shape_str(grid.sizes()));
  TH_CHECK(grid.size(-1) == dims, "grid_sampler(): expected grid to have size ", dims,
           " in last dimension, but got grid with sizes ", shape_str(grid.sizes()));
  TH_CHECK(input.size(0) == grid.size(0),
           "grid_sampler(): expected grid and input to have same batch size, but ", "got input with sizes ",
           shape_str(input.sizes()), " and grid with sizes ", shape_str(grid.sizes()));
  TH_CHECK(input.dtype() == grid.dtype(),
           "grid_sampler(): expected input and grid to have same dtype, but input ", "has ",
           scalar_type_name(input.dtype()), " and grid has ", scalar_type_name(grid.dtype()));
  TH_CHECK(input.device() == grid.device(),
           "grid_sampler(): expected input and grid to be on same device, but ", "input is on ",
           input.device().str(), " and grid is on ", grid.device().str());
  TH_CHECK(is_floating_point(input.dtype()), "\"grid_sampler\" not implemented for '",
           scalar_type_name(input.dtype()), "'");
  for (int64_t i = 2; i < input.dim(); ++i)
    TH_CHECK(input.size(i) > 0, "grid_sampler(): expected input to have non-empty spatial dimensions, but ",
             "input has sizes ", shape_str(input.sizes()), " with dimension ", i, " being empty");
  TH_CHECK(mode >= 0 && mode <= 2, op, ": unknown interpolation mode ", mode,
           " (0 bilinear, 1 nearest, 2 bicubic)");
  TH_CHECK(mode != 2 || dims == 2, "grid_sampler(): bicubic interpolation only supports 4D input");
  TH_CHECK(padding >= 0 && padding <= 2, op, ": unknown padding mode ", padding);
  return {math::GridMode(mode), math::GridPadding(padding), align};
}

/// `t` as [N, C, D, H, W]: a 2-D input gets a depth of 1.
Tensor volume(const Tensor& t) { return t.dim() == 4 ? unsqueeze(t, 2) : t; }

Tensor grid_sampler_nd(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                       int64_t padding_mode, bool align_corners, int64_t dims) {
  const GridSampleOptions o = options(input, grid, interpolation_mode, padding_mode, align_corners, dims);
  IntList shape{input.size(0), input.size(1)};
  shape.insert(shape.end(), grid.sizes().begin() + 1, grid.sizes().end() - 1);
  Tensor out = empty_tensor(shape, input.dtype(), input.device());
  if (out.numel() > 0)
    grid_sample_stub[input.device().type](volume(contiguous(input)), contiguous(grid), out, o);
  return out;
}

std::tuple<Tensor, Tensor> grid_sampler_nd_backward(const Tensor& grad_output, const Tensor& input,
                                                    const Tensor& grid, int64_t interpolation_mode,
                                                    int64_t padding_mode, bool align_corners, bool input_grad,
                                                    bool grid_grad, int64_t dims) {
  if (is_reduced_floating_point(input.dtype())) {  // add in float, round once
    const auto f = [](const Tensor& t) { return to_dtype(t, ScalarType::Float); };
    auto [gi, gg] = grid_sampler_nd_backward(f(grad_output), f(input), f(grid), interpolation_mode,
                                             padding_mode, align_corners, input_grad, grid_grad, dims);
    return {to_dtype(gi, input.dtype()), to_dtype(gg, grid.dtype())};
  }
  const GridSampleOptions o = options(input, grid, interpolation_mode, padding_mode, align_corners, dims);
  Tensor gi = input_grad ? zeros(input.sizes(), input.dtype(), input.device()) : Tensor();
  Tensor gg = grid_grad ? zeros(grid.sizes(), grid.dtype(), grid.device()) : Tensor();
  if (grad_output.numel() > 0 && (input_grad || grid_grad))
    grid_sample_backward_stub[input.device().type](contiguous(to_dtype(grad_output, input.dtype())),
                                                   volume(contiguous(input)), contiguous(grid),
                                                   input_grad ? volume(gi) : gi, gg, o);
  const Tensor none = empty_tensor({0}, input.dtype(), input.device());
  return {input_grad ? gi : none, grid_grad ? gg : none};
}

}  // namespace

Tensor grid_sampler_2d(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                       int64_t padding_mode, bool align_corners) {
  return grid_sampler_nd(input, grid, interpolation_mode, padding_mode, align_corners, 2);
}

Tensor grid_sampler_3d(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                       int64_t padding_mode, bool align_corners) {
  return grid_sampler_nd(input, grid, interpolation_mode, padding_mode, align_corners, 3);
}

std::tuple<Tensor, Tensor> grid_sampler_2d_backward(const Tensor& grad_output, const Tensor& input,
                                                    const Tensor& grid, int64_t interpolation_mode,
                                                    int64_t padding_mode, bool align_corners, bool input_grad,
                                                    bool grid_grad) {
  return grid_sampler_nd_backward(grad_output, input, grid, interpolation_mode, padding_mode, align_corners,
                                  input_grad, grid_grad, 2);
}

std::tuple<Tensor, Tensor> grid_sampler_3d_backward(const Tensor& grad_output, const Tensor& input,
                                                    const Tensor& grid, int64_t interpolation_mode,
                                                    int64_t padding_mode, bool align_corners, bool input_grad,
                                                    bool grid_grad) {
  return grid_sampler_nd_backward(grad_output, input, grid, interpolation_mode, padding_mode, align_corners,
                                  input_grad, grid_grad, 3);
}

}  // namespace th
