#pragma once
// The dropout family's kernels (math/Dropout.h): ops/Dropout.cpp, cpu/DropoutKernels.cpp,
// THCUNN/DropoutKernels.cu.
#include <TH/Dispatch.h>
#include <TH/Tensor.h>

namespace th {

/// out = (x * mask) * scale and mask (bool) for contiguous `x`, `out`, `mask` of one shape, element i kept
/// with probability 1 - p by the Philox draw (seed, offset + i).
using dropout_fn = void(const Tensor& x, const Tensor& out, const Tensor& mask, double p, double scale,
                        uint64_t seed, uint64_t offset);

TH_DECLARE_STUB(dropout_fn, dropout_stub);

}  // namespace th
