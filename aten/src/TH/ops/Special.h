#pragma once
// The special-function family's kernels (math/Special.h's Bessel, erfcx, ndtri, zeta, incomplete gamma and
// orthogonal polynomials): ops/Special.cpp, cpu/SpecialKernels.cpp, THC/SpecialKernels.cu.
#include "../Dispatch.h"
#include "../TensorIterator.h"
#include "../math/Special.h"

namespace th {

/// out = op(inputs) over the iterator (a floating common dtype; one input or two, as op takes).
using special_fn = void(TensorIterator&, math::SpecialOp);
TH_DECLARE_STUB(special_fn, special_stub);

}  // namespace th
