// Entry points of the grid-sample family: grid_sampler_2d (bilinear or nearest sampling of a 4-D input at the
// grid's points, zeros / border / reflection padding, align_corners) and its backward (PyTorch's names).
// torch.nn.functional.grid_sample checks the arguments and calls it; affine_grid builds grids from torch ops.
#include <TH/Functions.h>

#include "../Functions.h"
#include "GridSample.h"

namespace th {

TH_DEFINE_STUB(grid_sample_fn, grid_sample_stub);
TH_DEFINE_STUB(grid_sample_backward_fn, grid_sample_backward_stub);

namespace {

GridSampleOptions options(const Tensor& input, const Tensor& grid, int64_t mode, int64_t padding,
                          bool align) {
  TH_CHECK(input.dim() == 4 && grid.dim() == 4 && grid.size(3) == 2,
           "grid_sampler_2d(): expected 4D input and ", "grid with last dimension 2, but got input of size ",
           shape_str(input.sizes()), " and grid of size ", shape_str(grid.sizes()));
  TH_CHECK(input.size(0) == grid.size(0),
           "grid_sampler(): expected grid and input to have same batch size, but ", "got input with sizes ",
           shape_str(input.sizes()), " and grid with sizes ", shape_str(grid.sizes()));
  TH_CHECK(input.dtype() == grid.dtype(),
           "grid_sampler(): expected input and grid to have same dtype, but input ", "has ",
           scalar_type_name(input.dtype()), " and grid has ", scalar_type_name(grid.dtype()));
  TH_CHECK(input.device() == grid.device(),
           "grid_sampler(): expected input and grid to be on same device, but ", "input is on ",
           input.device().str(), " and grid is on ", grid.device().str());
  TH_CHECK(is_floating_point(input.dtype()), "\"grid_sampler_2d\" not implemented for '",
           scalar_type_name(input.dtype()), "'");
  TH_CHECK(input.size(2) > 0 && input.size(3) > 0,
           "grid_sampler(): expected input to have non-empty spatial ", "dimensions, but input has sizes ",
           shape_str(input.sizes()));
  TH_CHECK(mode == 0 || mode == 1, "grid_sampler_2d(): interpolation mode ", mode,
           " is not supported here (0 bilinear, 1 nearest)");
  TH_CHECK(padding >= 0 && padding <= 2, "grid_sampler_2d(): unknown padding mode ", padding);
  return {math::GridMode(mode), math::GridPadding(padding), align};
}

}  // namespace

Tensor grid_sampler_2d(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                       int64_t padding_mode, bool align_corners) {
  const GridSampleOptions o = options(input, grid, interpolation_mode, padding_mode, align_corners);
  Tensor out =
      empty_tensor({input.size(0), input.size(1), grid.size(1), grid.size(2)}, input.dtype(), input.device());
  if (out.numel() > 0) grid_sample_stub[input.device().type](contiguous(input), contiguous(grid), out, o);
  return out;
}

std::tuple<Tensor, Tensor> grid_sampler_2d_backward(const Tensor& grad_output, const Tensor& input,
                                                    const Tensor& grid, int64_t interpolation_mode,
                                                    int64_t padding_mode, bool align_corners, bool input_grad,
                                                    bool grid_grad) {
  if (is_reduced_floating_point(input.dtype())) {  // add in float, round once
    const auto f = [](const Tensor& t) { return to_dtype(t, ScalarType::Float); };
    auto [gi, gg] = grid_sampler_2d_backward(f(grad_output), f(input), f(grid), interpolation_mode,
                                             padding_mode, align_corners, input_grad, grid_grad);
    return {to_dtype(gi, input.dtype()), to_dtype(gg, grid.dtype())};
  }
  const GridSampleOptions o = options(input, grid, interpolation_mode, padding_mode, align_corners);
  Tensor gi = input_grad ? zeros(input.sizes(), input.dtype(), input.device()) : Tensor();
  Tensor gg = grid_grad ? zeros(grid.sizes(), grid.dtype(), grid.device()) : Tensor();
  if (grad_output.numel() > 0 && (input_grad || grid_grad))
    grid_sample_backward_stub[input.device().type](contiguous(to_dtype(grad_output, input.dtype())),
                                                   contiguous(input), contiguous(grid), gi, gg, o);
  const Tensor none = empty_tensor({0}, input.dtype(), input.device());
  return {input_grad ? gi : none, grid_grad ? gg : none};
}

}  // namespace th
