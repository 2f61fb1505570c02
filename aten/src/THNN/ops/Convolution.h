#pragma once
// The convolution family's kernels (im2col / col2im, math/Convolution.h; Winograd tiles, math/Winograd.h):
// ops/Convolution.cpp, cpu/ConvolutionKernels.cpp, THCUNN/ConvolutionKernels.cu. The matrix products are
// TH's (addmm_, mm, bmm_out).
#include <TH/Dispatch.h>
#include <TH/Tensor.h>

#include "../math/Convolution.h"
#include "../math/Winograd.h"

namespace th {

/// cols ([g.rows(), B * g.out_numel()] contiguous: a row per kernel offset, the B samples' output positions
/// side by side) = the columns of `x` ([B, g.C, D, H, W] contiguous), of one dtype: one gemm's operand for a
/// chunk of the batch.
using im2col_fn = void(const Tensor& x, const Tensor& cols, const math::ConvGeometry& g);
/// grad_x ([B, g.C, D, H, W] contiguous) = the gradient of im2col for `cols` ([g.rows(), B * g.out_numel()]).
using col2im_fn = void(const Tensor& cols, const Tensor& grad_x, const math::ConvGeometry& g);

/// out ([N, groups * g.O, Ho, Wo] contiguous) = the 3x3 convolution (unit stride and dilation) of x ([N,
/// groups * g.C, H, W] contiguous) with `weight` plus `bias` ([groups * g.O], or undefined), by Winograd
/// F(2x2, 3x3) tiles (math/Winograd.h). `weight` is [groups * g.O, g.C, 3, 3] contiguous; with `transposed`
/// it is [groups * g.C, g.O, 3, 3], the weight of the convolution whose input gradient this is, and is
/// used flipped and transposed. Returns false, with `out` not filled in, where an operand (or a transform of
/// it) is not finite: Winograd's transforms would turn one infinity into NaNs a direct convolution does not
/// have, so the caller takes im2col then.
using winograd_conv_fn = bool(const Tensor& x, const Tensor& weight, const Tensor& bias, const Tensor& out,
                              const math::winograd::WinogradGeometry& g, bool transposed);
/// grad_weight ([groups * g.O, g.C, 3, 3] contiguous) = the weight gradient of that convolution of x for
/// grad_out ([N, groups * g.O, Ho, Wo] contiguous), summed over the tiles in the transformed domain; false,
/// as winograd_conv_fn, where an operand is not finite.
using winograd_weight_grad_fn = bool(const Tensor& x, const Tensor& grad_out, const Tensor& grad_weight,
                                     const math::winograd::WinogradGeometry& g);

/// The dtypes of im2col and col2im (upstream's unfold and fold): the floating ones and bool (the columns are
/// copies and zeros; col2im's sums of bools are ors).
#define THNN_DISPATCH_IM2COL_TYPES(type, name, ...) \
  TH_PRIVATE_DISPATCH(type, name,                   \
                      TH_PRIVATE_FLOATING_CASES(__VA_ARGS__) TH_PRIVATE_CASE(Bool, bool, __VA_ARGS__))

TH_DECLARE_STUB(im2col_fn, im2col_stub);
TH_DECLARE_STUB(col2im_fn, col2im_stub);
TH_DECLARE_STUB(winograd_conv_fn, winograd_conv_stub);
TH_DECLARE_STUB(winograd_weight_grad_fn, winograd_weight_grad_stub);

}  // namespace th
