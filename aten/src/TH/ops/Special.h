#pragma once
// The special-function family's kernels (math/Special.h's Bessel, erfcx, ndtri, zeta, incomplete gamma and
// orthogonal polynomials): ops/Special.cpp, cpu/SpecialKernels.cpp, THC/SpecialKernels.cu.
#include "../Dispatch.h"
#include "../TensorIterator.h"
#include "../math/Special.h"

namespace th {

/// out = op(in) over the iterator (a floating common dtype), for a unary op of math/Special.h.
using special_unary_fn = void(TensorIterator&, math::SpecialOp);
/// out = op(a, b) over the iterator, for a binary op of math/Special.h.
using special_binary_fn = void(TensorIterator&, math::SpecialOp);
TH_DECLARE_STUB(special_unary_fn, special_unary_stub);
TH_DECLARE_STUB(special_binary_fn, special_binary_stub);

}  // namespace th
