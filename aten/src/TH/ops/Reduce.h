#pragma once
// The reduction family's kernels (math/Reduce.h's reducers): ops/Reduce.cpp, cpu/ReduceKernels.cpp,
// THC/Reduce*Kernels.cu.
#include "../Dispatch.h"
#include "../Tensor.h"
#include "../TensorIterator.h"
#include "../math/Reduce.h"

namespace th {

/// Reduces the iterator's input into its output (stride 0 along reduced dims, holding the identity).
using reduce_fn = void(TensorIterator&, math::ReduceOp);
/// max/min with indices over the rows of a contiguous [R, n] tensor (n > 0).
using argreduce_fn = void(const Tensor& rows, Tensor& values, Tensor& indices, bool is_max);

TH_DECLARE_STUB(reduce_fn, reduce_stub);
TH_DECLARE_STUB(argreduce_fn, argreduce_stub);

}  // namespace th
