#pragma once
// The upsample family's kernels (math/Upsample.h): ops/Upsample.cpp, cpu/UpsampleKernels.cpp,
// THCUNN/UpsampleKernels.cu.
#include <TH/Dispatch.h>
#include <TH/Tensor.h>

#include "../math/Upsample.h"

namespace th {

/// out ([outer, r.out, inner] contiguous) = x ([outer, r.in, inner] contiguous) resampled along its middle
/// dim.
using resample_fn = void(const Tensor& x, const Tensor& out, const math::Resample1d& r, int64_t outer,
                         int64_t inner);
/// grad_in ([outer, r.in, inner]) = the backward of resample for grad_out ([outer, r.out, inner]),
/// contiguous.
using resample_backward_fn = void(const Tensor& grad_out, const Tensor& grad_in, const math::Resample1d& r,
                                  int64_t outer, int64_t inner);

TH_DECLARE_STUB(resample_fn, resample_stub);
TH_DECLARE_STUB(resample_backward_fn, resample_backward_stub);

}  // namespace th
