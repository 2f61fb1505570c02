#pragma once
// The random family's kernel (Philox values, math/Philox.h): ops/Random.cpp, cpu/RandomKernels.cpp,
// THC/RandomKernels.cu.
#include "../Dispatch.h"
#include "../Tensor.h"
#include "../math/Philox.h"

namespace th {

/// Fills the contiguous `out` with math::random_value(seed, offset + i, kind, a, b) for element i.
using random_fn = void(const Tensor& out, uint64_t seed, uint64_t offset, math::RandomKind kind, double a,
                       double b);
/// out (contiguous) = math::random_parameterized(kind, param[i], seed, offset + i) for element i of the
/// contiguous param (Gamma's alpha, Poisson's rate).
using parameterized_random_fn = void(const Tensor& param, const Tensor& out, uint64_t seed, uint64_t offset,
                                     math::ParameterizedKind kind);
TH_DECLARE_STUB(random_fn, random_stub);
TH_DECLARE_STUB(parameterized_random_fn, parameterized_random_stub);

}  // namespace th
