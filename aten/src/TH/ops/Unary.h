#pragma once
// The unary pointwise family's kernel (math/Unary.h's ops): ops/Unary.cpp, cpu/UnaryKernels.cpp,
// THC/Unary*Kernels.cu.
#include "../Dispatch.h"
#include "../TensorIterator.h"
#include "../math/Unary.h"

namespace th {

/// out = op(in) over the iterator (inputs cast to its common dtype).
using unary_fn = void(TensorIterator&, math::UnaryOp);
TH_DECLARE_STUB(unary_fn, unary_stub);

}  // namespace th
