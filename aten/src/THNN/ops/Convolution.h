#pragma once
// The convolution family's kernels (im2col / col2im, math/Convolution.h): ops/Convolution.cpp,
// cpu/ConvolutionKernels.cpp, THCUNN/ConvolutionKernels.cu. The matrix products are TH's (addmm_, mm).
#include <TH/Dispatch.h>
#include <TH/Tensor.h>

#include "../math/Convolution.h"

namespace th {

/// cols ([g.rows(), B * g.out_numel()] contiguous: a row per kernel offset, the B samples' output positions
/// side by side) = the columns of `x` ([B, g.C, D, H, W] contiguous), of one dtype: one gemm's operand for a
/// chunk of the batch.
using im2col_fn = void(const Tensor& x, const Tensor& cols, const math::ConvGeometry& g);
/// grad_x ([B, g.C, D, H, W] contiguous) = the gradient of im2col for `cols` ([g.rows(), B * g.out_numel()]).
using col2im_fn = void(const Tensor& cols, const Tensor& grad_x, const math::ConvGeometry& g);

TH_DECLARE_STUB(im2col_fn, im2col_stub);
TH_DECLARE_STUB(col2im_fn, col2im_stub);

}  // namespace th
