#pragma once
// The padding family's kernels (math/Padding.h): ops/Padding.cpp, cpu/PaddingKernels.cpp,
// THCUNN/PaddingKernels.cu.
#include <TH/Dispatch.h>
#include <TH/Scalar.h>
#include <TH/Tensor.h>

#include "../math/Padding.h"

namespace th {

/// out ([outer, g.out...] contiguous) = the padding of x ([outer, g.in...] contiguous, same dtype); `value`
/// where a constant pad has no input.
using pad_fn = void(const Tensor& x, const Tensor& out, const math::PadGeometry& g, const Scalar& value);
/// in (contiguous, n along `dim`) = the backward of padding along `dim` of out (contiguous, L along `dim`,
/// the other sizes in's): math::pad_backward_line on each line along `dim`.
using pad_backward_fn = void(const Tensor& out, const Tensor& in, int64_t dim, int64_t left,
                             math::PadMode mode);

TH_DECLARE_STUB(pad_fn, pad_stub);
TH_DECLARE_STUB(pad_backward_fn, pad_backward_stub);

}  // namespace th
