#pragma once
// The binary pointwise family's kernels (math/Binary.h's ops: add/sub/mul with alpha, the arithmetic,
// bitwise and comparison ops): ops/Binary.cpp, cpu/BinaryKernels.cpp, THC/Binary*Kernels.cu.
#include "../Dispatch.h"
#include "../Scalar.h"
#include "../TensorIterator.h"
#include "../math/Binary.h"

namespace th {

/// out = a + alpha * b (add_stub; sub passes -alpha), out = a * b (mul_stub; alpha unused).
using binary_fn = void(TensorIterator&, const Scalar& alpha);
/// out = op(a, b): TH_BINARY_OPS keep the common dtype, TH_COMPARE_OPS write bool.
using binary_op_fn = void(TensorIterator&, math::BinaryOp);

TH_DECLARE_STUB(binary_fn, add_stub);
TH_DECLARE_STUB(binary_fn, mul_stub);
TH_DECLARE_STUB(binary_op_fn, binary_stub);

}  // namespace th
