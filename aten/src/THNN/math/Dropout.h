#pragma once
// Scalar math of dropout, written once for the CPU and CUDA kernels. Element i keeps its value when the
// Philox uniform of (seed, offset + i) is at least p: the same draw as torch.rand, so the mask is a pure
// function of the generator's state and the element's index, equal on every device and thread count.
#include <TH/Macros.h>
#include <TH/math/Philox.h>

namespace th::math {

/// Whether element `i` of a dropout drawn at (seed, offset) is kept (probability 1 - p).
TH_HOST_DEVICE inline bool dropout_keep(uint64_t seed, uint64_t offset, int64_t i, double p) {
  return random_value(seed, offset + uint64_t(i), RandomKind::Uniform, 0.0, 1.0) >= p;
}

/// PyTorch's (input * mask) * scale in the math type A: a dropped NaN stays NaN, as upstream.
template <typename A>
TH_HOST_DEVICE A dropout_value(A x, bool keep, A scale) {
  return (x * A(keep ? 1 : 0)) * scale;
}

}  // namespace th::math
