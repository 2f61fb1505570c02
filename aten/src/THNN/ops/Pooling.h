#pragma once
// The pooling family's kernels (max and average pooling, math/Pooling.h): ops/Pooling.cpp,
// cpu/PoolingKernels.cpp, THCUNN/PoolingKernels.cu. Planes are the N * C [D, H, W] slices of contiguous
// input; g.C is unused.
#include <TH/Dispatch.h>
#include <TH/Tensor.h>

#include "../math/Convolution.h"
#include "../math/Pooling.h"

namespace th {

/// out / indices ([planes, out_numel], contiguous; indices int64 flat input positions) of max pooling.
using max_pool_fn = void(const Tensor& x, const Tensor& out, const Tensor& indices,
                         const math::ConvGeometry& g);
/// grad_x (zero on entry) += grad_out at the indices, plane by plane.
using max_pool_backward_fn = void(const Tensor& grad_out, const Tensor& indices, const Tensor& grad_x,
                                  const math::ConvGeometry& g);
/// out = average pooling of x (count_include_pad; divisor_override 0: none).
using avg_pool_fn = void(const Tensor& x, const Tensor& out, const math::ConvGeometry& g,
                         bool count_include_pad, int64_t divisor_override);
/// grad_x (zero on entry) += grad_out / divisor over each window, plane by plane.
using avg_pool_backward_fn = void(const Tensor& grad_out, const Tensor& grad_x, const math::ConvGeometry& g,
                                  bool count_include_pad, int64_t divisor_override);

/// out ([planes, g.out_numel()]) = adaptive average pooling of x, or max pooling with `indices` (int64 flat
/// input positions) where indices is defined.
using adaptive_pool_fn = void(const Tensor& x, const Tensor& out, const Tensor& indices,
                              const math::AdaptiveGeometry& g);
/// grad_x (zero on entry) += grad_out / bin size over each bin, plane by plane (adaptive average pooling's
/// gradient; the max's is max_pool_backward's, by the indices).
using adaptive_avg_pool_backward_fn = void(const Tensor& grad_out, const Tensor& grad_x,
                                           const math::AdaptiveGeometry& g);

/// out / indices ([planes, g.out_numel()], contiguous) of fractional max pooling (math::fractional_max_cell);
/// samples: [planes, 3] in the opmath type of x (a sample per dim, the leading padded dims' 0).
using fractional_max_pool_fn = void(const Tensor& x, const Tensor& samples, const Tensor& out,
                                    const Tensor& indices, const math::ConvGeometry& g);

TH_DECLARE_STUB(max_pool_fn, max_pool_stub);
TH_DECLARE_STUB(fractional_max_pool_fn, fractional_max_pool_stub);
TH_DECLARE_STUB(adaptive_pool_fn, adaptive_pool_stub);
TH_DECLARE_STUB(adaptive_avg_pool_backward_fn, adaptive_avg_pool_backward_stub);
TH_DECLARE_STUB(max_pool_backward_fn, max_pool_backward_stub);
TH_DECLARE_STUB(avg_pool_fn, avg_pool_stub);
TH_DECLARE_STUB(avg_pool_backward_fn, avg_pool_backward_stub);

}  // namespace th
