#pragma once
// The convolution family's kernels (im2col / col2im, math/Convolution.h): ops/Convolution.cpp,
// cpu/ConvolutionKernels.cpp, THCUNN/ConvolutionKernels.cu. The matrix products are TH's (bmm).
#include <TH/Dispatch.h>
#include <TH/Tensor.h>

#include "../math/Convolution.h"

namespace th {

/// cols ([N, g.rows(), g.out_numel()] contiguous) = the columns of each sample of `x` ([N, g.C, D, H, W],
/// contiguous), of one dtype.
using im2col_fn = void(const Tensor& x, const Tensor& cols, const math::ConvGeometry& g);
/// grad_x ([N, g.C, D, H, W] contiguous) = the gradient of im2col for `cols` ([N, g.rows(), g.out_numel()]).
using col2im_fn = void(const Tensor& cols, const Tensor& grad_x, const math::ConvGeometry& g);

TH_DECLARE_STUB(im2col_fn, im2col_stub);
TH_DECLARE_STUB(col2im_fn, col2im_stub);

}  // namespace th
